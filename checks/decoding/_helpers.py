"""Decoding algorithms of seed 004 (IFT6135-H2021 A2, Question 2), written as the document writes them.

Helper module (no claims are registered here). Everything is plain NumPy on a leading batch axis:

* brute-force enumeration of all N^T continuations of <BOS> (the reference answer);
* Viterbi decoding exactly as Algorithm 1 (δ forward pass, argmax of δ_T, backtracking through a_t);
* beam search exactly as Algorithm 2, plus the usual distinct-start correction;
* greedy decoding;
* instrumented (operation- and memory-counting) versions used by the ``complexity`` claims.

Every function that takes P works on float64 arrays and on object arrays of mpmath numbers (the
engine re-evaluates a candidate counterexample at REVERIFY_DPS digits), so near-ties that float64
rounding could reorder are re-decided exactly.

Conventions: the vocabulary is {0, …, N-1} and <BOS> is word 0 (it is part of the vocabulary, as the
document's reading of 2.1 says). ``P[b, i, j] = p(w_t = j | w_{t-1} = i)``. Probabilities are multiplied
left to right in the same order everywhere, so that the same path has bit-identical probability in the
brute force and in Viterbi: exact ties (built from dyadic probabilities) then stay exact.
"""

from __future__ import annotations

import functools
import itertools

import mpmath
import numpy as np

BOS = 0


# ----------------------------------------------------------------------------------------------------
# Samplers (NumPy transforms for ``Array(..., transform=...)``)
# ----------------------------------------------------------------------------------------------------
def row_stochastic(raw: np.ndarray) -> np.ndarray:
    """Generic random transition matrices: softmax of the raw normal entries along the last axis."""
    z = raw - raw.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


def row_stochastic_with_ties(raw: np.ndarray) -> np.ndarray:
    """Transition matrices of which every other instance is dyadic (entries k/8, rows summing to 1).

    Dyadic entries multiply exactly in float64, and with only a handful of distinct values exact ties
    between different paths are common, so argmax tie-breaking is exercised on purpose. The other
    instances are generic (softmax) so that the untied case is covered too.
    """
    generic = row_stochastic(raw)
    # Eight quanta of 1/8 shared in proportion to coarse weights (0, 1 or 2) read off the raw values:
    # a deterministic rule whose rows sum to exactly 1.
    quanta = 8
    u = 1.0 / (1.0 + np.exp(-raw))  # in (0, 1)
    weights = np.floor(u * 3.0)  # 0, 1 or 2: few distinct values -> ties
    weights = weights + (weights.sum(axis=-1, keepdims=True) == 0)  # avoid an all-zero row
    counts = np.floor(quanta * weights / weights.sum(axis=-1, keepdims=True))
    # give the remaining quanta to the first column with the largest weight (keeps sums exact)
    missing = quanta - counts.sum(axis=-1)
    first_max = np.argmax(weights, axis=-1)
    np.put_along_axis(
        counts,
        first_max[..., None],
        np.take_along_axis(counts, first_max[..., None], axis=-1) + missing[..., None],
        axis=-1,
    )
    dyadic = counts / quanta
    pick = (np.arange(raw.shape[0]) % 2 == 0).reshape((-1,) + (1,) * (raw.ndim - 1))
    return np.where(pick, dyadic, generic)


# ----------------------------------------------------------------------------------------------------
# Brute force
# ----------------------------------------------------------------------------------------------------
def all_sequences(N: int, T: int) -> np.ndarray:
    """All N^T sequences w_{1:T} in lexicographic order, shape (N^T, T)."""
    return np.array(list(itertools.product(range(N), repeat=T)), dtype=np.int64).reshape(-1, T)


