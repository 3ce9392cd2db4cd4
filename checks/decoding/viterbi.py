r"""Viterbi decoding, seed 004 (IFT6135-H2021 A2) Question 2.2 (2.2.a–2.2.f): recurrence, backtracking,
Algorithm 1 against brute force, the reasoning steps of the solution, and the complexity table.

Model: a time-homogeneous Markov chain :math:`P_{ij} = p(w_t = j \mid w_{t-1} = i)` on N words, <BOS> is
word 0. Brute force enumerates all :math:`N^T` continuations of <BOS>. Samplers mix generic transition
matrices with dyadic ones (entries k/8) that make exact ties between paths common, so tie-breaking is
exercised on purpose; ties are then judged by comparing likelihoods or argmax *sets*, never indices.
"""

import numpy as np

import checks.decoding._helpers as dec
from checks._vocab.notation import symbols as shared
from checks._vocab.sources import S4_Q2_2A, S4_Q2_2B, S4_Q2_2C, S4_Q2_2D, S4_Q2_2F
from lemmacheck import Array, Derived, Function, Verdict, identity, inequality, prop

CHAIN_DIMS = {"N": [1, 2, 3, 4], "T": [1, 2, 3, 4]}
P_TIED = Array("N", "N", scale=(0.3, 3.0), transform=dec.row_stochastic_with_ties)
P_GENERIC = Array("N", "N", scale=(0.3, 3.0), transform=dec.row_stochastic)
#: a chain whose transition matrix often has exact ties between paths, or a generic one
TIED_CHAIN = {"inputs": {"P": P_TIED}, "dims": CHAIN_DIMS}
GENERIC_CHAIN = {"inputs": {"P": P_GENERIC}, "dims": CHAIN_DIMS}


def _optimal_mask(P, T):
    """All maximisers of p(w_{1:T}): (seqs, mask (batch, N^T), max probability)."""
    seqs, probs, best, _ = dec.brute_force(P, T)
    return seqs, probs == best[:, None], best


#: two nonnegative functions f, g of one argument taking n values (probabilities)
def _value_of_f(xp, i, *, f):
    return f[:, i - 1]


def _value_of_g(xp, i, *, g):
    return g[:, i - 1]


#: seed 004 Question 2.2(a)'s 'max_args f(args) g(args)': f and g functions of one argument taking n values,
#: sampled as the vectors of their values (FG_PAIR); args runs over the n values
FUNCTIONS_OF_ARGS = shared.extend(
    "checks/decoding/viterbi.py (FUNCTIONS_OF_ARGS)",
    {
        "f": Function(_value_of_f, doc="f(args), the args-th sampled value"),
        "g": Function(_value_of_g, doc="g(args), the args-th sampled value"),
    },
    indices={r"\mathrm{args}": "n"},
)


def _delta_by_definition(xp, j, *, P, T):
    """δ_T(j) as seed 004 Question 2.2.a defines it, max over the prefixes (not by the recurrence)."""
    return dec.delta_by_definition(xp, P, T, int(j) - 1)


def _viterbi_likelihood(xp, P, T):
    return dec.path_probs(P, dec.viterbi(P, T))


def _time_varying(item: int):
    def side(xp, Ps, N, T):
        return _time_varying_found_and_best(Ps, N, T)[item]

    return side


