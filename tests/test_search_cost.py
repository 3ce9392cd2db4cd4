"""What the search costs, counted (never timed): a check's cost is mostly per call, so the search asks
for as few calls as the same answers need, and never asks high precision the same question twice."""

from __future__ import annotations

import dataclasses

import mpmath
import numpy as np
import pytest

import lemmacheck.model.inputs as inputs_module
from conftest import planted_meta
from lemmacheck import Verdict, identity, inequality
from lemmacheck.model.claim import SymbolicDerivation
from lemmacheck.model.inputs import Array, ProbVector
from lemmacheck.model.tolerance import SIGNIFICANCE, tolerance_for
from lemmacheck.run.engine import run_claim
from lemmacheck.search import adversarial, candidates
from lemmacheck.search.adversarial import HYPOTHESIS_VERIFICATIONS, hypothesis_search
from lemmacheck.search.candidates import BatchRows, Candidate, CandidatePool, Instance
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
    assert calls == [], "the estimate waits until the candidates are ranked"
    tracker.end.pool.rank_all()
    float64 = [n for dtype, n in calls if dtype == "float64"]
    # the NOISE_REPEATS (2) perturbations of the candidates in one call (their own values are the batch's);
    # the longdouble one apart
    assert float64 == [2 * candidates], calls
    assert len([c for c in calls if c[0] != "float64"]) <= 1, calls


def test_a_check_calling_lapack_still_gets_its_extended_evaluation(registry):
    """LAPACK takes no longdouble, so the namespace computes its routines in float64 inside the extended
    evaluation: the cancellation after one (invisible to a perturbation of the inputs) is then measured,
    and the candidates it makes are rounding, not significant (before, such a check had no extended
    evaluation and every one of them had to be settled)."""

    @identity("planted.cancellation_after_svd", inputs={"x": Array(scale=(1e-3, 1e-2))}, **planted_meta())
    def cancellation_after_svd(xp, x):
        norm = xp.svdvals(x[:, None, None])[:, 0]  # |x|, by a LAPACK routine
        return (norm + 1e8) - 1e8, xp.abs(x)

    check = registry["planted.cancellation_after_svd"].check
    x = np.random.default_rng(0).uniform(1e-3, 1e-2, 64)
    assert numpy_xp.svdvals(x.astype(np.longdouble)[:, None, None]).dtype == np.longdouble
    chain = evaluate_chain("planted.cancellation_after_svd", check, numpy_xp, {"x": x}, {}, 64)
    tracker = Tracker(CheckContext("planted.cancellation_after_svd", check, tolerance_for()))
    tracker.add(chain, {"x": x}, {})
    assert tracker.end.pool.total > 1, "rounding of (|x| + 1e8) - 1e8 makes candidates"
    assert tracker.end.pool.significant_total == 0


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


def _pool_summary(pool: CandidatePool) -> dict:
    """A pool as data, each candidate by the row number its instance holds (the two pools draw different
    tiebreak numbers, so the heaps are compared by their layout and their payloads)."""

    def row(c):
        return int(c.instance.inputs["x"][0])

    return {
        "by_dims": {
            k: (r.count, r.significant, r.max_gap, [row(c) for c in r.ranked()])
            for k, r in pool.by_dims.items()
        },
        "must_settle": [(s, row(c)) for s, _, c in pool.must_settle],
        "significant_total": pool.significant_total,
        "settling_order": [row(c) for c in pool.settling_order()],
    }


def test_a_batch_offered_at_once_keeps_exactly_the_candidates_offered_one_by_one(monkeypatch):
    """CandidatePool.add_batch builds objects only for the rows that can still enter a heap; the pool it
    leaves must be the one Candidate-by-Candidate ``add`` leaves, ties included (equal strengths keep
    the first found, a full heap gives up its weakest and oldest), its heaps laid out the same."""
    monkeypatch.setattr(candidates, "MUST_SETTLE_CAP", 7)  # small caps: the full-heap path is taken
    rng = np.random.default_rng(3)
    sig_levels = np.array([0.5, 10.0, SIGNIFICANCE, 65.0, 200.0, np.inf])
    for trial in range(60):
        one_by_one, at_once = CandidatePool(), CandidatePool()
        row_id = 0
        for _ in range(rng.integers(1, 9)):
            n = int(rng.integers(0, 40))
            dims = {"n": int(rng.integers(1, 4))}
            sig = sig_levels[rng.integers(0, sig_levels.size, n)]
            gap = rng.choice([0.1, 0.2, 0.3, np.inf], n) if trial % 2 else rng.uniform(0, 1, n)
            ratio = rng.uniform(0, 2, n)
            bad = rng.uniform(size=n) < 0.7
            ids = np.arange(row_id, row_id + n)
            row_id += n

            def instance_of(j, dims=dims, ids=ids):
                return Instance(dict(dims), {"x": np.array([ids[j]])})

            def instances_of(rows, instance_of=instance_of):
                return [instance_of(j) for j in rows]

            batch = BatchRows(instances_of, 1)

            for j in np.flatnonzero(bad):
                one_by_one.add(Candidate(instance_of(j), float(gap[j]), float(sig[j]), float(ratio[j])))
            at_once.add_batch(dims, gap, sig, ratio, np.flatnonzero(bad), batch)
        assert _pool_summary(at_once) == _pool_summary(one_by_one), trial
        for rec in at_once.by_dims.values():  # one candidate object per row, shared by both heaps
            assert all(isinstance(c, Candidate) for _, _, c in rec.strongest)
        shared = {id(c) for _, _, c in at_once.must_settle}
        by_row = {int(c.instance.inputs["x"][0]): id(c) for _, _, c in at_once.must_settle}
        for rec in at_once.by_dims.values():
            for _, _, c in rec.strongest:
                row = int(c.instance.inputs["x"][0])
                assert row not in by_row or id(c) in shared


