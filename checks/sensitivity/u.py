r"""Sensitivity of s_t to the input matrix U: seed 000 "Loss Bound with Respect to U" and seed 001 §B.1.

Same conventions as ``checks/sensitivity/w.py``: t = T, ``v`` = V_{p,:}, ``D`` = ΔU (H×N), probes ``c``, ``B``;
ground truth by finite differences of the forward pass.  The first-order bounds eq. (12)/(13) and (23)
are also here (they share the worst-direction construction).
"""

import math

import numpy as np

from checks._vocab.activations import SMOOTH, SUP_D1, activation
from checks._vocab.fd import directional
from checks._vocab.linalg import frob, inf_norm, matvec, norm2, s1, sinf
from checks._vocab.rnn import preactivations_and_states
from checks._vocab.sources import SEED_000, SEED_001
from checks.sensitivity._helpers import (
    FD_TOL,
    QUAD_TOL,
    SENS_RNN_DIMS,
    SENS_RNN_DIMS_H2,
    const,
    forward_sensitivities,
    gauss_legendre_01,
    polar_direction,
    row_grad,
    sens_rnn_inputs,
    states_at,
    tangents,
    true_ds,
)
from lemmacheck import Source, Verdict, approximation, identity, inequality

SEC_U = "Loss Bound with Respect to U"


@identity(
    "sens.u_linking",
    title="Linking equations for U: ∂[s_t]_p/∂U_ij = σ'(z_t)_p[x_{t,j}δ_ip + Σ_k W_pk ∂[s_{t-1}]_k/∂U_ij]",
    source=Source(
        SEED_000,
        f"{SEC_U}, 'Linking equation'",
        quote="∂[s_t(U)]_p/∂U_ij = σ'(Ux_t + W s_{t−1})_p [x_{t,j} δ_ip + Σ_k W_pk ∂[s_{t−1}(U)]_k/∂U_ij]",
    ),
    statement=r"\frac{\partial[\mathbf{V}\mathbf{s}_t]_p}{\partial\mathbf{U}_{ij}} = \sum_k\mathbf{V}_{pk}"
    r"\frac{\partial[\mathbf{s}_t]_k}{\partial\mathbf{U}_{ij}},\quad \frac{\partial[\mathbf{s}_t]_p}{\partial"
    r"\mathbf{U}_{ij}} = \sigma'(\mathbf{U}\mathbf{x}_t+\mathbf{W}\mathbf{s}_{t-1})_p\Big[\mathbf{x}_{t,j}"
    r"\delta_{ip} + \sum_k\mathbf{W}_{pk}\frac{\partial[\mathbf{s}_{t-1}]_k}{\partial\mathbf{U}_{ij}}\Big]",
    expected=Verdict.PROVED,
    inputs=sens_rnn_inputs(direction="U", probe=True),
    dims=SENS_RNN_DIMS,
    relations=("=", "="),
    labels=("first linking equation", "second linking equation"),
    tol=FD_TOL,
    notes="Finite differences only (no recursion). derivations/sensitivity/linking.py proves it symbolically "
    "for H = 2, "
    "N = 1, T = 3.",
)
def u_linking(xp, U, W, s0, X, v, B, act, T):
    pre, states = preactivations_and_states(xp, U, W, s0, X, act)
    _, d1, _ = activation(xp, act)
    vs = directional(xp, lambda e: xp.sum(v * states_at(xp, U, W, s0, X, act, dU=B, e=e)[T], axis=-1))
    ds = true_ds(xp, U, W, s0, X, act, T, dU=B)
    ds_prev = true_ds(xp, U, W, s0, X, act, T - 1, dU=B)
    rhs = d1(pre[T - 1]) * (matvec(B, X[:, T - 1]) + matvec(W, ds_prev))
    return vs, xp.sum(v * ds, axis=-1), xp.sum(v * rhs, axis=-1)


@identity(
    "sens.q_matrix_000",
    title="Q_t = Λ_t(X̄_t + W Q_{t-1}) with Q_t(p, iN+j) = ∂[s_t]_p/∂U_ij and X̄_t(i, iN+j) = x_t(j)",
    source=Source(
        SEED_000,
        f"{SEC_U}, matrix form",
        quote="Q_t = Λ_t(X̄_t + W Q_{t−1}) ... Q_t is a H × HN matrix where Q_t(p, iN + j) = "
        "∂[s_t(U)]_p/∂U_ij, "
        "X̄_t is a sparse matrix of the same size where X̄_t(i, iN + j) = x_t(j)",
    ),
    statement=r"\mathbf{Q}_t = \mathbf{\Lambda}_t(\bar{\mathbf{X}}_t + \mathbf{W}\mathbf{Q}_{t-1}),\quad"
    r"\mathbf{Q}_t(p, iN+j) = \frac{\partial[\mathbf{s}_t]_p}{\partial\mathbf{U}_{ij}},\quad"
    r"\bar{\mathbf{X}}_t(i, iN+j) = \mathbf{x}_t(j)",
    expected=Verdict.HOLDS,
    inputs=sens_rnn_inputs(direction="U", probe=True),
    dims=SENS_RNN_DIMS,
    tol=FD_TOL,
    notes="Unlike S̄ in the W section, X̄ is indexed consistently with Q (0-based iN + j); the time "
    "index t of X̄_t "
    "is right (the input of step t enters z_t directly).",
)
def q_matrix_000(xp, U, W, s0, X, c, B, act, T):
    """c·Q_t vec(B) against d/de c·s_t(U + eB) by finite differences."""
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    rec = xp.einsum("bk,bkij,bij->b", c, fw["Q"][T], B)
    return rec, xp.sum(c * true_ds(xp, U, W, s0, X, act, T, dU=B), axis=-1)


