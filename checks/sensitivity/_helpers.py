r"""Sensitivity recursions of seeds 000/001 and ground truth that does not trust them.

Written against ``xp`` (float64 NumPy batches and mpmath object arrays), batch axis first.

Conventions (checked against the documents' own equations, see ``checks/sensitivity/``):

* ``P[t]`` has shape (B, H, H, H) with ``P[t][b, k, i, j] = ∂[s_t]_k / ∂W_ij``.  Seed 000's H×H² matrix
  is ``P[t].reshape(B, H, H*H)`` (column ``iH+j``, 0-based, row-major — the only reading under which
  ``Mtr(V_p S̄_{t-1}) = V_pᵀ s_{t-1}ᵀ`` holds); seed 001's 3-tensor slice ``P_{t,:,:,k}`` is ``P[t][:, k]``.
* ``Q[t]`` has shape (B, H, H, N) with ``Q[t][b, k, i, j] = ∂[s_t]_k / ∂U_ij`` (column ``iN+j``).
* ``lam1[t] = σ'(z_t)``, ``lam2[t] = σ''(z_t)`` with ``z_t = U x_t + W s_{t-1}`` (index 0 unused).

Ground truth is *independent of the recursions*: directional derivatives of the forward pass of
the RNN (``checks._vocab.rnn``) by the 4-point central difference of ``checks._vocab.fd``, and mixed
second derivatives by nesting it.
"""

from __future__ import annotations

import functools

import mpmath
import numpy as np

from checks._vocab.activations import SMOOTH, activation, d1_at, d1_d2_at
from checks._vocab.fd import directional
from checks._vocab.linalg import inf_norm, matvec, norm2, s1, sinf
from checks._vocab.rnn import preactivations_and_states, token_loss
from lemmacheck import Array, OneHot, Scalar, Tolerance

#: a tolerance reason shared by every check whose one side is a finite-difference ground truth
FD_REASON = (
    "one side is a 4-point central finite difference of the forward pass (h = 1e-3 in float64, truncation "
    "and rounding ≈ 1e-10 relative); in high precision the step and working digits follow the precision "
    "in force (h = 10^-(d/2) at 2d + 10 digits), so the difference's own error shrinks as it is raised"
)


# --------------------------------------------------------------------------- small utilities


def const(xp, a):
    """A NumPy constant in the backend of ``xp`` (mpf objects under mpmath)."""
    return np.asarray(a, dtype=float) if xp.backend == "numpy" else xp.asarray(np.asarray(a, dtype=float))


def num(xp, v: float):
    return float(v) if xp.backend == "numpy" else mpmath.mpf(v)


def unit_sinf(xp, D):
    """Scale each matrix of a stack to ‖D‖_{S∞} = 1 (sampled directions; D = 0 stays 0)."""
    n = sinf(xp, D)
    n = xp.where(n > 0, n, 1 + 0 * n)
    return D / n[..., None, None]


def polar_direction(xp, G):
    r"""The partial isometry ``U_G V_Gᵀ`` of an SVD of G: ``⟨G, D⟩ = ‖G‖_{S¹}`` with ``‖D‖_{S∞} = 1``.

    This is the direction in which Hölder's step ``tr(GᵀΔ) ≤ ‖G‖_{S¹}‖Δ‖_{S∞}`` is tight, i.e. the worst
    case for a first-order bound.  It is computed in float64 (SVD) and then held fixed as an input.
    """
    Gf = np.asarray(G, dtype=float)
    u, _, vt = np.linalg.svd(Gf, full_matrices=False)
    return const(xp, u @ vt)


# --------------------------------------------------------------------------- ground truth


def states_at(xp, U, W, s0, X, act, dU=None, dW=None, e=0.0):
    """``s_0..s_T`` at ``(U + e dU, W + e dW)``."""
    U2 = U if dU is None else U + e * dU
    W2 = W if dW is None else W + e * dW
    return preactivations_and_states(xp, U2, W2, s0, X, act)[1]


def pre_at(xp, U, W, s0, X, act, dU=None, dW=None, e=0.0):
    U2 = U if dU is None else U + e * dU
    W2 = W if dW is None else W + e * dW
    return preactivations_and_states(xp, U2, W2, s0, X, act)[0]