#: seed 004 Question 2.2 (IFT6135-H2021 A2): P the sampled transition matrix, w_0 = <BOS> (word 0), T the
#: length; p(w_{1:T}) the chain's probability of a continuation of <BOS>
VITERBI = shared.extend(
    "checks/decoding/viterbi.py (VITERBI)",
    {
        # 2.2.b: "max_{w_{1:T}} p(w_{1:T})", the most likely continuation's probability, by enumeration
        r"\max_{\boldsymbol w_{1:T}} p(\boldsymbol w_{1:T})": Derived(
            lambda xp, P, T: dec.max_sequence_prob(xp, P, T), doc="max over the N^T continuations"
        ),
        # 2.2.a: "δ_t(j) = max_{w_{1:t-1}} p(w_{1:t-1}, w_t = j)", at t = T, words numbered 1..N
        r"\delta_T": Function(_delta_by_definition, doc="δ_T(j) by its definition (max over prefixes)"),
        # 2.2.d, Algorithm 1: the likelihood of the sequence Viterbi decoding returns
        r"p(\mathrm{Viterbi}(\mathbf P, T))": Derived(_viterbi_likelihood, doc="p(Algorithm 1's output)"),
    },
    indices={"w_T": "N"},  # 2.2.b's max_{w_T} runs over the N words
)
#: seed 004 Question 2.2.f, corrected: Viterbi run with a step-dependent P_t (the sampled Ps), the
#: probability Π_t [P_t]_{w_{t-1}w_t} of the sequence it finds, and its maximum over every w_{1:T}
TIME_VARYING = shared.extend(
    "checks/decoding/viterbi.py (TIME_VARYING)",
    {
        r"p(\mathrm{Viterbi}(\mathbf P_1,\dots,\mathbf P_T))": Derived(
            _time_varying(0), doc="p of the sequence the time-varying recursion finds"
        ),
        r"\max_{\boldsymbol w_{1:T}} \prod_t [\mathbf P_t]_{w_{t-1}w_t}": Derived(
            _time_varying(1), doc="the brute-force maximum over the N^T sequences"
        ),
    },
)
claim_symbols = {
    "viterbi.max_product": FUNCTIONS_OF_ARGS,
    "viterbi.best_prob": VITERBI,
    "viterbi.algorithm1": VITERBI,
    "viterbi.time_varying_exact": TIME_VARYING,
}

FG_PAIR = {
    "inputs": {"f": Array("n", low=0.0, high=1.0), "g": Array("n", low=0.0, high=1.0)},
    "dims": {"n": [1, 2, 3, 5, 8]},
}


def _time_varying_found_and_best(Ps, N, T):
    """(likelihood of the sequence Viterbi finds with a time-varying P_t, the brute-force maximum)."""
    seqs = dec.all_sequences(N, T)
    best = dec.time_varying_probs(Ps, seqs).max(axis=1)
    w = dec.viterbi_time_varying(Ps)
    found = np.array([dec.time_varying_probs(Ps[k : k + 1], w[k : k + 1])[0, 0] for k in range(Ps.shape[0])])
    return found, best


# ---------------------------------------------------------------------------------------------- 2.2.a
@identity(
    "viterbi.delta1",
    title="Initial step of the recurrence: δ₁(j) = max_i P_ij δ₀(i) = P_{<BOS> j}",
    source=S4_Q2_2A.at("(end of the solution)").quote(
        "the maximum value for max_i P_ij δ_0(i) is P_<BOS>j = δ_1(j)"
    ),
    statement=r"\delta_1(j) = \max_i P_{ij}\,\delta_0(i) = P_{\langle BOS\rangle j}",
    expected=Verdict.PROVED,
    inputs={"P": P_GENERIC},
    dims={"N": [1, 2, 3, 4, 8], "j": [0, 1, 2, 3]},
    notes="j is clamped to N−1. The SymPy derivation in derivations/decoding/viterbi.py proves it for N = "
    "3 with nonnegative symbols (Max(P_0j, 0, 0) = P_0j).",
)
def viterbi_delta1(xp, P, N, j):
    jj = min(j, N - 1)
    return dec.delta_by_recurrence(xp, P, 1)[:, jj], P[:, dec.BOS, jj]


