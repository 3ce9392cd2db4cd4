"""What the search has seen so far, relation by relation: counts, tightness and candidates.

A :class:`Tracker` takes each evaluated batch (the sweep's, Hypothesis's one instance at a time,
refinement's sharpest per round).  A candidate's significance needs its rounding sensitivity: the
candidate rows are evaluated again on inputs perturbed by a few ulps, and in extended precision (only
those rows, so a claim without candidates pays nothing).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from ..model.tolerance import SIGNIFICANCE
from .candidates import BatchRows, CandidatePool, Instance
from .context import CheckContext
from .estimate import Estimate, sensitivities
from .relations import compose, excess, gap, ratio, take, take_rows, violated_at
from .tightness import RatioRecord, far_rows, nontrivial, resolve_batch, sizes_of

__all__ = ["StepStats", "SweepPart", "Tracker"]

#: an input of at most this many entries is measured in Python floats (:meth:`Tracker._measure`)
_FEW = 64


@dataclasses.dataclass
class StepStats:
    """One relation of a chain (or the chain end to end): float64 counts, tightness, candidates."""

    relation: str
    checked: int = 0
    violations: int = 0  # float64 candidates (before settling)
    max_ratio_raw: float = -math.inf  # float64 lhs/rhs over every instance, candidates included
    # the largest resolved float64 lhs/rhs over instances that are not candidates
    # (lemmacheck.search.tightness),
    # over every dims combination and over the non-trivial ones
    tight: RatioRecord = dataclasses.field(default_factory=RatioRecord)
    tight_nontrivial: RatioRecord = dataclasses.field(default_factory=RatioRecord)
    max_gap: float = -math.inf
    # max |a - b| / (|a| + |b|) over the instances that hold and are resolved: how far from equality
    # (-inf: no such instance, which the evidence reports as no figure rather than as exact)
    max_deviation: float = -math.inf
    pool: CandidatePool = dataclasses.field(default_factory=CandidatePool)

    def merge(self, other: StepStats) -> None:
        """Add another record of the same relation (counts add, extremes take the larger, pools merge)."""
        self.checked += other.checked
        self.violations += other.violations
        self.tight.merge(other.tight)
        self.tight_nontrivial.merge(other.tight_nontrivial)
        self.max_ratio_raw = max(self.max_ratio_raw, other.max_ratio_raw)
        self.max_gap = max(self.max_gap, other.max_gap)
        self.max_deviation = max(self.max_deviation, other.max_deviation)
        self.pool.merge(other.pool)

    @property
    def max_ratio(self) -> float:
        """The largest resolved float64 lhs/rhs over the instances that hold (-inf: none)."""
        return self.tight.value


@dataclasses.dataclass
class SweepPart:
    """What one chunk of a sweep found: the statistics and candidates of every relation, and its worst
    instance."""

    steps: list[StepStats]
    end: StepStats
    instances: int
    drawn: int
    kept: int
    worst: Instance | None
    worst_gap: float
    explored: dict = dataclasses.field(default_factory=dict)  # Tracker.explored()


@dataclasses.dataclass
class _Relation:
    """One relation of a batch: its statistics record, and per instance whether it fails and by how much."""

    stats: StepStats
    bad: np.ndarray
    gap: np.ndarray
    ratio: np.ndarray
    a: np.ndarray | None  # the two sides (None for a property)
    b: np.ndarray | None
    index: int | None  # 0-based step, None for the chain end to end

    def rows(self, part: slice) -> _Relation:
        """The relation on the rows ``part`` of its batch (views, no copy)."""
        a, b = (None, None) if self.a is None else (self.a[part], self.b[part])  # type: ignore[index]
        return _Relation(self.stats, self.bad[part], self.gap[part], self.ratio[part], a, b, self.index)


def _instances(inputs, raw: Mapping | None, dims, rows: np.ndarray) -> list[Instance]:
    """The instances of a batch's ``rows``."""
    raws = take_rows(raw, rows) if raw else [{} for _ in rows]
    return [Instance(dict(dims), x, r) for x, r in zip(take_rows(inputs, rows), raws, strict=True)]


def _records(steps: list[StepStats], end: StepStats) -> list[StepStats]:
    """Each record once: a one-step chain's step is its end."""
    return [end] if steps[0] is end else [*steps, end]


def _instance(inputs, raw: Mapping | None, dims, row: int) -> Instance:
    """The instance of a batch's ``row``."""
    arrays = [*inputs.values(), *(raw or {}).values()]
    if all(isinstance(v, np.ndarray) and v.flags.c_contiguous for v in arrays):
        # a slice's copy: the array a gather of the row makes (C order, the same strides), without
        # the gather's cost (a tightness witness offered is one such instance, thousands a claim)
        return Instance(dict(dims), take(inputs, row), take(raw, row) if raw else {})
    return _instances(inputs, raw, dims, np.array([row]))[0]