def true_ds(xp, U, W, s0, X, act, t, dU=None, dW=None):
    """Ground-truth d s_t / de along (dU, dW), shape (B, H)."""
    return directional(xp, lambda e: states_at(xp, U, W, s0, X, act, dU, dW, e)[t])


def true_dvs(xp, U, W, s0, X, v, act, t, dU=None, dW=None):
    """Ground-truth d(v·s_t)/de along (dU, dW), shape (B,)."""
    return directional(xp, lambda e: xp.sum(v * states_at(xp, U, W, s0, X, act, dU, dW, e)[t], axis=-1))


def entrywise_excess(xp, M, c, B):
    """max_ij(|M_ij| − c B_ij), one scalar c per instance: ≤ 0 exactly when |M| ≤ cB entrywise."""
    return xp.max(xp.max(xp.abs(M) - c[:, None, None] * B, axis=-1), axis=-1)


def true_dlam(xp, U, W, s0, X, act, t, dU=None, dW=None):
    """Ground-truth d σ'(z_t) / de along (dU, dW)."""
    _, d1, _ = activation(xp, act)
    return directional(xp, lambda e: d1(pre_at(xp, U, W, s0, X, act, dU, dW, e)[t - 1]))


# --------------------------------------------------------------------------- the recursions


def _eye_block(xp, H, shift=0):
    return const(xp, np.eye(H, k=shift))


def bar_tensor(xp, y, H):
    """X̄_t (y = x_t) or S̄_{t-1} (y = s_{t-1}) as a stack of 3-tensors, [k, i, j] = δ_ki y_j."""
    return _eye_block(xp, H)[None, :, :, None] * y[:, None, None, :]


def forward_sensitivities(xp, U, W, s0, X, act, *, sbar="correct", tensors="PQ", drive=None):
    r"""Forward pass with ``P_t = Λ_t(S̄_{t-1} + W P_{t-1})`` and ``Q_t = Λ_t(X̄_t + W Q_{t-1})``.

    ``sbar="written"`` builds seed 000's S̄ literally, ``S̄(i, (i-1)H + j) = s_j`` read 0-based like
    ``P(k, iH + j)``: row i's entries land in column block i−1 (row 0's fall outside and are dropped).
    ``tensors`` names the sensitivity tensors to compute ("P", "Q" or both): a check that needs one is
    spared the other, the bulk of the work in high precision (H⁴ object products a step).
    ``drive`` as in :func:`~checks._vocab.rnn.preactivations_and_states`.
    """
    pre, states = preactivations_and_states(xp, U, W, s0, X, act, drive=drive)
    T = X.shape[1]
    lam1, lam2 = [None], [None]
    for t in range(1, T + 1):
        l1, l2 = d1_d2_at(xp, act, pre[t - 1], states[t])
        lam1.append(l1)
        lam2.append(l2)
    out = {"pre": pre, "states": states, "lam1": lam1, "lam2": lam2}
    for name, ys, width, shift in (
        ("P", states[:-1], U.shape[1], -1 if sbar == "written" else 0),
        ("Q", [X[:, t] for t in range(T)], U.shape[2], 0),
    ):
        if name in tensors:
            out[name] = _recursion_of(xp, W, lam1, ys, width, shift)
    return out


