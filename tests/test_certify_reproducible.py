"""The same seed, the same certificates (issue 33 §4): certification was budgeted by wall-clock caps,
so the same seed gave 99, 100 or 103 certified claims depending on the machine's load.  Budgets are now
counts of work (Python calls of symbolic work, Z3's rlimit per query and per claim, a count of boxes);
the safety nets, which were wall-clock seconds and fired for 30 catalogue claims at load 11-19, count CPU
seconds, which load does not stretch, and are reported when they fire.  Here the machine is made slower
twice: with a synthetic wall clock (no real time), and for real, with processes burning every core.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import subprocess
import sys

import pytest

from conftest import planted_meta
from lemmacheck import inequality
from lemmacheck.certify import certificate as certificate_module
from lemmacheck.certify import certify_claim, smt, work
from lemmacheck.certify.scope import counts_line, scope_counts
from lemmacheck.certify.text import certificate_text
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
    # 100 s of the wall clock between readings: a machine loaded past any count; the old 30 s wall-clock
    # net fell at its first reading, and the net that counts CPU seconds does not see the wall clock
    monkeypatch.setattr(certificate_module, "time", _SlowClock(100.0))
    loaded = [certify_claim(c) for c in claims]
    assert [c["status"] for c in idle] == ["certified", "certified"]
    assert _without_times(idle) == _without_times(loaded)
    assert not any(c.get("safety_net_fired") for c in loaded)


def test_the_safety_net_when_it_fires_is_reported(registry, monkeypatch):
    claim = _claims(registry)[0]
    # 100 CPU seconds between readings: the claim's 30 CPU-second net falls before the first combination
    monkeypatch.setattr(work, "cpu_seconds", _SlowClock(100.0).monotonic)
    cert = certify_claim(claim)
    assert cert["safety_net_fired"], cert
    assert [t["reason"] for t in cert["tried"]] == [certificate_module.NET_FIRED] * 3
    assert cert["safety_nets"] == [str(t["dims"]) for t in cert["tried"]]
    assert "the CPU-time safety net fired" in certificate_text(cert | {"summary": ""})
    counts = scope_counts([cert])
    assert counts["safety_net_fired"] == 1
    assert "a CPU-time safety net fired for 1" in counts_line(counts)
    from lemmacheck.report.html import render_html

    html = render_html({"claims": [], "certificate_counts": counts})
    assert "safety net fired for 1" in html


def test_z3s_safety_net_counts_cpu_seconds_and_is_reported(monkeypatch, tmp_path):
    pytest.importorskip("z3")
    # a "solver" that ignores its rlimit and burns CPU: its CPU limit of 1 s stops it in its own process
    # (SIGXCPU), whatever the load, and the claim's budget records that the net fired
    burner = tmp_path / "z3"
    burner.write_text("#!/bin/sh\nwhile :; do :; done\n")
    burner.chmod(0o755)
    monkeypatch.setattr(smt, "_z3_binary", lambda: str(burner))
    monkeypatch.setattr(smt, "SAFETY_SECONDS", 1.0)
    with work.claim_budget() as budget:
        answer, _ = smt._solve("(check-sat)")
    assert answer == "unknown"
    assert budget.fired == ["a Z3 query ran past its 1 CPU-second safety net"]
    assert "a safety net fired" in smt.last_unknown()


def _iterated(registry):
    # each step's expression contains the last twice: SymPy's work grows without end at n = 1 already
    # (the shape of norms.power_method_spectral, whose trace at m = n = 1 ran to the safety net)
    @inequality(
        "planted.iterated",
        inputs={"x": Array("n", low=1.0, high=2.0)},
        dims={"n": [1, 2]},
        **planted_meta(),
    )
    def iterated(xp, x):
        v = x
        for _ in range(40):
            v = v / xp.sum(xp.abs(v), axis=-1)[..., None] + xp.sqrt(x)
        return 0 * x[..., 0], xp.sum(v * v, axis=-1)

    return registry["planted.iterated"]


@contextlib.contextmanager
def _every_core_busy():
    """Two busy processes per core for the block (each stopped by its own id after it)."""
    burners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2 * (os.cpu_count() or 1))
    ]
    try:
        yield
    finally:
        for p in burners:
            p.kill()
            p.wait()


def _outcomes(certs):
    return [
        (c["status"], c.get("safety_net_fired", False), [(t["status"], t.get("reason")) for t in c["tried"]])
        for c in certs
    ]


@pytest.mark.slow
def test_two_runs_at_different_load_give_the_same_certificates(registry, monkeypatch):
    pytest.importorskip("z3")
    pytest.importorskip("flint")
    # budgets small enough for a test, large enough for the two claims that certify (the tanh box tree
    # spends about 350 000 calls); the iterated claim spends whatever it is given.  The safety nets are
    # the shipped ones: they count CPU seconds, which the burners do not stretch
    monkeypatch.setattr(work, "COMBINATION_CALLS", 600_000)
    monkeypatch.setattr(work, "CLAIM_CALLS", 1_500_000)
    claims = [*_claims(registry), _iterated(registry)]
    quiet = [certify_claim(c) for c in claims]
    with _every_core_busy():
        loaded = [certify_claim(c) for c in claims]
    assert _outcomes(quiet) == _outcomes(loaded)
    assert _without_times(quiet) == _without_times(loaded)
    assert [c["status"] for c in loaded] == ["certified", "certified", "not certified"]
    spent = "this combination's budget of symbolic work ran out"
    assert [t["reason"] for t in loaded[2]["tried"]] == [spent, spent]
    assert not any(c.get("safety_net_fired") for c in quiet + loaded)


#: catalogue claims the 30 s wall-clock net stopped in run --certify at load 11-19 (30 claims in all):
#: a recurrence over seven activations that spends its whole 6 million calls (vanish.s002.bound_chain:
#: 6.0 CPU s, 39 s of the wall clock at load 12), the same over sizes and activations (sens.eq29), and
#: simplify's own 10 s wall-clock net (vanish.s003.diag_norm)
NETTED = ("vanish.s002.bound_chain", "sens.eq29", "vanish.s003.diag_norm")


@pytest.mark.slow
def test_the_claims_the_wall_clock_net_stopped_get_the_same_certificates_at_any_load():
    pytest.importorskip("z3")
    pytest.importorskip("flint")
    from lemmacheck.model.claim import REGISTRY
    from lemmacheck.project.discovery import discover

    discover()
    claims = [REGISTRY[i] for i in NETTED]
    quiet = [certify_claim(c) for c in claims]
    with _every_core_busy():
        loaded = [certify_claim(c) for c in claims]
    assert _outcomes(quiet) == _outcomes(loaded)
    assert _without_times(quiet) == _without_times(loaded)
    assert not any(c.get("safety_net_fired") for c in quiet + loaded), [c.get("safety_nets") for c in loaded]


def test_z3_is_not_asked_once_the_claims_budget_of_resource_units_is_spent(registry, monkeypatch):
    pytest.importorskip("z3")
    monkeypatch.setattr(work, "CLAIM_RLIMIT", 1)  # spent by the first query, whatever it costs
    cert = certify_claim(_claims(registry)[0])
    first, second, third = cert["tried"]
    assert first["status"] == "certified"  # n = 1 by SymPy; n = 2 asks Z3 twice, the first query spends it
    spent = "Z3 did not decide the statement: the claim's Z3 budget of 1 resource units is spent"
    assert (second["status"], second["reason"]) == ("not certified", spent)
    assert third["status"] == "not tried"
