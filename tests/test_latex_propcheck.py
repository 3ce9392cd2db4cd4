"""statement_check of a property: truth values of the statement and of its check on the same instances,
the boundaries of the statement's relations visited, a float64 disagreement settled in high precision.

The check is the correct one; each drift is planted in the LaTeX only.  A drift that moves where a relation
changes truth (a factor, an exponent, a sign, a missing term, a strict relation made loose where the two
sides meet) must be reported ``differs``: the boundary search puts an instance just where the drifted
statement and the check part.
"""

from __future__ import annotations

import pytest

from lemmacheck import REGISTRY, Input, Scalar, Source, SymbolTable, Verdict, prop
from lemmacheck.latex.crosscheck import statement_check

symbols = SymbolTable(
    "tests/test_latex_propcheck.py",
    {r"\epsilon": Input("eps"), "h": Input("h"), "g": Input("g"), "a": Input("a")},
)
_SOURCE = Source.project("planted property drifts")

# one gradient step on f(x) = h x^2 / 2 from x = g/h: the model decreases iff eps < 2/h
DECREASE = r"\epsilon > 0:\quad -\epsilon g^2 + \tfrac12\epsilon^2 h g^2 < 0 \iff \epsilon < \frac{2}{h}"
DRIFTS = {
    "factor": (r"\frac{2}{h}", r"\frac{4}{h}"),
    "exponent": (r"\epsilon^2 h", r"\epsilon^3 h"),
    "sign": (r"-\epsilon g^2 +", r"\epsilon g^2 +"),
    "missing term": (r" + \tfrac12\epsilon^2 h g^2", ""),
    "relation": (r"\epsilon < \frac", r"\epsilon > \frac"),
}


@pytest.fixture
def declare():
    with REGISTRY.scratch():

        def make(statement: str):
            @prop(
                "planted.decrease",
                title="t",
                source=_SOURCE,
                statement=statement,
                expected=Verdict.HOLDS,
                inputs={"eps": Scalar(1e-3, 10.0), "h": Scalar(0.1, 10.0), "g": Scalar(-3.0, 3.0)},
            )
            def check(xp, eps, h, g):
                return (eps * g * g * (-1 + eps * h / 2) < 0) == (eps * h < 2)

            return REGISTRY["planted.decrease"]

        yield make


def test_the_faithful_statement_agrees_and_says_what_was_compared(declare):
    sc = statement_check(declare(DECREASE), {}, seed=5)
    assert sc["status"] == "agrees", sc
    assert "at the boundary" in sc["compared"] and sc["instances"] >= 24


@pytest.mark.parametrize("drift", list(DRIFTS))
def test_each_drift_planted_in_the_latex_differs(declare, drift):
    old, new = DRIFTS[drift]
    assert old in DECREASE
    sc = statement_check(declare(DECREASE.replace(old, new, 1)), {}, seed=5)
    assert sc["status"] == "differs", (drift, sc)
    assert sc["digits"] >= 50 and sc["instance"]["inputs"], sc


def test_a_factor_drift_only_the_boundary_search_reaches_differs(declare):
    # 2/h -> 2.02/h: the two part on 1 % of the threshold, which few uniform samples land in
    sc = statement_check(declare(DECREASE.replace(r"\frac{2}{h}", r"\frac{2.02}{h}")), {}, seed=5)
    assert sc["status"] == "differs", sc


def test_an_unknown_symbol_in_a_property_names_the_table(declare):
    sc = statement_check(declare(DECREASE.replace("h g^2", r"\kappa g^2")), {}, seed=5)
    assert sc["status"] == "not compiled" and "tests/test_latex_propcheck.py" in sc["reason"], sc