@identity(
    "sens.u_grad_mtr",
    title="∂[V s_t]_p/∂U = Mtr(V_{p,:} Q_t) = λ_t ⊙ V_pᵀx_tᵀ + Mtr(λ_t ⊙ V_p W Q_{t-1})",
    source=Source(
        SEED_000,
        f"{SEC_U}, matrix form and item 2.2",
        quote="∂[Vs_t(U)]_p/∂U = Mtr(V_{p,:} Q_t) ... = 1/2 d/dt (λ_t ⊙ V_{p,:}ᵀ x_tᵀ + Mtr(λ_t ⊙ "
        "V_{p,:} W Q_{t−1}))",
    ),
    statement=r"\frac{\partial[\mathbf{V}\mathbf{s}_t]_p}{\partial\mathbf{U}} = "
    r"\mathrm{Mtr}(\mathbf{V}_{p,:}\mathbf{Q}_t)"
    r" = \lambda_t\odot\mathbf{V}_{p,:}^T\mathbf{x}_t^T + "
    r"\mathrm{Mtr}(\lambda_t\odot\mathbf{V}_{p,:}\mathbf{W}"
    r"\mathbf{Q}_{t-1})",
    expected=Verdict.HOLDS,
    inputs=sens_rnn_inputs(direction="U", probe=True),
    dims=SENS_RNN_DIMS,
    relations=("=", "="),
    labels=("Mtr(V_p Q_t)", "split"),
    tol=FD_TOL,
    notes="Mtr maps an HN-vector to an H×N matrix (row-major). Checked against ⟨·, B⟩ = d/de V_p s_t(U + "
    "eB).",
)
def u_grad_mtr(xp, U, W, s0, X, v, B, act, T):
    """⟨∇_U V_p s_t, B⟩ two ways against finite differences."""
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    l1 = fw["lam1"][T]
    vs = directional(xp, lambda e: xp.sum(v * states_at(xp, U, W, s0, X, act, dU=B, e=e)[T], axis=-1))
    g1 = row_grad(xp, v, fw["Q"][T])
    g2 = xp.outer(l1 * v, X[:, T - 1]) + row_grad(xp, l1 * v, xp.einsum("bkm,bmij->bkij", W, fw["Q"][T - 1]))
    return vs, frob(xp, g1, B), frob(xp, g2, B)


# --------------------------------------------------------------------------- first-order part (seed 000, U)


