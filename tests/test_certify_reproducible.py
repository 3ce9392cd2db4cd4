"""The same seed, the same certificates (issue 33 §4): certification was budgeted by wall-clock caps,
so the same seed gave 99, 100 or 103 certified claims depending on the machine's load.  Budgets are now
counts of work (Z3's rlimit in the query, a count of boxes, SymPy's operation count); the wall clock is
a safety net only, reported when it fires.  The clock here is synthetic (no real time): a machine many
times slower than this one, whatever this one's load."""

from __future__ import annotations

import itertools

import pytest

from conftest import planted_meta
from lemmacheck import inequality
from lemmacheck.certify import certificate as certificate_module
from lemmacheck.certify import certify_claim
from lemmacheck.model.inputs import Array, ProbVector


def _without_times(value):
    if isinstance(value, dict):
        return {k: _without_times(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list):
        return [_without_times(v) for v in value]
    return value


def _claims(registry):
    @inequality(
        "planted.variance",
        inputs={"p": ProbVector("n"), "v": Array("n")},
        dims={"n": [1, 2, 3]},
        **planted_meta(),
    )
    def variance(xp, p, v):
        return xp.sum(p * v * v, axis=-1) - xp.sum(p * v, axis=-1) ** 2, xp.max(xp.abs(v), axis=-1) ** 2

    @inequality(
        "planted.tanh", inputs={"x": Array("n", low=0.0, high=3.0)}, dims={"n": [2]}, **planted_meta()
    )
    def tanh_below(xp, x):
        return xp.sum(xp.tanh(x), axis=-1), xp.sum(x, axis=-1)

    return [registry["planted.variance"], registry["planted.tanh"]]


class _SlowClock:
    """Each reading is ``step`` seconds after the last: a machine whose every step takes that long."""

    def __init__(self, step: float):
        self.ticks = itertools.count()
        self.step = step

    def monotonic(self) -> float:
        return next(self.ticks) * self.step


def test_a_run_on_a_much_slower_machine_gives_the_same_certificates(registry, monkeypatch):
    pytest.importorskip("z3")
    pytest.importorskip("flint")
    claims = _claims(registry)
    idle = [certify_claim(c) for c in claims]
    # 2 s between readings: the old 10 s cap fell after five; the 30 s safety net does not fall here
    monkeypatch.setattr(certificate_module, "time", _SlowClock(2.0))
    loaded = [certify_claim(c) for c in claims]
    assert [c["status"] for c in idle] == ["certified", "certified"]
    assert _without_times(idle) == _without_times(loaded)
    assert not any(c.get("safety_net_fired") for c in loaded)


def test_the_safety_net_when_it_fires_is_reported(registry, monkeypatch):
    claim = _claims(registry)[0]
    monkeypatch.setattr(certificate_module, "time", _SlowClock(100.0))
    cert = certify_claim(claim)
    assert cert["safety_net_fired"]
    assert any(t.get("reason") == "the safety net fired" for t in cert["tried"])


def test_a_combination_with_too_many_entries_is_not_run_on_symbols(registry):
    # the budget is fixed before any work: 5×5 = 25 entries are above the 24 tried, at any load
    @inequality("planted.big", inputs={"A": Array("n", "n")}, dims={"n": [1, 5]}, **planted_meta())
    def trace_square(xp, A):
        return 0 * A[..., 0, 0], xp.sum(A * A, axis=(-1, -2))

    cert = certify_claim(registry["planted.big"])
    small, big = cert["tried"]
    assert small["status"] == "certified" and big["status"] == "not tried"
    assert big["reason"] == "25 input entries at these dims, above the 24 a symbolic run is tried on"