@identity(
    "viterbi.recurrence",
    uses=("viterbi.recurrence_derivation",),
    title="The Viterbi recurrence δ_t(j) = max_i P_ij δ_{t−1}(i) equals the definition of δ_t",
    source=S4_Q2_2A.quote(
        "So after cleaning up a bit, we have arrived at our recurrence relation: δ_t(j) = max_i P_ij "
        "δ_{t−1}(i)"
    ),
    statement=r"\delta_t(j) = \max_{\boldsymbol w_{1:t-1}} p(\boldsymbol w_{1:t-1}, w_t = j) = \max_i "
    r"P_{ij}\,\delta_{t-1}(i)",
    expected=Verdict.HOLDS,
    inputs={"P": P_TIED},
    dims={"N": [1, 2, 3, 4], "t": [1, 2, 3, 4, 5], "j": [0, 1, 3]},
    notes="The definition is evaluated by enumerating the N^{t−1} prefixes; j is clamped to N−1.",
)
def viterbi_recurrence(xp, P, N, t, j):
    jj = min(j, N - 1)
    return dec.delta_by_definition(xp, P, t, jj), dec.delta_by_recurrence(xp, P, t)[:, jj]


@identity(
    "viterbi.recurrence_derivation",
    title="The solution's derivation of the recurrence, step by step (two wrong steps that cancel)",
    source=S4_Q2_2A.at("(the derivation)").quote(
        "the product of a sequence of numbers is maximized when each of them is at its maximum, so "
        "max f g = max f max g … mixing the max operators (since they're the same)"
    ),
    statement=r"\delta_t(j) = \max_{w_{1:t-1}} p(w_t=j\mid w_{t-1})p(w_{1:t-1}) = \max_{w_{1:t-1}} "
    r"p(w_t=j\mid w_{t-1}) \max_{w_{1:t-1}} p(w_{1:t-1}) = \max_{w_{t-1}} P_{w_{t-1}j} "
    r"\max_{w_{t-1}}\delta_{t-1}(w_{t-1}) = \max_{w_{t-1}} P_{w_{t-1}j}\,\delta_{t-1}(w_{t-1})",
    expected=Verdict.REFUTED,
    expected_broken_step=2,
    steps_claimed=True,
    relations=("=", "=", "=", "="),
    labels=[
        "chain rule + Markov property",
        "'product maximised when each factor is at its maximum'",
        "only w_{t−1} matters in the first max; second max = max δ_{t−1}",
        "'mixing the max operators (since they're the same)'",
    ],
    inputs={"P": P_GENERIC},
    dims={"N": [2, 3, 4], "t": [2, 3, 4, 5], "j": [0, 1, 3]},
    notes="Step 2 replaces max(fg) by max f · max g, which only bounds it from above (strict for generic "
    "P); step 4 merges the two maxima back into one, which is the reverse error (max f · max g ≥ max fg). "
    "The document asserts every displayed equality, so the chain is REFUTED at step 2 (steps_claimed); but "
    "the two errors cancel: the end-to-end equality (the recurrence) is true, see viterbi.recurrence. t ≥ "
    "2 because for t = 1 the max over w_{1:0} = ∅ is empty and w_0 = <BOS> is not maximised over.",
)
def viterbi_recurrence_derivation(xp, P, N, t, j):
    jj = min(j, N - 1)
    prefixes = dec.all_sequences(N, t - 1)
    prefix_prob = dec._ordered_product(xp, P, prefixes)  # p(w_{1:t-1}), (batch, N^{t-1})
    last = prefixes[:, -1]
    e0 = dec.delta_by_definition(xp, P, t, jj)
    e1 = xp.max(P[:, last, jj] * prefix_prob, axis=1)
    max_P = xp.max(P[:, :, jj], axis=1)
    e2 = max_P * xp.max(prefix_prob, axis=1)
    d_prev = dec.delta_by_recurrence(xp, P, t - 1)
    e3 = max_P * xp.max(d_prev, axis=1)
    e4 = xp.max(P[:, :, jj] * d_prev, axis=1)
    return e0, e1, e2, e3, e4


