"""statement_check of a worked example: the statement's chains of numbers against the check's computed
value, at the check's own precision (exact, or ``places`` decimals)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from lemmacheck import REGISTRY, Input, Source, SymbolTable, Verdict, value
from lemmacheck.latex.crosscheck import statement_check

symbols = SymbolTable(
    "tests/test_latex_worked.py",
    {r"\sigma^2": Input("variance"), r"\mu": Input("means"), "s": Input("sum of squares")},
)
_SOURCE = Source.project("planted worked examples")
COMPUTED = {
    "sum of squares": Fraction(155, 12),
    "variance": Fraction(155, 144),
    "means": [2, 3, Fraction(8, 3)],
}


@pytest.fixture
def declare():
    with REGISTRY.scratch():
        count = iter(range(100))

        def make(statement: str, places: int | None = 2):
            claim_id = f"planted.worked{next(count)}"
            value(
                claim_id,
                computed=lambda: COMPUTED,
                stated=COMPUTED,
                places=places,
                title="t",
                source=_SOURCE,
                statement=statement,
                expected=Verdict.HOLDS,
            )
            return REGISTRY[claim_id]

        yield make


def test_a_chain_of_numbers_agrees_at_the_checks_precision(declare):
    sc = statement_check(declare(r"\sigma^2 = \tfrac{12.92}{12} = 1.08,\quad s = 12.92"), {}, 1)
    assert sc["status"] == "agrees", sc
    assert "to 2 decimals" in sc["compared"] and "variance" in sc["compared"]


def test_a_tuple_is_compared_entry_by_entry(declare):
    sc = statement_check(declare(r"\mu = \big(\tfrac16(6+6), 3, \tfrac83\big) = (2, 3, 2.67)"), {}, 1)
    assert sc["status"] == "agrees", sc
    sc = statement_check(declare(r"\mu = (2, 3;\ 2.67)"), {}, 1)  # written in rows, read flat
    assert sc["status"] == "agrees", sc


@pytest.mark.parametrize(
    "statement",
    [
        r"\sigma^2 = \tfrac{12.92}{12} = 1.18",  # a digit
        r"\sigma^2 = \tfrac{12.92}{13} = 1.08",  # a divisor
        r"\sigma^2 = \tfrac{12.92}{12} = 1.08,\quad s = 1.292",  # a decimal point
        r"\mu = (2, 3, 2.76)",  # an entry
        r"\mu = (2, 3)",  # a missing entry
    ],
)
def test_each_drift_differs(declare, statement):
    sc = statement_check(declare(statement), {}, 1)
    assert sc["status"] == "differs", sc


def test_without_places_the_comparison_is_exact(declare):
    assert statement_check(declare(r"\sigma^2 = \tfrac{155}{144}", None), {}, 1)["status"] == "agrees"
    assert statement_check(declare(r"\sigma^2 = 1.08", None), {}, 1)["status"] == "differs"


def test_a_statement_that_reads_nothing_the_check_computes_is_not_compiled(declare):
    sc = statement_check(declare(r"\tfrac{12.92}{12} = 1.08"), {}, 1)
    assert sc["status"] == "not compiled" and "computed leaves" in sc["reason"], sc
    sc = statement_check(declare(r"\kappa = 1.08"), {}, 1)
    assert sc["status"] == "not compiled" and "tests/test_latex_worked.py" in sc["reason"], sc
