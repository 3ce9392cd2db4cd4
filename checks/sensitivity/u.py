r"""Sensitivity of s_t to the input matrix U: seed 000 "Loss Bound with Respect to U" and seed 001 §B.1.

Same conventions as ``checks/sensitivity/w.py``: t = T, ``v`` = V_{p,:}, ``D`` = ΔU (H×N), probes ``c``,
``B``;
ground truth by finite differences of the forward pass.  The first-order bounds eq. (12)/(13) and (23)
are also here (they share the worst-direction construction).
"""

import math

import numpy as np

from checks._vocab.linalg import frob, inf_norm, matvec, norm2, s1, sinf
from checks._vocab.sources import S0_LOSS_U, S1_B1, S1_B2
from checks.sensitivity._helpers import (
    FD_PROBED,
    FD_TOL,
    FIRST_ORDER_STEP,
    SENS_RNN_DIMS,
    SENS_RNN_DIMS_H2,
    bar_tensor,
    entrywise_excess,
    forward_sensitivities,
    last_row_gradient,
    polar_direction,
    row_grad,
    sens_rnn_inputs,
    states_at,
    true_dlam,
    true_dvs,
)
from checks.sensitivity._mirror import WRT, part1_chain
from checks.sensitivity._notation import (
    INNER_U,
    ROW_LAMBDA_V_U,
    SEED001_TRACE_U,
    U_DIRECTION,
    W_DIRECTION,
)
from lemmacheck import Derived, Function, Verdict, approximation, identity, inequality