@identity(
    "viterbi.max_product",
    title="'max f g = max f · max g' (product maximised when each factor is maximal), as written",
    source=S4_Q2_2A.quote(
        "the product of a sequence of numbers is maximized when each of them is at its maximum, so "
        "max_args f(args)g(args) = max_args f(args) max_args g(args)"
    ),
    statement=r"\max_{\mathrm{args}} f(\mathrm{args})\,g(\mathrm{args}) = \max_{\mathrm{args}} "
    r"f(\mathrm{args}) \max_{\mathrm{args}} g(\mathrm{args})",
    expected=Verdict.REFUTED,
    **FG_PAIR,
    notes="f, g are nonnegative functions of one argument taking n values (probabilities). False as soon "
    "as f and g peak at different arguments, e.g. f = (1, 0), g = (0, 1): max fg = 0 < 1 = max f max g.",
)
@inequality(
    "viterbi.max_product_bound",
    title="Corrected: max f g ≤ max f · max g for nonnegative f, g",
    source=S4_Q2_2A.at("(corrected)").cite(),
    statement=r"\max_{\mathrm{args}} f\,g \le \max_{\mathrm{args}} f \max_{\mathrm{args}} g \quad (f, g "
    r"\ge 0)",
    expected=Verdict.HOLDS,
    corrects="viterbi.max_product",
    **FG_PAIR,
    notes="Equality when f and g share a maximiser (tightness 1 is attained).",
)
def viterbi_max_product(xp, f, g):
    return xp.max(f * g, axis=-1), xp.max(f, axis=-1) * xp.max(g, axis=-1)


# ---------------------------------------------------------------------------------------------- 2.2.b
@identity(
    "viterbi.best_prob",
    title="The probability of the most likely sequence is max_j δ_T(j)",
    source=S4_Q2_2B.quote(
        "max_{w_{1:T}} p(w_{1:T}) = max_{w_T} max_{w_{1:T−1}} p(w_{1:T−1}, w_T) = max_{w_T} δ_T(w_T)"
    ),
    statement=r"\max_{\boldsymbol w_{1:T}} p(\boldsymbol w_{1:T}) = \max_{w_T}\delta_T(w_T)",
    expected=Verdict.HOLDS,
    **TIED_CHAIN,
)
def viterbi_best_prob(xp, P, T):
    return dec.max_sequence_prob(xp, P, T), xp.max(dec.delta_by_recurrence(xp, P, T), axis=1)


@prop(
    "viterbi.last_word",
    uses=("viterbi.best_prob",),
    title="w*_T = argmax_j δ_T(j): the last words of the most likely sequences are the maximisers of δ_T",
    source=S4_Q2_2B.quote("Show that w_T^* = arg max_i δ_T(j)"),
    statement=r"w_T^\star = \arg\max_i \delta_T(j)",
    expected=Verdict.HOLDS,
    **TIED_CHAIN,
    notes="Read with arg max as a set (the document writes arg max_i δ_T(j), an index typo for arg max_j): "
    "{last word of w* : w* most likely} = arg max_j δ_T(j), compared as sets, so exact ties are handled. A "
    "pointwise reading with a fixed tie-break fails on ties, as viterbi.backtrack shows for 2.2.c.",
)
def viterbi_last_word(xp, P, N, T):
    seqs, opt, _ = _optimal_mask(P, T)
    ends = np.stack([(opt & (seqs[None, :, T - 1] == j)).any(axis=1) for j in range(N)], axis=1)
    return (ends == dec.argmax_sets(dec.viterbi_deltas(P, T)[T])).all(axis=1)