@inequality(
    "sens.u_lambda_out_000",
    title="Pulling Λ_t out (U): ⟨Mtr(V_pΛ_t(X̄_t+WQ_{t-1})), ΔU⟩ ≤ max σ' {V_pΔUx_t + tr[Mtr(V_pWQ_{t-1})ΔU]}",
    source=Source(
        SEED_000,
        f"{SEC_U}, item 2 ('Approximate this equation at t = 0')",
        quote="[Vs_t(U^k + ΔU) − Vs_t(U^k)]_p ≤ max_x σ'(x){V_{p,:}ΔU x_t + tr[Mtr(V_{p,:} W^k Q_{t−1})ΔU]}",
    ),
    statement=r"\langle\mathrm{Mtr}(\mathbf{V}_{p,:}\mathbf{\Lambda}_t(\bar{\mathbf{X}}_t+\mathbf{W}\mathbf{Q}_{t-1})),"
    r"\Delta\mathbf{U}\rangle \le \max_x\sigma'(x)\{\mathbf{V}_{p,:}\Delta\mathbf{U}\mathbf{x}_t + "
    r"\mathrm{tr}"
    r"[\mathrm{Mtr}(\mathbf{V}_{p,:}\mathbf{W}^k\mathbf{Q}_{t-1})\Delta\mathbf{U}]\}",
    expected=Verdict.REFUTED,
    inputs=sens_rnn_inputs(direction="U"),
    dims=SENS_RNN_DIMS,
    notes="Checked on the first-order part (exact linearisation). tr[Mtr(·)ΔU] of two H×N matrices is "
    "read as the "
    "pairing ⟨·, ΔU⟩ (literally the trace is undefined unless N = H). As for W, Λ_t cannot leave a "
    "signed sum.",
)
def u_lambda_out_000(xp, U, W, s0, X, v, D, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    l1, x, Q1 = fw["lam1"][T], X[:, T - 1], fw["Q"][T - 1]
    WQ = xp.einsum("bkm,bmij->bkij", W, Q1)
    lhs = frob(xp, xp.outer(l1 * v, x) + row_grad(xp, l1 * v, WQ), D)
    rhs = SUP_D1[act] * (xp.sum(v * matvec(D, x), axis=-1) + frob(xp, row_grad(xp, v, WQ), D))
    return lhs, rhs


@inequality(
    "sens.u_first_order_bound_000",
    title="First-order U bound of seed 000: first-order change ≤ max σ'‖ΔU‖(‖V_p‖‖x_t‖ + "
    "‖Mtr(V_pWQ_{t-1})‖_{S¹})",
    source=Source(
        SEED_000,
        f"{SEC_U}, item 2 (last line)",
        quote="= max_x σ'(x) ||ΔU||_{S∞} {||V_{p,:}||_2 ||x_t||_2 + ||Mtr(V_{p,:} W^k Q_{t−1})||_{S1}}",
    ),
    statement=r"[\mathbf{V}\mathbf{s}_t(\mathbf{U}^k+\Delta\mathbf{U}) - "
    r"\mathbf{V}\mathbf{s}_t(\mathbf{U}^k)]_p \lesssim "
    r"\max_x\sigma'(x)\|\Delta\mathbf{U}\|_{S^\infty}\{\|\mathbf{V}_{p,:}\|_2\|\mathbf{x}_t\|_2 + "
    r"\|\mathrm{Mtr}(\mathbf{V}_{p,:}\mathbf{W}^k\mathbf{Q}_{t-1})\|_{S^1}\}",
    expected=Verdict.REFUTED,
    inputs=sens_rnn_inputs(),
    dims={"H": [1, 2, 3, 4], "T": [2, 4], "act": SMOOTH},
    notes="First-order part in the worst direction ΔU = polar factor of ∇_U V_p s_t. As for W "
    "(sens.w_first_order_bound_000) the bound has max σ'‖Mtr(V_pWQ_{t−1})‖_{S¹} where "
    "‖Mtr(V_pΛ_tWQ_{t−1})‖_{S¹} is needed.",
)
def u_first_order_bound_000(xp, U, W, s0, X, v, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    G = row_grad(xp, v, fw["Q"][T])
    D = polar_direction(xp, G)
    WQ = xp.einsum("bkm,bmij->bkij", W, fw["Q"][T - 1])
    bound = SUP_D1[act] * sinf(xp, D) * (norm2(xp, v) * norm2(xp, X[:, T - 1]) + s1(xp, row_grad(xp, v, WQ)))
    return frob(xp, G, D), bound


@approximation(
    "sens.u_first_order_000",
    title="'Approximate this equation at t = 0' (U): finite change ≈ ⟨∇_U V_p s_t, ΔU⟩",
    source=Source(
        SEED_000,
        f"{SEC_U}, item 2 ('Approximate this equation at t = 0')",
        quote="Approximate this equation at t = 0: [Vs_t(U^k + ΔU) − Vs_t(U^k)]_p ≤ ...",
    ),
    statement=r"[\mathbf{V}\mathbf{s}_t(\mathbf{U}^k+\epsilon\mathbf{D}) - "
    r"\mathbf{V}\mathbf{s}_t(\mathbf{U}^k)]_p "
    r"\le \epsilon\,\langle\nabla_{\mathbf{U}}\mathbf{V}_{p,:}\mathbf{s}_t, \mathbf{D}\rangle",
    expected=Verdict.APPROXIMATE,
    inputs=sens_rnn_inputs(direction="U"),
    dims=SENS_RNN_DIMS_H2,
    order=2,
    relation="<=",
    notes="Taylor test of the first-order step; the failure rate of '≤' is the fraction of instances whose "
    "second-order term is positive.",
)
def u_first_order_000(xp, eps, U, W, s0, X, v, D, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    G = row_grad(xp, v, fw["Q"][T])
    diff = xp.sum(v * (states_at(xp, U, W, s0, X, act, dU=D, e=eps)[T] - fw["states"][T]), axis=-1)
    return diff, eps * frob(xp, G, D)


# --------------------------------------------------------------------------- remainder, ½ d/dt (U)


def _u_remainder_chain(xp, U, W, s0, X, v, D, act, T):
    G0 = row_grad(xp, v, forward_sensitivities(xp, U, W, s0, X, act)["Q"][T])
    nodes, weights = gauss_legendre_01(xp)
    integral = 0
    for tau, w in zip(nodes, weights, strict=False):
        integral = integral + w * (
            row_grad(xp, v, forward_sensitivities(xp, U + tau * D, W, s0, X, act)["Q"][T]) - G0
        )
    r = xp.sum(
        v * (states_at(xp, U, W, s0, X, act, dU=D, e=1.0)[T] - states_at(xp, U, W, s0, X, act)[T]), axis=-1
    ) - frob(xp, G0, D)
    return r, frob(xp, integral, D), sinf(xp, D) * s1(xp, integral)


_UREM_NOTES = (
    "tr([·]ΔU) of two H×N matrices is read as the pairing ⟨·, ΔU⟩ (the literal trace is undefined unless "
    "N = H; compare sens.w_integral_000), and ‖∫…‖_{S¹}d_t as ‖∫…d_t‖_{S¹}. Integral by 2×8-point "
    "Gauss–Legendre, remainder from the forward pass."
)


@inequality(
    "sens.u_remainder_000",
    title="Remainder of the U step as an integral, bounded by ‖ΔU‖_{S∞}‖∫(∇V_ps_t(U+tΔU) − ∇V_ps_t(U))‖_{S¹}",
    source=Source(
        SEED_000,
        f"{SEC_U}, second item 2.1",
        quote="= ∫_0^1 tr([V_{p,:}∇_U s_t(U^k + tΔU) − V_{p,:}∇_U s_t(U^k)]ΔU) d_t ≤ ||ΔU||_{S∞} "
        "||∫_0^1 V_{p,:}∇_U s_t(U^k + tΔU) − V_{p,:}∇_U s_t(U^k) d_t||_{S1}",
    ),
    statement=r"[\mathbf{V}\mathbf{s}_t(\mathbf{U}^k+\Delta\mathbf{U}) - "
    r"\mathbf{V}\mathbf{s}_t(\mathbf{U}^k) - "
    r"\langle\mathbf{V}\nabla_{\mathbf{U}}\mathbf{s}_t(\mathbf{U}^k),\Delta\mathbf{U}\rangle]_p = "
    r"\int_0^1\mathrm{tr}"
    r"([\ldots]\Delta\mathbf{U})d_t \le \|\Delta\mathbf{U}\|_{S^\infty}\Big\|\int_0^1\ldots d_t\Big\|_{S^1}",
    expected=Verdict.HOLDS,
    same_as=("sens.eq14_remainder",),
    inputs=sens_rnn_inputs(direction="U", step=(-0.15, 0.15)),
    dims={"H": [1, 2, 3], "T": [2, 4], "act": SMOOTH},
    relations=("=", "<="),
    labels=("integral form of the remainder", "Hölder, eq. (10)"),
    tol=QUAD_TOL,
    notes=_UREM_NOTES,
)
def u_remainder_000(xp, U, W, s0, X, v, D, act, T):
    return _u_remainder_chain(xp, U, W, s0, X, v, D, act, T)


@inequality(
    "sens.eq14_remainder",
    title="Eq. (14): the remainder integral and its Hölder bound for U (seed 001)",
    source=Source(
        SEED_001,
        "§B.1, eq. (14)",
        quote="= ∫_0^1 tr([V_{p,:}∇_U s_t(U^k + tΔU) − V_{p,:}∇_U s_t(U^k)]ΔU)d_t ≤ ||ΔU||_{S∞} ||∫_0^1 "
        "...||_{S1} d_t",
    ),
    statement=r"[\ldots]_p = "
    r"\int_0^1\mathrm{tr}([\mathbf{V}_{p,:}\nabla_{\mathbf{U}}\mathbf{s}_t(\mathbf{U}^k+t\Delta\mathbf{U})"
    r" - \mathbf{V}_{p,:}\nabla_{\mathbf{U}}\mathbf{s}_t(\mathbf{U}^k)]\Delta\mathbf{U})d_t \le "
    r"\|\Delta\mathbf{U}\|_{S^\infty}"
    r"\|\int_0^1\ldots\|_{S^1}d_t",
    expected=Verdict.HOLDS,
    same_as=("sens.u_remainder_000",),
    inputs=sens_rnn_inputs(direction="U", step=(-0.15, 0.15)),
    dims={"H": [1, 2, 3], "T": [2, 4], "act": SMOOTH},
    relations=("=", "<="),
    labels=("integral form of the remainder", "Hölder, eq. (10)"),
    tol=QUAD_TOL,
    notes=_UREM_NOTES,
)
def eq14_remainder(xp, U, W, s0, X, v, D, act, T):
    return _u_remainder_chain(xp, U, W, s0, X, v, D, act, T)


def _u_half(xp, eps, U, W, s0, X, v, D, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    G0 = row_grad(xp, v, fw["Q"][T])
    nodes, weights = gauss_legendre_01(xp, 6, 1)
    integral = 0
    for tau, w in zip(nodes, weights, strict=False):
        integral = integral + w * (
            row_grad(xp, v, forward_sensitivities(xp, U + (tau * eps) * D, W, s0, X, act)["Q"][T]) - G0
        )
    tg = tangents(xp, U, W, s0, X, act, eps * D, 0 * W, fw)
    return s1(xp, integral), 0.5 * s1(xp, row_grad(xp, v, tg["Qdot"][T]))


@approximation(
    "sens.eq15_half_derivative",
    title="Eq. (15): ∫_0^1 [∇_U V_ps_t(U+tΔU) − ∇_U V_ps_t(U)] ≃ ½ d/dt ∇_U V_ps_t(U+tΔU)|_{t=0}",
    source=Source(
        SEED_001,
        "§B.1, eq. (15)",
        quote="≃ ∫_0^1 d/d_t V_{p,:}∇_U s_t(U^k + tΔU)|_{t=0} t d_t = 1/2 d/d_t V_{p,:}∇_U s_t(U^k + "
        "tΔU)|_{t=0}",
    ),
    statement=r"\int_0^1\mathbf{V}_{p,:}\nabla_{\mathbf{U}}\mathbf{s}_t(\mathbf{U}^k+t\Delta\mathbf{U}) "
    r"- \mathbf{V}_{p,:}"
    r"\nabla_{\mathbf{U}}\mathbf{s}_t(\mathbf{U}^k) \simeq "
    r"\frac12\frac{d}{d_t}\mathbf{V}_{p,:}\nabla_{\mathbf{U}}"
    r"\mathbf{s}_t(\mathbf{U}^k+t\Delta\mathbf{U})\Big|_{t=0}",
    expected=Verdict.APPROXIMATE,
    same_as=("sens.u_half_derivative_000",),
    inputs=sens_rnn_inputs(direction="U"),
    dims=SENS_RNN_DIMS_H2,
    order=2,
    relation="<=",
    notes="In S¹ norm (what the bound uses); d/dt from the exact tangent recursion Q̇_t. Seed 000's "
    "version of this "
    "step drops the factor t inside the integral (sens.u_half_derivative_000, derivations/sensitivity/calculus.py).",
)
def eq15_half_derivative(xp, eps, U, W, s0, X, v, D, act, T):
    return _u_half(xp, eps, U, W, s0, X, v, D, act, T)


@identity(
    "sens.eq16_grad",
    title="∇_U V_ps_t = Λ'_tV_pᵀx_t + Q_{t-1}W̃ᵀΛ̃'_tṼ_pᵀ (3-tensor form, text before eq. (16))",
    source=Source(
        SEED_001,
        "§B.1, text before eq. (16)",
        quote="we can calculate U's first order gradient: ∇_U V_p s_t = Λ'_t V_pᵀ x_t + Q_{t−1} W̃ᵀ Λ̃'_t Ṽ_pᵀ",
    ),
    statement=r"\nabla_{\mathbf{U}}\mathbf{V}_p\mathbf{s}_t = "
    r"\mathbf{\Lambda}_t'\mathbf{V}_p^T\mathbf{x}_t + "
    r"\mathbf{Q}_{t-1}\tilde{\mathbf{W}}^T\tilde{\mathbf{\Lambda}}_t'\tilde{\mathbf{V}}_p^T",
    expected=Verdict.HOLDS,
    same_as=("sens.u_grad_mtr",),
    inputs=sens_rnn_inputs(direction="U", probe=True),
    dims=SENS_RNN_DIMS,
    tol=FD_TOL,
    notes="Read with V_pᵀx_tᵀ (outer product; the transpose on x_t is lost) and Q_{t−1} an H×N×H tensor "
    "whose third "
    "index is contracted with W̃ᵀ(λ'_t ⊙ V_pᵀ).",
)
def eq16_grad(xp, U, W, s0, X, v, B, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    u = fw["lam1"][T] * v
    g = xp.outer(u, X[:, T - 1]) + row_grad(xp, matvec(xp.transpose(W), u), fw["Q"][T - 1])
    vs = directional(xp, lambda e: xp.sum(v * states_at(xp, U, W, s0, X, act, dU=B, e=e)[T], axis=-1))
    return vs, frob(xp, g, B)


@identity(
    "sens.u_dlambda_000",
    title="dλ_t/dt = λ''_t ⊙ (ΔUx_t + WQ_{t-1}vec ΔU), λ''_t = σ''(Ux_t + Ws_{t-1}) (U direction)",
    source=Source(
        SEED_000,
        f"{SEC_U}, item 3",
        quote="Let λ''_t be a column vector of σ''(Ux_t + W s_{t−1}): d/dt λ_t = λ''_t ⊙ [(X̄_t + W "
        "Q_{t−1})vec(ΔU)] "
        "= λ''_t ⊙ (ΔU x_t + W Q_{t−1} vec(ΔU))",
    ),
    statement=r"\frac{d}{dt}\lambda_t = "
    r"\lambda_t''\odot[(\bar{\mathbf{X}}_t+\mathbf{W}\mathbf{Q}_{t-1})\mathrm{vec}(\Delta\mathbf{U})]"
    r" = \lambda_t''\odot(\Delta\mathbf{U}\mathbf{x}_t + "
    r"\mathbf{W}\mathbf{Q}_{t-1}\mathrm{vec}(\Delta\mathbf{U}))",
    expected=Verdict.HOLDS,
    same_as=("sens.dlambda_000.corrected",),
    inputs=sens_rnn_inputs(direction="U", probe=True),
    dims=SENS_RNN_DIMS,
    relations=("=", "="),
    labels=("X̄/Q form", "expanded"),
    tol=FD_TOL,
    notes="Here the pre-activation index is right (compare sens.dlambda_000 in the W section).",
)
def u_dlambda_000(xp, U, W, s0, X, D, c, act, T):
    from checks.sensitivity._helpers import true_dlam

    fw = forward_sensitivities(xp, U, W, s0, X, act)
    l2, x, Q1 = fw["lam2"][T], X[:, T - 1], fw["Q"][T - 1]
    eye = const(xp, np.eye(U.shape[1]))
    Xbar = eye[None, :, :, None] * x[:, None, None, :]
    form1 = l2 * xp.einsum("bkij,bij->bk", Xbar + xp.einsum("bkm,bmij->bkij", W, Q1), D)
    form2 = l2 * (matvec(D, x) + xp.einsum("bkm,bmij,bij->bk", W, Q1, D))
    truth = true_dlam(xp, U, W, s0, X, act, T, dU=D)
    return xp.sum(c * truth, axis=-1), xp.sum(c * form1, axis=-1), xp.sum(c * form2, axis=-1)


def _u_part1(xp, U, W, s0, X, v, D, act, T, fixed):
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    l2, x, Q1 = fw["lam2"][T], X[:, T - 1], fw["Q"][T - 1]
    a = matvec(D, x)
    b = xp.einsum("bkm,bmij,bij->bk", W, Q1, D)
    dlam = l2 * (a + b)
    H = U.shape[1]
    wq = xp.max(s1(xp, xp.einsum("bpm,bmij->bpij", W, Q1)), axis=-1)
    nx, nD = norm2(xp, x), sinf(xp, D)
    e0 = s1(xp, xp.outer(dlam * v, x))
    e1 = norm2(xp, dlam * v) * nx
    e2 = norm2(xp, dlam * v) * nx
    e3 = norm2(xp, l2 * (a + b)) * inf_norm(xp, v) * nx  # as written: ‖λ'' ⊙ (ΔU x_t + W Q vec ΔU)‖₂
    e4 = inf_norm(xp, l2) * inf_norm(xp, v) * nx * (norm2(xp, a) + norm2(xp, b))
    e5 = inf_norm(xp, l2) * inf_norm(xp, v) * nx * (nD * nx + math.sqrt(H) * wq * nD)
    e6 = inf_norm(xp, l2) * inf_norm(xp, v) * nx * nD * (nx + math.sqrt(H) * wq)
    return e0, e1, e2, e3, e4, e5, e6


_UP1_QUOTE = (
    "||(d/dt λ_t) ⊙ V_{p,:}ᵀ x_tᵀ||_{S1} ≤ ... ≤ ||λ''_t ⊙ (ΔU x_t + W Q_{t−1}vec(ΔU))||_2 "
    "||V_{p,:}ᵀ||_∞ ||x_tᵀ||_2 "
    "≤ ||λ''_t||_∞ ||V_{p,:}ᵀ||_∞ ||x_tᵀ||_2 (||ΔU x_t||_2 + ||W Q_{t−1}vec(ΔU)||_2) ≤ ... (||x_t^2||_2 "
    "+ √H max_p(...))"
)


@inequality(
    "sens.u_part1_chain_000",
    title="Bound on ‖(dλ_t/dt) ⊙ V_pᵀx_tᵀ‖_{S¹} (seed 000 U, item 3), line by line",
    source=Source(SEED_000, f"{SEC_U}, item 3", quote=_UP1_QUOTE),
    statement=r"\|(\tfrac{d}{dt}\lambda_t)\odot\mathbf{V}_{p,:}^T\mathbf{x}_t^T\|_{S^1} \le \ldots \le "
    r"\|\lambda_t''\|_\infty"
    r"\|\mathbf{V}_{p,:}^T\|_\infty\|\mathbf{x}_t^T\|_2\|\Delta\mathbf{U}\|_{S^\infty}(\|\mathbf{x}_t^2\|_2 "
    r"+ "
    r"\sqrt{H}\max_p(\|\mathrm{Mtr}(\mathbf{W}_{p,:}\mathbf{Q}_{t-1})\|_{S^1}))",
    expected=Verdict.HOLDS,
    inputs=sens_rnn_inputs(direction="U"),
    dims=SENS_RNN_DIMS_H2,
    relations=("<=", "=", "<=", "<=", "<=", "="),
    labels=(
        "eq. (8)",
        "vectors",
        "‖(λ'' ⊙ y) ⊙ V_p‖₂ ≤ ‖λ'' ⊙ y‖₂‖V_p‖_∞",
        "‖λ'' ⊙ y‖₂ ≤ ‖λ''‖_∞‖y‖₂, triangle",
        "Hölder, √H max_p",
        "factor",
    ),
    notes="'‖x_t^2‖₂' is read as ‖x_t‖₂ (conversion garble). Unlike the W section (sens.w_part1_chain_000, "
    "broken at its step 4), the U section keeps λ''_t inside the norm, ‖λ''_t ⊙ (ΔU x_t + W Q_{t−1}vec "
    "ΔU)‖₂, "
    "and then uses ‖λ'' ⊙ y‖₂ ≤ ‖λ''‖_∞‖y‖₂: every step is sound.",
)
def u_part1_chain_000(xp, U, W, s0, X, v, D, act, T):
    return _u_part1(xp, U, W, s0, X, v, D, act, T, fixed=False)


@inequality(
    "sens.u_n_elem_000",
    title="Entrywise bound on N = Mtr((dλ_t/dt) ⊙ V_pWQ_{t-1}) (seed 000 U, item 4)",
    source=Source(
        SEED_000,
        f"{SEC_U}, item 4",
        quote="N_ij = d/dt λ_t ⊙ V_{p,:} W Q_{t−1,:,iN+j} ≤ ... ≤ ||λ''_t||_∞ ||ΔU||_{S∞}(||x_t||_2 + √H "
        "max_p(||Mtr(W_{p,:}"
        "Q_{t−1})||_{S1}) ||V_{p,:}||_∞ ||W||_{S∞} ||Q_{t−1,:,iN+j}||_2",
    ),
    statement=r"|\mathbf{N}_{ij}| \le "
    r"\|\lambda_t''\|_\infty\|\Delta\mathbf{U}\|_{S^\infty}(\|\mathbf{x}_t\|_2 + \sqrt{H}"
    r"\max_p\|\mathrm{Mtr}(\mathbf{W}_{p,:}\mathbf{Q}_{t-1})\|_{S^1})\|\mathbf{V}_{p,:}\|_\infty\|\mathbf{W}\|_{S^\infty}"
    r"\|\mathbf{Q}_{t-1,:,iN+j}\|_2",
    expected=Verdict.HOLDS,
    inputs=sens_rnn_inputs(direction="U"),
    dims=SENS_RNN_DIMS_H2,
    notes="Checked as max_ij(|N_ij| − c‖Q_{t−1}(:, iN+j)‖₂) ≤ 0. The section ends here: no S¹ bound for "
    "N is given.",
)
def u_n_elem_000(xp, U, W, s0, X, v, D, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    l2, x, Q1 = fw["lam2"][T], X[:, T - 1], fw["Q"][T - 1]
    dlam = l2 * (matvec(D, x) + xp.einsum("bkm,bmij,bij->bk", W, Q1, D))
    N = row_grad(xp, dlam * v, xp.einsum("bkm,bmij->bkij", W, Q1))
    wq = xp.max(s1(xp, xp.einsum("bpm,bmij->bpij", W, Q1)), axis=-1)
    c = (
        inf_norm(xp, l2)
        * sinf(xp, D)
        * (norm2(xp, x) + math.sqrt(U.shape[1]) * wq)
        * inf_norm(xp, v)
        * sinf(xp, W)
    )
    Qb = xp.sqrt(xp.sum(Q1 * Q1, axis=1))
    gap = xp.max(xp.max(xp.abs(N) - c[:, None, None] * Qb, axis=-1), axis=-1)
    return gap, 0 * gap


# --------------------------------------------------------------------------- eq. (12), (13), (23): first-order bounds


def _worst_row(xp, G_all):
    """The row p* maximising ‖G_p‖_{S¹} (chosen in float64) and G_{p*}."""
    n = np.asarray(s1(xp, G_all), dtype=float)
    p = np.argmax(n, axis=-1)
    return G_all[np.arange(G_all.shape[0]), p]


@inequality(
    "sens.eq12_holder",
    title="Eq. (12), second step: tr[(∂[Vs_t]_p/∂U) ΔU] ≤ ‖Q_tṼ_p‖_{S¹}‖ΔU‖_{S∞} (first-order part)",
    source=Source(
        SEED_001,
        "§B.1, eq. (12)",
        quote="[Vs_t(U^k + ΔU) − Vs_t(U^k)]_p ≃ tr[∂[Vs_t]_p/∂U ΔU] ≤ ||Q_t Ṽ_p||_{S1} ||ΔU||_{S∞}",
    ),
    statement=r"\mathrm{tr}\Big[\frac{\partial[\mathbf{V}\mathbf{s}_t]_p}{\partial\mathbf{U}}\Delta\mathbf{U}\Big] "
    r"\le "
    r"\|\mathbf{Q}_t\tilde{\mathbf{V}}_p\|_{S^1}\|\Delta\mathbf{U}\|_{S^\infty}",
    expected=Verdict.HOLDS,
    inputs=sens_rnn_inputs(direction="U"),
    dims=SENS_RNN_DIMS,
    notes="Q_tṼ_p = Σ_k V_pk Q_{t,:,:,k} = ∂[Vs_t]_p/∂U (3-tensor times vector), so this is Hölder, eq. "
    "(10); the "
    "trace is read as the pairing ⟨·, ΔU⟩. Tight (ratio 1) in the polar direction.",
)
def eq12_holder(xp, U, W, s0, X, v, D, act, T):
    G = row_grad(xp, v, forward_sensitivities(xp, U, W, s0, X, act)["Q"][T])
    return frob(xp, G, D), s1(xp, G) * sinf(xp, D)


def _first_order_inf(xp, eps, U, W, V, s0, X, act, T, wrt):
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    G_all = xp.einsum("bqk,bkij->bqij", V, fw["Q" if wrt == "U" else "P"][T])
    D = polar_direction(xp, _worst_row(xp, G_all))
    dU, dW = (D, None) if wrt == "U" else (None, D)
    s_new = states_at(xp, U, W, s0, X, act, dU=dU, dW=dW, e=eps)[T]
    lhs = inf_norm(xp, matvec(V, s_new) - matvec(V, fw["states"][T]))
    return lhs, eps * xp.max(s1(xp, G_all), axis=-1) * sinf(xp, D)


@approximation(
    "sens.eq13_first_order",
    title="Eq. (13): ‖Vs_t(U+ΔU) − Vs_t(U)‖_∞ ≤ max_p‖Q_tṼ_p‖_{S¹}‖ΔU‖_{S∞} — a first-order bound, worst "
    "direction",
    source=Source(
        SEED_001,
        "§B.1, eq. (13)",
        quote="The first part is easy. We can approximate s_t(U + ΔU) using its first order Taylor "
        "expansion. ... "
        "||Vs_t(U^k + ΔU) − Vs_t(U^k)||_∞ ≤ max_p ||Q_t Ṽ_p||_{S1} ||ΔU||_{S∞}",
    ),
    statement=r"\|\mathbf{V}\mathbf{s}_t(\mathbf{U}^k+\Delta\mathbf{U}) - "
    r"\mathbf{V}\mathbf{s}_t(\mathbf{U}^k)\|_\infty \le "
    r"\max_p\|\mathbf{Q}_t\tilde{\mathbf{V}}_p\|_{S^1}\|\Delta\mathbf{U}\|_{S^\infty}",
    expected=Verdict.APPROXIMATE,
    inputs=sens_rnn_inputs(K=3),
    dims=SENS_RNN_DIMS_H2,
    order=2,
    relation="<=",
    notes="ΔU = ε × polar factor of ∂[Vs_t]_{p*}/∂U for the maximising row p*: the direction in which "
    "the bound is "
    "tight to first order, so the remainder is the second-order term (order 2 measured) and the failure rate "
    "is the fraction of instances where that term pushes the true change above the bound. In other "
    "directions the bound has first-order slack. It is a first-order statement, not a bound.",
)
def eq13_first_order(xp, eps, U, W, V, s0, X, act, T):
    return _first_order_inf(xp, eps, U, W, V, s0, X, act, T, "U")


@approximation(
    "sens.eq23_first_order",
    title="Eq. (23): ‖Vs_t(W+ΔW) − Vs_t(W)‖_∞ ≤ max_p‖P_tṼ_p‖_{S¹}‖ΔW‖_{S∞} — first-order bound, worst "
    "direction",
    source=Source(
        SEED_001,
        "§B.2, eq. (23)",
        quote="Like formula 13, we can use first order approximation to obtain the upper bound of the "
        "first part. "
        "||Vs_t(W^k + ΔW) − Vs_t(W^k)||_∞ ≤ max_p ||P_t Ṽ_p||_{S1} ||ΔW||_{S∞}",
    ),
    statement=r"\|\mathbf{V}\mathbf{s}_t(\mathbf{W}^k+\Delta\mathbf{W}) - "
    r"\mathbf{V}\mathbf{s}_t(\mathbf{W}^k)\|_\infty \le "
    r"\max_p\|\mathbf{P}_t\tilde{\mathbf{V}}_p\|_{S^1}\|\Delta\mathbf{W}\|_{S^\infty}",
    expected=Verdict.APPROXIMATE,
    same_as=("sens.eq13_first_order",),
    inputs=sens_rnn_inputs(K=3),
    dims=SENS_RNN_DIMS_H2,
    order=2,
    relation="<=",
    notes="As eq. (13), for W.",
)
def eq23_first_order(xp, eps, U, W, V, s0, X, act, T):
    return _first_order_inf(xp, eps, U, W, V, s0, X, act, T, "W")