def sequence_probs(P: np.ndarray, seqs: np.ndarray) -> np.ndarray:
    """p(w_{1:T} | w_0 = <BOS>) for every batch instance and every sequence: shape (batch, S).

    Multiplied left to right (p(w_1|BOS) · p(w_2|w_1) · …), the order Viterbi uses.
    """
    batch = P.shape[0]
    S, T = seqs.shape
    b = np.arange(batch)[:, None]
    prev = np.full(S, BOS)
    prob = np.ones((batch, S), dtype=P.dtype)
    for t in range(T):
        prob = P[b, prev[None, :], seqs[None, :, t]] * prob
        prev = seqs[:, t]
    return prob


def brute_force(P: np.ndarray, T: int):
    """Return (seqs, probs, best_prob, first_argmax) by enumerating all N^T sequences."""
    N = P.shape[-1]
    seqs = all_sequences(N, T)
    probs = sequence_probs(P, seqs)
    best = probs.max(axis=1)
    first = seqs[np.argmax(probs, axis=1)]  # first optimal sequence in lexicographic order
    return seqs, probs, best, first


# ----------------------------------------------------------------------------------------------------
# Viterbi (Algorithm 1)
# ----------------------------------------------------------------------------------------------------
def viterbi_deltas(P: np.ndarray, T: int) -> np.ndarray:
    """δ_0 … δ_T, shape (T+1, batch, N): δ_0 = 1[j = BOS]; δ_t(j) = max_i P_ij δ_{t-1}(i)."""
    batch, N, _ = P.shape
    deltas = np.zeros((T + 1, batch, N), dtype=P.dtype)
    deltas[0, :, BOS] = 1.0
    for t in range(1, T + 1):
        deltas[t] = (P * deltas[t - 1][:, :, None]).max(axis=1)
    return deltas


def backpointer(P: np.ndarray, delta_prev: np.ndarray, j: np.ndarray) -> np.ndarray:
    """a_t(j) = argmax_i P_ij δ_{t-1}(i) (first maximiser, NumPy's tie rule), for a batch of j."""
    b = np.arange(P.shape[0])
    return np.argmax(P[b, :, j] * delta_prev, axis=1)


def argmax_sets(scores: np.ndarray) -> np.ndarray:
    """Boolean mask of all maximisers along the last axis (exact comparison: ties kept)."""
    return scores == scores.max(axis=-1, keepdims=True)


def viterbi(P: np.ndarray, T: int) -> np.ndarray:
    """Algorithm 1 as written: forward pass for δ, w_T* = argmax δ_T, then w_t* = a_{t+1}(w_{t+1}*)."""
    deltas = viterbi_deltas(P, T)
    batch = P.shape[0]
    w = np.zeros((batch, T), dtype=np.int64)
    w[:, T - 1] = np.argmax(deltas[T], axis=1)
    for t in range(T - 1, 0, -1):  # t = T-1 down to 1 (1-based positions)
        w[:, t - 1] = backpointer(P, deltas[t], w[:, t])
    return w


def path_probs(P: np.ndarray, w: np.ndarray) -> np.ndarray:
    """p(w_{1:T}) of one sequence per batch instance (same left-to-right product as the brute force)."""
    batch, T = w.shape
    b = np.arange(batch)
    prev = np.full(batch, BOS)
    prob = np.ones(batch, dtype=P.dtype)
    for t in range(T):
        prob = P[b, prev, w[:, t]] * prob
        prev = w[:, t]
    return prob


def _log(a: np.ndarray) -> np.ndarray:
    """Elementwise log on float64 arrays and on object arrays of mpmath numbers (log 0 = -inf)."""
    if a.dtype == object:
        return np.frompyfunc(lambda v: mpmath.log(v) if v != 0 else -mpmath.inf, 1, 1)(a)
    return np.log(a)


# ----------------------------------------------------------------------------------------------------
# Greedy and beam search (Algorithm 2) for a Markov language model given by P
# ----------------------------------------------------------------------------------------------------
def greedy(P: np.ndarray, T: int) -> np.ndarray:
    batch = P.shape[0]
    b = np.arange(batch)
    w = np.zeros((batch, T), dtype=np.int64)
    prev = np.full(batch, BOS)
    for t in range(T):
        w[:, t] = np.argmax(P[b, prev, :], axis=1)
        prev = w[:, t]
    return w