def test_a_kept_candidate_builds_its_instance_from_its_own_row_and_pickles_with_it():
    """Candidates are kept without their arrays and built from the batch when first read: the instance
    must be the row's own values (copied, so a later change to the batch cannot reach it), its size known
    before it is built, and a pickled pool (a chunk sent back from a cluster) must carry the instances."""
    import pickle

    x = np.arange(12.0).reshape(6, 2)
    built: list[list[int]] = []

    def instances_of(rows):
        built.append(rows.tolist())
        return [Instance({"n": 2}, {"x": x[[j]].copy()}) for j in rows]

    pool = CandidatePool()
    sig = np.array([1.0, 500.0, 2.0, 900.0, 3.0, 700.0])
    pool.add_batch({"n": 2}, np.full(6, 0.5), sig, np.ones(6), np.arange(6), BatchRows(instances_of, 2))
    strongest = pool.settling_order()[0]
    assert built == [] and strongest.size() == 2  # nothing built to order them
    assert strongest.instance.inputs["x"].tolist() == [[6.0, 7.0]]  # row 3, significance 900
    assert len(built) == 1  # the batch's kept rows, together
    x[:] = -1.0
    assert strongest.instance.inputs["x"].tolist() == [[6.0, 7.0]]
    again = pickle.loads(pickle.dumps(pool))
    assert [c.instance.inputs["x"].tolist() for c in again.settling_order()] == [
        c.instance.inputs["x"].tolist() for c in pool.settling_order()
    ]


def _tracker(registry, claim_id: str) -> Tracker:
    return Tracker(CheckContext(claim_id, registry[claim_id].check, tolerance_for()))


def test_a_violation_past_the_verifications_stays_a_candidate_and_is_not_shrunk(registry):
    """Past HYPOTHESIS_VERIFICATIONS answers a significant violation is not taken as certified: the search
    goes on (no shrinking spent on what may be a rounding artefact) and the violation is pooled, where
    settling certifies it."""

    @inequality("planted.above_cost", inputs={"x": Array()}, **planted_meta(Verdict.REFUTED))
    def above(xp, x):
        return x + 1, x

    tracker = _tracker(registry, "planted.above_cost")
    asked: list[Instance] = []
    examples = hypothesis_search(tracker, PROFILE, 7, lambda inst: asked.append(inst) or False)
    assert len(asked) == HYPOTHESIS_VERIFICATIONS
    assert tracker.last_failure is None
    assert examples > HYPOTHESIS_VERIFICATIONS
    assert tracker.end.pool.total == examples  # every example violates, and every one is a candidate


def test_shrinking_stops_at_its_cap(registry, monkeypatch):
    """Past Profile.shrink_calls the search stops: Hypothesis draws no further example (uncapped, this
    failure takes 7 calls to shrink)."""

    @inequality(
        "planted.unit_ball_cost",
        inputs={"x": Array("n")},
        dims={"n": [4, 8]},
        **planted_meta(Verdict.REFUTED),
    )
    def inside_unit_ball(xp, x):
        return xp.sum(x * x, axis=-1), xp.sum(x * 0, axis=-1) + 1

    tracker = _tracker(registry, "planted.unit_ball_cost")
    shrinking_calls = [0]
    examine = adversarial._Search.examine

    def counted(self, inst):
        shrinking_calls[0] += self.shrinking
        return examine(self, inst)

    monkeypatch.setattr(adversarial._Search, "examine", counted)
    profile = dataclasses.replace(PROFILE, shrink_calls=3)
    hypothesis_search(tracker, profile, 7, lambda inst: True)
    assert shrinking_calls[0] == profile.shrink_calls + 1  # the last one stops the search
    assert tracker.last_failure is not None
    assert float(np.sum(tracker.last_failure.inputs["x"] ** 2)) > 1  # a failure, kept


def test_a_search_builds_each_inputs_strategy_once_per_dims_combination(registry, monkeypatch):
    """Hypothesis validates a strategy the first time it draws from it, so one built per example cost a
    validation per example: each input's strategy is built once per dims combination, for the search."""

    @inequality(
        "planted.strategy_count",
        inputs={"x": Array("n"), "y": Array("n")},
        dims={"n": [1, 2, 3]},
        **planted_meta(Verdict.HOLDS),
    )
    def cauchy_schwarz(xp, x, y):
        return xp.abs(xp.sum(x * y, axis=-1)), xp.sqrt(xp.sum(x * x, axis=-1) * xp.sum(y * y, axis=-1))

    built: list[tuple] = []
    strategy = Array.strategy

    def counted(self, dims):
        built.append(tuple(sorted(dims.items())))
        return strategy(self, dims)

    monkeypatch.setattr(Array, "strategy", counted)
    examples = hypothesis_search(_tracker(registry, "planted.strategy_count"), PROFILE, 7, None)
    assert examples == PROFILE.hypothesis_examples
    assert len(built) == len(set(built)) * 2 <= 3 * 2  # two inputs, at most three combinations


