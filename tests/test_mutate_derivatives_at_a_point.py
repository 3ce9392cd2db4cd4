"""A derivation step with a derivative at a point (``Subs``, as ``diff`` leaves it on a composed undefined
function) is evaluated at exact rational points too, bottom-up, before SymPy is asked: a mutant of such a
chain is REFUTED in seconds with an exact counterexample instead of running out of the mutant's time.

The linking chains (``sens.u_linking``, ``sens.w_linking``) and ``lemma1.eq4`` are of this form; their
mutants timed out at the CI sample's 10 s cap while SymPy simplified a false identity.
"""

from __future__ import annotations

import time

import numpy as np
import sympy as sp

from conftest import planted_meta
from lemmacheck import Verdict, derivation
from lemmacheck.kinds.symbolic_exact import evaluated, instantiations
from lemmacheck.run.engine import run_claim
from lemmacheck.search.profile import QUICK

PROFILE = QUICK.with_seed(3)
REFUTED_WITHIN = 20.0  # about 1 s on an idle machine; room for a loaded one

x, y = sp.symbols("x y", real=True)
sigma = sp.Function("sigma")
_xi = sp.Symbol("xi")


def at(z):
    """σ'(z), as SymPy writes the derivative of σ at a compound argument."""
    return sp.Subs(sp.Derivative(sigma(_xi), _xi), _xi, z)


def test_evaluated_reads_a_derivative_at_a_point_from_its_own_expression():
    expr = sp.diff(sigma(x * y + sigma(x)), x)
    assert expr.has(sp.Subs)
    functions = instantiations([expr], np.random.default_rng(0))
    point = {x: sp.Rational(1, 3), y: sp.Rational(-2, 5)}
    got = evaluated(expr, point, functions)
    # the same derivative with sigma substituted first (small enough here to do it directly)
    g = functions[sigma].lam
    direct = sp.diff(g(x * y + g(x)), x).xreplace(point)
    assert got.is_Rational and got == sp.nsimplify(direct)


def test_a_chain_rule_with_a_derivative_at_a_point_is_proved(registry):
    chain = [
        sp.diff(sigma(x * y + sigma(x)), x),
        "=",
        (y + sp.Derivative(sigma(x), x)) * at(x * y + sigma(x)),
    ]
    derivation("planted.chain_rule_at", chain=chain, **planted_meta(Verdict.PROVED))
    assert run_claim(registry["planted.chain_rule_at"], PROFILE).verdict is Verdict.PROVED


def test_a_wrong_point_of_the_derivative_is_refuted_in_seconds_exactly(registry):
    chain = [sp.diff(sigma(x * y + sigma(x)), x), "=", (y + sp.Derivative(sigma(x), x)) * at(x * y)]
    derivation("planted.chain_rule_wrong_point", chain=chain, **planted_meta(Verdict.REFUTED))
    t0 = time.perf_counter()
    r = run_claim(registry["planted.chain_rule_wrong_point"], PROFILE)
    seconds = time.perf_counter() - t0
    assert r.verdict is Verdict.REFUTED, (r.message, r.evidence)
    assert seconds < REFUTED_WITHIN, seconds
    cex = r.evidence["counterexample"]
    assert cex["exact"] is True and cex["lhs"] != cex["rhs"] and set(cex["functions"]) == {"sigma"}
    assert set(cex["inputs"]) == {"x", "y"}
