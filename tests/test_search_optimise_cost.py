"""The local optimiser's mechanics cost what its algorithm needs and no more (issue 35): a batch's repeated
points are evaluated once, the BLAS libraries are listed once, and what it finds is unchanged."""

from __future__ import annotations

import numpy as np
import threadpoolctl

from conftest import planted_meta
from lemmacheck import inequality
from lemmacheck.model.inputs import Array
from lemmacheck.model.tolerance import tolerance_for
from lemmacheck.search import climb as climb_module
from lemmacheck.search import optimise
from lemmacheck.search.candidates import Instance
from lemmacheck.search.climb import Climb
from lemmacheck.search.context import CheckContext
from lemmacheck.search.coords import Space
from lemmacheck.search.pattern import pattern
from lemmacheck.search.relations import evaluate_chain
from lemmacheck.search.tracker import Tracker
from lemmacheck.settling import settle as settle_module
from lemmacheck.settling.settle import Budget
from lemmacheck.xp import numpy_xp


def _box_bound(registry, seen: list[int]):
    """``x0 x1 + x2^2 <= 3`` on [-1, 1]^3, recording the rows of each float64 call."""

    @inequality("planted.box_rows", inputs={"x": Array(3, low=-1.0, high=1.0)}, **planted_meta())
    def box_rows(xp, x):
        if isinstance(x, np.ndarray) and x.dtype == np.float64:
            seen.append(len(x))
        return x[:, 0] * x[:, 1] + x[:, 2] ** 2, 3.0 + 0 * x[:, 0]

    check = registry["planted.box_rows"].check
    return Tracker(CheckContext("planted.box_rows", check, tolerance_for()))


def _at_corner() -> Instance:
    return Instance({}, {"x": np.array([[1.0, -1.0, 0.5]])}, {})


def test_a_batch_evaluates_each_distinct_point_once_and_gives_every_row_its_values(registry):
    seen: list[int] = []
    tracker = _box_bound(registry, seen)
    space = Space(tracker.check, _at_corner(), log=False)
    u = space.start()
    # a compass search's moves at a corner: clipped back to the point itself, or to the same face
    rows = np.clip(np.vstack([u, u + 0.3, u - 0.3, u, u + 0.3, 0.0 * u, -0.0 * u]), -1.0, 1.0)
    climb = Climb(tracker, space)
    seen.clear()
    m, chain, inputs, _ = climb.margins(rows)
    assert seen == [5], f"7 rows of which 5 distinct (-0.0 is not 0.0): the check saw {seen}"
    assert climb.evaluated == 7, "the count is of the points asked for, as before"
    full_inputs, _ = space.instances(rows)
    full = evaluate_chain("planted.box_rows", tracker.check, numpy_xp, full_inputs, {}, 7)
    assert chain is not None
    for mine, theirs in zip(chain, full, strict=True):
        assert mine.tobytes() == theirs.tobytes(), (mine, theirs)
    assert inputs["x"].tobytes() == full_inputs["x"].tobytes()
    assert np.isfinite(m).all(), m


def test_a_compass_search_reaches_the_same_point_as_with_every_row_evaluated(registry, monkeypatch):
    seen: list[int] = []
    tracker = _box_bound(registry, seen)
    reached, n = pattern(tracker, _at_corner(), 6, near=False)
    deduplicated = sum(seen)
    monkeypatch.setattr(climb_module, "_distinct_rows", lambda u: (np.arange(len(u)), None))
    seen.clear()
    again, n_again = pattern(_box_bound(registry, seen), _at_corner(), 6, near=False)
    assert reached.inputs["x"].tobytes() == again.inputs["x"].tobytes(), (reached.inputs, again.inputs)
    assert n == n_again, (n, n_again)
    assert deduplicated < sum(seen), f"{deduplicated} rows evaluated, against {sum(seen)} with every row"