@identity(
    "sens.u_grad_mtr",
    uses=("sens.u_linking", "sens.q_matrix_000"),
    title="∂[V s_t]_p/∂U = Mtr(V_{p,:} Q_t) = λ_t ⊙ V_pᵀx_tᵀ + Mtr(λ_t ⊙ V_p W Q_{t-1})",
    source=S0_LOSS_U.at("matrix form and item 2.2").quote(
        "∂[Vs_t(U)]_p/∂U = Mtr(V_{p,:} Q_t) ... = 1/2 d/dt (λ_t ⊙ V_{p,:}ᵀ x_tᵀ + Mtr(λ_t ⊙ V_{p,:} "
        "W Q_{t−1}))"
    ),
    statement=r"\frac{\partial[\mathbf{V}\mathbf{s}_t]_p}{\partial\mathbf{U}} = "
    r"\mathrm{Mtr}(\mathbf{V}_{p,:}\mathbf{Q}_t) = \lambda_t\odot\mathbf{V}_{p,:}^T\mathbf{x}_t^T + "
    r"\mathrm{Mtr}(\lambda_t\odot\mathbf{V}_{p,:}\mathbf{W}\mathbf{Q}_{t-1})",
    expected=Verdict.HOLDS,
    **FD_PROBED["U"],
    relations=("=", "="),
    labels=("Mtr(V_p Q_t)", "split"),
    notes="Mtr maps an HN-vector to an H×N matrix (row-major). Checked against ⟨·, B⟩ = d/de V_p s_t(U + "
    "eB).",
)
def u_grad_mtr(xp, U, W, s0, X, v, B, act, T):
    """⟨∇_U V_p s_t, B⟩ two ways against finite differences."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="Q")
    l1 = fw["lam1"][T]
    vs = true_dvs(xp, U, W, s0, X, v, act, T, dU=B)
    g1 = row_grad(xp, v, fw["Q"][T])
    g2 = xp.outer(l1 * v, X[:, T - 1]) + row_grad(xp, l1 * v, xp.einsum("bkm,bmij->bkij", W, fw["Q"][T - 1]))
    return vs, frob(xp, g1, B), frob(xp, g2, B)


#: the statements of this module are about the direction ΔU (checks/sensitivity/_notation.py)
symbols = U_DIRECTION
claim_symbols = {
    "sens.eq16_grad.inner": INNER_U,  # V_pᵀ x_t read as typeset, an inner product
    "sens.eq12_holder": SEED001_TRACE_U,  # tr[∂f/∂U ΔU] the derivative along ΔU
    "sens.u_grad_mtr": ROW_LAMBDA_V_U,  # (λ_t ⊙ V_{p,:})WQ_{t-1} the row it is in seed 000's formula
}

# --------------------------------------------------------------------------- gradient and dλ/dt (U)


_EQ16_GRAD_QUOTE = (
    "we can calculate U's first order gradient: ∇_U V_p s_t = Λ'_t V_pᵀ x_t + Q_{t−1} W̃ᵀ Λ̃'_t Ṽ_pᵀ"
)


@identity(
    "sens.eq16_grad",
    title="∇_U V_ps_t = Λ'_tV_pᵀx_t + Q_{t-1}W̃ᵀΛ̃'_tṼ_pᵀ (3-tensor form, text before eq. (16))",
    source=S1_B1.at("text before eq. (16)").quote(_EQ16_GRAD_QUOTE),
    statement=r"\nabla_{\mathbf{U}}\mathbf{V}_p\mathbf{s}_t = "
    r"\mathbf{\Lambda}_t'\mathbf{V}_p^T\mathbf{x}_t + \mathbf{Q}_{t-1}\tilde{\mathbf{W}}^T\tilde{\mathbf{"
    r"\Lambda}}_t'\tilde{\mathbf{V}}_p^T",
    expected=Verdict.HOLDS,
    same_as=("sens.u_grad_mtr", "sens.eq16_grad.inner"),
    **FD_PROBED["U"],
    notes="Read with V_pᵀx_tᵀ (outer product; the transpose on x_t is lost) and Q_{t−1} an H×N×H tensor "
    "whose third index is contracted with W̃ᵀ(λ'_t ⊙ V_pᵀ). The reading as typeset, an inner product, is "
    "sens.eq16_grad.inner.",
)
def eq16_grad(xp, U, W, s0, X, v, B, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="Q")
    u = fw["lam1"][T] * v
    g = xp.outer(u, X[:, T - 1]) + row_grad(xp, matvec(xp.transpose(W), u), fw["Q"][T - 1])
    vs = true_dvs(xp, U, W, s0, X, v, act, T, dU=B)
    return vs, frob(xp, g, B)


@identity(
    "sens.eq16_grad.inner",
    title="∇_U V_ps_t with 'Λ'_t V_pᵀ x_t' as typeset: V_pᵀx_t the inner product, times Λ'_t",
    source=S1_B1.at("text before eq. (16) (V_pᵀ x_t read as typeset, an inner product)").quote(
        _EQ16_GRAD_QUOTE
    ),
    statement=r"\nabla_{\mathbf{U}}\mathbf{V}_p\mathbf{s}_t = \mathbf{\Lambda}_t'\,(\mathbf{V}_p^T"
    r"\mathbf{x}_t) + \mathbf{Q}_{t-1}\tilde{\mathbf{W}}^T\tilde{\mathbf{\Lambda}}_t'\tilde{\mathbf{V}}_p^T"
    r",\ \mathbf{V}_p^T\mathbf{x}_t\in\mathbb{R}",
    expected=Verdict.REFUTED,
    same_as=("sens.eq16_grad",),
    inputs=sens_rnn_inputs(N="H", direction="U", probe=True),
    dims=SENS_RNN_DIMS,
    tol=FD_TOL,
    notes="The second reading of the gradient before eq. (16), as sens.eq26_grad.inner is of eq. (26); "
    "sens.eq16_grad reads V_pᵀ x_t as the outer product V_pᵀx_tᵀ. As typeset, with V_p (a row of V) "
    "transposed into a column, V_pᵀ x_t is the inner product of an H-vector and an N-vector, defined only "
    "for N = H (the inputs here), and Λ'_t (V_pᵀ x_t) is the H × H matrix (V_p·x_t) diag(λ'_t): the same "
    "as the outer product at H = 1, a different matrix from H = 2 on.",
)
def eq16_grad_inner(xp, U, W, s0, X, v, B, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="Q")
    l1 = fw["lam1"][T]
    inner = xp.sum(v * X[:, T - 1], axis=-1)
    tensor_part = row_grad(xp, matvec(xp.transpose(W), l1 * v), fw["Q"][T - 1])
    g = xp.diag_embed(l1) * inner[:, None, None] + tensor_part
    vs = true_dvs(xp, U, W, s0, X, v, act, T, dU=B)
    return vs, frob(xp, g, B)


@identity(
    "sens.u_dlambda_000",
    title="dλ_t/dt = λ''_t ⊙ (ΔUx_t + WQ_{t-1}vec ΔU), λ''_t = σ''(Ux_t + Ws_{t-1}) (U direction)",
    source=S0_LOSS_U.at("item 3").quote(
        "Let λ''_t be a column vector of σ''(Ux_t + W s_{t−1}): d/dt λ_t = λ''_t ⊙ [(X̄_t + W "
        "Q_{t−1})vec(ΔU)] = λ''_t ⊙ (ΔU x_t + W Q_{t−1} vec(ΔU))"
    ),
    statement=r"\frac{d}{dt}\lambda_t = \lambda_t''\odot[(\bar{\mathbf{X}}_t+\mathbf{W}\mathbf{Q}_{t-1})"
    r"\mathrm{vec}(\Delta\mathbf{U})] = \lambda_t''\odot(\Delta\mathbf{U}\mathbf{x}_t + "
    r"\mathbf{W}\mathbf{Q}_{t-1}\mathrm{vec}(\Delta\mathbf{U}))",
    expected=Verdict.HOLDS,
    same_as=("sens.dlambda_000.corrected",),
    **FD_PROBED["U"],
    relations=("=", "="),
    labels=("X̄/Q form", "expanded"),
    notes="Here the pre-activation index is right (compare sens.dlambda_000 in the W section).",
)
def u_dlambda_000(xp, U, W, s0, X, D, c, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="Q")
    l2, x, Q1 = fw["lam2"][T], X[:, T - 1], fw["Q"][T - 1]
    Xbar = bar_tensor(xp, x, U.shape[1])
    form1 = l2 * xp.einsum("bkij,bij->bk", Xbar + xp.einsum("bkm,bmij->bkij", W, Q1), D)
    form2 = l2 * (matvec(D, x) + xp.einsum("bkm,bmij,bij->bk", W, Q1, D))
    truth = true_dlam(xp, U, W, s0, X, act, T, dU=D)
    return xp.sum(c * truth, axis=-1), xp.sum(c * form1, axis=-1), xp.sum(c * form2, axis=-1)


_UP1_QUOTE = (
    "||(d/dt λ_t) ⊙ V_{p,:}ᵀ x_tᵀ||_{S1} ≤ ... ≤ ||λ''_t ⊙ (ΔU x_t + W Q_{t−1}vec(ΔU))||_2 ||V_{p,:}ᵀ||_∞ "
    "||x_tᵀ||_2 ≤ ||λ''_t||_∞ ||V_{p,:}ᵀ||_∞ ||x_tᵀ||_2 (||ΔU x_t||_2 + ||W Q_{t−1}vec(ΔU)||_2) ≤ ... "
    "(||x_t^2||_2 + √H max_p(...))"
)


@inequality(
    "sens.u_part1_chain_000",
    uses=("sens.u_dlambda_000",),
    title="Bound on ‖(dλ_t/dt) ⊙ V_pᵀx_tᵀ‖_{S¹} (seed 000 U, item 3), line by line",
    source=S0_LOSS_U.at("item 3").quote(_UP1_QUOTE),
    statement=r"\|(\tfrac{d}{dt}\lambda_t)\odot\mathbf{V}_{p,:}^T\mathbf{x}_t^T\|_{S^1} \le \ldots \le \|"
    r"\lambda_t''\|_\infty\|\mathbf{V}_{p,:}^T\|_\infty\|\mathbf{x}_t^T\|_2\|\Delta\mathbf{U}\|_{S^\infty}("
    r"\|\mathbf{x}_t^2\|_2 + \sqrt{H}\max_p(\|\mathrm{Mtr}(\mathbf{W}_{p,:}\mathbf{Q}_{t-1})\|_{S^1}))",
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
    step_is={5: "sens.u_x_squared_000"},
    expected_broken_step=5,
    notes="As written, step 5 bounds ‖ΔU x_t‖₂ by ‖ΔU‖_{S∞}‖x_t^2‖₂, which sens.u_x_squared_000 refutes: the "
    "proof as written breaks there (the check of the step itself reads ‖x_t^2‖₂ as ‖x_t‖₂, and holds). "
    "Unlike the W section (sens.w_part1_chain_000, broken at its step 4), the U section keeps λ''_t inside "
    "the norm, "
    "‖λ''_t ⊙ (ΔU x_t + W Q_{t−1}vec ΔU)‖₂, and then uses ‖λ'' ⊙ y‖₂ ≤ ‖λ''‖_∞‖y‖₂: steps 1-4 and 6 hold.",
)
def u_part1_chain_000(xp, U, W, s0, X, v, D, act, T):
    return part1_chain(xp, WRT["U"], U, W, s0, X, v, D, act, T, step3="inside")


@inequality(
    "sens.u_n_elem_000",
    title="Entrywise bound on N = Mtr((dλ_t/dt) ⊙ V_pWQ_{t-1}) (seed 000 U, item 4)",
    source=S0_LOSS_U.at("item 4").quote(
        "N_ij = d/dt λ_t ⊙ V_{p,:} W Q_{t−1,:,iN+j} ≤ ... ≤ ||λ''_t||_∞ ||ΔU||_{S∞}(||x_t||_2 + √H "
        "max_p(||Mtr(W_{p,:}Q_{t−1})||_{S1}) ||V_{p,:}||_∞ ||W||_{S∞} ||Q_{t−1,:,iN+j}||_2"
    ),
    statement=r"|\mathbf{N}_{ij}| \le \|\lambda_t''\|_\infty\|\Delta\mathbf{U}\|_{S^\infty}(\|\mathbf{x}_t"
    r"\|_2 + \sqrt{H}\max_p\|\mathrm{Mtr}(\mathbf{W}_{p,:}\mathbf{Q}_{t-1})\|_{S^1})\|\mathbf{V}_{p,:}\|_"
    r"\infty\|\mathbf{W}\|_{S^\infty}\|\mathbf{Q}_{t-1,:,iN+j}\|_2",
    expected=Verdict.HOLDS,
    inputs=sens_rnn_inputs(direction="U"),
    dims=SENS_RNN_DIMS_H2,
    notes="Checked as max_ij(|N_ij| − c‖Q_{t−1}(:, iN+j)‖₂) ≤ 0. The section ends here: no S¹ bound for N "
    "is given.",
)
def u_n_elem_000(xp, U, W, s0, X, v, D, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="Q")
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
    gap = entrywise_excess(xp, N, c, Qb)
    return gap, 0 * gap


# ------------------------------------------------------------------- eq. (12), (13), (23): first-order bounds


def _worst_row(xp, G_all):
    """The row p* maximising ‖G_p‖_{S¹} (chosen in float64) and G_{p*}."""
    n = np.asarray(s1(xp, G_all), dtype=float)
    p = np.argmax(n, axis=-1)
    return G_all[np.arange(G_all.shape[0]), p]


@inequality(
    "sens.eq12_holder",
    uses=("schatten.trace_duality",),
    title="Eq. (12), second step: tr[(∂[Vs_t]_p/∂U) ΔU] ≤ ‖Q_tṼ_p‖_{S¹}‖ΔU‖_{S∞} (first-order part)",
    source=S1_B1.at("eq. (12)").quote(
        "[Vs_t(U^k + ΔU) − Vs_t(U^k)]_p ≃ tr[∂[Vs_t]_p/∂U ΔU] ≤ ||Q_t Ṽ_p||_{S1} ||ΔU||_{S∞}"
    ),
    statement=r"\mathrm{tr}\Big[\frac{\partial[\mathbf{V}\mathbf{s}_t]_p}{\partial\mathbf{U}}\Delta"
    r"\mathbf{U}\Big] \le \|\mathbf{Q}_t\tilde{\mathbf{V}}_p\|_{S^1}\|\Delta\mathbf{U}\|_{S^\infty}",
    expected=Verdict.HOLDS,
    inputs=sens_rnn_inputs(direction="U"),
    dims=SENS_RNN_DIMS,
    notes="Q_tṼ_p = Σ_k V_pk Q_{t,:,:,k} = ∂[Vs_t]_p/∂U (3-tensor times vector), so this is Hölder, eq. "
    "(10); the trace is read as the pairing ⟨·, ΔU⟩. Tight (ratio 1) in the polar direction.",
)
def eq12_holder(xp, U, W, s0, X, v, D, act, T):
    G = last_row_gradient(xp, v, U, W, s0, X, act, T, "Q")
    return frob(xp, G, D), s1(xp, G) * sinf(xp, D)


def _worst_step(xp, U, W, V, s0, X, act, T, wrt):
    """The rows' gradients G_p = ∂[Vs_t]_p/∂U (or ∂W), max_p ‖G_p‖_{S¹}, and the step direction D: the
    polar factor of the maximising row's gradient (‖D‖_{S∞} = 1)."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors=wrt.sens)
    G_all = xp.einsum("bqk,bkij->bqij", V, fw[wrt.sens][T])
    D = polar_direction(xp, _worst_row(xp, G_all))
    return {"fw": fw, "D": D, "max_s1": xp.max(s1(xp, G_all), axis=-1)}


