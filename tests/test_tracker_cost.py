"""What a batch costs the tracker, counted (never timed): the same records and figures with fewer NumPy
calls around the check's own evaluations (the perturbation's reads are counted in test_search_cost)."""

from __future__ import annotations

import numpy as np

from conftest import planted_meta
from lemmacheck import inequality
from lemmacheck.model.inputs import Array
from lemmacheck.model.tolerance import Tolerance, slack, tolerance_for
from lemmacheck.search import relations, tightness
from lemmacheck.search import tracker as tracker_module
from lemmacheck.search.candidates import Instance
from lemmacheck.search.context import CheckContext
from lemmacheck.search.relations import evaluate_chain, excess, gap
from lemmacheck.search.tightness import FAR, far_rows, is_far
from lemmacheck.search.tracker import Tracker
from lemmacheck.xp import numpy_xp


def _mixed_inputs(rng, rows: int) -> dict:
    """Inputs of every kind a check takes: float64, float32, integers, a Fortran-ordered array, and
    entries of every magnitude (zeros, subnormals, beyond FAR, non-finite)."""
    wide = rng.standard_normal((rows, 3)) * 10.0 ** rng.integers(-310, 300, (rows, 3))
    wide[rng.random((rows, 3)) < 0.1] = 0.0
    wide[rng.random((rows, 3)) < 0.05] = np.nan
    wide[rng.random((rows, 3)) < 0.05] = -np.inf
    return {
        "w": wide,
        "s": rng.standard_normal(rows).astype(np.float32) * np.float32(1e-17),
        "n": rng.integers(-3, 3, (rows, 2)),
        "f": np.asfortranarray(rng.standard_normal((rows, 2, 3))),
    }


def test_far_rows_is_each_rows_instance_judged_alone():
    rng = np.random.default_rng(5)
    for _ in range(50):
        inputs = _mixed_inputs(rng, 40)
        rows = rng.permutation(40)[: int(rng.integers(0, 40))]
        alone = [is_far(Instance({}, relations.take(inputs, int(j)))) for j in rows]
        assert far_rows(inputs, rows).tolist() == alone
    assert is_far(Instance({}, {"x": np.array([2 * FAR])})) and far_rows(
        {"x": np.array([2 * FAR])}, np.array([0])
    )


def test_a_resolved_row_is_built_once_and_judged_far_without_an_instance(registry, monkeypatch):
    """A resolved row offered to both tightness records (its dims non-trivial) is one instance, and its
    far-ness is read from the batch in one pass per input (before: an instance built and examined per
    record); the heaps hold what they held, the far instances apart."""

    @inequality(
        "planted.two_records",
        dims={"n": [2, 3]},
        inputs={"x": Array("n"), "y": Array()},
        **planted_meta(),
    )
    def two_records(xp, x, y):
        s = xp.sum(x * x, axis=-1)
        return s, s * (1.0 + 1e-3 * xp.abs(x[..., 0])) + 0.0 * y

    check = registry["planted.two_records"].check
    ctx = CheckContext("planted.two_records", check, tolerance_for())
    judged: list[int] = []
    real_far = tightness.is_far
    monkeypatch.setattr(tightness, "is_far", lambda inst: judged.append(1) or real_far(inst))
    built: list[tuple] = []  # (the unit's inputs, the row) of each instance built
    real_instance = tracker_module._instance
    monkeypatch.setattr(
        tracker_module, "_instance", lambda *a: built.append((a[0], a[-1])) or real_instance(*a)
    )
    tracker = Tracker(ctx)
    rng = np.random.default_rng(6)
    for n in (2, 3):
        x = rng.uniform(0.1, 10.0, (300, n))
        y = 10.0 ** rng.uniform(-20, 20, 300)
        chain = evaluate_chain("planted.two_records", check, numpy_xp, {"x": x, "y": y}, {"n": n}, 300)
        tracker.add(chain, {"x": x, "y": y}, {"n": n})
    tight, nontrivial = tracker.end.tight, tracker.end.tight_nontrivial
    assert judged == [], "far-ness comes from the batch"
    rows_built = [(id(unit), row) for unit, row in built]
    assert len(rows_built) == len(set(rows_built)), (
        f"{len(rows_built) - len(set(rows_built))} rows built twice"
    )
    assert tight.far and tight.top, "both heaps are used"
    assert all(is_far(inst) for _, _, inst in tight.far) and not any(is_far(i) for _, _, i in tight.top)
    shared = {id(i) for _, _, i in [*tight.top, *tight.far]} & {id(i) for _, _, i in nontrivial.top}
    assert shared, "a row kept by both records is one instance"


