"""The sensitivity topic's statements read with checks/sensitivity/_notation.py: each listed statement
compiles and agrees with its hand-written check, and a drift planted in the LaTeX of one is reported as a
difference (the table's reading is what is compared, not a reading that agrees with anything)."""

from __future__ import annotations

import dataclasses

import pytest

from lemmacheck import REGISTRY
from lemmacheck.latex.crosscheck import statement_check
from lemmacheck.project.discovery import discover
from statement_vocab import assert_agrees

discover()

#: statements the sensitivity tables read (W_DIRECTION, U_DIRECTION and the claim tables built on them)
READ_BY_THE_SENSITIVITY_TABLES = [
    "sens.dlambda_000",  # dλ_t/dt, λ''_t, ΔW s_{t-1}, P_{t-1} (H×H²), vec; σ''(U x_t + W s_t) as written
    "sens.dlambda_000.corrected",  # σ''(U x_t + W s_{t-1}) = λ''_t
    "sens.w_trace_elem_000",  # Mtr(W_{p,:} P_{t-1}) with W_{p,:} the first row, as chains_tex.py
    "sens.w_part3_s1_000",  # M of item 3.3.3, P̄_{t-1}, rows 1×H with ‖·‖_p of their entries
    "sens.w_part4_s1_000",  # Mtr(V_{p,:} Λ_t ΔW P_{t-1})
    "sens.u_dlambda_000",  # X̄_t and Q_{t-1} as H×HN, vec(ΔU)
    "sens.lambda_below_max_000",  # max_k [Λ_t]_kk and max_x σ'(x) (SUP_D1)
    "sens.w_part2_000",  # Λ_t, V_{p,:}ᵀ, ds_{t-1}/dt a row; P_{t-1,p} the row p bound by \max_p
    "sens.tensor_bound_000",  # (‖Mtr(W_{p,:}P_{t-1})‖_{S¹})_p, and W_{p,:} bound by \max_p
    "sens.pdot_recursion",  # Ṗ_t, λ̇_t, ż_t, S̄ of ṡ, compared as cᵀ M vec(B) (TANGENTS_W)
    "sens.qdot_recursion",  # Q̇_t (TANGENTS_U)
    "sens.w_grad_mtr",  # ∇_W V_{p,:} s_t (recursion), Mtr of a row, compared as ⟨B, M⟩
    "sens.eq16_grad",  # seed 001's Q_{t-1}W̃ᵀΛ̃'_tṼ_pᵀ, V_pᵀx_t the outer product
    "sens.eq26_grad",  # (S̄_{t-1} + P_{t-1}W̃ᵀ)Λ̃'_tṼ_pᵀ
    "sens.eq27_four_parts",  # the four parts of eq. (27) and d/dt ∇_W(V_p s_t)
    "sens.eq17",  # λ̇'_t ⊙ V_pᵀ (a phrase: rows are 1×n matrices), Q_{t-1,:,:,q} as written
    "sens.eq17.corrected",  # λ_{t_q}', λ_{t_q}'', Q_{t,:,:,q} bound by \max_q
    "sens.holder_000",  # p, q of the dim pq and r of 1/r = 1/p + 1/q (HOLDER_PQ; r = 1/2 a quasi-norm)
    "sens.p_matrix_000.corrected",  # P_t = Λ_t(S̄_{t-1} + W P_{t-1}) compared as cᵀ P_t vec(B) (CMB_W)
    "sens.eq12_holder",  # tr[∂[Vs_t]_p/∂U ΔU] with ∂/∂U N×H (SEED001_TRACE_U), Q_tṼ_p
    "sens.u_first_order_000",  # an approximation: [Vs_t(U^k + εD) − Vs_t(U^k)]_p, ε the step eps
    "sens.w_first_order_000",  # and ε⟨∇_W V_{p,:}s_t, D⟩ by the recursion
    "sens.eq16_grad.inner",  # V_pᵀx_t as typeset (INNER_U), "\in\mathbb{R}" a condition
    "sens.eq26_grad.inner",  # V_pᵀs_{t-1} as typeset (INNER_W)
    "sens.eq17.inner",  # \mathbf{x_t} and V_pᵀx_t as typeset
    "sens.eq28.inner",
    "sens.eq18",  # Q_{t-1}W̃ᵀ(dΛ̃'_t/dt)Ṽ_pᵀ, ‖Q_{t-1:,:,*}‖_{S¹} the slice norms, λ_{tq}' bound by \max_q
    "sens.eq31",  # its unlabelled ‖P_{t-1:,:,q}‖ read as S¹ (UNLABELLED_S1_W)
    "sens.eq30",  # P_{t-1}(dW̃ᵀ/dt)Λ̃'_tṼ_pᵀ, ΔWᵀΛ'_tV_pᵀ
    "sens.lemma4",  # T ṽ, ‖T_{:,:,*}‖_{S¹} (LEMMA4)
    "sens.lemma4_proof",  # Σ_p v_p T_{:,:,p} with T_{:,:,p} = Tt[p]
    # the norms topic's Lemma 4 claims, read by the same lemma4_table (checks/norms/_notation.py) with their
    # tensor T and slice dim P
    "lemma4.bound",
    "lemma4.chain",
    "lemma4.middle_step",
    "lemma4.middle_step.corrected",
    "sens.w_lambda_out_000",  # max_x σ'(x) (SUP_D1) a phrase at a prefix operator
    "lemma3.as_written",  # λ_{t_q}'^{-1} λ_{t_q}'' ‖Q_{t:,:,q}‖_{S¹} bound by \max_q
    "lemma3.corrected",
    "sens.eq18.corrected",
    "sens.eq28",  # the W parts: P_{t-1:,:,q}, ‖P_{t-1:,:,*}‖_{S¹}
    "sens.eq28.corrected",
    "sens.eq31.corrected",
    "sens.u_first_order_bound_000",  # '≲': the first-order change, worst direction (FIRST_ORDER_BOUND_U)
    "sens.w_first_order_bound_000",
    "sens.w_part1_chain_000.corrected",  # odot_binds="tight": ((dλ_t/dt) ⊙ V_{p,:}ᵀ) s_{t-1}ᵀ, rows as rows
    "sens.eq13_first_order",  # s_t(·) a function of U, ΔU the check's worst step εD (u.py's FIRST_ORDER_U)
    "sens.eq23_first_order",  # and of W (FIRST_ORDER_W)
    "lip.l_u",  # L_U compiled from the statement's own definition clause (L_U_TERMS)
    "sens.u_grad_mtr",  # ∂[Vs_t]_p/∂U in U's layout, (λ_t ⊙ V_{p,:})WQ_{t-1} a row (ROW_LAMBDA_V_U)
    "sens.eq29",  # tr[∂s_{t-1}/∂W ΔW] the derivative along ΔW, d/d_t s_{t-1}ᵀ a row
    "sens.w_dgrad_000.corrected",  # d/dt ∇_W V_{p,:}s_t the exact tangent, d/dt P_{t-1} = Ṗ_{t-1}
    "sens.u_lambda_out_000",  # tr[Mtr(·)ΔU] of two H×N matrices read as the pairing (PAIRING_TRACE_U)
    "lemma3.eq19",  # both 3-tensor sides through the probe B (EQ19_PROBED)
    "lemma3.eq20",  # the free row p the check's first row, ∂λ'_t/∂W_{:,:,p} transposed (EQ20_ROW_ONE)
    "lemma3.eq20.corrected",
]


