"""statement_check of an approximation: its statement's two sides against the check's, at the check's step
sizes, with the same margins and ratios asked as of a relation."""

from __future__ import annotations

import pytest

from lemmacheck import REGISTRY, Array, Input, Source, SymbolTable, Verdict, approximation
from lemmacheck.latex.crosscheck import statement_check

symbols = SymbolTable(
    "tests/test_latex_approx.py",
    {"x": Input("x"), "d": Input("d"), r"\epsilon": Input("eps")},
    euler="e",
)
TAYLOR = r"e^{x + \epsilon d} \simeq e^{x} + \epsilon e^{x} d"


@pytest.fixture
def declare():
    with REGISTRY.scratch():
        count = iter(range(100))

        def make(statement: str):
            claim_id = f"planted.taylor{next(count)}"

            @approximation(
                claim_id,
                inputs={"x": Array(scale=(0.1, 2)), "d": Array(scale=(0.1, 2))},
                relation="~",
                title="t",
                source=Source.project("planted approximations"),
                statement=statement,
                expected=Verdict.APPROXIMATE,
            )
            def taylor(xp, eps, x, d):
                return xp.exp(x + eps * d), xp.exp(x) * (1 + eps * d)

            return REGISTRY[claim_id]

        yield make


def test_the_faithful_approximation_agrees(declare):
    sc = statement_check(declare(TAYLOR), {}, 3)
    assert sc["status"] == "agrees", sc


@pytest.mark.parametrize(
    ("old", "new"),
    [(r"\epsilon e^{x} d", r"2\epsilon e^{x} d"), (r" + \epsilon e^{x} d", ""), ("x + ", "x - ")],
)
def test_a_drift_in_the_approximation_differs(declare, old, new):
    sc = statement_check(declare(TAYLOR.replace(old, new, 1)), {}, 3)
    assert sc["status"] == "differs", sc