def test_a_numeric_result_says_how_its_time_divides_beside_its_evidence(registry):
    @inequality("planted.abs_bound_phases", inputs={"x": Array()}, **planted_meta(Verdict.HOLDS))
    def abs_bound(xp, x):
        return x, xp.abs(x)

    r = run_claim(registry["planted.abs_bound_phases"], PROFILE)
    assert r.verdict is Verdict.HOLDS, r.message
    assert set(r.phase_seconds) == {"sweep", "hypothesis", "refine", "optimise", "settle", "statement"}
    assert all(v >= 0 for v in r.phase_seconds.values())
    assert sum(r.phase_seconds.values()) <= r.seconds + 0.01
    assert "phase_seconds" not in r.evidence and "phase_seconds" in r.to_dict()


def test_the_time_spent_compiling_a_statement_is_a_phase_of_its_own(registry):
    # a sixth of a catalogue run's CPU compiles statements (docs/performance.md) and no phase showed it
    @inequality(
        "planted.abs_bound_statement_phase",
        inputs={"x": Array()},
        **planted_meta(Verdict.HOLDS, statement=r"x \le |x|"),
    )
    def abs_bound(xp, x):
        return x, xp.abs(x)

    r = run_claim(registry["planted.abs_bound_statement_phase"], PROFILE)
    assert r.verdict is Verdict.HOLDS, r.message
    assert r.statement_check and r.statement_check["status"], r.statement_check
    assert 0 <= r.phase_seconds["statement"] <= r.seconds, r.phase_seconds


def test_a_refuted_claim_estimates_the_rounding_of_the_combinations_settling_reaches_only(registry):
    """Every row violates at every dims combination; settling confirms the first candidate it tries (of
    the smallest combination), so only that combination's candidates are evaluated again for their
    rounding, and the evidence says how many of them were (before, every violating row was: thousands of
    perturbed and extended-precision evaluations for one settled candidate)."""
    widened: list[int] = []

    @inequality(
        "planted.shifted_estimates",
        inputs={"x": Array("n")},
        dims={"n": [1, 2, 3, 4]},
        **planted_meta(Verdict.REFUTED),
    )
    def shifted(xp, x):
        if isinstance(x, np.ndarray) and x.dtype == np.longdouble:
            widened.append(len(x))
        return xp.sum(x * x, axis=-1) + 1, xp.sum(x * x, axis=-1)

    r = run_claim(registry["planted.shifted_estimates"], PROFILE)
    assert r.verdict is Verdict.REFUTED, r.message
    s = r.evidence["settlement"]
    assert s["tried"] == 1 and r.evidence["counterexample"]["dims"] == {"n": 1}
    per_dims = s["per_dims"]
    assert per_dims["n=1"]["estimated"] == per_dims["n=1"]["candidates"] > 0
    assert all(per_dims[k]["estimated"] == 0 for k in ("n=2", "n=3", "n=4")), per_dims
    assert s["estimated"] == per_dims["n=1"]["candidates"] < s["candidates"]
    # (the float-range share's rows hold, and the tightness estimates some of them too)
    assert sum(widened) < s["candidates"] / 2, "the other combinations' rows are never evaluated again"


def test_a_pool_ranked_when_read_keeps_what_an_eager_pool_keeps(monkeypatch):
    """The rows' significance is computed only when a heap must rank them; read part of the settling
    order between batches, merge chunks, and the pool must be the one eager offers leave (ties
    included), each row's significance computed at most once."""
    monkeypatch.setattr(candidates, "MUST_SETTLE_CAP", 7)
    rng = np.random.default_rng(5)
    sig_levels = np.array([0.5, 10.0, SIGNIFICANCE, 65.0, 200.0, np.inf])
    for trial in range(60):
        eager, lazy = CandidatePool(), CandidatePool()
        chunks = [CandidatePool(), CandidatePool()]  # a chunk of each, merged at the same points
        calls: list[int] = []
        row_id = 0
        for b in range(int(rng.integers(1, 9))):
            n = int(rng.integers(0, 40))
            dims = {"n": int(rng.integers(1, 4))}
            sig = sig_levels[rng.integers(0, sig_levels.size, n)]
            gap = rng.choice([0.1, 0.2, np.inf], n) if trial % 2 else rng.uniform(0, 1, n)
            ratio = rng.uniform(0, 2, n)
            rows = np.flatnonzero(rng.uniform(size=n) < 0.7)
            ids = np.arange(row_id, row_id + n)
            row_id += n

            def instances_of(rs, dims=dims, ids=ids):
                return [Instance(dict(dims), {"x": np.array([ids[j]])}) for j in rs]

            def later(sig=sig, b=b, calls=calls):
                calls.append(b)
                return sig

            through_chunk = trial % 3 == 0 and b % 2
            (chunks[0] if through_chunk else eager).add_batch(
                dims, gap, sig, ratio, rows, BatchRows(instances_of, 1)
            )
            (chunks[1] if through_chunk else lazy).add_batch(
                dims, gap, later, ratio, rows, BatchRows(instances_of, 1)
            )
            if through_chunk and rng.uniform() < 0.5:
                eager.merge(chunks[0])
                lazy.merge(chunks[1])
                chunks = [CandidatePool(), CandidatePool()]
            if rng.uniform() < 0.4:
                lazy.settling_order()[: int(rng.integers(0, 4))]
        eager.merge(chunks[0])
        lazy.merge(chunks[1])
        lazy.rank_all()  # its counts are those of the rows estimated so far
        assert _pool_summary(lazy) == _pool_summary(eager), trial
        assert len(calls) == len(set(calls)), "a batch's significance is computed once"


