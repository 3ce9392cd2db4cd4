"""The local optimiser's and the settling's mechanics cost what their algorithm needs and no more (issue 35):
the BLAS libraries are listed once, a climb's coordinates become instances without reading the inputs'
layout again for every batch, and a counterexample looks for a smaller one without estimating the
combinations that cannot hold one."""

from __future__ import annotations

import numpy as np
import pytest
import threadpoolctl

from conftest import planted_meta
from lemmacheck import inequality
from lemmacheck.model.inputs import Array, OneHot
from lemmacheck.model.tolerance import tolerance_for
from lemmacheck.search import optimise
from lemmacheck.search.candidates import Instance
from lemmacheck.search.context import CheckContext
from lemmacheck.search.coords import Space
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


def _mixed_space(registry, *, log: bool) -> Space:
    """A space over a moved array, a one-hot input moved in its raw values, and an integer input that
    is not moved (repeated per row)."""

    @inequality(
        "planted.mixed_inputs",
        inputs={"x": Array(2, 3), "Y": OneHot(2, 3), "k": Array(2)},
        **planted_meta(),
    )
    def mixed_inputs(xp, x, Y, k):
        return xp.sum(x * Y, axis=(-2, -1)), 1.0 + 0 * x[:, 0, 0]

    check = registry["planted.mixed_inputs"].check
    rng = np.random.default_rng(0)
    raw = rng.uniform(0.1, 0.9, (1, 2, 3))  # within OneHot's domain, so no entry is clipped
    x, Y = rng.standard_normal((1, 2, 3)), check.inputs["Y"].finish(raw)
    inputs = {"x": x, "Y": Y, "k": np.array([[1, 2]])}
    return Space(check, Instance({}, inputs, {"Y": raw}), log=log)


@pytest.mark.parametrize("log", [False, True])
def test_coordinates_become_instances_without_reading_the_layout_again(registry, monkeypatch, log):
    # the optimiser turns coordinates into instances 600-odd times a claim, and reading each input's
    # shape and size afresh every time was half of that (a tenth of the optimise phase)
    space = _mixed_space(registry, log=log)
    read: list[str] = []
    real = Space._source
    monkeypatch.setattr(Space, "_source", lambda self, k: read.append(k) or real(self, k))
    u = space.start()
    for _ in range(5):
        inputs, raw = space.instances(np.vstack([u, u + 0.25]))
    assert read == [], f"the inputs' layout was read again for each batch: {read}"
    # the same instances as ever: the start row is the instance itself (bit for bit in linear
    # coordinates; exp(log(x)) rounds), and the moved inputs are views of one entry array (a check's
    # BLAS calls see the strides they always saw)
    inst = space.inst
    for got, want in [(inputs[k], inst.inputs[k]) for k in ("x", "Y", "k")] + [(raw["Y"], inst.raw["Y"])]:
        want = np.asarray(want)
        assert got.dtype == want.dtype and got.shape[1:] == want.shape[1:], (got.dtype, want.dtype)
        if log:
            # exp(log|x|) is off by about |log|x|| ulps; these entries have |log|x|| < 3.2, so under 1e-15
            np.testing.assert_allclose(got[:1], want, rtol=1e-15)
        else:
            assert got[:1].tobytes() == want.tobytes(), (got[:1], want)
    for part in (inputs["x"], raw["Y"]):
        assert part.strides[0] == 8 * space.x0.size, f"not a view of one entry array: strides {part.strides}"


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