def test_a_few_entries_measure_as_a_batch_does():
    """An input of a few entries is measured in Python floats, a larger one in NumPy: the magnitudes of
    a batch's rows added one by one are those of the batch at once."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        inputs = _mixed_inputs(rng, 64)
        inputs["none"] = np.array([[0.0, np.nan]] * 64)  # nothing to measure: no entry at all
        one, rows = Tracker.__new__(Tracker), Tracker.__new__(Tracker)
        one.magnitudes, rows.magnitudes = {}, {}
        one._measure(inputs)
        for j in range(64):
            rows._measure({k: v[j : j + 1] for k, v in inputs.items()})
        assert rows.magnitudes == one.magnitudes and "none" not in one.magnitudes
        assert set(one.magnitudes) == {"w", "s", "f"}


def test_the_gap_and_excess_are_their_definitions_for_every_relation():
    """``excess`` computes only the difference its relation reads (before: all four, every call)."""
    rng = np.random.default_rng(8)
    a = rng.standard_normal(500) * 10.0 ** rng.integers(-300, 300, 500)
    b = a + rng.standard_normal(500) * np.abs(a) * 10.0 ** rng.integers(-20, 0, 500)
    a[:20], b[10:30] = 0.0, 0.0
    # the policy's tolerance, and an override with an absolute part: both branches of the slack; the
    # reference below uses the same tolerance, so nothing is loosened, only exact equality is asserted
    for tol in (tolerance_for(), Tolerance(rtol=1e-6, atol=1e-12)):
        for rel in ("<=", "<", ">=", ">", "=", "~"):
            with np.errstate(all="ignore"):
                s = slack(a, b, tol)
                d = {"<=": a - b, "<": a - b, ">=": b - a, ">": b - a}.get(rel, np.abs(a - b))
                want = d + s if rel in ("<", ">") else d - s
            assert np.array_equal(excess(a, b, rel, tol), want, equal_nan=True), rel
            g = gap(a, b, rel, tol)
            if rel == "~":
                assert np.all(g == -np.inf)
                continue
            scale = np.abs(a) + np.abs(b)
            with np.errstate(all="ignore"):
                ref = np.where(
                    scale > 0, want / np.where(scale > 0, scale, 1.0), np.where(want > 0, np.inf, -np.inf)
                )
            if rel in ("<", ">"):
                ref = np.where((scale == 0) & (want >= 0), 0.0, ref)
            assert np.array_equal(g, ref, equal_nan=True), rel


def test_a_rows_instance_is_the_one_a_gather_makes():
    """The instance of one row is a slice's copy where the batch's arrays are C-ordered, and a gather
    otherwise: the same values, dtype and layout either way."""
    rng = np.random.default_rng(9)
    inputs = _mixed_inputs(rng, 10)
    raw = {"w": rng.standard_normal((10, 3))}
    for arrays in ({k: v for k, v in inputs.items() if k != "f"}, inputs):
        for j in (0, 4, 9):
            got = tracker_module._instance(arrays, raw, {"n": 1}, j)
            want = tracker_module._instances(arrays, raw, {"n": 1}, np.array([j]))[0]
            assert got.dims == want.dims
            for g, w in ((got.inputs, want.inputs), (got.raw, want.raw)):
                assert g.keys() == w.keys()
                for k in g:
                    assert g[k].dtype == w[k].dtype and g[k].strides == w[k].strides, (k, j)
                    assert np.array_equal(g[k], w[k], equal_nan=True)