def test_a_derivation_checked_again_in_one_process_asks_sympy_nothing_again(monkeypatch):
    """SymPy's answer on a step (``simplify``, deterministic, most of a derivation's cost) is kept in the
    process: the same derivation checked again (a benchmark's rounds, the mutation gate's mutants that
    leave the step as written) proves it without calling ``simplify``, with the same outcome."""
    import sympy as sp

    from lemmacheck.kinds.symbolic import check_derivation

    x = sp.Symbol("x_cost_memo", real=True)  # a name no other test proves a step about
    d = SymbolicDerivation(
        exprs=(sp.sin(x) ** 2 + sp.cos(x) ** 2 + x**2, 1 + x**2, 2 + x**2),
        relations=("=", "<="),
        labels=("Pythagoras", "one more"),
        domain={x: (-3.0, 3.0)},
    )
    calls: list = []
    real = sp.simplify
    monkeypatch.setattr(sp, "simplify", lambda e, *a, **k: calls.append(e) or real(e, *a, **k))

    def check() -> list:
        rng = np.random.default_rng(7)
        outcome = check_derivation("planted.cost_memo", d, 16, rng, tolerance_for())
        return [(s.status, s.detail) for s in outcome.steps] + [outcome.end_status]

    first = check()
    asked = len(calls)
    assert asked > 0, "the first check asks SymPy"
    assert first[:2] == [("proved", "SymPy"), ("proved", "SymPy")], first
    again = check()
    assert again == first
    assert len(calls) == asked, f"simplify called {len(calls) - asked} more times on the same steps"


def test_a_sampled_step_prints_each_side_once(monkeypatch):
    """A step SymPy does not prove is evaluated at its points and at the points moved by a few ulps:
    ``lambdify`` (which prints and compiles the expression) is asked once per side, and not again when
    the step is sampled again in the process, with the same figures."""
    import sympy as sp

    from lemmacheck.kinds.symbolic_sampled import numeric_step

    x = sp.Symbol("x_lambdify_memo", positive=True)  # a name no other test samples a step about
    a, b = sp.log(1 + x), x  # log(1 + x) <= x: SymPy's simplify does not prove it
    calls: list = []
    real = sp.lambdify
    monkeypatch.setattr(sp, "lambdify", lambda *a_, **k: calls.append(a_[1]) or real(*a_, **k))

    def step():
        return numeric_step(
            "planted.lambdify_memo",
            a,
            b,
            "<=",
            {x: (0.1, 5.0)},
            64,
            np.random.default_rng(7),
            tolerance_for(),
        )

    first = step()
    assert first[0] == 64 and first[2] is None, first
    assert sorted(map(str, calls)) == sorted(map(str, [a, b])), f"lambdify asked {len(calls)} times: {calls}"
    assert step() == first
    assert len(calls) == 2, f"lambdify asked again: {calls}"


def test_a_statement_the_grammar_refuses_is_parsed_once(monkeypatch):
    """A refusal is remembered as a tree is: the statement check of a claim run again in one process does
    not run the Earley parser again to the same error, and says the same thing about it."""
    from lemmacheck.latex import parse as parse_module
    from lemmacheck.latex.errors import LatexError

    calls: list = []
    real = parse_module._parse
    monkeypatch.setattr(parse_module, "_parse", lambda t, s: calls.append(t) or real(t, s))
    text = r"f_{memo}(x) \le \oint_0^1 x \, dx"  # a contour integral: outside the grammar
    errors = []
    for _ in range(2):
        with pytest.raises(LatexError) as exc:
            parse_module.parse(text)
        errors.append((str(exc.value), exc.value.reason, exc.value.column))
    assert errors[0] == errors[1] and r"\oint" in errors[0][1], errors
    assert calls == [text], f"the parser ran {len(calls)} times"


