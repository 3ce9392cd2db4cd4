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


def test_the_rows_read_at_once_score_as_each_row_read_alone():
    from lemmacheck.latex.relation import mismatch, mismatches

    rng = np.random.default_rng(35)
    edge = [0.0, -0.0, 1.0, -1.0, 1e-300, -1e-300, 1e300, -1e300, 1.7e308, -1.7e308, 3.0]
    rows = np.array([[a, b, c, d] for a in edge for b in edge[:6] for c in edge[5:] for d in edge[::2]])
    rows = np.concatenate([rows, rng.normal(size=(500, 4)) * 10.0 ** rng.integers(-5, 6, size=(500, 4))])
    for rels in (("<=", "<="), (">=", "<="), ("<", ">"), ("~", "~"), ("=", ">=")):
        at_once = mismatches((rows[:, 0], rows[:, 1]), (rows[:, 2], rows[:, 3]), rels)
        for r, got in zip(rows, at_once, strict=True):
            a, b, c, d = (float(v) for v in r)  # as the row loop read them
            want = mismatch((a, b), (c, d), rels)
            assert got == want or (np.isnan(got) and np.isnan(want)), (rels, r.tolist(), got, want)