def last_row_gradient(xp, v, U, W, s0, X, act, T, sens, *, drive=None):
    """``row_grad(xp, v, S_T)`` for S = ``sens`` ("P" or "Q") of :func:`forward_sensitivities` with the
    same arguments: ∇V_p s_T alone, the integrand of the path integrals (the steps after T are not run).

    Nothing else of the pass is kept: σ″ is not formed, and where the batch-last recursion runs only its
    last step is read, in its buffer, where v is contracted with it as ``einsum`` contracts the batch-first
    copy (the products v_k S_k summed over k from +0), so every value is the same bit for bit
    (tests/test_sens_recursion.py).  Copying each step's tensor out of the buffers was a fifth of the
    recursion's time, and the last one is only ever contracted with v."""
    X, drive = X[:, :T], None if drive is None else drive[:T]
    pre, states = preactivations_and_states(xp, U, W, s0, X, act, drive=drive)
    lam1 = [None] + [d1_at(xp, act, pre[t - 1], states[t]) for t in range(1, T + 1)]
    ys, width = (states[:-1], U.shape[1]) if sens == "P" else ([X[:, t] for t in range(T)], U.shape[2])
    batch_last = T > 0 and W.shape[1] > 1 and len(W) >= LAST_ROW_BATCH_LAST_ROWS
    if not (batch_last and _one_float_dtype(W, v, *ys, *lam1[1:])):
        return row_grad(xp, v, _recursion(xp, W, lam1, ys, width, 0)[T])
    *_, S = _batch_last_steps(W, lam1, ys, width, 0)
    vt = np.ascontiguousarray(v.T)
    G, tmp = np.multiply(S[0], vt[0]), np.empty(S.shape[1:], dtype=S.dtype)
    G += 0.0
    for k in range(1, S.shape[0]):
        G += np.multiply(S[k], vt[k], out=tmp)
    return np.moveaxis(G, -1, 0)


#: the batch size from which :func:`last_row_gradient` runs the recursion batch-last, where H ≥ 2: with no
#: step copied out of the buffers it overtakes the plain form sooner than :func:`forward_sensitivities`
#: does (T = 4, tanh, µs per pass of P, plain against batch-last: H = 2, 32 rows 86.8/87.4, 64 rows
#: 117.5/100.0; H = 3, 64 rows 134.2/127.2, 128 rows 205.4/159.0; H = 4, 96 rows 219.3/205.4; at H = 1
#: the plain form is the faster up to 128 rows and beyond, 56.4 against 65.4 µs there).  A path integral
#: of one instance is one pass of its 64 nodes.
LAST_ROW_BATCH_LAST_ROWS = 64

#: the batch size from which :func:`_recursion_batch_last` is used: it runs about twice the operations of
#: :func:`_recursion`, so on a few rows (Hypothesis's examples, one at a time) their overhead decides
#: (H = 3, T = 4, float64: 63 µs against 89 µs at 1 row, parity at 64, 347 µs against 272 µs at 256)
BATCH_LAST_ROWS = 128


def _one_float_dtype(*arrays) -> bool:
    """Whether the arrays are NumPy float arrays of one dtype (float64, or longdouble for the rounding
    estimate): what :func:`_recursion_batch_last` takes."""
    dtypes = {getattr(a, "dtype", None) for a in arrays}
    return len(dtypes) == 1 and all(isinstance(a, np.ndarray) for a in arrays) and arrays[0].dtype.kind == "f"


def _recursion_of(xp, W, lam1, ys, width, shift):
    """:func:`_recursion`, by :func:`_recursion_batch_last` where that runs (the same values)."""
    if len(W) >= BATCH_LAST_ROWS and _one_float_dtype(W, *ys, *lam1[1:]):
        return _recursion_batch_last(W, lam1, ys, width, shift)
    return _recursion(xp, W, lam1, ys, width, shift)


def _recursion(xp, W, lam1, ys, width, shift):
    """``[S_0 = 0, S_1, …, S_T]``, ``S_t = Λ_t(Ȳ_t + W S_{t-1})`` with ``Ȳ_t[k, i, j] = δ_{k, i-shift} y_j``
    (y = ys[t − 1]; width the length of y): P (y = s_{t-1}) or Q (y = x_t), batch axis first."""
    B, H = W.shape[:2]
    S = [xp.zeros((B, H, H, width))]
    for t, y in enumerate(ys, start=1):
        S.append(_times_lambda(lam1[t], _bar_plus_w_times(xp, W, S[-1], y, t, shift)))
    return S


def _recursion_batch_last(W, lam1, ys, width, shift):
    """:func:`_recursion` on float arrays of one dtype, computed with the batch axis last and returned
    batch axis first (the steps of :func:`_batch_last_steps`, each copied out of its buffer)."""
    B, H = W.shape[:2]
    S = [np.zeros((B, H, H, width))]
    S += [np.moveaxis(cur, -1, 0).copy() for cur in _batch_last_steps(W, lam1, ys, width, shift)]
    return S