def test_a_one_step_chain_end_to_end_is_its_step_computed_once(registry, monkeypatch):
    """A one-step chain's end to end is its step (the same sides, the same relation): a batch's gaps,
    ratios and figures are computed once and counted in both records, with the same figures."""
    from lemmacheck.search import tracker as tracker_module

    @inequality("planted.one_step_cost", inputs={"x": Array(scale=(0.1, 10.0))}, **planted_meta())
    def one_step(xp, x):
        return xp.tanh(x - 5.0) ** 2, 0.5 + 0.0 * x  # fails well away from x = 5

    check = registry["planted.one_step_cost"].check
    x = np.random.default_rng(3).uniform(0.1, 10.0, 256)
    chain = evaluate_chain("planted.one_step_cost", check, numpy_xp, {"x": x}, {}, 256)
    calls: list = []
    real = tracker_module.gap
    monkeypatch.setattr(tracker_module, "gap", lambda *a: calls.append(a[2]) or real(*a))
    tracker = Tracker(CheckContext("planted.one_step_cost", check, tolerance_for()))
    tracker.add(chain, {"x": x}, {})
    assert calls == ["<="], f"gap computed {len(calls)} times for one batch of a one-step chain"
    step, end = tracker.steps[0], tracker.end
    assert end.violations == step.violations > 0
    figures = ("checked", "max_ratio_raw", "max_gap", "max_deviation")
    assert [getattr(end, f) for f in figures] == [getattr(step, f) for f in figures]
    assert end.max_ratio == step.max_ratio and end.pool.total == step.pool.total


def _drawn(monkeypatch) -> list:
    """Every example the adversarial search examines, as (dims, inputs) lists."""
    seen: list = []
    examine = adversarial._Search.examine

    def recorded(self, inst):
        dims, inputs, _ = inst
        seen.append((sorted(dims.items()), {k: np.asarray(v).tolist() for k, v in sorted(inputs.items())}))
        return examine(self, inst)

    monkeypatch.setattr(adversarial._Search, "examine", recorded)
    return seen


def _two_inputs(registry, claim_id: str, expected=Verdict.HOLDS):
    @inequality(
        claim_id,
        inputs={"x": Array("n"), "p": ProbVector("n")},
        dims={"n": [2, 3]},
        **planted_meta(expected),
    )
    def weighted(xp, x, p):
        # a violation (for the refuted one) from time to time, so the target phase and shrinking run too
        top = xp.max(xp.abs(x), axis=-1) * (0.5 if expected is Verdict.REFUTED else 1.0)
        return xp.abs(xp.sum(p * x, axis=-1)), top

    return _tracker(registry, claim_id)


def test_a_search_draws_what_it_drew_with_strategies_of_its_own(registry, monkeypatch):
    """Sharing the strategies across searches changes no example: the same examples in the same order,
    shrinking included."""
    for expected in (Verdict.HOLDS, Verdict.REFUTED):
        claim_id = f"planted.same_draws_{expected.value.lower()}"
        seen = _drawn(monkeypatch)
        hypothesis_search(_two_inputs(registry, claim_id, expected), PROFILE, 7, lambda inst: True)
        monkeypatch.undo()
        monkeypatch.setattr(adversarial, "shared_strategy", lambda spec, dims: None)
        before = _drawn(monkeypatch)
        tracker = _two_inputs(registry, claim_id + "_before", expected)
        hypothesis_search(tracker, PROFILE, 7, lambda inst: True)
        monkeypatch.undo()
        assert len(seen) >= PROFILE.hypothesis_examples // 2
        assert seen == before, f"{expected}: the examples differ from the first one on"


def test_searches_in_one_process_share_each_inputs_strategy(registry, monkeypatch):
    """Hypothesis builds and validates a strategy the first time it draws from it: the strategy of an
    input's raw entries at one shape and range is built once in the process, not once per claim."""
    built: list[tuple] = []
    entries = inputs_module._entries_strategy

    def counted(lo, hi, shape):
        built.append((lo, hi, shape))
        return entries(lo, hi, shape)

    monkeypatch.setattr(inputs_module, "_entries_strategy", counted)
    monkeypatch.setattr(inputs_module, "_SHARED", {})
    for claim_id in ("planted.shared_a", "planted.shared_b"):
        hypothesis_search(_two_inputs(registry, claim_id), PROFILE, 7, None)
    # x and p's raw entries at n = 2 and 3: four strategies for the two claims, not eight
    assert len(built) == len(set(built)) == 4, built


def test_a_search_builds_its_strategy_once_and_nothing_in_an_example(registry, monkeypatch):
    """Hypothesis runs the example strategy's Python for every example it generates, climbs or shrinks:
    the dims index's strategy is built once per search (``st.integers`` looked it up in Hypothesis's
    cache every example) and the composite is decorated once in the process (``st.composite`` parses
    its function's source each time it decorates one)."""
    integers, composite = adversarial.st.integers, adversarial.st.composite
    calls = {"integers": 0, "composite": 0}

    def counted(name, make):
        def call(*args, **kwargs):
            calls[name] += 1
            return make(*args, **kwargs)

        return call

    monkeypatch.setattr(adversarial.st, "integers", counted("integers", integers))
    monkeypatch.setattr(adversarial.st, "composite", counted("composite", composite))
    searches = [_two_inputs(registry, f"planted.built_once_{i}", Verdict.REFUTED) for i in range(2)]
    examples = sum(hypothesis_search(t, PROFILE, 7, lambda inst: True) for t in searches)
    assert examples > 2
    assert calls == {"integers": 2, "composite": 0}, f"{calls} for 2 searches, {examples} examples"


