r"""The U/W mirror: the sensitivity checks that seeds 000/001 make once for U and once for W, written once.

A :class:`Wrt` names the parameter a claim differentiates: U (sensitivity tensor ``Q``, the input of
step t is ``x_t``) or W (tensor ``P``, input ``s_{t-1}``).  A check here takes ``wrt`` and the inputs of
:func:`~checks.sensitivity._helpers.sens_rnn_inputs`; :func:`declare` binds it to one claim, and the
topic modules declare each claim of a mirrored pair from a table (``MIRRORED``), as JAX declares
``LAX_GRAD_OPS``.  Conventions: t = T, ``v`` = V_{p,:}, ``D`` the step ΔU or ΔW, ``c`` and ``B`` probes.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from checks._vocab.activations import SUP_D1, activation, curvature_ratio
from checks._vocab.linalg import dot, frob, inf_norm, matvec, norm2, s1, sinf
from checks._vocab.rnn import merge_points, preactivations_and_states, split_points, stack_points
from checks.sensitivity._helpers import (
    forward_sensitivities,
    gauss_legendre_01,
    last_row_gradient,
    lemma4_steps,
    polar_direction,
    quadrature_sum,
    row_grad,
    states_at,
    tangents,
    true_ds,
    true_dvs,
)
from lemmacheck import approximation, written_and_corrected


@dataclass(frozen=True)
class Wrt:
    """The parameter a sensitivity is taken with respect to."""

    name: str  # "U" or "W"
    sens: str  # its sensitivity tensor in forward_sensitivities: "Q" or "P"

    @property
    def sens_dot(self) -> str:
        return self.sens + "dot"

    def direction(self, D) -> dict:
        """``states_at`` keywords for a step ``D`` of this parameter."""
        return {"dU": D} if self.name == "U" else {"dW": D}

    def moved(self, U, W, step):
        """(U, W) with this parameter moved by ``step``."""
        return (U + step, W) if self.name == "U" else (U, W + step)

    def input_at(self, states, X, T):
        """What multiplies this parameter in z_T: x_T for U, s_{T-1} for W."""
        return X[:, T - 1] if self.name == "U" else states[T - 1]


WRT = {"U": Wrt("U", "Q"), "W": Wrt("W", "P")}


@dataclass(frozen=True)
class Mirror:
    """One row of a mirror table: a claim, the parameter it is about and the check that computes it."""

    kind: Callable  # identity, inequality or approximation
    claim_id: str
    wrt: Wrt
    check: Callable
    meta: dict = field(default_factory=dict)
    #: keywords passed to ``check`` besides the inputs (e.g. ``corrected=True`` for a corrected form)
    options: dict = field(default_factory=dict)


def mirrored_pair(kind: Callable, claim_id: str, wrt: Wrt, check: Callable, **pair) -> list[Mirror]:
    """The two rows of a step recorded as written and corrected (``lemmacheck.written_and_corrected``
    takes ``pair``); ``check`` runs with ``corrected=False`` / ``True``."""
    both = written_and_corrected(kind, claim_id, **pair)
    return [
        Mirror(kind, both.written_id, wrt, check, dict(both.written), options=dict(corrected=False)),
        Mirror(kind, both.corrected_id, wrt, check, dict(both.corrected), options=dict(corrected=True)),
    ]


def declare(row: Mirror, module: str) -> None:
    """Declare ``row``'s claim (from ``module``) with a check bound to its parameter."""
    check, wrt, options = row.check, row.wrt, row.options
    if row.kind is approximation:

        def fn(xp, eps, act, T, **inputs):
            return check(xp, eps, wrt, act=act, T=T, **options, **inputs)

    else:

        def fn(xp, act, T, **inputs):
            return check(xp, wrt, act=act, T=T, **options, **inputs)

    fn.__module__, fn.__doc__ = module, check.__doc__
    fn.__name__ = fn.__qualname__ = row.claim_id.replace(".", "_")
    row.kind(row.claim_id, **row.meta)(fn)


