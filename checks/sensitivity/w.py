r"""Sensitivity of s_t to the recurrent matrix W: seed 000 "Loss Bound with Respect to W" and seed 001 §B.2.

Ground truth (finite differences of the forward pass, ``checks/sensitivity/_helpers.py``) never uses the
recursion under test.  Every check evaluates the last step t = T; ``v`` plays the row V_{p,:}, ``D`` the
step ΔW, ``c`` and ``B`` are random probes (a matrix identity holds iff it holds against a random probe,
with probability one).
"""

import numpy as np

from checks._vocab.activations import SMOOTH, SUP_D1
from checks._vocab.fd import mixed
from checks._vocab.linalg import frob, inf_norm, matvec, norm2, s1, sinf
from checks._vocab.sources import S0_LOSS_W, S1_B2
from checks.sensitivity._helpers import (
    FD_PROBED,
    FD_TOL,
    QUAD_TOL,
    SENS_RNN_DIMS,
    SENS_RNN_DIMS_H2,
    bar_tensor,
    const,
    forward_sensitivities,
    row_grad,
    sens_rnn_inputs,
    states_at,
    true_ds,
    true_dvs,
    w_dgrad_parts,
)
from checks.sensitivity._mirror import WRT, integral_form
from checks.sensitivity._notation import INNER_W, W_DIRECTION
from lemmacheck import Array, OneHot, Scalar, Verdict, identity, inequality

#: the statements of this module are about the direction ΔW (checks/sensitivity/_notation.py)
symbols = W_DIRECTION
claim_symbols = {"sens.eq26_grad.inner": INNER_W}  # V_pᵀ y read as typeset, an inner product

# --------------------------------------------------------------------------- the gradient, P_t


@identity(
    "sens.w_grad_mtr",
    uses=("sens.w_linking", "sens.p_matrix_000"),
    title="∂[V s_t]_p/∂W = Mtr(V_{p,:} P_t) and its expansion Λ_t V_pᵀ s_{t-1}ᵀ + Mtr(V_p Λ_t W P_{t-1})",
    source=S0_LOSS_W.at("items 2.2 and 3.3").quote(
        "∇_W V_{p,:} s_t(W) = Mtr[V_{p,:} Λ_t (S̄_{t−1} + W P_{t−1})] = Λ_t V_{p,:}ᵀ s_{t−1}ᵀ + "
        "Mtr(V_{p,:} Λ_t W P_{t−1})"
    ),
    statement=r"\nabla_{\mathbf{W}}\mathbf{V}_{p,:}\mathbf{s}_t = "
    r"\mathrm{Mtr}(\mathbf{V}_{p,:}\mathbf{P}_t) = \mathrm{Mtr}[\mathbf{V}_{p,:}\Lambda_t(\bar{"
    r"\mathbf{S}}_{t-1}+\mathbf{W}\mathbf{P}_{t-1})] = \Lambda_t\mathbf{V}_{p,:}^T\mathbf{s}_{t-1}^T + "
    r"\mathrm{Mtr}(\mathbf{V}_{p,:}\Lambda_t\mathbf{W}\mathbf{P}_{t-1})",
    expected=Verdict.HOLDS,
    **FD_PROBED["W"],
    relations=("=", "=", "="),
    labels=("Mtr(V_p P_t)", "expanded recursion", "split into the two terms"),
    notes="Mtr reads the H²-vector row-major (entry iH+j → (i, j)); this is the only reading under which "
    "the document's own Mtr(V_p S̄_{t−1}) = V_pᵀ s_{t−1}ᵀ holds. Checked against ⟨·, B⟩ = d/de V_p s_t(W + "
    "eB).",
)
def w_grad_mtr(xp, U, W, s0, X, v, B, act, T):
    """⟨∇_W V_p s_t, B⟩ three ways against finite differences."""
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="P")
    truth = true_dvs(xp, U, W, s0, X, v, act, T, dW=B)
    l1, s_prev, P1 = fw["lam1"][T], fw["states"][T - 1], fw["P"][T - 1]
    Sbar = bar_tensor(xp, s_prev, W.shape[-1])
    WP = xp.einsum("bkm,bmij->bkij", W, P1)
    g1 = row_grad(xp, v, fw["P"][T])
    g2 = row_grad(xp, v * l1, Sbar + WP)
    g3 = xp.outer(l1 * v, s_prev) + row_grad(xp, v * l1, WP)
    return truth, frob(xp, g1, B), frob(xp, g2, B), frob(xp, g3, B)