def _batch_last_steps(W, lam1, ys, width, shift):
    """S_1, …, S_T of :func:`_recursion` with the batch axis last, (H, H, width, B), each in a buffer that
    the step after next overwrites.

    Each entry is formed by the same operations in the same order (the products W_km S_m summed over m
    from 0, as ``einsum`` sums them, then + y, then × λ), so the values are bit for bit those of
    :func:`_recursion` (tests/test_sens_recursion.py).  With H ≤ 4 and the batch axis first every
    operation's innermost loop is 2–4 long; with it last it is the batch.  A step works in three
    buffers reused from step to step (an array of a step's size allocated anew each time cost more than
    the arithmetic on it).  The sum starts from the product for m = 0 plus +0, which is +0 plus that
    product (IEEE addition commutes), as ``einsum`` starts it: a sum of -0s is then +0, not -0.  y and λ
    are made contiguous batch-last first (adding a strided transpose cost twice the copy).
    """
    H = W.shape[1]
    Wt = np.ascontiguousarray(np.moveaxis(W, 0, -1))  # (H, H, B)
    lo, hi = max(0, -shift), min(H, H - shift)
    cur, prev, tmp = (np.empty((H, H, width, len(W)), dtype=W.dtype) for _ in range(3))
    for t, y in enumerate(ys, start=1):
        if t > 1:
            np.multiply(Wt[:, 0, None, None, :], prev[None, 0], out=cur)
            cur += 0.0
            for m in range(1, H):
                cur += np.multiply(Wt[:, m, None, None, :], prev[None, m], out=tmp)
        else:
            cur.fill(0)
        blocks = np.einsum("kkxb->kxb", cur[lo:hi, lo + shift : hi + shift])  # a view: cur[k, k + shift]
        blocks += np.ascontiguousarray(y.T)
        cur *= np.ascontiguousarray(lam1[t].T)[:, None, None, :]
        yield cur
        cur, prev = prev, cur


def _bar_plus_w_times(xp, W, S_prev, y, t, shift=0):
    """S̄_{t-1} + W S_{t-1} (y = s_{t-1}) or X̄_t + W Q_{t-1} (y = x_t), a new array: at t = 1, S_0 = 0 and
    it is the bar tensor alone (the product with zeros is skipped, it would change no value)."""
    W_times = xp.einsum("bkm,bmij->bkij", W, S_prev) if t > 1 else xp.zeros(S_prev.shape)
    return plus_bar(W_times, y, shift)


def _times_lambda(lam, M):
    """Λ M for a sensitivity tensor M (B, H, ·, ·) that is the caller's to overwrite: λ_k scales the
    slice k, written into M (the product λ·M, in that order, without a second (B, H, ·, ·) array)."""
    return np.multiply(lam[:, :, None, None], M, out=M)


def plus_bar(M, y, shift=0):
    """M + X̄_t (y = x_t) or M + S̄_{t-1} (y = s_{t-1}), written into M (the caller's to overwrite).

    The bar tensor [k, i, j] = δ_{k, i-shift} y_j is zero off one diagonal of blocks, so y is added to
    those blocks only: adding its zeros would change no entry's value, and forming it cost a (B, H, H, ·)
    product a step, a fifth of the float64 pass.  The blocks are reached as one view of that diagonal
    (``einsum``'s repeated index), so y is added by one operation, not one per block (each entry gets the
    same sum M + y either way).
    """
    H = M.shape[1]
    M = M.astype(np.result_type(M, y), copy=False)  # never round y to M's type (float64 M, longdouble y)
    lo, hi = max(0, -shift), min(H, H - shift)
    blocks = np.einsum("bkkx->bkx", M[:, lo:hi, lo + shift : hi + shift])  # a view: M[b, k, k + shift, x]
    blocks += y[:, None, :]
    return M