# ---------------------------------------------------------------------------------------------- 2.2.c
@prop(
    "viterbi.backtrack",
    uses=("viterbi.recurrence", "viterbi.last_word"),
    title="Backtracking w*_t = a_{t+1}(w*_{t+1}), as written (a_t a single index)",
    source=S4_Q2_2C.quote(
        "Show that ∀ 0 < t < T, w_t^* = a_{t+1}(w_{t+1}^*) … thus our proof concludes and we have "
        "w_t^* = a_{t+1}(w_{t+1}^*)"
    ),
    statement=r"\forall\, 0<t<T:\ w_t^\star = a_{t+1}(w_{t+1}^\star),\quad a_t(j) = \arg\max_i "
    r"P_{ij}\,\delta_{t-1}(i)",
    expected=Verdict.REFUTED,
    **TIED_CHAIN,
    notes="a_t(j) ∈ {1..N} is a single index (the document defines a_t ∈ {1,…,N}^N), taken as the first "
    "maximiser; w* ranges over the most likely sequences. With a unique most likely sequence the statement "
    "is true; with exact ties it fails: two optimal paths through different w*_t can reach the same "
    "w*_{t+1}, and a_{t+1}(w*_{t+1}) names only one of them. Smallest case: N = 2, T = 2, P uniform: all "
    "four sequences are optimal, but a_2(w_2) = 0 always, so w* = (1, 1) violates it. The proof silently "
    "assumes uniqueness ('the most likely word preceding w*_T'). Corrected: viterbi.backtrack_set. "
    "Algorithm 1 itself is unaffected (viterbi.algorithm1).",
)
def viterbi_backtrack(xp, P, T):
    seqs, opt, _ = _optimal_mask(P, T)
    deltas = dec.viterbi_deltas(P, T)
    batch = P.shape[0]
    ok = np.ones(batch, dtype=bool)
    for t in range(1, T):  # positions t = 1..T-1 (1-based); a_{t+1} uses δ_t
        scores = P[:, :, seqs[:, t]] * deltas[t][:, :, None]  # (batch, i, S)
        a_next = np.argmax(scores, axis=1)  # a_{t+1}(w_{t+1}) for every sequence
        ok &= ~(opt & (a_next != seqs[None, :, t - 1])).any(axis=1)
    return ok


@prop(
    "viterbi.backtrack_set",
    title="Corrected: every most likely w* has w*_t ∈ argmax_i P_{i w*_{t+1}} δ_t(i)",
    source=S4_Q2_2C.at("(corrected)").cite(),
    statement=r"\forall\,\boldsymbol w^\star\ \forall\, 0<t<T:\ w_t^\star \in \arg\max_i P_{i "
    r"w_{t+1}^\star}\,\delta_t(i)",
    expected=Verdict.HOLDS,
    corrects="viterbi.backtrack",
    **TIED_CHAIN,
    notes="The set-valued reading (arg max as the set of maximisers) holds with ties; with a unique "
    "optimum it is the statement as written.",
)
def viterbi_backtrack_set(xp, P, T):
    seqs, opt, _ = _optimal_mask(P, T)
    deltas = dec.viterbi_deltas(P, T)
    b = np.arange(P.shape[0])[:, None]
    ok = np.ones(P.shape[0], dtype=bool)
    for t in range(1, T):
        scores = P[:, :, seqs[:, t]] * deltas[t][:, :, None]  # (batch, i, S)
        best = scores.max(axis=1)
        chosen = scores[b, seqs[None, :, t - 1], np.arange(seqs.shape[0])[None, :]]
        ok &= ~(opt & (chosen != best)).any(axis=1)
    return ok


@prop(
    "viterbi.intermediate_argmax",
    title="Reading of the induction step: the t-th word of w* maximises δ_t (for t < T)",
    source=S4_Q2_2C.at("(induction step)").quote(
        "δ_t(j) is the maximum possible probability that the t-th word is the j-th word of the "
        "vocabulary, so if this probability is maximized when the j-th word is w_t^*, then …"
    ),
    statement=r"\forall\, 0<t\le T:\ w_t^\star \in \arg\max_j \delta_t(j)",
    expected=Verdict.REFUTED,
    **GENERIC_CHAIN,
    notes="Our reading (flagged as such): the induction step's premise treats w*_t as the word that "
    "maximises δ_t(j). Checked in its most generous form (some most likely w* has every w*_t in the argmax "
    "set of δ_t). False: the most likely sequence may pass through a word that is not the best place to be "
    "at time t (e.g. a likely word whose continuations are all unlikely). Only t = T is guaranteed "
    "(viterbi.last_word); the document's final statement does not rely on it.",
)
def viterbi_intermediate_argmax(xp, P, T):
    seqs, opt, _ = _optimal_mask(P, T)
    deltas = dec.viterbi_deltas(P, T)
    good = opt.copy()
    for t in range(1, T + 1):
        in_set = dec.argmax_sets(deltas[t])  # (batch, N)
        good &= in_set[:, seqs[:, t - 1]]
    return good.any(axis=1)