def _reference_instances(self):
    """The example strategy as ec4f4c4 wrote it (a composite per search, the dims index's strategy per
    example): what the search's strategy must draw exactly as."""
    import hypothesis.strategies as hst

    combos = adversarial.dims_combinations(self.check.dims)
    built: dict = {}

    @hst.composite
    def instances(draw):
        index = draw(hst.integers(0, len(combos) - 1))
        if index not in built:
            built[index] = {k: adversarial._strategy(s, combos[index]) for k, s in self.check.inputs.items()}
        inputs, raw = {}, {}
        for k, strategy in built[index].items():
            spec = self.check.inputs[k]
            if spec.transform is None:
                inputs[k] = draw(strategy)
            else:
                raw[k] = draw(strategy)
                inputs[k] = spec.finish(raw[k])
        return combos[index], inputs, raw

    return instances()


def test_a_search_draws_what_its_strategy_as_first_written_drew(registry, monkeypatch):
    """The strategy built once per search makes the same choices as the one built per example: the same
    examples in the same order, through the target phase and shrinking, with a transformed input, at one
    dims combination and at several."""

    @inequality("planted.same_strategy_one", inputs={"x": Array(3), "p": ProbVector(3)}, **planted_meta())
    def one(xp, x, p):
        return xp.abs(xp.sum(p * x, axis=-1)), xp.max(xp.abs(x), axis=-1)

    trackers = {
        "one": lambda tag: _tracker(registry, "planted.same_strategy_one"),
        "holds": lambda tag: _two_inputs(registry, f"planted.same_strategy_holds_{tag}"),
        "refuted": lambda tag: _two_inputs(registry, f"planted.same_strategy_refuted_{tag}", Verdict.REFUTED),
    }
    for name, tracker in trackers.items():
        seen = _drawn(monkeypatch)
        hypothesis_search(tracker("new"), PROFILE, 7, lambda inst: True)
        monkeypatch.undo()
        monkeypatch.setattr(adversarial._Search, "instances", _reference_instances)
        before = _drawn(monkeypatch)
        hypothesis_search(tracker("old"), PROFILE, 7, lambda inst: True)
        monkeypatch.undo()
        assert len(seen) >= PROFILE.hypothesis_examples // 2
        same = next((i for i, (a, b) in enumerate(zip(seen, before, strict=False)) if a != b), None)
        assert seen == before, f"{name}: {len(seen)} examples against {len(before)}, first differing #{same}"


def _cancelling_batches(registry, claim_id: str, *, refuse_joint: bool) -> tuple:
    """A check whose rounding makes candidates ((x + 1e8) - 1e8 against x), three batches of it at one
    dims combination, and the float64 calls the check receives (``refuse_joint``: it raises on a call
    holding rows of two batches, which the batches themselves never are)."""
    calls: list[int] = []

    @identity(claim_id, inputs={"x": Array(scale=(1e-3, 1e-2))}, **planted_meta())
    def cancellation(xp, x):
        if isinstance(x, np.ndarray) and x.dtype == np.float64:
            calls.append(len(x))
            if refuse_joint and (x < 2.5e-3).any() and (x > 3.5e-3).any():
                raise ValueError("rows of two batches")
        return (x + 1e8) - 1e8, x

    check = registry[claim_id].check
    rng = np.random.default_rng(3)
    batches = [rng.uniform(lo, lo + 1e-3, 40) for lo in (1e-3, 4e-3, 4e-3)]
    chains = [evaluate_chain(claim_id, check, numpy_xp, {"x": x}, {}, len(x)) for x in batches]
    calls.clear()
    return check, batches, chains, calls


def _significances(pool: CandidatePool) -> dict:
    return {float(c.instance.inputs["x"][0]): c.significance for c in pool.by_dims["(no dims)"].ranked()}


@pytest.mark.parametrize("refuse_joint", [False, True])
def test_a_combinations_rounding_estimates_share_a_call_and_keep_each_batchs_figures(registry, refuse_joint):
    """Ranking a combination estimates the rounding of all its batches' candidates in one call of the
    check (before: a call per batch), each batch still perturbed as alone (its signs drawn from its own
    rows), so every candidate's significance is the one a batch-by-batch estimate gives; a check that
    refuses the joint call is estimated batch by batch, with the same figures."""
    claim_id = "planted.joint_estimate_" + ("refused" if refuse_joint else "open")
    check, batches, chains, calls = _cancelling_batches(registry, claim_id, refuse_joint=refuse_joint)
    ctx = CheckContext(claim_id, check, tolerance_for())
    alone, joint = Tracker(ctx), Tracker(ctx)
    for x, chain in zip(batches, chains, strict=True):
        alone.add(chain, {"x": x}, {})
        alone.end.pool.rank_all()  # this batch's estimate made before the next batch arrives
    separate = list(calls)
    calls.clear()
    for x, chain in zip(batches, chains, strict=True):
        joint.add(chain, {"x": x}, {})
    joint.end.pool.rank_all()
    together = list(calls)
    candidates = joint.end.pool.total
    assert candidates == alone.end.pool.total > 3 * 5, "rounding of (x + 1e8) - 1e8 makes candidates"
    assert len(separate) == 3, separate
    if refuse_joint:
        assert together[1:] == separate, together
    else:
        assert together == [2 * candidates], f"one call for the three batches, not {together}"
    assert _significances(joint.end.pool) == _significances(alone.end.pool)
    assert joint.end.pool.significant_total == alone.end.pool.significant_total