def tangents(xp, U, W, s0, X, act, dU, dW, fw=None, *, tensors="PQ"):
    r"""Exact forward-mode tangents along (ΔU, ΔW): ṡ_t, λ̇_t, Ṗ_t, Q̇_t (derived here, checked in
    checks/sensitivity/).

    ż_t = ΔU x_t + ΔW s_{t-1} + W ṡ_{t-1},  ṡ_t = λ_t ⊙ ż_t,  λ̇_t = λ''_t ⊙ ż_t,
    Ṗ_t = λ̇_t(S̄_{t-1} + W P_{t-1}) + λ_t(dS̄_{t-1} + ΔW P_{t-1} + W Ṗ_{t-1}),
    Q̇_t = λ̇_t(X̄_t + W Q_{t-1}) + λ_t(ΔW Q_{t-1} + W Q̇_{t-1}).

    ``tensors`` as in :func:`forward_sensitivities` (Ṗ needs P, Q̇ needs Q; ṡ and λ̇ need neither).
    """
    fw = fw or forward_sensitivities(xp, U, W, s0, X, act, tensors=tensors)
    B, H, N = U.shape
    T = X.shape[1]
    sdot = [0 * s0]
    lamdot = [None]
    Pdot = [xp.zeros((B, H, H, H))]
    Qdot = [xp.zeros((B, H, H, N))]
    states, P, Q = fw["states"], fw.get("P"), fw.get("Q")
    for t in range(1, T + 1):
        zdot = matvec(dU, X[:, t - 1]) + matvec(dW, states[t - 1]) + matvec(W, sdot[-1])
        l1, l2 = fw["lam1"][t], fw["lam2"][t]
        ld = l2 * zdot
        if "P" in tensors:
            Pdot.append(
                ld[:, :, None, None] * plus_bar(xp.einsum("bkm,bmij->bkij", W, P[t - 1]), states[t - 1])
                + l1[:, :, None, None]
                * (
                    plus_bar(xp.einsum("bkm,bmij->bkij", dW, P[t - 1]), sdot[-1])
                    + xp.einsum("bkm,bmij->bkij", W, Pdot[-1])
                )
            )
        if "Q" in tensors:
            Qdot.append(
                ld[:, :, None, None] * plus_bar(xp.einsum("bkm,bmij->bkij", W, Q[t - 1]), X[:, t - 1])
                + l1[:, :, None, None]
                * (xp.einsum("bkm,bmij->bkij", dW, Q[t - 1]) + xp.einsum("bkm,bmij->bkij", W, Qdot[-1]))
            )
        sdot.append(l1 * zdot)
        lamdot.append(ld)
    out = {"sdot": sdot, "lamdot": lamdot}
    return out | {name: S for name, S in (("Pdot", Pdot), ("Qdot", Qdot)) if name[0] in tensors}


def row_grad(xp, v, T3):
    """``Mtr(V_{p,:} T)``: contract the state index of a sensitivity tensor with the row v (B, H)."""
    return xp.einsum("bk,bkij->bij", v, T3)


def slice_s1(xp, T3):
    """``(‖T_{:,:,k}‖_{S¹})_k`` for a sensitivity tensor (B, H, ·, ·) -> (B, H)."""
    return s1(xp, T3)


# --------------------------------------------------------------------------- gradient pieces of d/dt ∇


def kept_and_dropped(parts):
    """(the sum of the parts of d/dt ∇V_p s_t the documents keep, the last part, which they drop)."""
    *kept, dropped = parts
    return sum(kept[1:], kept[0]), dropped


def w_dgrad_parts(xp, v, U, W, s0, X, act, t, dW):
    r"""The five parts of d/dt ∇_W(V_p s_t)(W + tΔW) at t = 0 (seed 000 W §3.3, seed 001 eq. (27)).

    1. (dλ_t/dt) ⊙ V_pᵀ s_{t-1}ᵀ   2. Λ_t V_pᵀ (d s_{t-1}/dt)ᵀ   3. Mtr(V_p dΛ_t/dt W P_{t-1})
    4. Mtr(V_p Λ_t ΔW P_{t-1})      5. Mtr(V_p Λ_t W dP_{t-1}/dt)  (the part the documents drop)
    """
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="P")
    tg = tangents(xp, U, W, s0, X, act, 0 * U, dW, fw, tensors="P")
    l1, ld = fw["lam1"][t], tg["lamdot"][t]
    s_prev, sd_prev = fw["states"][t - 1], tg["sdot"][t - 1]
    P1, Pd1 = fw["P"][t - 1], tg["Pdot"][t - 1]
    part1 = xp.outer(ld * v, s_prev)
    part2 = xp.outer(l1 * v, sd_prev)
    part3 = row_grad(xp, v * ld, xp.einsum("bkm,bmij->bkij", W, P1))
    part4 = row_grad(xp, v * l1, xp.einsum("bkm,bmij->bkij", dW, P1))
    part5 = row_grad(xp, v * l1, xp.einsum("bkm,bmij->bkij", W, Pd1))
    return (part1, part2, part3, part4, part5), fw, tg