def beam_search_markov(
    P: np.ndarray, T: int, B: int, *, distinct_start: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Algorithm 2 on the Markov language model P, for every batch instance.

    ``distinct_start=False`` is the algorithm as written: all B beams start as <BOS> with l_0 = 0 and the
    b-th largest score is the b-th entry of the descending sort of all B·N scores (the document's own
    reading in 2.3(c): "sorted using merge sort, then finding the b-th largest score takes O(1)"); the
    B identical starting beams then produce every candidate B times. ``distinct_start=True`` is the usual
    correction: l_0^{(1)} = 0 and l_0^{(b)} = -inf for b > 1, so only one copy of <BOS> is live.

    Returns (sequences (batch, B, T), log-likelihoods (batch, B)), best beam first. Ties in the sort are
    broken stably (lower b', then lower j), as a merge sort would.
    """
    batch, N, _ = P.shape
    with np.errstate(divide="ignore"):
        logP = _log(P)
    seqs = np.zeros((batch, B, 0), dtype=np.int64)
    last = np.full((batch, B), BOS)
    ll = np.zeros((batch, B), dtype=P.dtype)
    if distinct_start:
        ll[:, 1:] = -np.inf
    bidx = np.arange(batch)[:, None]
    for _t in range(T):
        scores = ll[:, :, None] + logP[bidx, last, :]  # s_b(j), shape (batch, B, N)
        flat = scores.reshape(batch, B * N)
        order = np.argsort(-flat, axis=1, kind="stable")[:, :B]  # b-th largest, b = 1..B
        bprime, j = order // N, order % N
        seqs = np.concatenate([np.take_along_axis(seqs, bprime[:, :, None], axis=1), j[:, :, None]], axis=2)
        ll = np.take_along_axis(flat, order, axis=1)
        last = j
    return seqs, ll


# ----------------------------------------------------------------------------------------------------
# A general (non-Markov) tree language model, for the worked example of 2.4
# ----------------------------------------------------------------------------------------------------
def tree_beam_search(children, B: int, T: int, *, distinct_start: bool = True):
    """Beam search on a tree LM given as ``children(prefix) -> {word: log p(word | prefix)}``.

    Returns the final list of (sequence tuple, log-likelihood), best first. Missing branches are
    absent (log-probability -inf). Log-likelihoods are exact (Fractions / SymPy Rationals).
    """
    beams = [((), 0)] if distinct_start else [((), 0)] * B
    for _t in range(T):
        cands = []
        for prefix, ll in beams:
            for word, lp in children(prefix).items():
                cands.append((prefix + (word,), ll + lp))
        # stable sort by score: ties keep the expansion order
        cands.sort(key=lambda c: -c[1])
        beams = cands[:B]
    return beams


# ----------------------------------------------------------------------------------------------------
# Instrumented implementations (deterministic operation and memory counts)
# ----------------------------------------------------------------------------------------------------
class Meter:
    """Counts elementary operations and tracks live / peak memory cells."""

    def __init__(self):
        self.evaluations = 0  # sequence probabilities computed (naive search)
        self.ops = 0
        self.live = 0
        self.peak = 0

    def alloc(self, cells: int):
        self.live += cells
        self.peak = max(self.peak, self.live)

    def free(self, cells: int):
        self.live -= cells


def _instance_P(N: int, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed + 1000 * N)
    return row_stochastic(rng.standard_normal((1, N, N)))[0]


def viterbi_instrumented(N: int, T: int) -> Meter:
    """Algorithm 1 with counters. One op = one multiplication, comparison or assignment.

    Memory cells: the input matrix P (N²), the stored δ_1..δ_T (N·T, kept for the backward pass, as the
    document says), the reusable product buffer (N), the output list w (T).
    """
    P = _instance_P(N)
    m = Meter()
    m.alloc(N * N)  # P
    deltas = np.zeros((T + 1, N))
    m.alloc(deltas.size)  # δ_0 … δ_T
    m.delta_cells = deltas.size
    deltas[0, BOS] = 1.0
    m.ops += N  # initialisation δ_1(j) <- P_{BOS j} (recomputed by the loop below, as written)
    m.alloc(N)  # buffer of the N products P_ij δ_{t-1}(i) for the current j
    for t in range(1, T + 1):
        for j in range(N):
            prod = P[:, j] * deltas[t - 1]
            m.ops += N  # N multiplications
            deltas[t, j] = prod.max()
            m.ops += N - 1 + 1  # N-1 comparisons, one store
    m.free(N)
    w = [int(np.argmax(deltas[T]))]
    m.ops += N - 1 + 1
    m.alloc(T)  # the list w (its final length)
    m.alloc(N)  # buffer for the backtracking argmax
    for t in range(T - 1, 0, -1):
        prod = P[:, w[0]] * deltas[t]
        m.ops += N
        w.insert(0, int(np.argmax(prod)))
        m.ops += N - 1 + 1
    m.free(N)
    return m


def viterbi_backward_ops(N: int, T: int) -> int:
    """Operations of the backward pass alone (item v of 2.2.e)."""
    P = _instance_P(N)
    deltas = viterbi_deltas(P[None], T)[:, 0, :]
    ops = 0
    w = [int(np.argmax(deltas[T]))]
    for t in range(T - 1, 0, -1):
        prod = P[:, w[0]] * deltas[t]
        ops += N
        w.insert(0, int(np.argmax(prod)))
        ops += N - 1 + 1
    return ops


def naive_instrumented(N: int, T: int, *, keep_all: bool, run: bool = True) -> Meter:
    """Naive search by enumeration, as 2.2.e describes it.

    Each sequence's probability is a product of T conditionals (T ops) plus one comparison with the
    best so far. ``keep_all=True`` stores all N^T probabilities and sequences (O(T N^T) cells);
    ``keep_all=False`` is the document's index-ordering variant: only the current sequence (generated
    from its index), the best index and the best value are kept (O(T) cells). ``run=False`` stops
    before the enumeration (only the memory of the index variant is then meaningful).
    """
    P = _instance_P(N)
    m = Meter()  # the search's own memory only (P is the input), as the document accounts it
    if not keep_all:
        m.alloc(T + 2)  # current sequence, best value, best index
        m.alloc(T)  # the output, decoded from the best index at the end
    best = -1.0
    if not run:  # memory of the index-ordering variant is allocated before the loop and never grows
        return m
    for idx in range(N**T):
        seq = np.unravel_index(idx, (N,) * T) if T > 0 else ()
        m.ops += T  # decoding the index into the sequence
        prev, p = BOS, 1.0
        for w in seq:
            p *= P[prev, w]
            prev = w
        m.ops += T
        m.evaluations += 1
        if keep_all:
            m.alloc(T + 1)
        m.ops += 1
        if p > best:
            best = p
    return m


@functools.cache
def merge_sort_comparisons(n: int) -> int:
    """Worst-case comparisons of top-down merge sort on n items: C(n) = C(⌈n/2⌉)+C(⌊n/2⌋)+n-1."""
    if n <= 1:
        return 0
    return merge_sort_comparisons((n + 1) // 2) + merge_sort_comparisons(n // 2) + n - 1


@functools.lru_cache(maxsize=4096)
def _log_lm_row(N: int, prev: int) -> np.ndarray:
    """log p(· | w_{t-1} = prev) of a fixed random Markov LM over N words, drawn on demand, row by row."""
    return np.log(row_stochastic(np.random.default_rng((N, prev)).standard_normal((1, N)))[0])


def beam_instrumented(N: int, T: int, B: int) -> Meter:
    """Algorithm 2 with counters, implemented the way 2.3 analyses it.

    Per step t: B·N scores (one LM look-up + one addition each); for each b a merge sort of the B·N
    scores (charged its worst-case comparison count) and an O(1) pick; saving the partial sequence b'
    (t cells copied), adding the word, updating l; then assigning the B partial sequences (B·t cells).
    Memory: w_0 and l (2B), the B·N scores (reused), the B partial sequences (B·(t+1) cells, growing)
    and their B temporary copies w̃ (B·(t+1) cells while they exist).
    The arithmetic runs vectorised; the counters follow the loops of the pseudo-code one for one.
    """

    def log_lm(prev_words):
        return np.array([_log_lm_row(N, int(w)) for w in prev_words])

    m = Meter()
    m.alloc(2 * B)  # w_0^{(b)} and l_0^{(b)}
    m.ops += 2 * B
    m.alloc(B * N)  # the scores s_b(j), reused at every step
    m.alloc(B)  # the B partial sequences, one cell (<BOS>) each so far
    seqs = np.zeros((B, 1), dtype=np.int64)
    ll = np.full(B, -np.inf)
    ll[0] = 0.0
    sort_cost = merge_sort_comparisons(B * N)
    for t in range(1, T + 1):
        scores = ll[:, None] + log_lm(seqs[:, -1])
        m.ops += 2 * B * N  # for b, for j: one look-up, one addition
        order = np.argsort(-scores.ravel(), kind="stable")[:B]
        m.ops += B * (sort_cost + 1)  # for b: sort the B·N scores, pick the b-th
        bprime, j = order // N, order % N
        m.alloc(B * (t + 1))  # the temporary partial sequences w̃^{(b)}
        tilde = np.concatenate([seqs[bprime], j[:, None]], axis=1)
        m.ops += B * (t + 1 + 1)  # for b: copy t cells, add the word, update l
        ll = scores.ravel()[order]
        seqs = tilde
        m.ops += B * t  # assign the partial sequences w <- w̃
        m.free(B * (t + 1))
        m.alloc(B)  # each sequence is one cell longer
    return m


# ----------------------------------------------------------------------------------------------------
# Backend-generic pieces (run on float64 NumPy batches and on mpmath object arrays alike)
# ----------------------------------------------------------------------------------------------------
def _ordered_product(xp, P, seqs):
    """p(w_{1:T}) for every batch instance and every row of ``seqs`` (left to right)."""
    batch = P.shape[0]
    b = np.arange(batch)[:, None]
    prev = np.full(seqs.shape[0], BOS)
    prob = None
    for t in range(seqs.shape[1]):
        factor = P[b, prev[None, :], seqs[None, :, t]]
        prob = factor if prob is None else factor * prob
        prev = seqs[:, t]
    return prob


def delta_by_definition(xp, P, t: int, j: int):
    """δ_t(j) = max_{w_{1:t-1}} p(w_{1:t-1}, w_t = j), by enumerating the N^{t-1} prefixes. Shape (batch,)."""
    N = P.shape[-1]
    seqs = all_sequences(N, t)
    seqs = seqs[seqs[:, t - 1] == j]
    return xp.max(_ordered_product(xp, P, seqs), axis=1)


def delta_by_recurrence(xp, P, t: int):
    """δ_t by δ_0 = 1[· = BOS] and δ_s(j) = max_i P_ij δ_{s-1}(i). Shape (batch, N)."""
    batch, N, _ = P.shape
    d = xp.zeros((batch, N))
    d[:, BOS] = 1
    for _s in range(t):
        d = xp.max(P * d[:, :, None], axis=1)
    return d


def max_sequence_prob(xp, P, T: int):
    """max_{w_{1:T}} p(w_{1:T}) by enumeration. Shape (batch,)."""
    return xp.max(_ordered_product(xp, P, all_sequences(P.shape[-1], T)), axis=1)


# ----------------------------------------------------------------------------------------------------
# Variants used by the 2.2.f claims
# ----------------------------------------------------------------------------------------------------
def viterbi_time_varying(Ps: np.ndarray) -> np.ndarray:
    """Viterbi with a step-dependent matrix: δ_t(j) = max_i [P_t]_ij δ_{t-1}(i). Ps: (batch, T, N, N)."""
    batch, T, N, _ = Ps.shape
    deltas = np.zeros((T + 1, batch, N), dtype=Ps.dtype)
    deltas[0, :, BOS] = 1.0
    for t in range(1, T + 1):
        deltas[t] = (Ps[:, t - 1] * deltas[t - 1][:, :, None]).max(axis=1)
    w = np.zeros((batch, T), dtype=np.int64)
    w[:, T - 1] = np.argmax(deltas[T], axis=1)
    b = np.arange(batch)
    for t in range(T - 1, 0, -1):
        w[:, t - 1] = np.argmax(Ps[b, t, :, w[:, t]] * deltas[t], axis=1)
    return w


def time_varying_probs(Ps: np.ndarray, seqs: np.ndarray) -> np.ndarray:
    """p(w_{1:T}) = Π_t [P_t]_{w_{t-1} w_t} for every batch instance and every row of seqs (left to right)."""
    batch = Ps.shape[0]
    b = np.arange(batch)[:, None]
    prev = np.full(seqs.shape[0], BOS)
    prob = np.ones((batch, seqs.shape[0]), dtype=Ps.dtype)
    for t in range(seqs.shape[1]):
        prob = Ps[b, t, prev[None, :], seqs[None, :, t]] * prob
        prev = seqs[:, t]
    return prob


def lift_second_order(Q: np.ndarray) -> np.ndarray:
    """The 'larger matrix P' of 2.2.f: a 2nd-order chain Q[a,b,c] = p(w_t=c | w_{t-2}=a, w_{t-1}=b) as a
    first-order chain on pairs (w_{t-1}, w_t), state index a·N + b; the start pair (BOS, BOS) is state 0."""
    batch, N = Q.shape[0], Q.shape[-1]
    P = np.zeros((batch, N * N, N * N), dtype=Q.dtype)
    for a in range(N):
        for b in range(N):
            for c in range(N):
                P[:, a * N + b, b * N + c] = Q[:, a, b, c]
    return P


def second_order_probs(Q: np.ndarray, seqs: np.ndarray) -> np.ndarray:
    """p(w_{1:T}) under the 2nd-order chain with w_{-1} = w_0 = BOS (left to right)."""
    batch = Q.shape[0]
    b = np.arange(batch)[:, None]
    prev2 = np.full(seqs.shape[0], BOS)
    prev1 = np.full(seqs.shape[0], BOS)
    prob = np.ones((batch, seqs.shape[0]), dtype=Q.dtype)
    for t in range(seqs.shape[1]):
        prob = Q[b, prev2[None, :], prev1[None, :], seqs[None, :, t]] * prob
        prev2, prev1 = prev1, seqs[:, t]
    return prob


def rnn_next_word_probs(xp, W, U, V, words):
    """Vanilla tanh RNN language model: h_0 = 0, h_t = tanh(W h_{t-1} + U e_{w_t}), p(· | w_{0:t}) =
    softmax(V h_t).

    ``words`` is the history w_0 … w_t (ints, same for the whole batch); returns (batch, N).
    """
    batch, H = W.shape[0], W.shape[-1]
    h = xp.zeros((batch, H, 1))
    for w in words:
        h = xp.tanh(xp.matmul(W, h) + U[:, :, w : w + 1])
    logits = xp.matmul(V, h)[:, :, 0]
    return xp.softmax(logits, axis=-1)