@pytest.mark.parametrize("claim_id", READ_BY_THE_SENSITIVITY_TABLES)
def test_the_statement_read_with_the_sensitivity_tables_agrees_with_the_check(claim_id):
    assert_agrees(claim_id)


#: (claim, LaTeX as written, the drift planted in it): each changes what the statement states
PLANTED = [
    (  # the pre-activation index (the very slip of sens.dlambda_000)
        "sens.dlambda_000.corrected",
        r"\mathbf{W}\mathbf{s}_{t-1})\odot",
        r"\mathbf{W}\mathbf{s}_t)\odot",
    ),
    ("sens.w_part4_s1_000", r"\|\mathbf{V}_{p,:}\|_2", r"\|\mathbf{V}_{p,:}\|_\infty"),  # a norm index
    ("sens.u_dlambda_000", r"(\Delta\mathbf{U}\mathbf{x}_t + ", "("),  # a missing term
    ("sens.w_trace_elem_000", r"\Delta\mathbf{W}] \le", r"\Delta\mathbf{W}^T] \le"),  # a transpose
    (  # a factor: ‖·‖ of the row norms scaled
        "sens.tensor_bound_000",
        r"\le \sqrt H\max_p",
        r"\le \frac{1}{2}\sqrt H\max_p",
    ),
    (
        "sens.w_grad_mtr",
        r"\Lambda_t\mathbf{V}_{p,:}^T\mathbf{s}_{t-1}^T +",
        r"\mathbf{V}_{p,:}^T\mathbf{s}_{t-1}^T +",
    ),
    (  # the slice q at t-1 instead of t (the very slip of sens.eq17)
        "sens.eq17.corrected",
        r"\|\mathbf{Q}_{t,:,:,q}\|_{S^1}",
        r"\|\mathbf{Q}_{t-1,:,:,q}\|_{S^1}",
    ),
    (  # a coefficient of a first-order statement
        "sens.w_first_order_000",
        r"\le \epsilon\,\langle",
        r"\le 2\epsilon\,\langle",
    ),
    ("lip.l_u", r"L_{\mathbf{U}} = \frac12", r"L_{\mathbf{U}} = \frac14"),  # a factor in a definition clause
    (  # an exponent
        "sens.eq13_first_order",
        r"\|\Delta\mathbf{U}\|_{S^\infty}",
        r"\|\Delta\mathbf{U}\|_{S^\infty}^2",
    ),
    ("sens.u_grad_mtr", r"(\mathbf{V}_{p,:}\mathbf{Q}_t)", r"(\mathbf{V}_{p,:}\mathbf{Q}_{t-1})"),  # t-1
    (  # the fifth part dropped (seed 000's own omission, second_order.w_dropped_000)
        "sens.w_dgrad_000.corrected",
        r" + \mathrm{Mtr}(\mathbf{V}_{p,:}\Lambda_t\mathbf{W}\tfrac{d}{dt}\mathbf{P}_{t-1})",
        "",
    ),
    ("lemma3.eq20", r"= \lambda_p'^{-1}\lambda_p''\|", r"= \lambda_p''\|"),  # a missing factor
    ("lemma3.eq20", r"}}_{:,:,p}\Delta\mathbf{W}]", r"}}_{:,:,p}\Delta\mathbf{W}^T]"),  # a transpose
    (  # the sides swapped: the relation reversed
        "sens.lambda_below_max_000",
        r"\max_k [\Lambda_t]_{kk} \le \max_x \sigma'(x)",
        r"\max_x \sigma'(x) \le \max_k [\Lambda_t]_{kk}",
    ),
]


@pytest.mark.parametrize(("claim_id", "written", "planted"), PLANTED)
def test_a_drift_planted_in_the_latex_differs(claim_id, written, planted):
    claim = REGISTRY[claim_id]
    assert written in claim.statement, f"{claim_id}: the statement no longer contains {written!r}"
    drifted = dataclasses.replace(claim, statement=claim.statement.replace(written, planted, 1))
    out = statement_check(drifted, {}, seed=1)
    assert out["status"] == "differs", f"{claim_id} with {planted!r}: {out}"


#: statements that compile and differ from their check by design, each with its reason in the module
DIFFER_BY_DESIGN = ["second_order.eq16", "second_order.w_dropped_000", "second_order.u_dropped_000"]


@pytest.mark.parametrize("claim_id", DIFFER_BY_DESIGN)
def test_a_statement_that_differs_by_design_carries_its_reason(claim_id):
    out = statement_check(REGISTRY[claim_id], {}, seed=1)
    assert out["status"] == "differs", f"{claim_id}: {out}"
    assert out.get("explained"), f"{claim_id} differs with no recorded reason: {out}"