def u_dgrad_parts(xp, v, U, W, s0, X, act, t, dU):
    r"""The three parts of d/dt ∇_U(V_p s_t)(U + tΔU) at t = 0 (seed 000 U §2.2, seed 001 eq. (16)).

    1. (dλ_t/dt) ⊙ V_pᵀ x_tᵀ   2. Mtr((dλ_t/dt) ⊙ V_p W Q_{t-1})   3. Mtr(λ_t ⊙ V_p W dQ_{t-1}/dt) (dropped)
    """
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="Q")
    tg = tangents(xp, U, W, s0, X, act, dU, 0 * W, fw, tensors="Q")
    l1, ld = fw["lam1"][t], tg["lamdot"][t]
    part1 = xp.outer(ld * v, X[:, t - 1])
    part2 = row_grad(xp, v * ld, xp.einsum("bkm,bmij->bkij", W, fw["Q"][t - 1]))
    part3 = row_grad(xp, v * l1, xp.einsum("bkm,bmij->bkij", W, tg["Qdot"][t - 1]))
    return (part1, part2, part3), fw, tg


# --------------------------------------------------------------------------- quadrature


def gauss_legendre_01(xp, n=16, panels=4):
    """Composite Gauss–Legendre on [0, 1]: ``panels`` equal panels of n nodes (exact to degree 2n−1 each).

    Saturated instances can make the integrand change sharply along the path, so the claims that
    integrate keep ‖ΔW‖ moderate and use panels; nodes are float64 (the integrand, not the nodes, is what
    a high-precision re-verification re-evaluates).
    """
    nodes, weights = _gauss_legendre_01_float(n, panels)
    # said in every backend: float64 ignores it, but the search reads it (a rule's error is bounded only
    # near the sampling scale, so the check is not explored across the float range)
    xp.discretised(f"an integral by a {panels}×{n}-point composite Gauss–Legendre rule (float64 nodes)")
    if xp.backend == "numpy":
        return list(nodes), list(weights)
    return [num(xp, a) for a in nodes], [num(xp, wi) for wi in weights]


def quadrature_sum(values, weights):
    """Σ_k w_k values[k] (the values stacked along the first axis, one per node), summed from 0 in the
    order of the nodes, as the loop ``total = total + values[k] * w_k`` sums it.

    On a float array the products are formed at once and summed by ``np.add.accumulate``, which adds them
    one after another whatever the layout (``np.sum`` pairs them where the nodes' axis ends up innermost,
    e.g. for one instance), and + 0.0 turns a sum of -0s, which the loop starts from +0, into +0: the
    same bits (tests/test_sens_recursion.py).  64 nodes cost the loop 64 × 3 NumPy calls per integral."""
    if isinstance(values, np.ndarray) and values.dtype.kind == "f":
        w = np.asarray(weights, dtype=values.dtype).reshape((len(weights),) + (1,) * (values.ndim - 1))
        return np.add.accumulate(values * w, axis=0)[-1] + 0.0
    total = 0
    for value, w in zip(values, weights, strict=True):
        total = total + value * w
    return total