def _first_order_inf(xp, eps, U, W, V, s0, X, act, T, wrt):
    worst = _worst_step(xp, U, W, V, s0, X, act, T, wrt)
    D = worst["D"]
    s_new = states_at(xp, U, W, s0, X, act, **wrt.direction(D), e=eps)[T]
    lhs = inf_norm(xp, matvec(V, s_new) - matvec(V, worst["fw"]["states"][T]))
    return lhs, eps * worst["max_s1"] * sinf(xp, D)


def _first_order_table(wrt):
    """Eq. (13) (wrt U) and eq. (23) (wrt W) as their checks read them (S1_B1 "We can approximate s_t(U +
    ΔU) using its first order Taylor expansion", S1_B2 "Like formula 13"): s_t(·) the state at step T as a
    function of the parameter the statement moves, the other one fixed at the sampled value; Δ the step
    ε·D in the worst direction of the worst row (the check's `_worst_step`), the step the approximation's
    dim eps scales; max_p‖Q_tṼ_p‖_{S¹} (‖P_tṼ_p‖_{S¹}) over the K rows p of V, named whole because K is
    the sampled V's row count, not a dim an index range could name."""
    name, sens = wrt.name, wrt.sens

    def state(xp, moved, *, U, W, s0, X, act, T):
        moved_u, moved_w = (moved, W) if name == "U" else (U, moved)
        return states_at(xp, moved_u, moved_w, s0, X, act)[T]

    def step(xp, U, W, V, s0, X, act, T, eps):
        return eps * _worst_step(xp, U, W, V, s0, X, act, T, wrt)["D"]

    def max_s1(xp, U, W, V, s0, X, act, T):
        return _worst_step(xp, U, W, V, s0, X, act, T, wrt)["max_s1"]

    return (U_DIRECTION if name == "U" else W_DIRECTION).extend(
        f"checks/sensitivity/u.py (FIRST_ORDER_{name})",
        {
            r"\mathbf{s}_t": Function(state, doc=f"s_T as a function of {name}"),
            rf"\Delta\mathbf{{{name}}}": Derived(step, doc=f"Δ{name} = ε D, D the worst row's polar factor"),
            rf"\max_p\|\mathbf{{{sens}}}_t\tilde{{\mathbf{{V}}}}_p\|_{{S^1}}": Derived(
                max_s1, doc=f"max_p ‖{sens}_T Ṽ_p‖_{{S¹}} over the K rows of V"
            ),
        },
    )


