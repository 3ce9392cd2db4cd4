"""Catalogue statements read through their documents' notation agree with their hand-written checks.

Each id here was `not compiled` for want of a symbol-table entry (its document's β, v_k, w, y, ŷ, f̂_{x0}, ...)
before its table said what the notation denotes; the comparison is the run's own (same relation on the
claim's instances and the adversarial search's, settled at high precision), so an entry that meant
something else than the check computes would make it `differs`.
"""

from __future__ import annotations

import pytest

from lemmacheck import REGISTRY
from lemmacheck.latex.crosscheck import statement_check
from lemmacheck.project.discovery import discover
from statement_vocab import assert_agrees

discover()

READ_BY_A_TABLE_ENTRY = [
    "init.s003.uniform_moments",  # β = α + width (the check samples the width)
    "norms.power_method_spectral",  # v_k the power method's iterate
    "wn.output_002",  # y_WN = wᵀx + b
    "wn.eq19_003",  # w = γu/‖u‖, y = uᵀx
    "bn.identify_003",  # x a support point, μ_y, σ_y, ŷ
    "bn.wn_equivalence_004",
    "quad.change_002",  # f̂_{x0}(x1) the model after one gradient step, f(x0) the sample f0
    "loss.eq7.reading_b",  # E_t = f_t + g_t: E_t(Φ+ΔΦ), E_t(Φ), ⟨∇_Φ E_t(Φ), ΔΦ⟩ from the lemmas' terms
    "lemma2.hw_equality.corrected",  # seed 000's ∇_{VS_t} g_{-t}, ⟨∇_θ g_{-t}, ∅ − θ⟩ and y_t
    "loss.g_linear_in_v",  # seed 000's g(V^k), g(V^k + ΔV), ⟨∇_V g(V^k), ΔV⟩
    "ema.induction_step_003",  # v_{n+1}, v_n, g_{n+1}, n = N − 1 of the N sampled gradients
    "lip.l_w",  # E_t(W+ΔW), E_t(W), ⟨∇_W E_t, ΔW⟩, L_W, ΔW (seed 001 eq. (32))
    "lip.w_parts_as_written",  # and Vs_t(W+ΔW), Vs_t(W), Δz (defined in the statement)
    "lip.w_parts_corrected",  # Δz and r from the table
    "adam.l2_update_expansion_corrected",  # θ_{t+1}, ∇L, β₁, β₂, ε; ",\quad D_t = ..." a definition
]


@pytest.mark.parametrize("claim_id", READ_BY_A_TABLE_ENTRY)
def test_the_statement_read_with_its_table_agrees_with_the_check(claim_id):
    assert_agrees(claim_id)


@pytest.mark.parametrize("seed", [1, 7, 20261125])
def test_a_condition_equal_to_zero_up_to_rounding_holds_at_every_seed(seed):
    """``E[a] = 0, V[a] = 1 ⟹ ...``: the standardised law's mean is 1e-17 in float64, which a relative
    test refused on every instance but those rounding to 0, so the statement was compared at one seed and
    `not compiled` ("its conditions hold on none of the check's instances") at another; settled at high
    precision the condition holds wherever its residue vanishes with the precision."""
    out = statement_check(REGISTRY["init.s003.relu_half_needs_symmetry"], {}, seed=seed)
    assert out["status"] == "agrees" and "outside" not in out["compared"], out
