"""The statement phase does each piece of work once: a Derived's signature is read once, not on every
evaluation, and each instance set's two chains are evaluated once in float64, however many times the
adversarial search and the pairings read them (issue 35: the phase was 14 % of a catalogue run's CPU,
a third of it evaluating the same instances again)."""

from __future__ import annotations

import inspect

import numpy as np

from lemmacheck import REGISTRY, Array, Derived, Function, Input, Source, SymbolTable, Verdict, inequality
from lemmacheck.latex import compile_statement
from lemmacheck.latex.crosscheck import statement_check
from lemmacheck.xp import numpy_xp


def _lse(xp, v):
    return xp.logsumexp(v, axis=-1)


#: the claims' table: a claim declared here reads its statement with this module's ``symbols``
symbols = SymbolTable(
    "tests/test_latex_statement_work.py",
    {r"\mathbf{x}": Input("x"), "x": Input("x"), "n": Input("n"), "h": Function(_lse)},
)


def test_a_derived_signature_is_read_once_however_often_it_is_evaluated(monkeypatch):
    def phrase(xp, x, t):
        return x[:, t - 1] ** 2

    table = symbols.extend("tests (work, a Derived)", {"a_t": Derived(phrase)})
    reads = []
    signature = inspect.signature
    monkeypatch.setattr(inspect, "signature", lambda fn, *a, **k: reads.append(fn) or signature(fn, *a, **k))
    compiled = compile_statement(r"\sum_{t=1}^{n} a_t = x^\top x", table)
    x = np.random.default_rng(0).normal(size=(3, 4))
    for _ in range(3):
        lhs, rhs = compiled.sides(numpy_xp, {"x": x}, {"n": 4})
        np.testing.assert_allclose(lhs, rhs)
    assert reads.count(phrase) == 1, f"the signature of the Derived was read {reads.count(phrase)} times"


def test_each_instance_set_is_evaluated_once_in_float64():
    seen: list[int] = []

    with REGISTRY.scratch():

        @inequality(
            "planted.once",
            title="t",
            source=Source.project("the statement phase's work"),
            statement=r"h(\mathbf{x}) \le \|\mathbf{x}\|_\infty + \log n",
            expected=Verdict.HOLDS,
            inputs={"x": Array("n")},
            dims={"n": [1, 2, 3, 5]},
        )
        def check(xp, x, n):
            if isinstance(x, np.ndarray) and x.dtype == np.float64:
                seen.append(id(x))
            return _lse(xp, x), xp.max(xp.abs(x), axis=-1) + xp.log(n)

        sc = statement_check(REGISTRY["planted.once"], {}, seed=7)
    assert sc["status"] == "agrees", sc
    assert len(seen) >= 8, f"the check ran {len(seen)} times: the comparison never evaluated it"
    again = len(seen) - len(set(seen))
    assert again == 0, f"{again} of {len(seen)} float64 evaluations repeated an instance set"