def _tracker_summary(tracker: Tracker) -> dict:
    """What a tracker found, as data (each candidate and witness by its inputs)."""

    def inputs(inst: Instance) -> list:
        return np.asarray(inst.inputs["x"]).tolist()

    def pool(p: CandidatePool) -> dict:
        return {
            k: (r.count, r.significant, r.max_gap, [(inputs(c.instance), c.strength) for c in r.ranked()])
            for k, r in p.by_dims.items()
        } | {"must_settle": [(s, inputs(c.instance)) for s, _, c in p.must_settle]}

    def record(r) -> tuple:
        return [(ratio, inputs(inst)) for ratio, inst in r.ranked()], sorted(r.unresolved)

    stats = {
        st_.relation + str(i): (
            st_.checked,
            st_.violations,
            st_.max_ratio_raw,
            st_.max_gap,
            st_.max_deviation,
            record(st_.tight),
            record(st_.tight_nontrivial),
            pool(st_.pool),
        )
        for i, st_ in enumerate([*tracker.steps, tracker.end])
    }
    worst = inputs(tracker.worst) if tracker.worst is not None else None
    return stats | {
        "worst": (tracker.worst_gap, worst),
        "n": tracker.instances,
        "explored": tracker.explored(),
    }


def test_a_sweep_groups_batches_counted_at_once_as_if_added_one_by_one(registry, monkeypatch):
    """The sweep's batches of one combination are counted in one call of the tracker (the counts,
    extremes, gaps and ratios computed once over them all), each batch still its own unit of the
    rounding estimate, the tightness's resolution and the pools: every figure is the one that adding
    them one by one gives (before, a tracker took one batch a call)."""

    @inequality(
        "planted.grouped_units",
        inputs={"x": Array("n", scale=(0.3, 3.0))},
        dims={"n": [2]},
        **planted_meta(Verdict.REFUTED),
    )
    def square_le_abs(xp, x):
        return xp.sum(x * x, axis=-1) / 3, xp.sum(xp.abs(x), axis=-1) / 2 + (x[..., 0] + 1e8) - 1e8

    check = registry["planted.grouped_units"].check
    rng = np.random.default_rng(11)
    batches = [rng.uniform(-4, 4, (m, 2)) for m in (40, 25, 33)]
    chains = [
        evaluate_chain("planted.grouped_units", check, numpy_xp, {"x": x}, {"n": 2}, len(x)) for x in batches
    ]
    ctx = CheckContext("planted.grouped_units", check, tolerance_for())
    one, grouped = Tracker(ctx), Tracker(ctx)
    for x, chain in zip(batches, chains, strict=True):
        one.add(chain, {"x": x}, {"n": 2})
    relations_computed: list[int] = []
    real = Tracker._relations
    monkeypatch.setattr(
        Tracker, "_relations", lambda self, chain: relations_computed.append(1) or real(self, chain)
    )
    joined = [np.concatenate(es) for es in zip(*chains, strict=True)]
    grouped.add(joined, {"x": np.concatenate(batches)}, {"n": 2}, units=[40, 25, 33])
    assert relations_computed == [1], "the gaps and ratios of the group are computed once"
    assert one.end.pool.total > 5 and one.end.tight.value > 0, "candidates and resolved ratios both"
    assert _tracker_summary(grouped) == _tracker_summary(one)


def test_the_perturbation_is_the_one_its_definition_draws(monkeypatch):
    """``perturbed`` draws its signs by indexing the generator's 0/1 integers and reads the inputs'
    bytes in place (cheaper than ``Generator.choice`` and a joined copy): every entry must move exactly
    as the definition (a CRC-32 of the bytes joined, ``choice((-1.0, 1.0))`` per input) moves it, or every
    candidate's significance at a seed would change.  A unit's NOISE_REPEATS copies
    (``perturbed_copies``) read its bytes once (before: once per copy, the same digest each time) and
    draw every float input's signs in one call of the generator, float32 inputs included."""
    import zlib

    from lemmacheck.model.tolerance import NOISE_REPEATS, NOISE_ULPS
    from lemmacheck.search import relations
    from lemmacheck.search.relations import perturbed, perturbed_copies

    def defined(inputs: dict, repeat: int) -> dict:
        digest = zlib.crc32(b"".join(np.ascontiguousarray(v).tobytes() for v in inputs.values()))
        rng = np.random.default_rng([digest, repeat])
        out = {}
        for k, v in inputs.items():
            if v.dtype.kind == "f":
                v = v * (1.0 + rng.choice((-1.0, 1.0), size=v.shape) * (NOISE_ULPS * np.finfo(v.dtype).eps))
            out[k] = v
        return out

    crcs: list[int] = []
    real = relations._crc32
    monkeypatch.setattr(relations, "_crc32", lambda a, start: crcs.append(1) or real(a, start))
    rng = np.random.default_rng(2)
    for trial in range(300):
        shapes = [(int(rng.integers(1, 30)), *rng.integers(1, 5, int(rng.integers(0, 3)))) for _ in range(4)]
        inputs = {
            "a": rng.standard_normal(shapes[0]),
            "n": rng.integers(-3, 3, shapes[1]),
            "f": np.asfortranarray(rng.standard_normal(shapes[2])),
            "s": rng.standard_normal(shapes[3]).astype(np.float32),
        }
        crcs.clear()
        copies = perturbed_copies(inputs, NOISE_REPEATS)
        assert len(crcs) == len(inputs), f"{len(crcs)} reads of {len(inputs)} inputs' bytes"
        for repeat in range(NOISE_REPEATS):
            got, want = perturbed(inputs, repeat), defined(inputs, repeat)
            assert all(np.array_equal(got[k], want[k]) for k in inputs), (trial, repeat)
            assert all(np.array_equal(copies[repeat][k], want[k]) for k in inputs), (trial, repeat)
            assert all(copies[repeat][k].dtype == want[k].dtype for k in inputs), (trial, repeat)
            assert not np.array_equal(got["a"], inputs["a"]), "the float entries move"


