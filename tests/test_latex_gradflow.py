"""Gradient-flow statements (seeds 002–004) read through checks/gradflow/_notation.py agree with their checks.

Each id here was `not compiled` for want of an entry of the gradflow table (σ' of the claim's activation,
γ = sup|σ'|, diag(γ)², ...) before the table said what the notation denotes. The comparison is the run's own
(same relation on the claim's instances and the adversarial search's, settled at high precision), so an
entry that meant something else than the check computes makes the claim `differs`, and an entry a later
change removes or renames makes it `not compiled`: either fails here.
"""

from __future__ import annotations

import pytest

from lemmacheck import REGISTRY
from lemmacheck.latex.crosscheck import statement_check
from lemmacheck.project.discovery import discover
from statement_vocab import assert_agrees

discover()

READ_BY_THE_GRADFLOW_TABLE = [
    "vanish.s003.diag_norm",  # σ'(h_t) at the input h, diag(σ'(h_t))², diag(γ)², γ = sup|σ'| of act
    "vanish.s004.reverse_fixed",  # W the check's rescaled W (‖W‖ = s/γ); read as the raw W it differs
    "act.s002.g_eq_sigma_h",  # the induction step at t = T of the simulated recurrences (a property)
    "birnn.s003.eq29_as_written",  # σ the sigmoid, f^{(f)}(x, h) at x_t and x_{t+1} (a property)
    "vanish.s002.step_bound",  # ∂g_t/∂g_{t-1}, σ'(·) as diag(σ'(·)), g_{t-1} = h0, x_t = X's first row
    "vanish.s002.step_bound_vector_norm",  # the same with σ'(·) the vector
    "vanish.s002.final_bound",  # ∂g_T/∂g_0 = J_T⋯J_1 with W rescaled to ‖W‖ = sδ/γ
    "vanish.s002.reverse_chain",  # the same, s > 1
    "vanish.s002.bound_chain",  # ∏_t ‖∂g_t/∂g_{t-1}‖ named as written
    "vanish.s003.eq25",  # seed 003's ∂h_T/∂h_0 (denominator layout), W rescaled
    "vanish.s003.not_met_no_explosion",
    "vanish.s003.eq24",  # the elided product diag(σ'(h_0))Wᵀ⋯ along the trajectory
    "vanish.s004.norm_chain",  # ‖W‖‖Dσ(h_{T-1})‖⋯‖W‖‖Dσ(h_0)‖, W rescaled
    "vanish.s002.jacobian_step",  # matrix sides through the probes c, d (probe_fn)
    "vanish.s003.jacobian_step",  # seed 003's denominator layout
    "vanish.s004.jacobian_step",  # Dσ(h_{t-1})
    "vanish.s002.jacobian_middle",  # ∂σ'(a_t)/∂g_{t-1} as written
    "vanish.s002.jacobian_middle.corrected",
    "vanish.s002.chain_product_order",  # J_1 J_2 ⋯ J_T as written
    "vanish.s002.chain_product_order.corrected",  # J_T ⋯ J_1
    "vanish.s003.eq22_23",  # J_1ᵀ ⋯ J_Tᵀ (denominator layout)
    "vanish.s004.chain",  # W Dσ(h_{T-1}) ⋯ W Dσ(h_0)
    "birnn.s003.eq28_30",  # (∂f/∂h_t)(∂h_{t+1}/∂f) in the denominator layout, through c, d
    "eig.s003.proof_step",  # the witness W = w, u ⊥ w, λ = 0, v = Wᵀu (a property)
    "act.s002.target_typo",  # σ^{-1} of the claim's activation, NaN outside its range (a property)
    "dropout.s003.eq13_16",  # each E_R an exact sum over the masks of what is written inside it
    "dropout.s003.mask_mean",  # (a property)
    "dropout.s003.expected_loss",  # E_R[L(w)], Γ², I_d
    "dropout.s003.expected_loss_rows",  # E_R row by row
    "dropout.s003.gradient",  # ∂E_R[L(w)]/∂w compared through the direction v
    "dropout.s003.convex",  # ∇²_w E_R[L(w)] ⪰ 0 (a property)
    "dropout.s003.columns_penalised",  # odot_binds="loose": I_d ⊙ (XᵀX); Σ_j over the dim d
    "init.s003.relu_var_line",  # E[a], V[a] of the discrete law (s, p)
    "init.s003.relu_var_line_fixed",  # E[a²]
    "init.s003.eq10_as_typeset",  # V[w_ij], E[w_ij] the sampled var_w, mean_w
    "init.s003.relu_mean_positive",  # 'a symmetric' the truth value of the drawn law's symmetry
]


@pytest.mark.parametrize("claim_id", READ_BY_THE_GRADFLOW_TABLE)
def test_the_statement_read_with_the_gradflow_table_agrees_with_the_check(claim_id):
    assert_agrees(claim_id)


#: compiled, different from the check, and explained in the module's ``statement_differs``
EXPLAINED_DIFFERENCES = [
    "vanish.s002.chain_product",  # ∏_t J_t read left to right; the check reads J_T ⋯ J_1
]


@pytest.mark.parametrize("claim_id", EXPLAINED_DIFFERENCES)
def test_an_explained_difference_stays_a_difference_with_its_reason(claim_id):
    out = statement_check(REGISTRY[claim_id], {}, seed=1)
    assert out["status"] == "differs", f"{claim_id}: {out}"
    assert out.get("explained"), f"{claim_id} differs without the module's explanation: {out}"