# ------------------------------------------------------------------------ the integral form, first-order part


_INT_QUOTE = "[Vs_t(W^k + ΔW) − Vs_t(W^k)]_p = ∫_0^1 tr[∂[Vs_t(W)]_p/∂W |_{W=W^k+tΔW} ΔW] dt"


@identity(
    "sens.w_integral_000",
    uses=("sens.w_grad_mtr",),
    title="Integral form of [V s_t(W+ΔW) − V s_t(W)]_p with tr[(∂/∂W) ΔW] (no transpose), as written",
    source=S0_LOSS_W.at("item 3 (first display)").quote(_INT_QUOTE),
    statement=r"[\mathbf{V}\mathbf{s}_t(\mathbf{W}^k+\Delta\mathbf{W}) - "
    r"\mathbf{V}\mathbf{s}_t(\mathbf{W}^k)]_p = \int_0^1 \mathrm{tr}\Big[\frac{\partial[\mathbf{V}"
    r"\mathbf{s}_t(\mathbf{W})]_p}{\partial\mathbf{W}}\Big|_{\mathbf{W}^k+t\Delta\mathbf{W}}\Delta"
    r"\mathbf{W}\Big]dt",
    expected=Verdict.REFUTED,
    inputs=sens_rnn_inputs(direction="W", step=(-0.15, 0.15)),
    dims=SENS_RNN_DIMS,
    tol=QUAD_TOL,
    notes="With ∂f/∂W the matrix of entries ∂f/∂W_ij (as Mtr(V_p P_t) is defined), tr(G ΔW) = Σ G_ij ΔW_ji "
    "pairs G with ΔWᵀ; the fundamental theorem of calculus needs tr(Gᵀ ΔW) = ⟨G, ΔW⟩. The next line of the "
    "document does write ΔWᵀ, the line after drops it again (sens.w_chain_000). Fails from H = 2 on (for H "
    "= 1 both readings agree). The letter t is also both the time index and the integration variable. "
    "Corrected form: sens.w_integral_000.corrected.",
)
def w_integral_000(xp, U, W, s0, X, v, D, act, T):
    return integral_form(xp, WRT["W"], U, W, s0, X, v, D, act, T, literal=True)


@identity(
    "sens.w_integral_000.corrected",
    title="Integral form with the Frobenius pairing ⟨∂[V s_t]_p/∂W, ΔW⟩ = tr[(∂/∂W)ᵀ ΔW]",
    source=S0_LOSS_W.at("item 3 (first display, corrected)").quote(_INT_QUOTE),
    statement=r"[\mathbf{V}\mathbf{s}_t(\mathbf{W}^k+\Delta\mathbf{W}) - "
    r"\mathbf{V}\mathbf{s}_t(\mathbf{W}^k)]_p = \int_0^1 \mathrm{tr}\Big[\frac{\partial[\mathbf{V}"
    r"\mathbf{s}_t]_p}{\partial\mathbf{W}}\Big|_{\mathbf{W}^k+t\Delta\mathbf{W}}^T\Delta\mathbf{W}\Big]dt",
    expected=Verdict.HOLDS,
    corrects="sens.w_integral_000",
    inputs=sens_rnn_inputs(direction="W", step=(-0.15, 0.15)),
    dims=SENS_RNN_DIMS,
    tol=QUAD_TOL,
)
def w_integral_000_corrected(xp, U, W, s0, X, v, D, act, T):
    return integral_form(xp, WRT["W"], U, W, s0, X, v, D, act, T, literal=False)


