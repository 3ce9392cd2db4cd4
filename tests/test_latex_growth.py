"""A complexity claim's ``O(f)`` compared with the growth model its check declares (latex/growth.py).

The check stays the correct one (cost T N^2, declared exponents N: 2, T: 1); each drift is planted in the
LaTeX only and must be a ``differs``; what the compiler cannot read says where and why.
"""

from __future__ import annotations

import pytest

from lemmacheck import REGISTRY, Source, Verdict, complexity
from lemmacheck.latex.crosscheck import statement_check

_SOURCE = Source.project("planted growth statements")
_GRID = {"N": [4, 8, 16, 32], "T": [4, 8, 16, 32]}


def _declare(statement: str, *, grid=None, stated=None):
    def cost(N, T=4):
        return T * N * N + 3 * N

    complexity(
        "planted.growth",
        cost=cost,
        grid=grid or _GRID,
        stated=stated or {"N": 2, "T": 1},
        title="t",
        source=_SOURCE,
        statement=statement,
        expected=Verdict.HOLDS,
    )
    return REGISTRY["planted.growth"]


def test_the_faithful_model_agrees_with_its_exponents_in_the_comparison(registry):
    sc = statement_check(_declare(r"\text{time}(\mathrm{Viterbi}) = O(TN^2)"), {}, seed=1)
    assert sc["status"] == "agrees", sc
    assert sc["instances"] == 16 and "N: 2.000 vs 2" in sc["compared"], sc


def test_a_sum_is_fitted_in_the_checks_regime_and_a_named_term_is_compared(registry):
    sc = statement_check(_declare(r"\text{time} = O\big(T(N^2 + N)\big) \ni O(TN^2)"), {}, seed=1)
    assert sc["status"] == "agrees", sc


@pytest.mark.parametrize(
    "statement",
    [
        r"\text{time}(\mathrm{Viterbi}) = O(TN^3)",  # an exponent
        r"\text{time}(\mathrm{Viterbi}) = O(N^2)",  # a missing factor
        r"\text{time}(\mathrm{Viterbi}) = \Theta(T^2N^2)",  # an exponent on the other variable
        r"\text{time} = O\big(T(N^2 + N)\big) \ni O(T^2N^2)",  # the named term is not a term of the sum
    ],
)
def test_each_drift_planted_in_the_latex_differs(registry, statement):
    sc = statement_check(_declare(statement), {}, seed=1)
    assert sc["status"] == "differs", (statement, sc)
    assert sc["reason"], sc


def test_a_regime_in_words_is_compared_with_the_checks_grid(registry):
    one = {"grid": {"N": [4, 8, 16, 32]}, "stated": {"N": 2}}
    held = r"\text{time} = O(N^2) \text{ in } N \ (T \text{ fixed})"
    assert statement_check(_declare(held, **one), {}, seed=1)["status"] == "agrees"


def test_a_regime_other_than_the_grid_differs(registry):
    sc = statement_check(_declare(r"\text{time} = O(N^2) \text{ in } N \ (T \text{ fixed})"), {}, seed=1)
    assert sc["status"] == "differs" and "varies" in sc["reason"], sc


def test_a_letter_outside_the_grid_is_refused_with_where_and_what_to_add(registry):
    sc = statement_check(
        _declare(r"\text{time}(\text{naive}) = O(TN^T)", grid={"N": [2, 3, 4, 5]}, stated={"N": 4}),
        {},
        seed=1,
    )
    assert sc["status"] == "not compiled", sc
    assert sc["reason"].startswith("'T' at column 31") and "grid" in sc["reason"], sc


def test_a_construct_outside_a_growth_model_is_refused_with_its_column(registry):
    sc = statement_check(_declare(r"\text{time} = O(\sqrt{N}T)"), {}, seed=1)
    assert (
        sc["status"] == "not compiled" and "column 17" in sc["reason"] and "growth model" in sc["reason"]
    ), sc