def test_a_one_step_chains_tightness_is_resolved_and_its_candidates_pooled_once(registry, monkeypatch):
    """A one-step chain's step is its end to end: one record serves both, so each batch's tightness is
    resolved once (before: the step's rows resolved, then the end's, the same rows, offers and
    instances again) and its candidates join one pool; every figure is the one two records gave."""
    from lemmacheck.search import tracker as tracker_module
    from lemmacheck.search.tracker import StepStats

    @inequality("planted.one_record", inputs={"x": Array(scale=(0.1, 10.0))}, **planted_meta())
    def one_step(xp, x):
        return xp.tanh(x - 5.0) ** 2 + (x + 1e8) - 1e8 - x, 0.5 + 0.0 * x  # fails away from x = 5

    check = registry["planted.one_record"].check
    ctx = CheckContext("planted.one_record", check, tolerance_for())
    rng = np.random.default_rng(5)
    batches = [rng.uniform(0.1, 10.0, m) for m in (200, 150, 90)]
    chains = [evaluate_chain("planted.one_record", check, numpy_xp, {"x": x}, {}, len(x)) for x in batches]
    resolved: list[int] = []
    real = tracker_module.resolve_batch
    monkeypatch.setattr(tracker_module, "resolve_batch", lambda *a: resolved.append(1) or real(*a))
    one, two = Tracker(ctx), Tracker(ctx)
    two.steps = [StepStats(check.relations[0])]  # a record of its own for the step, as before
    for x, chain in zip(batches, chains, strict=True):
        one.add(chain, {"x": x}, {})
    assert len(resolved) == len(batches), f"{len(resolved)} resolutions for {len(batches)} batches"
    for x, chain in zip(batches, chains, strict=True):
        two.add(chain, {"x": x}, {})
    assert one.steps == [one.end]
    assert one.end.pool.total > 5 and one.end.tight.value > 0, "candidates and resolved ratios both"
    for record in (one.end, *two.steps, two.end):
        record.pool.rank_all()  # the counts a summary reads are those of the rows ranked
    summary = _tracker_summary(one)
    assert summary.pop("<=0") == summary["<=1"]  # the step is the end
    expected = _tracker_summary(two)
    assert expected.pop("<=0") == expected["<=1"]
    assert summary == expected


def test_a_combinations_float_range_share_is_counted_in_its_sweep_groups_call(registry, monkeypatch):
    """The float-range share of a dims combination is counted in the same call of the tracker as the
    combination's sweep batches, as one more unit after them (before: a call of its own): every figure,
    candidate and worst instance is the one that two calls in that order give."""
    from lemmacheck.search import sweep as sweep_module

    @inequality(
        "planted.wide_joined",
        inputs={"x": Array("n", scale=(0.3, 3.0))},
        dims={"n": [2, 3]},
        **planted_meta(Verdict.REFUTED),
    )
    def entries_below_five(xp, x):  # fails where an entry exceeds 5, across the float range too
        return xp.max(xp.abs(x), axis=-1), 5.0 + (x[..., 0] + 1e8) - 1e8 - x[..., 0]

    check = registry["planted.wide_joined"].check
    ctx = CheckContext("planted.wide_joined", check, tolerance_for())
    (chunk,) = sweep_module.sweep_plan(check, PROFILE)
    adds: list[int] = []
    real = Tracker.add
    monkeypatch.setattr(
        Tracker, "add", lambda self, chain, *a, **k: adds.append(1) or real(self, chain, *a, **k)
    )
    joined = sweep_module.sweep_chunk(ctx, 7, chunk)
    calls = len(adds)
    # one call per group of at most GROUP_INSTANCES instances, the share in the combination's last
    assert calls == chunk.instances // sweep_module.GROUP_INSTANCES, f"{calls} calls of the tracker"
    monkeypatch.setattr(sweep_module, "_joinable", lambda *a: False)  # the share counted apart, as before
    apart = sweep_module.sweep_chunk(ctx, 7, chunk)
    assert len(adds) - calls == calls + 2, "a call more for each combination's share"
    explored = joined.explored
    assert explored["wide_instances"] > 0 and explored["wide_candidates_dropped"] > 0, explored
    summaries = []
    for part in (joined, apart):
        tracker = Tracker(ctx)
        tracker.absorb(part)
        tracker.end.pool.rank_all()  # the counts a summary reads are those of the rows ranked
        summaries.append(_tracker_summary(tracker))
    assert summaries[0] == summaries[1]