@inequality(
    "sens.w_chain_000",
    uses=("sens.w_integral_000", "sens.w_first_order_000", "sens.lambda_below_max_000"),
    title="The W first-order derivation of seed 000, line by line (a transpose is dropped in line 3)",
    source=S0_LOSS_W.at("item 3 (second display)").quote(
        "= max_x σ'(x) {V_{p,:} ΔW s_{t−1} + tr[Mtr(V_{p,:} W^k P_{t−1}) ΔW]} ≤ max_x σ'(x) "
        "{||V_{p,:}||_2 ||ΔW||_{S∞} ||s_{t−1}||_2 + ||Mtr(V_{p,:} W^k P_{t−1})||_{S1} ||ΔW||_{S∞}}"
    ),
    statement=r"\max\sigma'\,\mathrm{tr}[\mathrm{Mtr}(\mathbf{V}_{p,:}(\bar{\mathbf{S}}_{t-1}+\mathbf{W}"
    r"\mathbf{P}_{t-1}))\Delta\mathbf{W}^T] = \max\sigma'\{\mathrm{tr}[\mathbf{V}_{p,:}^T\mathbf{s}_{t-1}^T"
    r"\Delta\mathbf{W}^T] + \mathrm{tr}[\mathrm{Mtr}(\mathbf{V}_{p,:}\mathbf{W}\mathbf{P}_{t-1})\Delta"
    r"\mathbf{W}^T]\} = \max\sigma'\{\mathbf{V}_{p,:}\Delta\mathbf{W}\mathbf{s}_{t-1} + \mathrm{tr}["
    r"\mathrm{Mtr}(\mathbf{V}_{p,:}\mathbf{W}\mathbf{P}_{t-1})\Delta\mathbf{W}]\} \le \max\sigma'\{\|"
    r"\mathbf{V}_{p,:}\|_2\|\Delta\mathbf{W}\|_{S^\infty}\|\mathbf{s}_{t-1}\|_2 + \|\mathrm{Mtr}(\cdot)"
    r"\|_{S^1}\|\Delta\mathbf{W}\|_{S^\infty}\} = \max\sigma'\|\Delta\mathbf{W}\|_{S^\infty}\{\ldots\}",
    expected=Verdict.HOLDS,
    expected_broken_step=2,
    inputs=sens_rnn_inputs(direction="W"),
    dims=SENS_RNN_DIMS,
    relations=("=", "=", "<=", "="),
    labels=(
        "Mtr(V_p S̄_{t-1}) = V_pᵀ s_{t-1}ᵀ",
        "tr[V_pᵀ s_{t-1}ᵀ ΔWᵀ] = V_p ΔW s_{t-1}; second trace loses its ᵀ",
        "Hölder (eq. 10) and ‖V_pᵀ s ᵀ‖_{S¹} = ‖V_p‖‖s‖",
        "factor ‖ΔW‖_{S∞}",
    ),
    notes="End to end the chain is true (Hölder bounds either trace), but step 2 is not an identity: "
    "tr[Mtr(V_p W P_{t−1}) ΔW] ≠ tr[Mtr(V_p W P_{t−1}) ΔWᵀ] once H ≥ 2.",
)
def w_chain_000(xp, U, W, s0, X, v, D, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="P")
    s_prev, P1 = fw["states"][T - 1], fw["P"][T - 1]
    m = SUP_D1[act]
    A2 = row_grad(xp, v, xp.einsum("bkm,bmij->bkij", W, P1))
    e0 = m * frob(xp, xp.outer(v, s_prev) + A2, D)
    e1 = m * (frob(xp, xp.outer(v, s_prev), D) + frob(xp, A2, D))
    e2 = m * (xp.sum(v * matvec(D, s_prev), axis=-1) + xp.trace(xp.matmul(A2, D)))
    nd = sinf(xp, D)
    e3 = m * (norm2(xp, v) * nd * norm2(xp, s_prev) + s1(xp, A2) * nd)
    e4 = m * nd * (norm2(xp, v) * norm2(xp, s_prev) + s1(xp, A2))
    return e0, e1, e2, e3, e4


