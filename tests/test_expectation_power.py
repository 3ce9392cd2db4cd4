"""A claim about an expectation must see a small error in one of its terms.

The expected dropout loss of seed 003 (Question 2) is checked exactly (every mask enumerated, or every
mask of one row at larger sizes), not by sampling: these tests plant the same identity with one term of
the closed form scaled by 1 + ε and require REFUTED, and the unscaled identity HOLDS; the same for two
other expectations computed exactly over a finite law (a whitened input's second moment, a ReLU's).
"""

from __future__ import annotations

import pytest
from checks.gradflow._helpers import expect, symmetric_law
from checks.gradflow.dropout import (
    DESIGN,
    SMALL_DIMS,
    dropout_penalty,
    expected_loss_by_rows,
    expected_loss_enum,
    shrunk_residual,
)
from checks.gradflow.init import SYM_LAW, _relu
from checks.optim.normalisation import _expect, _projections, _support

from conftest import planted_meta
from lemmacheck import Verdict, identity
from lemmacheck.model.inputs import Array
from lemmacheck.model.tolerance import REVERIFY_DPS
from lemmacheck.run.engine import run_claim
from lemmacheck.search.profile import QUICK

ROWS_DIMS = {"n": [3, 6, 10], "d": [3, 4]}
#: how the expectation is computed: all 2^(nd) masks at small sizes, or row by row at larger ones
ENUMERATIONS = {
    "all_masks": (expected_loss_enum, SMALL_DIMS),
    "by_rows": (expected_loss_by_rows, ROWS_DIMS),
}
#: which term of ||y - pXw||^2 + p(1-p)||Gamma w||^2 is scaled
TERMS = ("penalty", "residual")


def _plant(registry, claim_id, enumeration, term, factor, expected):
    expectation, dims = ENUMERATIONS[enumeration]

    @identity(claim_id, inputs=DESIGN, dims=dims, **planted_meta(expected))
    def scaled_closed_form(xp, X, w, y, p):
        penalty, residual = dropout_penalty(xp, X, w, p), shrunk_residual(xp, X, w, y, p)
        if term == "penalty":
            penalty = penalty * factor
        else:
            residual = residual * factor
        return expectation(xp, X, w, y, p), residual + penalty

    return registry[claim_id]


@pytest.mark.parametrize("enumeration", sorted(ENUMERATIONS))
@pytest.mark.parametrize("term", TERMS)
@pytest.mark.parametrize("factor", [1.01, 1.001], ids=["1%", "0.1%"])
def test_a_small_error_in_one_term_of_the_expected_loss_is_refuted(registry, enumeration, term, factor):
    claim = _plant(registry, "planted.dropout_scaled", enumeration, term, factor, Verdict.REFUTED)
    r = run_claim(claim, QUICK.with_seed(1))
    assert r.verdict is Verdict.REFUTED, (r.reason, r.evidence.get("settlement"))
    assert r.evidence["counterexample"]["dps"] >= REVERIFY_DPS


@pytest.mark.parametrize("enumeration", sorted(ENUMERATIONS))
def test_the_unscaled_expected_loss_holds(registry, enumeration):
    claim = _plant(registry, "planted.dropout_exact", enumeration, "penalty", 1, Verdict.HOLDS)
    r = run_claim(claim, QUICK.with_seed(1))
    assert r.verdict is Verdict.HOLDS, (r.reason, r.evidence.get("counterexample"))


def _whitened_second_moment(xp, w, factor):
    """E[(wᵀx)²] over the 2^n sign vectors x against factor·‖w‖² (seed 002 Q4.1, bn.preact_var_002_xxt)."""
    y = _projections(xp, w, _support(xp, None, w.shape[-1]))
    return _expect(xp, y * y), factor * xp.sum(w * w, axis=-1)


def _relu_second_moment(xp, s, p, factor):
    """E[ReLU(a)²] on a symmetric law with V[a] = 1 against factor·½ (seed 003 Q1.2, init.s003.relu_half)."""
    v, q = symmetric_law(xp, s, p)
    return expect(xp, q, _relu(xp, v) ** 2), 0 * v[:, 0] + factor / 2


#: other expectation identities of these topics, each computed exactly over its finite law
OTHER_EXPECTATIONS = {
    "whitened_second_moment": (_whitened_second_moment, {"w": Array("n")}, {"n": [1, 2, 3, 4, 6]}),
    "relu_second_moment": (_relu_second_moment, SYM_LAW, {}),
}


@pytest.mark.parametrize("name", sorted(OTHER_EXPECTATIONS))
@pytest.mark.parametrize(
    ("factor", "expected"),
    [(1.01, Verdict.REFUTED), (1.001, Verdict.REFUTED), (1, Verdict.HOLDS)],
    ids=["1%", "0.1%", "exact"],
)
def test_other_exact_expectations_see_a_small_error(registry, name, factor, expected):
    sides, inputs, dims = OTHER_EXPECTATIONS[name]

    @identity("planted.expectation", inputs=inputs, dims=dims, **planted_meta(expected))
    def scaled(xp, **values):
        return sides(xp, factor=factor, **values)

    r = run_claim(registry["planted.expectation"], QUICK.with_seed(1))
    assert r.verdict is expected, (r.reason, r.evidence.get("counterexample"))
