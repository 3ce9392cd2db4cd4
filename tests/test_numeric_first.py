"""A derivation step is evaluated at exact rational points before SymPy is asked, and SymPy runs under a
time cap of its own: a false identity is REFUTED in seconds with a certified counterexample, never hung.

The planted chain is the induction step of ``act.s004.induction`` (seed 004): SymPy proves it as written
in well under a second, and with one bias term dropped it spent more than 120 s in ``simplify`` and in
evaluating a generic ``sigma`` point by point (the run's ERROR, at every seed).
"""

from __future__ import annotations

import signal
import time

import pytest
import sympy as sp

from conftest import planted_meta
from lemmacheck import Verdict, derivation
from lemmacheck.kinds.sympy_cap import SymPyStopped, capped, sympy_cap
from lemmacheck.run.engine import run_claim
from lemmacheck.search.profile import QUICK

PROFILE = QUICK.with_seed(7)
# What separates "refuted" from "hung": the chain is refuted in about a second on an idle machine; the
# bound leaves room for a loaded one and is far below the 120 s the run used to take.
REFUTED_WITHIN = 20.0

sigma = sp.Function("sigma")
W = sp.Matrix(2, 2, lambda i, j: sp.Symbol(f"W{i}{j}", real=True))
U = sp.Matrix(2, 1, lambda i, j: sp.Symbol(f"U{i}", real=True))
b = sp.Matrix(2, 1, lambda i, j: sp.Symbol(f"b{i}", real=True))
c = sp.Matrix(2, 1, lambda i, j: sp.Symbol(f"c{i}", real=True))
h = sp.Matrix(2, 1, lambda i, j: sp.Symbol(f"h{i}", real=True))
x_t, x_tm1 = sp.symbols("x_t x_tm1", real=True)

# sympy_cap is an alarm (SIGALRM): enforced in the main thread on POSIX only, so elsewhere nothing to test
NEEDS_ALARM = pytest.mark.skipif(not capped(), reason="SIGALRM caps only in the main thread on POSIX")


def s(v):
    return v.applyfunc(sigma)


def probe(v):
    return (c.T * v)[0, 0]


def induction_chain(bias_of_h_tm1):
    """sigma(h_t) = g_t two steps back from g_{t-2} = sigma(h_{t-2}), as act.s004.induction states it."""
    g_tm1 = s(W * s(h) + U * x_tm1 + b)
    return [
        probe(s(W * s(W * s(h) + U * x_tm1 + bias_of_h_tm1) + U * x_t + b)),
        "=",
        probe(s(W * g_tm1 + U * x_t + b)),
    ]


def test_the_induction_step_as_written_is_proved(registry):
    derivation("planted.induction", chain=induction_chain(b), **planted_meta(Verdict.PROVED))
    assert run_claim(registry["planted.induction"], PROFILE).verdict is Verdict.PROVED


def test_a_dropped_bias_is_refuted_in_seconds_with_an_exact_counterexample(registry):
    derivation(
        "planted.induction_no_bias", chain=induction_chain(sp.zeros(2, 1)), **planted_meta(Verdict.REFUTED)
    )
    t0 = time.perf_counter()
    r = run_claim(registry["planted.induction_no_bias"], PROFILE)
    seconds = time.perf_counter() - t0
    assert r.verdict is Verdict.REFUTED, (r.message, r.evidence)
    assert seconds < REFUTED_WITHIN, seconds
    cex = r.evidence["counterexample"]
    assert cex["exact"] is True and cex["lhs"] != cex["rhs"]
    # The counterexample names the function sigma was evaluated as, and every point is a rational.
    assert set(cex["functions"]) == {"sigma"}
    point = {k: sp.Rational(v) for k, v in cex["inputs"].items()}
    assert set(point) >= {"b0", "b1", "x_t", "W00"}
    # Replayed independently: the two sides differ exactly at that point with that function.
    variables, body = cex["functions"]["sigma"].split(" -> ")
    sigma_at = sp.Lambda(sp.sympify(variables), sp.sympify(body))
    lhs, _, rhs = induction_chain(sp.zeros(2, 1))
    subs = {sp.Symbol(k, real=True): v for k, v in point.items()}
    values = [e.replace(sigma, sigma_at).xreplace(subs) for e in (lhs, rhs)]
    assert values[0] != values[1]
    assert float(values[0]) == pytest.approx(float(cex["lhs"]), rel=1e-12)


def test_the_first_broken_step_of_a_longer_chain_is_named(registry):
    x, y = sp.symbols("x y", real=True)
    derivation(
        "planted.two_steps",
        chain=[(x + y) ** 2, "=", x**2 + 2 * x * y + y**2, "=", x**2 + y**2],
        **planted_meta(Verdict.REFUTED, expected_broken_step=2),
    )
    r = run_claim(registry["planted.two_steps"], PROFILE)
    assert r.verdict is Verdict.REFUTED and r.first_broken_step == 2
    assert [st.status for st in r.steps] == ["proved", "broken"]
    assert "(exact)" in r.steps[1].detail


@NEEDS_ALARM
def test_sympy_cap_stops_the_block_and_keeps_an_outer_alarm():
    fired = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(True))
    signal.setitimer(signal.ITIMER_REAL, 5.0)
    try:
        t0 = time.perf_counter()
        with pytest.raises(SymPyStopped), sympy_cap(0.2):
            time.sleep(3)
        assert time.perf_counter() - t0 < 2
        left, _ = signal.getitimer(signal.ITIMER_REAL)
        assert 3.0 < left <= 5.0  # the outer alarm is re-armed with what it had left
        with sympy_cap(10.0):  # the outer alarm falls first: it is left to fire as it would have
            assert signal.getitimer(signal.ITIMER_REAL)[0] == pytest.approx(left, abs=0.5)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert not fired


@NEEDS_ALARM
def test_sympy_cap_stops_again_a_block_that_swallowed_its_first_stop():
    # a stop raised in a gc callback, or caught by an inner cap's handler, never reaches the block; the
    # cap must not then leave the block running with no alarm armed
    swallowed = []
    t0 = time.perf_counter()
    with pytest.raises(SymPyStopped), sympy_cap(0.2):
        try:
            time.sleep(3)
        except SymPyStopped:
            swallowed.append(time.perf_counter() - t0)
        time.sleep(3)
    assert swallowed and time.perf_counter() - t0 < 2
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0  # nothing left armed


@NEEDS_ALARM
def test_a_cpu_cap_counts_cpu_seconds_not_the_wall_clock():
    # certification's safety nets (issue 33 §4): a block that waits spends no CPU and is never stopped
    # by a CPU cap, whatever the wall clock says; a block that works is stopped once it has spent it
    with sympy_cap(0.2, cpu=True):
        time.sleep(0.5)
    with pytest.raises(SymPyStopped), sympy_cap(0.2, cpu=True):
        while True:
            pass
    assert signal.getitimer(signal.ITIMER_PROF)[0] == 0  # nothing left armed