# ----------------------------------------------------------------------- d/dt ∇_W V_p s_t: four parts vs five


@identity(
    "sens.eq26_grad",
    title="Eq. (26): ∇_W(V_p s_t) = (S̄_{t-1} + P_{t-1}W̃ᵀ)Λ̃'_t Ṽ_pᵀ = Λ'_t V_pᵀ s_{t-1} + "
    "P_{t-1}W̃ᵀΛ̃'_tṼ_pᵀ (3-tensor form)",
    source=S1_B2.at("eq. (26)").quote(
        "∇_W(V_p s_t) = (S̄_{t−1} + P_{t−1}W̃ᵀ)Λ̃'_t Ṽ_pᵀ = Λ'_t V_pᵀ s_{t−1} + P_{t−1}W̃ᵀΛ̃'_tṼ_pᵀ"
    ),
    statement=r"\nabla_{\mathbf{W}}(\mathbf{V}_p\mathbf{s}_t) = (\bar{\mathbf{S}}_{t-1} + \mathbf{P}_{t-1}"
    r"\tilde{\mathbf{W}}^T)\tilde{\mathbf{\Lambda}}'_t\tilde{\mathbf{V}}_p^T = "
    r"\mathbf{\Lambda}'_t\mathbf{V}_p^T\mathbf{s}_{t-1} + \mathbf{P}_{t-1}\tilde{\mathbf{W}}^T\tilde{"
    r"\mathbf{\Lambda}}'_t\tilde{\mathbf{V}}_p^T",
    expected=Verdict.HOLDS,
    same_as=("sens.w_grad_mtr", "sens.eq26_grad.inner"),
    **FD_PROBED["W"],
    relations=("=", "="),
    labels=("tensor form (S̄ + P W̃ᵀ) ×₃ (λ' ⊙ V_p)", "split"),
    # the split as typeset (V_pᵀ s_{t-1} an inner product) is sens.eq26_grad.inner, REFUTED
    step_is={2: "sens.eq26_grad.inner"},
    expected_broken_step=2,
    notes="Reading of the 3-tensor notation: P_{t−1} is H×H×H with P_{:,:,q} = ∂s_{t−1,q}/∂W, T·ṽ "
    "contracts the third index with a vector (Lemma 4's T ṽ), W̃ᵀ acts on the third index, S̄_{t−1}[i,j,q] "
    "= δ_iq s_{t−1,j}. 'V_pᵀ s_{t−1}' must be the outer product V_pᵀ s_{t−1}ᵀ (a transpose is lost in the "
    "conversion); the reading as typeset, an inner product, is sens.eq26_grad.inner, which is REFUTED: "
    "step 2 as typeset is that claim (step_is), so the proof as written is broken there while the "
    "statement read with the outer product holds.",
)
def eq26_grad(xp, U, W, s0, X, v, B, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="P")
    truth = true_dvs(xp, U, W, s0, X, v, act, T, dW=B)
    l1, s_prev, P1 = fw["lam1"][T], fw["states"][T - 1], fw["P"][T - 1]
    u = l1 * v  # Λ̃'_t Ṽ_pᵀ
    Sbar = bar_tensor(xp, s_prev, W.shape[-1])  # [q, i, j] = δ_qi s_j
    PWt = xp.einsum("bqij,bkq->bkij", P1, W)  # (P_{t-1} W̃ᵀ)[k] = Σ_q W_kq P[q]
    g_tensor = row_grad(xp, u, Sbar + PWt)
    g_split = xp.outer(u, s_prev) + row_grad(xp, u, PWt)
    return truth, frob(xp, g_tensor, B), frob(xp, g_split, B)


