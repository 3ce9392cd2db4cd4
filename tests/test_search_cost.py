"""What the search costs, counted (never timed): a check's cost is mostly per call, so the search asks
for as few calls as the same answers need, and never asks high precision the same question twice."""

from __future__ import annotations

import mpmath
import numpy as np

from conftest import planted_meta
from lemmacheck import Verdict, identity, inequality
from lemmacheck.model.inputs import Array
from lemmacheck.model.tolerance import tolerance_for
from lemmacheck.run.engine import run_claim
from lemmacheck.search.candidates import Instance
from lemmacheck.search.context import CheckContext
from lemmacheck.search.profile import QUICK
from lemmacheck.search.relations import evaluate_chain
from lemmacheck.search.shrink import shrink_counterexample
from lemmacheck.search.tracker import Tracker
from lemmacheck.xp import numpy_xp

PROFILE = QUICK.with_seed(7)


def test_rounding_sensitivity_is_one_float64_call_for_a_batch_of_candidates(registry):
    calls: list[tuple[str, int]] = []

    @identity("planted.cancellation_cost", inputs={"x": Array(scale=(1e-3, 1e-2))}, **planted_meta())
    def cancellation(xp, x):
        if isinstance(x, np.ndarray):
            calls.append((x.dtype.name, len(x)))
        return (x + 1e8) - 1e8, x

    check = registry["planted.cancellation_cost"].check
    x = np.random.default_rng(0).uniform(1e-3, 1e-2, 64)
    chain = evaluate_chain("planted.cancellation_cost", check, numpy_xp, {"x": x}, {}, 64)
    calls.clear()
    tracker = Tracker(CheckContext("planted.cancellation_cost", check, tolerance_for()))
    tracker.add(chain, {"x": x}, {})
    candidates = tracker.end.pool.total
    assert candidates > 1, "rounding of (x + 1e8) - 1e8 makes candidates"
    float64 = [n for dtype, n in calls if dtype == "float64"]
    # the candidates and their NOISE_REPEATS (2) perturbations in one call; the longdouble one apart
    assert float64 == [3 * candidates], calls
    assert len([c for c in calls if c[0] != "float64"]) <= 1, calls


def test_high_precision_never_evaluates_an_instance_twice_at_one_precision(registry):
    seen: list[tuple] = []

    @inequality(
        "planted.square_le_self_cost",
        inputs={"x": Array("n")},
        dims={"n": [1, 2, 3]},
        **planted_meta(Verdict.REFUTED),
    )
    def square_le_self(xp, x):
        if not isinstance(x, np.ndarray) or x.dtype == object:
            seen.append((mpmath.mp.dps, tuple(str(v) for v in np.ravel(x))))
        return xp.sum(x * x, axis=-1), xp.sum(xp.abs(x), axis=-1)

    r = run_claim(registry["planted.square_le_self_cost"], PROFILE)
    assert r.verdict is Verdict.REFUTED, r.message
    assert seen, "the counterexample was certified in high precision"
    repeated = {k for k in seen if seen.count(k) > 1}
    assert not repeated, f"{len(repeated)} (precision, instance) pairs evaluated more than once"


def test_the_context_remembers_an_answer_and_a_failure(registry):
    evaluations = [0]

    @inequality("planted.le_cost", inputs={"x": Array()}, **planted_meta(Verdict.REFUTED))
    def le(xp, x):
        if not isinstance(x, np.ndarray) or x.dtype == object:
            evaluations[0] += 1
        return x + 1, x

    ctx = CheckContext("planted.le_cost", registry["planted.le_cost"].check, tolerance_for())
    inst = Instance({}, {"x": np.array([0.5])})
    first = ctx.reverify(inst, None, "<=")
    done = evaluations[0]
    assert first.confirmed and done > 0
    again = ctx.reverify(Instance({}, {"x": np.array([0.5])}), None, "<=")
    assert again is first and evaluations[0] == done, "the same instance is answered from memory"
    ctx.reverify(Instance({}, {"x": np.array([0.25])}), None, "<=")
    assert evaluations[0] > done, "another instance is evaluated"


def test_shrinking_tries_the_simple_values_of_an_entry_in_one_call(registry):
    calls: list[int] = []

    @inequality(
        "planted.sum_le_cost", inputs={"x": Array("n")}, dims={"n": [3]}, **planted_meta(Verdict.REFUTED)
    )
    def sum_le(xp, x):
        if isinstance(x, np.ndarray) and x.dtype != object:
            calls.append(len(x))
        return xp.sum(x * x, axis=-1), xp.sum(x * 0, axis=-1) + 2.5

    check = registry["planted.sum_le_cost"].check
    ctx = CheckContext("planted.sum_le_cost", check, tolerance_for())
    inst = Instance({"n": 3}, {"x": np.array([[3.7, -5.3, 0.6]])})
    conf = ctx.reverify(inst, None, "<=")
    assert conf.confirmed
    calls.clear()
    best, _, changed = shrink_counterexample(ctx, inst, conf, None, "<=", trials=500)
    # 0 keeps the first entry's violation; the second needs -2 (after 0, -1, -1/2); the third then 0
    assert changed == 3 and best.inputs["x"].tolist() == [[0.0, -2.0, 0.0]], best.inputs
    assert len(calls) == 3, f"one float64 call per entry, not one per value tried: {calls}"