def test_the_blas_libraries_are_listed_once_for_many_climbs(registry, monkeypatch):
    made: list[int] = []
    real = threadpoolctl.ThreadpoolController

    def counted():
        made.append(1)
        return real()

    monkeypatch.setattr(threadpoolctl, "ThreadpoolController", counted)
    optimise._blas_controller.cache_clear()
    tracker = _box_bound(registry, [])
    for _ in range(3):
        optimise._climb(tracker, _at_corner(), 8, log=False, near=False)
    assert len(made) == 1, f"the native libraries were listed {len(made)} times for 3 climbs"


def test_rows_whose_fingerprints_collide_are_still_told_apart():
    # two rows of different bits with the same fingerprint (sum of bits times odd multipliers, mod 2^64)
    mix = (np.arange(1, 3, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)) | np.uint64(1)
    with np.errstate(over="ignore"):
        other = np.array([mix[1], np.uint64(0) - mix[0]], dtype=np.uint64)
    bits = np.vstack([np.zeros(2, dtype=np.uint64), other, np.zeros(2, dtype=np.uint64)])
    with np.errstate(over="ignore"):
        prints = (bits * mix).sum(axis=1)
    assert prints[0] == prints[1], "the rows are built to collide"
    first, back = climb_module._distinct_rows(bits.view(np.float64))
    assert first.tolist() == [0, 1] and back is not None and back.tolist() == [0, 1, 0], (first, back)


def _pooled_by_size(registry, seen: list[int]) -> Tracker:
    """``(x0 + 1e8) - 1e8 + sum(x[1:]^2) <= x0``: at n = 1 rounding only, at n >= 2 false by x1^2;
    a batch of each n pooled as the sweep pools them."""

    @inequality(
        "planted.smaller_first",
        inputs={"x": Array("n", scale=(1e-3, 1e-2))},
        dims={"n": [1, 2, 3]},
        **planted_meta(),
    )
    def smaller_first(xp, x):
        if isinstance(x, np.ndarray) and x.dtype == np.float64:
            seen.append(x.shape[1])
        return (x[:, 0] + 1e8) - 1e8 + xp.sum(x[:, 1:] ** 2, axis=-1), x[:, 0]

    check = registry["planted.smaller_first"].check
    tracker = Tracker(CheckContext("planted.smaller_first", check, tolerance_for()))
    rng = np.random.default_rng(0)
    for n in (1, 2, 3):
        x = rng.uniform(1e-3, 1e-2, (64, n))
        tracker.add(
            evaluate_chain("planted.smaller_first", check, numpy_xp, {"x": x}, {"n": n}, 64),
            {"x": x},
            {"n": n},
        )
    return tracker


def test_a_counterexample_looks_for_a_smaller_one_without_estimating_the_larger_combinations(
    registry, monkeypatch
):
    seen: list[int] = []
    tracker = _pooled_by_size(registry, seen)
    pool = tracker.end.pool
    assert pool.by_dims["n=1"].count > 0, "(x0 + 1e8) - 1e8 rounds above x0 at some n = 1 instances"
    seen.clear()
    out = settle_module.settle(tracker.ctx, pool, None, "<=", Budget(50))
    assert out.refuted and out.confirmed is not None
    assert out.confirmed.instance.dims == {"n": 2}, out.confirmed.instance.dims
    assert out.per_dims["n=1"]["tried"] >= 1 and out.per_dims["n=1"]["rejected"] >= 1, out.per_dims
    # n = 3 can hold no counterexample smaller than n = 2's: its rounding is never estimated
    assert 3 not in seen, f"the n = 3 candidates were evaluated for their rounding ({seen})"
    assert out.per_dims["n=3"]["estimated"] == 0, out.per_dims["n=3"]
    # and it is the counterexample the whole order gives (read whole, as before: n = 3 estimated too)
    monkeypatch.setattr(
        settle_module, "_smaller_ones", lambda pool, first, confirmed, candidates: list(candidates())
    )
    again = _pooled_by_size(registry, [])
    expected = settle_module.settle(again.ctx, again.end.pool, None, "<=", Budget(50))
    assert expected.per_dims["n=3"]["estimated"] > 0, expected.per_dims["n=3"]
    assert expected.confirmed is not None and expected.tried == out.tried, (expected.tried, out.tried)
    assert out.confirmed.instance.inputs["x"].tobytes() == expected.confirmed.instance.inputs["x"].tobytes()