@identity(
    "sens.eq26_grad.inner",
    title="Eq. (26) with 'Λ'_t V_pᵀ s_{t-1}' as typeset: V_pᵀs_{t-1} the inner product, times Λ'_t",
    source=S1_B2.at("eq. (26) (V_pᵀ s_{t−1} read as typeset, an inner product)").quote(
        "∇_W(V_p s_t) = (S̄_{t−1} + P_{t−1}W̃ᵀ)Λ̃'_t Ṽ_pᵀ = Λ'_t V_pᵀ s_{t−1} + P_{t−1}W̃ᵀΛ̃'_tṼ_pᵀ"
    ),
    statement=r"\nabla_{\mathbf{W}}(\mathbf{V}_p\mathbf{s}_t) = \mathbf{\Lambda}'_t\,(\mathbf{V}_p^T"
    r"\mathbf{s}_{t-1}) + \mathbf{P}_{t-1}\tilde{\mathbf{W}}^T\tilde{\mathbf{\Lambda}}'_t"
    r"\tilde{\mathbf{V}}_p^T,\ \mathbf{V}_p^T\mathbf{s}_{t-1}\in\mathbb{R}",
    expected=Verdict.REFUTED,
    same_as=("sens.eq26_grad",),
    **FD_PROBED["W"],
    notes="The second reading of eq. (26)'s split; sens.eq26_grad reads V_pᵀ s_{t−1} as the outer product "
    "V_pᵀ s_{t−1}ᵀ. As typeset, with V_p (a row of V) transposed into a column, V_pᵀ s_{t−1} is the inner "
    "product of two H-vectors, a number, and Λ'_t (V_pᵀ s_{t−1}) the H × H diagonal matrix "
    "(V_p·s_{t−1}) diag(λ'_t): the same as the outer product at H = 1, a different matrix from H = 2 on.",
)
def eq26_grad_inner(xp, U, W, s0, X, v, B, act, T):
    fw = forward_sensitivities(xp, U, W, s0, X, act, tensors="P")
    truth = true_dvs(xp, U, W, s0, X, v, act, T, dW=B)
    l1, s_prev, P1 = fw["lam1"][T], fw["states"][T - 1], fw["P"][T - 1]
    PWt = xp.einsum("bqij,bkq->bkij", P1, W)
    inner = xp.sum(v * s_prev, axis=-1)
    g_inner = xp.diag_embed(l1) * inner[:, None, None] + row_grad(xp, l1 * v, PWt)
    return truth, frob(xp, g_inner, B)


def _dgrad_sides(xp, U, W, s0, X, v, D, B, act, T, n_parts):
    """⟨d/dt ∇_W V_p s_t(W + tD)|_0, B⟩ = ∂²/∂a∂b V_p s_t(W + aD + bB) by nested finite differences,
    against the pairing of B with the sum of the first ``n_parts`` parts of w_dgrad_parts."""
    parts, _, _ = w_dgrad_parts(xp, v, U, W, s0, X, act, T, D)
    truth = mixed(xp, lambda a, b: xp.sum(v * states_at(xp, U, W + a * D + b * B, s0, X, act)[T], axis=-1))
    return truth, frob(xp, sum(parts[1:n_parts], parts[0]), B)


#: d/dt ∇_W V_p s_t along D, paired with a probe B and checked against nested finite differences
_DGRAD = dict(inputs=sens_rnn_inputs(direction="W", probe=True), dims=SENS_RNN_DIMS_H2, tol=FD_TOL)


_EQ27_QUOTE = (
    "d/d_t ∇_W(V_p s_t) = d/d_t Λ'_t V_pᵀ s_{t−1} + Λ'_t V_pᵀ d/d_t s_{t−1} + P_{t−1} d/d_t W̃ᵀ Λ̃'_t Ṽ_pᵀ "
    "+ P_{t−1} W̃ᵀ d/d_t Λ̃'_t Ṽ_pᵀ"
)


