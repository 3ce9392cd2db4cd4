"""The statement of a claim checked by a SymPy derivation alone, compared with that derivation.

The statement is compiled with its module's table (``derivations/<topic>/_notation.py``) and evaluated on
the derivation's own symbols; the two agree when they state the same relation (equal as SymPy expressions,
else at points of the derivation's domain), and a drift planted in the LaTeX only is a ``differs``.
"""

from __future__ import annotations

import pytest
import sympy as sp

from lemmacheck import REGISTRY, Input, Source, SymbolTable, Verdict, derivation
from lemmacheck.latex.derivation_statement import derivation_statement_check

symbols = SymbolTable(
    "tests/test_latex_derivation_statements.py",
    {
        "N": Input("N"),
        "T": Input("T"),
        "d": Input("d"),
        r"\gamma": Input("gamma"),
        r"\delta": Input("delta"),
        r"\mu": Input("mu"),
        r"\sigma": Input("sigma"),
    },
)
N, T = sp.symbols("N T", positive=True, integer=True)
t = sp.symbols("t", positive=True, integer=True)
gamma, delta = sp.symbols("gamma delta", positive=True)
_META = {"title": "t", "source": Source.project("a derivation"), "expected": Verdict.PROVED}


@pytest.fixture
def scratch():
    with REGISTRY.scratch():
        yield


@pytest.mark.parametrize(
    "claim_id", ["count.sequences_product", "vanish.s003.eq25_algebra", "schatten.holder_eq8.scaling"]
)
def test_a_catalogue_derivations_statement_agrees_with_it(claim_id):
    from lemmacheck.project.discovery import discover

    discover()
    out = derivation_statement_check(REGISTRY[claim_id])
    assert out["status"] == "agrees" and out["instances"] > 0, out


def _declared(statement: str, chain: list, claim_id: str = "tex.derived") -> dict:
    derivation(claim_id, chain=chain, statement=statement, **_META)
    return derivation_statement_check(REGISTRY[claim_id])


def test_the_statement_as_the_derivation_states_it_agrees(scratch):
    out = _declared(r"\prod_{t=1}^{T} N = N^T", [sp.Product(N, (t, 1, T)).doit(), "=", N**T])
    assert out["status"] == "agrees", out


@pytest.mark.parametrize(
    ("statement", "drift"),
    [
        (r"\prod_{t=1}^{T} N = N^{T+1}", "an exponent"),
        (r"\prod_{t=1}^{T} N = 2N^T", "a factor"),
        (r"\prod_{t=1}^{T} N \le N^T", "a relation"),
    ],
)
def test_a_drift_planted_in_the_latex_only_differs(scratch, statement, drift):
    out = _declared(statement, [sp.Product(N, (t, 1, T)).doit(), "=", N**T])
    assert out["status"] == "differs", (drift, out)
    assert out["reason"], out


def test_a_drift_between_real_symbols_is_found_at_a_point_of_the_domain(scratch):
    derivation(
        "tex.derived_real",
        chain=[gamma**T * (delta / gamma) ** T, "=", delta**T],
        statement=r"\gamma^T\left(\frac{\delta}{\gamma}\right)^T = \delta^T + \gamma",
        domain={gamma: (0.5, 2.0), delta: (0.0, 1.0)},
        **_META,
    )
    out = derivation_statement_check(REGISTRY["tex.derived_real"])
    assert out["status"] == "differs" and out["instance"]["inputs"], out
    assert 0.5 <= out["instance"]["inputs"]["gamma"] <= 2.0  # inside the derivation's domain


def test_a_statement_that_does_not_compile_says_why(scratch):
    out = _declared(r"\prod_{t=1}^{T} M = N^T", [sp.Product(N, (t, 1, T)).doit(), "=", N**T])
    assert out["status"] == "not compiled" and "'M'" in out["reason"], out


def test_a_quantity_only_the_statement_writes_is_a_symbol_of_its_own(scratch):
    """The derivation simplified d away (d (1/sqrt(d))^2 is 1); the statement still writes d, which is then
    compared for every value of it, so a drift there is found."""
    d = sp.Symbol("d", positive=True, integer=True)
    chain = [d * (1 / sp.sqrt(d)) ** 2, "=", sp.Integer(1)]
    written = r"d(\mu^2 + \sigma^2) = 1,\ \mu = 0,\ \sigma = 1/\sqrt{%s}"
    assert _declared(written % "d", chain, "tex.as_derived")["status"] == "agrees"
    assert _declared(written % "2d", chain, "tex.drifted")["status"] == "differs"


def test_a_true_identity_never_passes_for_another_true_identity(scratch):
    # 'T = T' holds, as the derivation does: equal margins (both 0) said nothing about what is equated
    out = _declared(r"T = T", [sp.Product(N, (t, 1, T)).doit(), "=", N**T])
    assert out["status"] == "differs", out


def test_an_identity_written_the_other_way_round_agrees(scratch):
    out = _declared(r"N^T = \prod_{t=1}^{T} N", [sp.Product(N, (t, 1, T)).doit(), "=", N**T])
    assert out["status"] == "agrees", out
