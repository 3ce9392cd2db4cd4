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

discover()

READ_BY_THE_GRADFLOW_TABLE = [
    "vanish.s003.diag_norm",  # σ'(h_t) at the input h, diag(σ'(h_t))², diag(γ)², γ = sup|σ'| of act
    "act.s002.g_eq_sigma_h",  # the induction step at t = T of the simulated recurrences (a property)
    "birnn.s003.eq29_as_written",  # σ the sigmoid, f^{(f)}(x, h) at x_t and x_{t+1} (a property)
    "vanish.s004.reverse_fixed",  # W the check's rescaled W (‖W‖ = s/γ); read as the raw W it differs
]


@pytest.mark.parametrize("claim_id", READ_BY_THE_GRADFLOW_TABLE)
def test_the_statement_read_with_the_gradflow_table_agrees_with_the_check(claim_id):
    out = statement_check(REGISTRY[claim_id], {}, seed=1)
    assert out["status"] == "agrees", f"{claim_id}: {out}"
    assert int(out["instances"]) > 0, f"{claim_id} agrees on no instance: {out}"