@functools.cache
def _gauss_legendre_01_float(n: int, panels: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The float64 nodes and weights of :func:`gauss_legendre_01` (computed once per rule: leggauss costs
    a Newton iteration per call)."""
    x, w = np.polynomial.legendre.leggauss(n)
    nodes, weights = [], []
    for k in range(panels):
        a = k / panels
        nodes += [float(a + (xi + 1) / (2 * panels)) for xi in x]
        weights += [float(wi / (2 * panels)) for wi in w]
    return tuple(nodes), tuple(weights)


# --------------------------------------------------------------------------- losses (Lipschitz claims)


def token_losses(xp, U, W, V, s0, X, y, act, t):
    """E_t = log Σ_j e^{V_j s_t} − yᵀ V s_t (seed 001 eq. (1))."""
    states = preactivations_and_states(xp, U, W, s0, X, act)[1]
    return token_loss(xp, V, states[t], y)


def softmax_residual(xp, V, s, y):
    """∇_{V s_t} E_t = softmax(V s_t) − y."""
    return xp.softmax(matvec(V, s), axis=-1) - y


def _lipschitz_parts(xp, V, S, t, curvature, lemma3_at_t):
    """What eq. (22) and eq. (32) share, for the sensitivity tensor S (Q or P): max_p ‖V_p‖₂,
    ½ max_q ‖(V S_t)_q‖²_{S¹}, the slice norms of S_{t−1} and Lemma 3's factor."""
    Vn = xp.max(norm2(xp, V), axis=-1)
    first = 0.5 * xp.max(s1(xp, xp.einsum("bqk,bkij->bqij", V, S[t])), axis=-1) ** 2
    sn = slice_s1(xp, S[t - 1])
    m = xp.max(curvature * (slice_s1(xp, S[t]) if lemma3_at_t else sn), axis=-1)
    return Vn, first, sn, m


def lemma4_steps(xp, S, M, lam, v, *, slice_norms=None, M_norm=None):
    """‖S Mᵀ(λ ⊙ v)‖_{S¹} (the tensor S contracted with a vector) down Lemma 4, ‖Mᵀa‖₂ ≤ ‖M‖_{S∞}‖a‖₂ and
    eq. (11): the four sides of the chain of eq. (18)/(30)/(31).  ``slice_norms`` (``slice_s1(xp, S)``)
    and ``M_norm`` (``sinf(xp, M)``) where the caller has them: each is then not formed again."""
    a = lam * v
    ma = matvec(xp.transpose(M), a)
    sn = norm2(xp, s1(xp, S) if slice_norms is None else slice_norms)
    m_norm = sinf(xp, M) if M_norm is None else M_norm
    return (
        s1(xp, row_grad(xp, ma, S)),
        sn * norm2(xp, ma),
        sn * m_norm * norm2(xp, a),
        sn * m_norm * inf_norm(xp, lam) * norm2(xp, v),
    )


def lipschitz_U(xp, V, X, W, fw, t, *, curvature, lemma3_at_t=False):
    r"""Seed 001 eq. (22): L_U at token t (``curvature`` = λ''_p/λ'_p at z_t, signed as written).  Lemma 3's
    factor max_p(curvature_p ‖Q_{·,·,p}‖_{S¹}) takes Q_{t−1} as written, Q_t with ``lemma3_at_t``."""
    Vn, first, qn, m = _lipschitz_parts(xp, V, fw["Q"], t, curvature, lemma3_at_t)
    return first + Vn * norm2(xp, X[:, t - 1]) * m + Vn * sinf(xp, W) * norm2(xp, qn) * m


def lipschitz_W(xp, V, W, fw, t, *, curvature, lemma3_at_t=False):
    r"""Seed 001 eq. (32): L_W at token t, Lemma 3's factor as in :func:`lipschitz_U` (P for Q)."""
    Vn, first, pn, m = _lipschitz_parts(xp, V, fw["P"], t, curvature, lemma3_at_t)
    l1 = fw["lam1"][t]
    return (
        first
        + Vn * norm2(xp, fw["states"][t - 1]) * m
        + 2 * Vn * inf_norm(xp, l1) * norm2(xp, pn)
        + Vn * sinf(xp, W) * norm2(xp, pn) * m
    )


# --------------------------------------------------------------------------- shared samplers

#: The absolute floor is for a difference compared with an exact zero (at T = 1 the W-direction terms of
#: sens.w_part2_000 vanish identically): there a relative slack is 0 and the difference's ~1e-12 noise
#: (on forward-pass values of order 1) would make every instance a candidate, and the settling budget run
#: out (INCONCLUSIVE, seen with atol = 0).  1e-11 is ten times that noise; it was 1e-8 until every
#: verdict was seen to hold at 1e-11 over twelve seeds.  It hides absolute violations below 1e-11.
FD_TOL = Tolerance(
    rtol=1e-5,
    atol=1e-11,
    reason=FD_REASON + "; absolute floor 1e-11 (ten times the difference's noise) for sides exactly 0",
)
QUAD_TOL = Tolerance(
    rtol=1e-7,
    reason="one side is a 4×16-point composite Gauss–Legendre quadrature of an analytic integrand over [0, "
    "1]; the remainder it is compared with is second order in Δ while the integrand is first order, so the "
    "error is measured against a small number (4×8 points left ~1e-5 relative on some instances, 4×16 "
    "≲ 1e-10)",
)

#: dims of the RNN claims: H ≤ 4, T ≤ 4 in the quick profile, all three activations
SENS_RNN_DIMS = {"H": [1, 2, 3], "T": [1, 3], "act": list(SMOOTH)}
SENS_RNN_DIMS_H2 = {"H": [2, 3], "T": [2, 4], "act": list(SMOOTH)}
#: the setting of a first-order step "A ≤ B" (or "≃"): a Taylor test in ε; a remainder of order 2 vindicates
#: the step
FIRST_ORDER_STEP = dict(order=2, relation="<=")


#: classes of the token loss E_t in the claims on it (the label y is one-hot)
LOSS_K = 3


def loss_step_inputs(direction: str, step=(1e-3, 2.0)) -> dict:
    """U, W, V (LOSS_K rows), s0, X and a one-hot label y of one RNN instance, a direction D for U or W
    and a step size log-uniform in ``step``: the inputs of the claims on the token loss E_t."""
    return {
        "U": Array("H", 2, low=-2.0, high=2.0),
        "W": Array("H", "H", low=-1.2, high=1.2),
        "V": Array(LOSS_K, "H", low=-2.0, high=2.0),
        "s0": Array("H", low=-1.0, high=1.0),
        "X": Array("T", 2, low=-2.0, high=2.0),
        "y": OneHot(LOSS_K),
        "D": Array("H", 2 if direction == "U" else "H", low=-1.0, high=1.0),
        "step": Scalar(*step, log=True),
    }


def sens_rnn_inputs(
    *, N: int = 2, K: int | None = None, direction: str | None = None, probe: bool = False, step=(-1.0, 1.0)
) -> dict:
    """U, W, s0, X and the row v = V_{p,:} (or V with K rows), a direction D for W or U, probes c, B.

    Entries are uniform on bounded ranges so pre-activations stay within |z| ≲ 15: large enough for
    saturation, small enough that σ' never underflows.  ‖W‖_{S∞} ranges from ≈ 0 to ≈ 1.2·H.
    """
    spec = {
        "U": Array("H", N, low=-2.0, high=2.0),
        "W": Array("H", "H", low=-1.2, high=1.2),
        "s0": Array("H", low=-1.0, high=1.0),
        "X": Array("T", N, low=-2.0, high=2.0),
    }
    if K is None:
        spec["v"] = Array("H", low=-2.0, high=2.0)
    else:
        spec["V"] = Array(K, "H", low=-2.0, high=2.0)
    if direction == "W":
        spec["D"] = Array("H", "H", low=step[0], high=step[1])
    elif direction == "U":
        spec["D"] = Array("H", N, low=step[0], high=step[1])
    if probe:
        spec["c"] = Array("H", low=-1.0, high=1.0)
        spec["B"] = (
            Array("H", "H", low=-1.0, high=1.0) if direction != "U" else Array("H", N, low=-1.0, high=1.0)
        )
    return spec


#: the setting of a claim checked against finite differences of the forward pass along probes (c, B): one
#: RNN instance with a step in U (or W), its dims and the finite-difference tolerance
FD_PROBED = {
    d: dict(inputs=sens_rnn_inputs(direction=d, probe=True), dims=SENS_RNN_DIMS, tol=FD_TOL) for d in "UW"
}