class Tracker:
    """Accumulates step statistics and candidates over batches.

    A candidate's significance needs its rounding sensitivity: the candidate rows are evaluated again on
    inputs perturbed by a few ulps (only those rows, so a claim without candidates pays nothing).
    """

    def __init__(self, ctx: CheckContext):
        self.ctx = ctx
        self.claim_id, self.check, self.tol = ctx.claim_id, ctx.check, ctx.tol
        rels = ("=",) if ctx.check.is_property else ctx.check.relations
        self.end = StepStats("prop" if ctx.check.is_property else compose(rels))
        # a one-step chain end to end is its step (the same sides, the same relation): one record is
        # both, so a batch's tightness is resolved and its candidates pooled once, not twice alike
        self.steps = [self.end] if rels == (self.end.relation,) else [StepStats(r) for r in rels]
        self.instances = 0
        self.worst: Instance | None = None
        self.worst_gap = -math.inf
        self.last_failure: Instance | None = None
        self._end_significance: tuple = (np.zeros(0, dtype=bool), np.zeros(0))
        self.sizes = sizes_of(ctx.check)
        # the whole domain (lemmacheck.search.wide): the smallest and largest nonzero |entry| of each float
        # input over every instance evaluated, and the float-range instances evaluated and dropped
        self.magnitudes: dict[str, list[float]] = {}
        self.wide_instances = 0
        self.wide_dropped = 0
        self.wide_skipped: str | None = None  # why the float-range share was skipped ('' : it was not)
        self.wide_candidates_dropped = 0  # its violations beyond the strongest of each batch, never judged
        self.confirmations_left = 0  # high-precision confirmations the optimiser's current start may ask

    def sensitivity(self, chain, inputs, dims, rows: np.ndarray) -> list[np.ndarray] | None:
        """Per side of the chain, its observed rounding sensitivity on the given rows, as one unit
        (:func:`lemmacheck.search.estimate.sensitivities`; ``chain``: the batch's values, from which the
        rows' own are taken)."""
        sub = {k: np.asarray(v)[rows] for k, v in inputs.items()}
        unit = (sub, [np.asarray(e)[rows] for e in chain])
        return sensitivities(self.claim_id, self.check, [unit], dims)[0]

    def add(
        self, chain, inputs, dims, *, pool: bool = True, raw: Mapping | None = None, units: Sequence[int] = ()
    ) -> np.ndarray:
        """Count a batch; with ``pool`` its candidates join the pools (a shrinking search sets it False:
        its calls are variants of one failure, and only the shrunk one is kept).  ``raw``: the
        untransformed values of the inputs drawn through a transform.  ``units``: the sizes of the
        consecutive batches the rows are (default: one), each counted as if added alone (its own rounding
        estimate, tightness resolution and candidates), the counts and extremes taken over them all at
        once.  Returns the end gaps."""
        n = len(chain[0])
        self.instances += n
        self._measure(inputs)
        relations = self._relations(chain)
        for rel in relations:
            self._count(rel.stats, n, *self._figures(rel))
        at = 0
        for size in units or (n,):
            part = slice(at, at + size)
            self._add_unit(
                [rel.rows(part) for rel in relations],
                [e[part] for e in chain],
                {k: v[part] for k, v in inputs.items()},
                dims,
                {k: v[part] for k, v in raw.items()} if raw else None,
                pool=pool,
            )
            at += size
        self._note_worst(relations[-1].gap, functools.partial(_instance, inputs, raw, dims))
        return relations[-1].gap

    def _add_unit(self, relations: list[_Relation], chain, inputs, dims, raw, *, pool: bool) -> None:
        """One batch's tightness and candidates (see :meth:`add`)."""
        n = len(chain[0])
        batch = BatchRows(
            functools.partial(_instances, inputs, raw, dims),
            sum(math.prod(np.shape(v)[1:]) for v in inputs.values()),
        )
        bad_any = np.logical_or.reduce([rel.bad for rel in relations])
        noise = np.full((len(chain), n), np.nan)  # rounding sensitivity per side, on candidate rows only
        # the candidate rows' estimate, made when a heap first ranks them (or the tightness needs one),
        # always on all of them at once: a row's perturbation depends on the rows measured with it
        estimate = None
        if bad_any.any() and not self.check.is_property:
            estimate = Estimate(self.claim_id, self.check, chain, inputs, dims, bad_any, raw)
            batch = BatchRows(estimate.instances, batch.size)  # keeps the candidate rows, not the batch

        def noise_on(rows: np.ndarray) -> np.ndarray:
            """Each side's rounding sensitivity on ``rows`` (measured once per row; inf: no estimate)."""
            if estimate is not None and not estimate.made and bad_any[rows].any():
                noise[:, estimate.rows] = estimate.value()[:, estimate.rows]
            todo = rows[np.isnan(noise[0, rows])]
            if todo.size:
                sens = self.sensitivity(chain, inputs, dims, todo)
                for e in range(len(chain)):
                    noise[e, todo] = sens[e] if sens is not None else np.inf
            return noise[:, rows]

        inst_of = functools.partial(_instance, inputs, raw, dims)
        far_of = functools.partial(far_rows, inputs)
        for rel in relations:
            self._resolve(rel, noise_on, dims, inst_of, far_of)
            sig: np.ndarray | Callable[[], np.ndarray]
            if estimate is None or estimate.made:  # as measured so far, the tightness's rows included
                sig = self._significance(rel, noise, n)
            else:  # the candidate rows' own estimate, when it is made
                sig = functools.partial(self._lazy_significance, rel, estimate, n)
            if rel.stats is self.end:
                self._end_significance = (rel.bad, sig)
            if pool:
                rel.stats.pool.add_batch(
                    dims, rel.gap, sig, rel.ratio, np.flatnonzero(rel.bad), batch, estimate
                )

    def _note_worst(self, eg: np.ndarray, inst_of: Callable[[int], Instance]) -> None:
        """Keep the batch's largest end gap's instance if it is the largest so far (the first of equals)."""
        finite = np.isfinite(eg)
        if finite.any():
            worst_row = int(np.where(finite, eg, -np.inf).argmax())  # no NaN left: nanargmax's row
            if eg[worst_row] > self.worst_gap:
                self.worst_gap = float(eg[worst_row])
                self.worst = inst_of(worst_row)

    def _measure(self, inputs) -> None:
        for k, v in inputs.items():
            v = np.asarray(v)
            if v.dtype == np.float64 and v.size <= _FEW:
                # a few entries (one instance): Python's min and max of the same floats, without the
                # half-dozen NumPy calls per input that cost as much as the rest of a one-row add
                kept = [x for x in map(abs, v.ravel().tolist()) if 0.0 < x < math.inf]
                if kept:
                    self._widen(k, min(kept), max(kept))
                continue
            a = np.abs(v)
            if a.dtype.kind != "f":
                continue
            a = a[(a > 0) & np.isfinite(a)]
            if a.size:
                self._widen(k, float(a.min()), float(a.max()))

    def _widen(self, name: str, lo: float, hi: float) -> None:
        old = self.magnitudes.get(name, [math.inf, 0.0])
        self.magnitudes[name] = [min(old[0], lo), max(old[1], hi)]

    def explored(self) -> dict:
        """The magnitudes explored per input, and the float-range instances evaluated and dropped."""
        return {
            "magnitudes": {k: list(v) for k, v in self.magnitudes.items()},
            "wide_instances": self.wide_instances,
            "wide_dropped": self.wide_dropped,
            "wide_candidates_dropped": self.wide_candidates_dropped,
            **({"wide_skipped": self.wide_skipped} if self.wide_skipped else {}),
        }

    def part(self, drawn: int, kept: int) -> SweepPart:
        """What this tracker found, as one chunk of a sweep."""
        return SweepPart(
            self.steps, self.end, self.instances, drawn, kept, self.worst, self.worst_gap, self.explored()
        )

    def absorb(self, part: SweepPart) -> None:
        """Merge a chunk's statistics and candidates, as if its batches had been added here."""
        self.instances += part.instances
        for k, (lo, hi) in part.explored.get("magnitudes", {}).items():
            self._widen(k, lo, hi)
        self.wide_instances += part.explored.get("wide_instances", 0)
        self.wide_dropped += part.explored.get("wide_dropped", 0)
        self.wide_skipped = self.wide_skipped or part.explored.get("wide_skipped")
        self.wide_candidates_dropped += part.explored.get("wide_candidates_dropped", 0)
        for mine, theirs in zip(_records(self.steps, self.end), _records(part.steps, part.end), strict=True):
            mine.merge(theirs)
        if part.worst is not None and part.worst_gap > self.worst_gap:
            self.worst, self.worst_gap = part.worst, part.worst_gap

    def _relations(self, chain) -> list[_Relation]:
        """Each step of the chain, then the chain end to end (last)."""
        if self.check.is_property:
            ok = np.asarray(chain[0], dtype=bool)
            n = len(ok)
            return [_Relation(self.end, ~ok, np.where(ok, -1.0, 1.0), np.full(n, np.nan), None, None, None)]
        out: list[_Relation] = []
        pairs = zip(range(len(self.steps)), self.steps, chain[:-1], chain[1:], strict=True)
        steps = [] if self.steps[0] is self.end else list(pairs)  # a one-step chain's step is its end
        for i, st_, a, b in [*steps, (None, self.end, chain[0], chain[-1])]:
            g = gap(a, b, st_.relation, self.tol)
            bad = violated_at(g, st_.relation)
            out.append(_Relation(st_, bad, g, ratio(a, b, st_.relation), a, b, i))
        return out

    def _figures(self, rel: _Relation) -> tuple[int, float, float, float]:
        """A batch's violations, and its largest float64 lhs/rhs, deviation and gap (-inf: none)."""
        violations, top_ratio, top_dev = int(np.count_nonzero(rel.bad)), -math.inf, -math.inf
        finite_r = np.isfinite(rel.ratio)
        a, b = rel.a, rel.b
        if self.tol.atol > 0 and a is not None and b is not None:
            # where an override's absolute slack decides, lhs/rhs says nothing about tightness
            finite_r &= self.tol.rtol * (np.abs(a) + np.abs(b)) >= self.tol.atol
        if finite_r.any():
            top_ratio = float(rel.ratio[finite_r].max())
        if a is not None and b is not None:
            with np.errstate(all="ignore"):
                dev = np.abs(a - b) / (np.abs(a) + np.abs(b))
            # over the instances that hold in float64, as tightness: a candidate is settled in high
            # precision, and one rejected as rounding (sides cancelling to noise) would put its float64
            # deviation, up to 1, in a figure of a claim that holds; nor where an override's absolute
            # slack decides (two sides below it, a probe that cancels to ~0, deviate by up to 1 and pass)
            kept = np.isfinite(dev) & ~rel.bad
            if self.tol.atol > 0:
                kept &= self.tol.rtol * (np.abs(a) + np.abs(b)) >= self.tol.atol
            dev = dev[kept]
            if dev.size:
                top_dev = float(dev.max())
        finite_g = rel.gap[np.isfinite(rel.gap)]
        return violations, top_ratio, top_dev, float(finite_g.max()) if finite_g.size else -math.inf

    @staticmethod
    def _count(st_: StepStats, n: int, violations: int, top_ratio: float, top_dev: float, top_gap: float):
        st_.checked += n
        st_.violations += violations
        st_.max_ratio_raw = max(st_.max_ratio_raw, top_ratio)
        st_.max_deviation = max(st_.max_deviation, top_dev)
        st_.max_gap = max(st_.max_gap, top_gap)

    def _resolve(self, rel: _Relation, noise_on, dims, inst_of, far_of) -> None:
        """Offer the ratios of the instances that hold to the relation's tightness records, counting only
        those resolved above their rounding sensitivity (see :mod:`lemmacheck.search.tightness`)."""
        a, b = rel.a, rel.b
        if a is None or b is None or not np.isfinite(rel.ratio).any():
            return
        eligible = np.isfinite(rel.ratio) & ~rel.bad
        if self.tol.atol > 0:  # where an override's absolute slack decides, lhs/rhs says nothing
            eligible &= self.tol.rtol * (np.abs(a) + np.abs(b)) >= self.tol.atol
        lo, hi = (0, -1) if rel.index is None else (rel.index, rel.index + 1)

        def resolved(rows: np.ndarray) -> np.ndarray:
            sens = noise_on(rows)
            with np.errstate(invalid="ignore"):
                return (np.abs(a[rows]) >= SIGNIFICANCE * sens[lo]) & (
                    np.abs(b[rows]) >= SIGNIFICANCE * sens[hi]
                )

        records = [rel.stats.tight]
        if nontrivial(dims, self.sizes):
            records.append(rel.stats.tight_nontrivial)
        resolve_batch(records, rel.ratio, eligible, resolved, inst_of, far_of)

    @property
    def end_significance(self) -> np.ndarray:
        """The last batch's significance of each end-to-end violation (-inf where it holds)."""
        bad, sig = self._end_significance
        return np.where(bad, sig() if callable(sig) else sig, -np.inf)

    def _lazy_significance(self, rel: _Relation, estimate: Estimate, n: int) -> np.ndarray:
        return self._significance(rel, estimate.value(), n)

    def _significance(self, rel: _Relation, noise: np.ndarray, n: int) -> np.ndarray:
        """Violation over rounding sensitivity (inf where the evaluation is exact or not assessed)."""
        if rel.a is None or not rel.bad.any():  # read only on the violating rows
            return np.full(n, np.inf)
        lo, hi = (0, len(noise) - 1) if rel.index is None else (rel.index, rel.index + 1)
        sens = noise[lo] + noise[hi]
        v = excess(rel.a, rel.b, rel.stats.relation, self.tol)
        with np.errstate(all="ignore"):
            return np.where(np.isfinite(sens) & (sens > 0), v / np.where(sens > 0, sens, 1.0), np.inf)