#: eq. (13) and (23), the same first-order step for U and for W, in the worst direction of the worst row
_WORST_ROW = dict(
    expected=Verdict.APPROXIMATE, inputs=sens_rnn_inputs(K=3), dims=SENS_RNN_DIMS_H2, **FIRST_ORDER_STEP
)


@approximation(
    "sens.eq13_first_order",
    uses=("sens.eq12_holder",),
    title="Eq. (13): ‖Vs_t(U+ΔU) − Vs_t(U)‖_∞ ≤ max_p‖Q_tṼ_p‖_{S¹}‖ΔU‖_{S∞} — a first-order bound, worst "
    "direction",
    source=S1_B1.at("eq. (13)").quote(
        "The first part is easy. We can approximate s_t(U + ΔU) using its first order Taylor "
        "expansion. ... ||Vs_t(U^k + ΔU) − Vs_t(U^k)||_∞ ≤ max_p ||Q_t Ṽ_p||_{S1} ||ΔU||_{S∞}"
    ),
    statement=r"\|\mathbf{V}\mathbf{s}_t(\mathbf{U}^k+\Delta\mathbf{U}) - "
    r"\mathbf{V}\mathbf{s}_t(\mathbf{U}^k)\|_\infty \le \max_p\|\mathbf{Q}_t\tilde{\mathbf{V}}_p\|_{S^1}\|"
    r"\Delta\mathbf{U}\|_{S^\infty}",
    **_WORST_ROW,
    notes="ΔU = ε × polar factor of ∂[Vs_t]_{p*}/∂U for the maximising row p*: the direction in which the "
    "bound is tight to first order, so the remainder is the second-order term (order 2 measured) and the "
    "failure rate is the fraction of instances where that term pushes the true change above the bound. In "
    "other directions the bound has first-order slack. It is a first-order statement, not a bound.",
)
def eq13_first_order(xp, eps, U, W, V, s0, X, act, T):
    return _first_order_inf(xp, eps, U, W, V, s0, X, act, T, WRT["U"])