@identity(
    "sens.eq27_four_parts",
    uses=("sens.eq26_grad",),
    title="Eq. (27): d/dt ∇_W(V_p s_t) 'contains four parts' (as an identity)",
    source=S1_B2.at("eq. (27)").quote("is complicated and contains four parts. " + _EQ27_QUOTE),
    statement=r"\frac{d}{d_t}\nabla_{\mathbf{W}}(\mathbf{V}_p\mathbf{s}_t) = \frac{d}{d_t}\mathbf{"
    r"\Lambda}'_t\mathbf{V}_p^T\mathbf{s}_{t-1} + \mathbf{\Lambda}'_t\mathbf{V}_p^T\frac{d}{d_t}"
    r"\mathbf{s}_{t-1} + \mathbf{P}_{t-1}\frac{d}{d_t}\tilde{\mathbf{W}}^T\tilde{\mathbf{\Lambda}}'_t"
    r"\tilde{\mathbf{V}}_p^T + \mathbf{P}_{t-1}\tilde{\mathbf{W}}^T\frac{d}{d_t}\tilde{\mathbf{\Lambda}}'_t"
    r"\tilde{\mathbf{V}}_p^T",
    expected=Verdict.REFUTED,
    **_DGRAD,
    notes="The product rule on P_{t−1}W̃ᵀΛ̃'_tṼ_pᵀ has a fifth term, (dP_{t−1}/dt) W̃ᵀΛ̃'_tṼ_pᵀ. Eq. (27) "
    "is stated as an equality without mentioning any omission (for U the text says it ignores "
    "dQ_{t−1}/dt). The missing term is of the same order in ‖ΔW‖ as the four kept ones "
    "(second_order.w_dropped_000). Needs T ≥ 2 (P_{t−1} depends on W only from t = 3 on, or t = 2 when s_0 "
    "≠ 0).",
)
def eq27_four_parts(xp, U, W, s0, X, v, D, B, act, T):
    return _dgrad_sides(xp, U, W, s0, X, v, D, B, act, T, n_parts=4)


@identity(
    "sens.eq27_five_parts",
    title="d/dt ∇_W(V_p s_t) with the fifth part P-dot: (dP_{t-1}/dt) W̃ᵀ Λ̃'_t Ṽ_pᵀ",
    source=S1_B2.at("eq. (27) (corrected)").quote(_EQ27_QUOTE),
    statement=r"\frac{d}{d_t}\nabla_{\mathbf{W}}(\mathbf{V}_p\mathbf{s}_t) = (\text{four parts of eq. "
    r"(27)}) + \frac{d\mathbf{P}_{t-1}}{d_t}\tilde{\mathbf{W}}^T\tilde{\mathbf{\Lambda}}'_t\tilde{"
    r"\mathbf{V}}_p^T",
    expected=Verdict.HOLDS,
    corrects="sens.eq27_four_parts",
    same_as=("sens.w_dgrad_000.corrected",),
    **_DGRAD,
    notes="dP_{t−1}/dt from the exact tangent recursion Ṗ_t = λ̇_t(S̄_{t−1} + WP_{t−1}) + λ_t(dS̄_{t−1} + "
    "ΔW P_{t−1} + W Ṗ_{t−1}) (derived here); the check is against nested finite differences of the forward "
    "pass.",
)
def eq27_five_parts(xp, U, W, s0, X, v, D, B, act, T):
    return _dgrad_sides(xp, U, W, s0, X, v, D, B, act, T, n_parts=5)