def change_of_row(xp, wrt, U, W, s0, X, v, D, act, T, e):
    """V_p (s_T(θ + eD) − s_T(θ)) from the forward pass."""
    moved = states_at(xp, U, W, s0, X, act, **wrt.direction(D), e=e)[T]
    return xp.sum(v * (moved - states_at(xp, U, W, s0, X, act)[T]), axis=-1)


# --------------------------------------------------------------------------- linking equations, matrix form


def linking(xp, wrt, U, W, s0, X, v, B, act, T, **_):
    """d/de v·s_T, v·(ds_T/de) and the linking recursion, all by finite differences (no recursion)."""
    pre, states = preactivations_and_states(xp, U, W, s0, X, act)
    _, d1, _ = activation(xp, act)
    step = wrt.direction(B)
    vs = true_dvs(xp, U, W, s0, X, v, act, T, **step)
    ds = true_ds(xp, U, W, s0, X, act, T, **step)
    ds_prev = true_ds(xp, U, W, s0, X, act, T - 1, **step)
    rhs = d1(pre[T - 1]) * (matvec(B, wrt.input_at(states, X, T)) + matvec(W, ds_prev))
    return vs, xp.sum(v * ds, axis=-1), xp.sum(v * rhs, axis=-1)


def sens_matrix(xp, wrt, U, W, s0, X, c, B, act, T, *, sbar="correct", **_):
    """c·Q_T vec(B) or c·P_T vec(B) from the recursion against d/de c·s_T by finite differences."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, sbar=sbar, tensors=wrt.sens)
    rec = xp.einsum("bk,bkij,bij->b", c, fw[wrt.sens][T], B)
    return rec, xp.sum(c * true_ds(xp, U, W, s0, X, act, T, **wrt.direction(B)), axis=-1)


def sens_matrix_as_written(xp, wrt, **inputs):
    """c·P_T vec(B) with S̄ indexed as written against d/de c·s_T by finite differences."""
    return sens_matrix(xp, wrt, sbar="written", **inputs)


# --------------------------------------------------------------------------- first-order part


def lambda_out(xp, wrt, U, W, s0, X, v, D, act, T, **_):
    """The exact first-order part against max σ' times the same pairing with Λ_t pulled out."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors=wrt.sens)
    l1, y = fw["lam1"][T], wrt.input_at(fw["states"], X, T)
    WS = xp.einsum("bkm,bmij->bkij", W, fw[wrt.sens][T - 1])
    lhs = frob(xp, xp.outer(l1 * v, y) + row_grad(xp, v * l1, WS), D)
    return lhs, SUP_D1[act] * frob(xp, xp.outer(v, y) + row_grad(xp, v, WS), D)


def first_order_bound(xp, wrt, U, W, s0, X, v, act, T, **_):
    """⟨G, D⟩ in the worst direction D = polar factor of G = ∇V_p s_T, against the written bound."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors=wrt.sens)
    G = row_grad(xp, v, fw[wrt.sens][T])
    D = polar_direction(xp, G)
    WS = xp.einsum("bkm,bmij->bkij", W, fw[wrt.sens][T - 1])
    y = wrt.input_at(fw["states"], X, T)
    bound = SUP_D1[act] * sinf(xp, D) * (norm2(xp, v) * norm2(xp, y) + s1(xp, row_grad(xp, v, WS)))
    return frob(xp, G, D), bound


def first_order(xp, eps, wrt, U, W, s0, X, v, D, act, T, **_):
    """Finite change of V_p s_T along εD (forward pass) against ε⟨∇V_p s_T, D⟩ (recursion)."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors=wrt.sens)
    G = row_grad(xp, v, fw[wrt.sens][T])
    moved = states_at(xp, U, W, s0, X, act, **wrt.direction(D), e=eps)[T]
    return xp.sum(v * (moved - fw["states"][T]), axis=-1), eps * frob(xp, G, D)