@approximation(
    "sens.eq23_first_order",
    title="Eq. (23): ‖Vs_t(W+ΔW) − Vs_t(W)‖_∞ ≤ max_p‖P_tṼ_p‖_{S¹}‖ΔW‖_{S∞} — first-order bound, worst "
    "direction",
    source=S1_B2.at("eq. (23)").quote(
        "Like formula 13, we can use first order approximation to obtain the upper bound of the "
        "first part. ||Vs_t(W^k + ΔW) − Vs_t(W^k)||_∞ ≤ max_p ||P_t Ṽ_p||_{S1} ||ΔW||_{S∞}"
    ),
    statement=r"\|\mathbf{V}\mathbf{s}_t(\mathbf{W}^k+\Delta\mathbf{W}) - "
    r"\mathbf{V}\mathbf{s}_t(\mathbf{W}^k)\|_\infty \le \max_p\|\mathbf{P}_t\tilde{\mathbf{V}}_p\|_{S^1}\|"
    r"\Delta\mathbf{W}\|_{S^\infty}",
    same_as=("sens.eq13_first_order",),
    **_WORST_ROW,
    notes="As eq. (13), for W.",
)
def eq23_first_order(xp, eps, U, W, V, s0, X, act, T):
    return _first_order_inf(xp, eps, U, W, V, s0, X, act, T, WRT["W"])


claim_symbols |= {
    "sens.eq13_first_order": _first_order_table(WRT["U"]),
    "sens.eq23_first_order": _first_order_table(WRT["W"]),
}