@identity(
    "sens.w_dgrad_000.corrected",
    title="Seed 000's four-part d/dt ∇_W V_{p,:}s_t completed by Mtr(V_p Λ_t W dP_{t-1}/dt)",
    source=S0_LOSS_W.at("item 3.3 (corrected)").quote(
        "d/dt ∇_W V_{p,:}s_t(W) = (d/dt λ_t) ⊙ V_{p,:}ᵀ s_{t−1}ᵀ + Λ_t V_{p,:}ᵀ (d/dt s_{t−1}ᵀ) + "
        "Mtr(V_{p,:} d/dt Λ_t W P_{t−1}) + Mtr(V_{p,:} Λ_t ΔW P_{t−1})"
    ),
    statement=r"\frac{d}{dt}\nabla_{\mathbf{W}}\mathbf{V}_{p,:}\mathbf{s}_t = (\tfrac{d}{dt}\lambda_t)\odot"
    r"\mathbf{V}_{p,:}^T\mathbf{s}_{t-1}^T + \Lambda_t\mathbf{V}_{p,:}^T\tfrac{d}{dt}\mathbf{s}_{t-1}^T + "
    r"\mathrm{Mtr}(\mathbf{V}_{p,:}\tfrac{d}{dt}\Lambda_t\mathbf{W}\mathbf{P}_{t-1}) + \mathrm{Mtr}("
    r"\mathbf{V}_{p,:}\Lambda_t\Delta\mathbf{W}\mathbf{P}_{t-1}) + \mathrm{Mtr}(\mathbf{V}_{p,:}\Lambda_t"
    r"\mathbf{W}\tfrac{d}{dt}\mathbf{P}_{t-1})",
    expected=Verdict.HOLDS,
    corrects="second_order.w_dropped_000",
    same_as=("sens.eq27_five_parts",),
    **_DGRAD,
)
def w_dgrad_000_corrected(xp, U, W, s0, X, v, D, B, act, T):
    return _dgrad_sides(xp, U, W, s0, X, v, D, B, act, T, n_parts=5)


# --------------------------------------------------------------- item 1 (general bound) and item 2.1's remark


_GB_INPUTS = {
    "U": Array("H", 2, low=-2.0, high=2.0),
    "W": Array("H", "H", low=-1.2, high=1.2),
    "V": Array(3, "H", low=-2.0, high=2.0),
    "s0": Array("H", low=-1.0, high=1.0),
    "X": Array("T", 2, low=-2.0, high=2.0),
    "Y": OneHot("T", 3),
    "DU": Array("H", 2, low=-1.0, high=1.0),
    "DW": Array("H", "H", low=-1.0, high=1.0),
    "step": Scalar(1e-3, 2.0, log=True),
}


