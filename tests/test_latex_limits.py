"""``\\lim`` (latex/limits.py): taken exactly by SymPy where the statement is read in SymPy (a derivation's
statement); refused, with the reason, where it would be evaluated on numbers. Drifts are planted in the
LaTeX only: the derivation stays the correct one."""

from __future__ import annotations

import pytest
import sympy as sp

from lemmacheck import REGISTRY, Array, Input, Source, SymbolTable, Verdict, derivation, inequality
from lemmacheck.latex.crosscheck import statement_check

_SOURCE = Source.project("planted limits")
N = sp.Symbol("N", positive=True)
T = sp.Symbol("T", positive=True, integer=True)

symbols = SymbolTable(
    "tests/test_latex_limits.py", {"N": Input("N"), "T": Input("T"), "x": Input("x"), "c": Input("c")}
)


def _derive(statement: str, chain: list):
    derivation(
        "planted.limit",
        chain=chain,
        labels=["l"],
        title="t",
        source=_SOURCE,
        statement=statement,
        expected=Verdict.PROVED,
    )
    return REGISTRY["planted.limit"]


CASES = {
    "ratio": (
        r"\lim_{N\to\infty}\frac{N\log N}{N^2} = 0",
        [sp.limit(N * sp.log(N) / N**2, N, sp.oo), "=", 0],
    ),
    "degree": (
        r"\lim_{N\to\infty}\frac{\log(TN^T)}{\log N} = T",
        [sp.limit(sp.log(T * N**T) / sp.log(N), N, sp.oo), "=", T],
    ),
    "divergent": (
        r"\lim_{N\to\infty}\frac{N^2}{N\log N} = \infty",
        [sp.limit(N**2 / (N * sp.log(N)), N, sp.oo), "=", sp.oo],
    ),
}

DRIFTS = {
    "exponent": ("ratio", r"{N^2}", r"{N}"),  # N log N / N diverges: not 0
    "factor": ("degree", r"\log(TN^T)", r"\log(TN^{2T})"),  # degree 2T, not T
    "divergent to finite": ("divergent", r"{N^2}", r"{N}"),  # 1/log N -> 0, not infinity
}


@pytest.mark.parametrize("case", list(CASES))
def test_the_faithful_limit_agrees_with_the_derivation(registry, case):
    statement, chain = CASES[case]
    sc = statement_check(_derive(statement, chain), {}, seed=1)
    assert sc["status"] == "agrees", sc


@pytest.mark.parametrize("drift", list(DRIFTS))
def test_each_drift_planted_in_the_latex_differs(registry, drift):
    case, old, new = DRIFTS[drift]
    statement, chain = CASES[case]
    assert old in statement
    sc = statement_check(_derive(statement.replace(old, new, 1), chain), {}, seed=1)
    assert sc["status"] == "differs", (drift, sc)


def test_a_limit_on_numbers_is_refused_with_the_reason_and_its_column(registry):
    @inequality(
        "planted.limit_numeric",
        title="t",
        source=_SOURCE,
        expected=Verdict.HOLDS,
        statement=r"x \le \lim_{N\to\infty}\frac{c N}{N}",
        inputs={"x": Array(), "c": Array()},
    )
    def check(xp, x, c):
        return x, c

    sc = statement_check(REGISTRY["planted.limit_numeric"], {}, seed=1)
    assert sc["status"] == "not compiled", sc
    assert "column 7" in sc["reason"] and "taken only by SymPy" in sc["reason"], sc


def test_a_limit_without_its_approach_is_a_parse_error_at_its_column(registry):
    sc = statement_check(_derive(r"\lim_{N} N = 0", [0, "=", 0]), {}, seed=1)
    assert sc["status"] == "not compiled", sc
    assert sc["reason"].startswith("'}' at column 8: the grammar has no rule"), sc  # where \\to was due