# ---------------------------------------------------------------------------------------------- 2.2.d
@prop(
    "viterbi.algorithm1",
    uses=("viterbi.delta1", "viterbi.recurrence", "viterbi.last_word", "viterbi.backtrack"),
    title="Algorithm 1 (Viterbi decoding, as written) returns a most likely sequence",
    source=S4_Q2_2D.at("Algorithm 1").quote(
        "Compute w_T^* ← arg max_i δ_T(i) … for t = T−1 to 1 do w_t^* ← a_{t+1}(w_{t+1}^*) … Return "
        "the list w as the desired sequence w_{1:T}^*"
    ),
    statement=r"p(\mathrm{Viterbi}(\mathbf P, T)) = \max_{\boldsymbol w_{1:T}} p(\boldsymbol w_{1:T})",
    expected=Verdict.HOLDS,
    **TIED_CHAIN,
    notes="Compared by likelihood, so any of several tied optima is accepted (ties are frequent in the "
    "dyadic half of the sample: they are exercised, not avoided). The loop 'for t = 1 to T' recomputes δ_1 "
    "from the convention for δ_0, which agrees with the initialisation δ_1(j) ← P_<BOS>j; a_{t+1} is "
    "evaluated from the stored δ_t. Both products are formed in the same order, so the comparison is exact.",
)
def viterbi_algorithm1(xp, P, T):
    _, _, best, _ = dec.brute_force(P, T)
    w = dec.viterbi(P, T)
    return dec.path_probs(P, w) == best


# ---------------------------------------------------------------------------------------------- 2.2.f
@prop(
    "viterbi.homogeneity_essential",
    title="'The component essential for Viterbi is the time-homogeneous Markov assumption'",
    source=S4_Q2_2F.quote(
        "The component essential for the Viterbi algorithm is the time-homogeneous Markov assumption "
        "that constitutes those recursions we derived earlier"
    ),
    statement=r"\text{without time-homogeneity } (P_t \text{ depending on } t)\text{, the Viterbi "
    r"recursion does not find } \boldsymbol w^\star_{1:T}",
    expected=Verdict.REFUTED,
    inputs={"Ps": Array("T", "N", "N", scale=(0.3, 3.0), transform=dec.row_stochastic)},
    dims={"N": [2, 3, 4], "T": [2, 3, 4]},
    notes="Each instance is a time-inhomogeneous chain (a different random P_t per step); the property "
    "asserts that the recursion δ_t(j) = max_i [P_t]_ij δ_{t−1}(i) with backtracking fails there. It never "
    "fails: the derivation of 2.2.a uses only the Markov property, step by step, so the Markov assumption "
    "is essential but time-homogeneity is not. Corrected: viterbi.time_varying_exact. (The same sentence "
    "is repeated in 2.4.a.)",
)
def viterbi_homogeneity_essential(xp, Ps, N, T):
    """Viterbi with a time-varying P_t against brute force."""
    found, best = _time_varying_found_and_best(Ps, N, T)
    return found < best


@prop(
    "viterbi.time_varying_exact",
    title="Corrected: Viterbi with a step-dependent P_t is exact for any (inhomogeneous) Markov chain",
    source=S4_Q2_2F.at("(corrected)").cite(),
    statement=r"p(\mathrm{Viterbi}(\mathbf P_1,\dots,\mathbf P_T)) = \max_{\boldsymbol w_{1:T}} \prod_t "
    r"[\mathbf P_t]_{w_{t-1}w_t}",
    expected=Verdict.HOLDS,
    corrects="viterbi.homogeneity_essential",
    inputs={"Ps": Array("T", "N", "N", scale=(0.3, 3.0), transform=dec.row_stochastic_with_ties)},
    dims={"N": [1, 2, 3, 4], "T": [1, 2, 3, 4]},
)
def viterbi_time_varying_exact(xp, Ps, N, T):
    found, best = _time_varying_found_and_best(Ps, N, T)
    return found == best