#: bytes of one sensitivity tensor (rows, H, H, ·) in a stacked forward pass of :func:`path_row_gradients`:
#: the points go through in groups whose step tensors stay below glibc's mmap threshold (128 KiB), as an
#: array above it is mapped afresh on each allocation and its page faults cost more than the arithmetic
#: (float64, H = 3, T = 4, one pass of P: 6.8 ms per 4,096 rows in groups of 4,000 rows, 3.4 ms in
#: groups of 600; groups of 4,096 rows were the rule before)
PASS_BYTES = 2**17


def path_row_gradients(xp, wrt, U, W, s0, X, v, D, act, T, taus):
    """G(θ + τD) = ∇V_p s_T from the recursion for every τ in ``taus``, shape (len(taus), B, H, ·): the
    points are stacked along the batch axis and run through forward passes of at most PASS_BYTES per
    sensitivity tensor (one pass per point cost a Python loop over the time steps for each; one pass for
    all, memory traffic).  Each row is computed by the same operations whatever the grouping, so the
    values are the same.  Along a step in W every point shares U, so the terms U x_t are formed once for
    the B instances and repeated for the points (each row the product the stacked pass would form)."""
    entry = np.asarray(D).itemsize * W.shape[-1] ** 2 * D.shape[-1]  # bytes of a row of the tensor
    group = max(1, PASS_BYTES // (len(s0) * entry))
    shared = None if wrt.name == "U" else [matvec(U, X[:, t]) for t in range(X.shape[1])]
    G = []
    for first in range(0, len(taus), group):
        part = taus[first : first + group]
        n = len(part)
        moved = wrt.moved(U[None], W[None], steps(part, D))  # (n, B, …) for the moved parameter, (1, B, …)
        U2, W2 = (merge_points(np.broadcast_to(a, (n,) + a.shape[1:])) for a in moved)
        drive = None if shared is None else [stack_points(ux, n) for ux in shared]
        args = (stack_points(v, n), U2, W2, stack_points(s0, n), stack_points(X, n), act, T, wrt.sens)
        G.append(split_points(last_row_gradient(xp, *args, drive=drive), n))
    return np.concatenate(G)


def steps(taus, D):
    """The steps τD, stacked along a new leading axis (each is the product a loop over τ would form; D
    on the left, so that an object array multiplies its entries by τ without mpmath first trying to
    convert the whole array).  A float D is multiplied by all the τ at once: the same products, one
    operation instead of one per τ."""
    if isinstance(D, np.ndarray) and D.dtype.kind == "f" and all(isinstance(t, float) for t in taus):
        return D[None] * np.asarray(taus, dtype=D.dtype).reshape((len(taus),) + (1,) * D.ndim)
    return np.stack([D * tau for tau in taus])


def integral_form(xp, wrt, U, W, s0, X, v, D, act, T, *, literal, **_):
    """(V_p(s_T(θ + D) − s_T(θ)), ∫_0^1 G(θ + τD) paired with D dτ), G = ∇V_p s_T from the recursion, the
    pairing the literal trace tr(G D) or the Frobenius ⟨G, D⟩ = tr(GᵀD); Gauss–Legendre quadrature."""
    nodes, weights = gauss_legendre_01(xp)
    G = path_row_gradients(xp, wrt, U, W, s0, X, v, D, act, T, nodes)
    paired = xp.trace(xp.matmul(G, D)) if literal else frob(xp, G, D)
    return change_of_row(xp, wrt, U, W, s0, X, v, D, act, T, 1.0), quadrature_sum(paired, weights)


# --------------------------------------------------------------------------- remainder and ½ d/dt


def gradient_change_integral(xp, wrt, U, W, s0, X, v, D, act, T, G0, *, rule=(), scale=1.0):
    """∫_0^1 G(θ + τ·scale·D) − G0 dτ, G = ∇V_p s_T from the recursion, by the Gauss–Legendre rule
    ``gauss_legendre_01(xp, *rule)``."""
    nodes, weights = gauss_legendre_01(xp, *rule)
    G = path_row_gradients(xp, wrt, U, W, s0, X, v, D, act, T, [tau * scale for tau in nodes])
    return quadrature_sum(G - G0, weights)


def remainder_chain(xp, wrt, U, W, s0, X, v, D, act, T, **_):
    """r_p = ∫⟨G(θ+τD) − G(θ), D⟩dτ ≤ ‖D‖_{S∞}‖∫(G(θ+τD) − G(θ))dτ‖_{S¹}, G = ∇V_p s_T, by quadrature."""
    G0 = last_row_gradient(xp, v, U, W, s0, X, act, T, wrt.sens)
    integral = gradient_change_integral(xp, wrt, U, W, s0, X, v, D, act, T, G0)
    r = change_of_row(xp, wrt, U, W, s0, X, v, D, act, T, 1.0) - frob(xp, G0, D)
    return r, frob(xp, integral, D), sinf(xp, D) * s1(xp, integral)


def half_derivative(xp, eps, wrt, U, W, s0, X, v, D, act, T, **_):
    """‖∫_0^1 G(θ+τεD) − G(θ) dτ‖_{S¹} against ½‖d/dτ G(θ+τεD)|_0‖_{S¹} (exact tangent recursion)."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors=wrt.sens)
    G0 = row_grad(xp, v, fw[wrt.sens][T])
    integral = gradient_change_integral(xp, wrt, U, W, s0, X, v, D, act, T, G0, rule=(6, 1), scale=eps)
    dU, dW = wrt.moved(0 * U, 0 * W, eps * D)
    tg = tangents(xp, U, W, s0, X, act, dU, dW, fw, tensors=wrt.sens)
    return s1(xp, integral), 0.5 * s1(xp, row_grad(xp, v, tg[wrt.sens_dot][T]))


# --------------------------------------------------------------------------- seed 000's part-1 chain


def part1_chain(xp, wrt, U, W, s0, X, v, D, act, T, *, step3, **_):
    """‖(dλ_T/dt) ⊙ V_pᵀ yᵀ‖_{S¹} (y = x_T or s_{T−1}) down seed 000's part-1 chain, dλ_T/dt = λ'' ⊙ m with
    m = Dy + W S_{T−1} vec D; ``step3`` is how its third line bounds the λ'' factor: "inside" keeps
    ‖λ'' ⊙ m‖₂ (U), "swap" writes ‖λ''‖₂‖m‖₂ (W as written), "sup" ‖λ''‖_∞‖m‖₂ (W corrected)."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors=wrt.sens)
    l2, S1 = fw["lam2"][T], fw[wrt.sens][T - 1]
    y = wrt.input_at(fw["states"], X, T)
    a = matvec(D, y)
    b = xp.einsum("bkm,bmij,bij->bk", W, S1, D)
    dlam = l2 * (a + b)
    H = W.shape[-1]
    ws = xp.max(s1(xp, xp.einsum("bpm,bmij->bpij", W, S1)), axis=-1)  # max_p ‖Mtr(W_{p,:} S_{T−1})‖_{S¹}
    ny, nD = norm2(xp, y), sinf(xp, D)
    e0 = s1(xp, xp.outer(dlam * v, y))
    e1 = norm2(xp, dlam * v) * ny  # ‖·‖_{S∞} of a column = ‖·‖₂, ‖yᵀ‖_{S¹} = ‖y‖₂
    e2 = norm2(xp, dlam * v) * ny
    if step3 == "inside":
        e3 = norm2(xp, l2 * (a + b)) * inf_norm(xp, v) * ny
    else:
        lam_norm = norm2(xp, l2) if step3 == "swap" else inf_norm(xp, l2)
        e3 = lam_norm * norm2(xp, a + b) * inf_norm(xp, v) * ny
    e4 = inf_norm(xp, l2) * inf_norm(xp, v) * ny * (norm2(xp, a) + norm2(xp, b))
    e5 = inf_norm(xp, l2) * inf_norm(xp, v) * ny * (nD * ny + math.sqrt(H) * ws * nD)
    e6 = inf_norm(xp, l2) * inf_norm(xp, v) * ny * nD * (ny + math.sqrt(H) * ws)
    return e0, e1, e2, e3, e4, e5, e6


# --------------------------------------------------------------------------- Lemma 3 inside the bounds


def _lemma3_factor(xp, wrt, U, W, s0, X, D, act, T, corrected, *, tensors=None):
    """(fw, dλ'_T/dt along D, max_q of the Lemma 3 factor, the slice norms ‖S[q]‖_{S¹} it took): as
    written (signed σ''/σ', the tensor S at T − 1) or corrected (|σ''/σ'|, S at T).  ``tensors=""``: the
    forward pass and dλ'_T/dt alone (no factor, None in its places)."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors=wrt.sens if tensors is None else tensors)
    dU, dW = wrt.moved(0 * U, 0 * W, D)
    lamdot = tangents(xp, U, W, s0, X, act, dU, dW, fw, tensors="")["lamdot"][T]
    if tensors == "":
        return fw, lamdot, None, None
    ratio = curvature_ratio(xp, fw["pre"][T - 1], act)
    norms = s1(xp, fw[wrt.sens][T if corrected else T - 1])
    return fw, lamdot, xp.max((xp.abs(ratio) if corrected else ratio) * norms, axis=-1), norms


def lemma3_outer_part(xp, wrt, U, W, s0, X, v, D, act, T, *, corrected, **_):
    """‖(dλ'/dt ⊙ V_pᵀ) yᵀ‖_{S¹} (y = x_T or s_{T−1}) down the written chain to the Lemma 3 bound."""
    fw, lamdot, m, _ = _lemma3_factor(xp, wrt, U, W, s0, X, D, act, T, corrected)
    y = wrt.input_at(fw["states"], X, T)
    e0 = s1(xp, xp.outer(lamdot * v, y))
    e1 = norm2(xp, lamdot * v) * norm2(xp, y)
    e2 = inf_norm(xp, lamdot) * norm2(xp, v) * norm2(xp, y)
    return e0, e1, e2, m * sinf(xp, D) * norm2(xp, v) * norm2(xp, y)


def lemma3_outer_inner(xp, wrt, U, W, s0, X, v, D, act, T, **_):
    """The first step of eq. (17)/(28) with V_pᵀy as typeset, an inner product: ‖(dλ'/dt)(V_p·y)‖_{S¹} =
    |V_p·y|‖dλ'/dt‖₁ against ‖dλ'/dt ⊙ V_pᵀ‖₂‖y‖₂ (y = x_T, needing N = H, or s_{T−1})."""
    fw, lamdot, _, _ = _lemma3_factor(xp, wrt, U, W, s0, X, D, act, T, corrected=False, tensors="")
    y = wrt.input_at(fw["states"], X, T)
    return xp.abs(dot(xp, v, y)) * xp.sum(xp.abs(lamdot), axis=-1), norm2(xp, lamdot * v) * norm2(xp, y)


def lemma3_tensor_part(xp, wrt, U, W, s0, X, v, D, act, T, *, corrected, **_):
    """‖S_{T−1} W̃ᵀ (dλ'/dt ⊙ V_pᵀ)‖_{S¹} (S = Q or P) down the written chain to the Lemma 3 bound."""
    fw, lamdot, m, norms = _lemma3_factor(xp, wrt, U, W, s0, X, D, act, T, corrected)
    S1 = fw[wrt.sens][T - 1]
    # the slice norms of S_{T−1} and ‖W‖_{S∞} enter three sides each: one SVD each (the same values)
    slice_norms, w_norm = s1(xp, S1) if corrected else norms, sinf(xp, W)
    sn = norm2(xp, slice_norms)
    return (
        *lemma4_steps(xp, S1, W, lamdot, v, slice_norms=slice_norms, M_norm=w_norm),  # W̃ᵀ (dλ' ⊙ V_pᵀ)
        sn * w_norm * m * sinf(xp, D) * norm2(xp, v),
    )