@inequality(
    "sens.general_bound_000",
    uses=("lemma1.bound_hw", "lemma2.bound_hw"),
    title="Seed 000 (W, item 1): E(Φ+ΔΦ) ≤ E(Φ) + ⟨∇E, ΔΦ⟩ + (1/M)Σ_t(½‖ΔVs_t‖∞² + 2‖ΔVs_t − ⟨V∇s_t, "
    "ΔΦ⟩‖∞), Φ = {W, U}",
    source=S0_LOSS_W.at("item 1").quote(
        "E(Φ + ΔΦ) ≤ E(Φ) + ⟨∇_Φ E(Φ), ΔΦ⟩ + 1/M Σ_{t=1}^M (1/2 ||Vs_t(Φ + ΔΦ) − Vs_t(Φ)||_∞^2 + "
        "2||Vs_t(Φ + ΔΦ) − Vs_t(Φ) − ⟨V∇_{s_t(Φ)}, ΔΦ⟩||_∞)"
    ),
    statement=r"E(\Phi+\Delta\Phi) \le E(\Phi) + \langle\nabla_\Phi E(\Phi),\Delta\Phi\rangle + \frac1M"
    r"\sum_{t=1}^M\Big(\frac12\|\mathbf{V}\mathbf{s}_t(\Phi+\Delta\Phi)-\mathbf{V}\mathbf{s}_t(\Phi)\|_"
    r"\infty^2 + 2\|\mathbf{V}\mathbf{s}_t(\Phi+\Delta\Phi)-\mathbf{V}\mathbf{s}_t(\Phi)-\langle\mathbf{V}"
    r"\nabla_{\mathbf{s}_t(\Phi)},\Delta\Phi\rangle\|_\infty\Big)",
    expected=Verdict.HOLDS,
    same_as=("loss.eq7",),
    inputs=_GB_INPUTS,
    dims={"H": [1, 2, 3], "T": [1, 3], "act": SMOOTH},
    notes="Seed 000's form of seed 001 eq. (7), averaged over the M = T tokens, with Φ = {W, U} moved "
    "together (ΔΦ = step·(DU, DW)). '⟨V∇_{s_t(Φ)}, ΔΦ⟩' is read as the first-order change ⟨V∇_Φ s_t(Φ), "
    "ΔΦ⟩ (garbled subscript). Gradients from the P/Q recursions (checked in sens.*_grad_mtr). True: Lemma "
    "1 + Lemma 2 per token (softmax and y are probability vectors, so ⟨p − y, r⟩ ≤ 2‖r‖∞).",
)
def general_bound_000(xp, U, W, V, s0, X, Y, DU, DW, step, act, T):
    from checks._vocab.rnn import sequence_loss

    dU, dW = DU * step[:, None, None], DW * step[:, None, None]
    fw = forward_sensitivities(xp, U, W, s0, X, act)
    new_states = states_at(xp, U, W, s0, X, act, dU=dU, dW=dW, e=1.0)
    E0 = sequence_loss(xp, U, W, V, s0, X, Y, act)
    E1 = sequence_loss(xp, U + dU, W + dW, V, s0, X, Y, act)
    grad_term, extra = 0, 0
    for t in range(1, T + 1):
        z = matvec(V, fw["states"][t])
        resid = xp.softmax(z, axis=-1) - Y[:, t - 1]
        g = matvec(xp.transpose(V), resid)  # ∇_{s_t} E_t
        ds_lin = xp.einsum("bkij,bij->bk", fw["P"][t], dW) + xp.einsum("bkij,bij->bk", fw["Q"][t], dU)
        grad_term = grad_term + xp.sum(g * ds_lin, axis=-1)
        dz = matvec(V, new_states[t]) - z
        r = dz - matvec(V, ds_lin)
        extra = extra + 0.5 * inf_norm(xp, dz) ** 2 + 2 * inf_norm(xp, r)
    return E1 - E0 - grad_term / T, extra / T


@identity(
    "sens.w_offdiag_000",
    title="With s_0 = 0, ∂[s_t]_p/∂W_ij = 0 for p ≠ i up to t = 2 (the 'mistake' of item 2.1 holds only "
    "there)",
    source=S0_LOSS_W.at("item 2.1").quote(
        "Last week, I made a mistake. ∂[s_t(W)]_p/∂W_ij ≠ 0 even if p ≠ i when t > 2."
    ),
    statement=r"\mathbf{s}_0 = 0:\ \frac{\partial[\mathbf{s}_t]_p}{\partial\mathbf{W}_{ij}} = 0\ (p \ne "
    r"i,\ t \le 2),\quad \ne 0 \text{ in general for } t > 2",
    expected=Verdict.HOLDS,
    corrects="sens.w_offdiag_s0_000",
    inputs=sens_rnn_inputs(direction="W", probe=True),
    dims={"H": [2, 3], "T": [2], "act": SMOOTH},
    tol=FD_TOL,
    notes="Checked: at t = 2 with s_0 = 0, the derivative of s_2 along a perturbation of row i = 1 of W "
    "has no component p ≠ 1 (finite differences). From t = 3 on it does (sens.p_matrix_000.corrected "
    "exercises those entries). With s_0 ≠ 0 the threshold is t ≥ 2, not t > 2: the statement implicitly "
    "assumes s_0 = 0, which the document never states.",
)
def w_offdiag_000(xp, U, W, s0, X, c, B, act):
    H = W.shape[-1]
    row0 = const(xp, np.eye(H)[0])
    Brow = B * row0[None, :, None]  # only row i = 0 perturbed
    zero_s0 = 0 * s0
    ds2 = true_ds(xp, U, W, zero_s0, X, act, 2, dW=Brow)
    off = xp.sum(c * ds2 * (1 - row0)[None, :], axis=-1)
    return off, 0 * off