@prop(
    "viterbi.rnn_markov",
    title="'A simple old RNN satisfies some n-th order Markov property' (unlike LSTM/GRU)",
    source=S4_Q2_2F.quote(
        "But a simple old RNN that satisfies some n^th order Markov property can yield a recursion "
        "(by defining a larger matrix P)"
    ),
    statement=r"\text{vanilla RNN LM: } p(w_t\mid \boldsymbol w_{0:t-1}) = p(w_t \mid \boldsymbol "
    r"w_{t-n:t-1})",
    expected=Verdict.REFUTED,
    inputs={
        "W": Array("H", "H", scale=(0.3, 1.5)),
        "U": Array("H", "N", scale=(0.3, 1.5)),
        "V": Array("N", "H", scale=(0.3, 1.5)),
    },
    dims={"n": [1, 2, 3], "H": [2, 3], "N": [2]},
    notes="Read as the contrast the paragraph draws (LSTM/GRU model the full conditional, 'a simple old "
    "RNN' is Markov of some order): flagged as our reading, the sentence could also mean 'an RNN which "
    "happens to be Markov'. A tanh RNN h_t = tanh(W h_{t−1} + U e_{w_t}), p = softmax(V h_t) carries w_1 "
    "in its state forever: two histories that agree on the last n words but differ in w_1 give different "
    "next-word distributions, for every n tried (n = 1, 2, 3). Checked exactly in high precision.",
)
def viterbi_rnn_markov(xp, W, U, V, n):
    common = [1] * n  # the last n words agree
    p_a = dec.rnn_next_word_probs(xp, W, U, V, [dec.BOS, 0] + common)
    p_b = dec.rnn_next_word_probs(xp, W, U, V, [dec.BOS, 1] + common)
    return xp.max(xp.abs(p_a - p_b), axis=-1) == 0


@prop(
    "viterbi.nth_order_lift",
    title="An n-th order Markov model becomes first order on a larger matrix P; Viterbi on it is exact (n "
    "= 2)",
    source=S4_Q2_2F.quote(
        "can yield a recursion (by defining a larger matrix P) and then we can exploit the Viterbi "
        "algorithm with such language model"
    ),
    statement=r"\tilde P_{(a,b),(b,c)} = p(w_t=c\mid w_{t-2}=a, w_{t-1}=b):\ "
    r"p(\mathrm{Viterbi}(\tilde{\mathbf P})) = \max_{\boldsymbol w_{1:T}} p(\boldsymbol w_{1:T})",
    expected=Verdict.HOLDS,
    inputs={"Q": Array("N", "N", "N", scale=(0.3, 3.0), transform=dec.row_stochastic_with_ties)},
    dims={"N": [1, 2, 3], "T": [1, 2, 3, 4]},
    notes="The lifted chain has N² states (pairs), so Viterbi costs O(T N⁴) for n = 2 (O(T N^{2n}) in "
    "general, or O(T N^{n+1}) exploiting the sparsity).",
)
def viterbi_nth_order_lift(xp, Q, N, T):
    """Viterbi on the pair chain P̃ against brute force on the 2nd-order model."""
    P = dec.lift_second_order(Q)
    pairs = dec.viterbi(P, T)
    words = pairs % N  # the second component of each pair state is the word at time t
    seqs = dec.all_sequences(N, T)
    best = dec.second_order_probs(Q, seqs).max(axis=1)
    found = np.array(
        [dec.second_order_probs(Q[k : k + 1], words[k : k + 1])[0, 0] for k in range(Q.shape[0])]
    )
    return found == best
