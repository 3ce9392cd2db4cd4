"""Candidate violations, kept so that none can crowd out another.

A float64 instance that violates a relation beyond the slack is a *candidate*.  The pool of one relation
keeps, for every dims combination, its strongest candidates (by significance, then gap), and, across all
combinations, every candidate significant enough that it must be settled (see
:mod:`lemmacheck.model.tolerance`).  A combination whose smallest instances are rounding artefacts therefore
cannot starve another whose violations are genuine.
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import math
from collections.abc import Callable

import numpy as np

from ..model.tolerance import SETTLE_PER_DIMS, SIGNIFICANCE

__all__ = [
    "Instance",
    "instance_key",
    "BatchRows",
    "Candidate",
    "CandidatePool",
    "dims_key",
    "MUST_SETTLE_CAP",
]

#: significant candidates kept for settling; beyond this many the pool counts them, and a claim whose
#: significant candidates cannot all be settled is INCONCLUSIVE unless one of them is confirmed
MUST_SETTLE_CAP = 4096

_tiebreak = itertools.count()


@dataclasses.dataclass
class Instance:
    """One instance (batch axis of 1): dims and input arrays, and for the inputs drawn through a
    ``transform`` the untransformed values they came from (where known), in which they are shrunk and
    refined: a perturbation of the transformed values would leave the structure."""

    dims: dict
    inputs: dict
    raw: dict = dataclasses.field(default_factory=dict)

    def size(self) -> int:
        return int(sum(np.size(v) for v in self.inputs.values()))


def instance_key(inst: Instance) -> tuple:
    """What identifies an instance to high precision: its dims and its inputs, bit for bit."""
    inputs = tuple(
        (name, a.dtype.str, a.shape, a.tobytes())
        for name, a in ((k, np.ascontiguousarray(v)) for k, v in inst.inputs.items())
    )
    return repr(sorted(inst.dims.items())), inputs


def dims_key(dims: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in sorted(dims.items(), key=lambda kv: kv[0])) or "(no dims)"


class Candidate:
    """A candidate violation: its instance, and how strongly it violates.

    A batch's candidates are offered to the heaps before they have instances, and most are pushed out
    again by stronger ones, so a candidate kept from a batch builds its instance (the row's input arrays)
    only when it is first asked for."""

    __slots__ = ("_instance", "_kept", "_index", "gap", "significance", "ratio")

    def __init__(self, instance: Instance, gap: float, significance: float, ratio: float):
        self._instance: Instance | None = instance
        self._kept: _KeptRows | None = None  # where the instance is built from, until it is
        self._index = 0
        self.gap = gap  # violation beyond the slack, over |lhs| + |rhs|
        self.significance = significance  # violation over the evaluation's rounding sensitivity (inf: exact)
        self.ratio = ratio  # float64 lhs/rhs (NaN where undefined)

    @classmethod
    def unfilled(cls) -> Candidate:
        """A candidate to be filled in (:meth:`fill`) once it is known to be kept: a heap holds it by its
        strength, which it is offered with."""
        return cls.__new__(cls)

    def fill(self, kept: _KeptRows, index: int, gap: float, significance: float, ratio: float) -> None:
        """The candidate of ``kept``'s row ``index``, whose instance is built when first asked for."""
        self._instance, self._kept, self._index = None, kept, index
        self.gap, self.significance, self.ratio = gap, significance, ratio

    def size(self) -> int:
        """The instance's number of input entries (:meth:`Instance.size`), without building it."""
        if self._instance is None:
            assert self._kept is not None, "a candidate is filled in before it is read"
            return self._kept.size
        return self._instance.size()

    @property
    def instance(self) -> Instance:
        if self._instance is None:
            assert self._kept is not None, "a candidate is filled in before it is read"
            self._instance, self._kept = self._kept.instance(self._index), None
        return self._instance

    def __reduce__(self):
        # pickled (a chunk's pool sent back from a cluster) with its instance built: ``_kept`` holds the
        # whole batch it came from
        return (Candidate, (self.instance, self.gap, self.significance, self.ratio))

    def __repr__(self) -> str:
        return f"Candidate(gap={self.gap!r}, significance={self.significance!r}, ratio={self.ratio!r})"

    @property
    def strength(self) -> tuple[float, float]:
        return (self.significance, self.gap)

    @property
    def must_settle(self) -> bool:
        return self.significance > SIGNIFICANCE


class BatchRows:
    """The rows of one evaluated batch, from which a kept candidate's instance is built: ``instances(rows)``
    gives those rows' instances, and every row has ``size`` input entries."""

    def __init__(self, instances: Callable[[np.ndarray], list[Instance]], size: int):
        self.instances, self.size = instances, size


class _KeptRows:
    """The instances of a batch's kept rows, built together (one gather per input) when the first of them
    is asked for."""

    def __init__(self, batch: BatchRows, rows: np.ndarray):
        self.batch: BatchRows | None = batch
        self.rows = rows
        self.size = batch.size
        self.built: list[Instance] | None = None

    def instance(self, i: int) -> Instance:
        if self.built is None:
            assert self.batch is not None
            self.built, self.batch = self.batch.instances(self.rows), None  # the batch it held can go
        return self.built[i]


def _keep_strongest(heap: list, cand: Candidate, cap: int) -> None:
    """Keep ``cand`` in the min-heap of the ``cap`` strongest (equal strengths: the first found stays)."""
    item = (cand.strength, next(_tiebreak), cand)
    if len(heap) < cap:
        heapq.heappush(heap, item)
    elif item[0] > heap[0][0]:
        heapq.heapreplace(heap, item)


def _offer_rows(heap: list, cap: int, rows: list[int], strengths: list[tuple], shell_of) -> dict:
    """Offer a batch's rows (in the order found) to the min-heap of the ``cap`` strongest, exactly as
    :func:`_keep_strongest` would offer their candidates one by one, each as a Candidate not yet filled
    in (``shell_of(row)``): only the rows still in the heap at the end are worth building.  Returns
    those rows, by the id of their shell."""
    kept: dict[int, int] = {}
    for j, strength in zip(rows, strengths, strict=True):
        if len(heap) < cap:
            shell = shell_of(j)
            heapq.heappush(heap, (strength, next(_tiebreak), shell))
        elif strength > heap[0][0]:
            shell = shell_of(j)
            kept.pop(id(heapq.heapreplace(heap, (strength, next(_tiebreak), shell))[2]), None)
        else:
            continue
        kept[id(shell)] = j
    return kept


def _not_weaker(heap: list, cap: int, significance: np.ndarray, gap: np.ndarray) -> np.ndarray:
    """Which rows could still enter the heap: a full heap's weakest only grows, so a row no stronger
    than it is now is refused whenever it is offered (a row whose comparison is undecided is kept)."""
    if len(heap) < cap:
        return np.ones(significance.shape, dtype=bool)
    weakest_sig, weakest_gap = heap[0][0]
    with np.errstate(invalid="ignore"):
        refused = (significance < weakest_sig) | ((significance == weakest_sig) & (gap <= weakest_gap))
    return ~refused


@dataclasses.dataclass
class DimsRecord:
    """What one dims combination produced: counts, and its strongest candidates."""

    count: int = 0
    significant: int = 0
    max_gap: float = -math.inf
    strongest: list = dataclasses.field(default_factory=list)  # min-heap of (strength, tiebreak, Candidate)

    def offer(self, cand: Candidate) -> None:
        _keep_strongest(self.strongest, cand, SETTLE_PER_DIMS)

    def merge(self, other: DimsRecord) -> None:
        self.count += other.count
        self.significant += other.significant
        self.max_gap = max(self.max_gap, other.max_gap)
        for _, _, cand in sorted(other.strongest, key=lambda t: t[1]):  # in the order they were found
            self.offer(cand)

    def ranked(self) -> list[Candidate]:
        return [c for _, _, c in sorted(self.strongest, key=lambda t: (t[0], -t[1]), reverse=True)]


@dataclasses.dataclass
class CandidatePool:
    by_dims: dict = dataclasses.field(default_factory=dict)  # dims key -> DimsRecord
    must_settle: list = dataclasses.field(default_factory=list)  # significant candidates, strongest kept
    significant_total: int = 0

    def add(self, cand: Candidate) -> None:
        rec = self.by_dims.setdefault(dims_key(cand.instance.dims), DimsRecord())
        rec.count += 1
        rec.max_gap = max(rec.max_gap, cand.gap)
        rec.offer(cand)
        if cand.must_settle:
            rec.significant += 1
            self.significant_total += 1
            _keep_strongest(self.must_settle, cand, MUST_SETTLE_CAP)

    def add_batch(
        self,
        dims: dict,
        gap: np.ndarray,
        significance: np.ndarray,
        ratio: np.ndarray,
        rows: np.ndarray,
        batch: BatchRows,
    ) -> None:
        """:meth:`add` the candidate of each of ``rows`` (a batch's violating rows at ``dims``, in order),
        with the same result, building a Candidate only for the rows that can still enter a heap: counts
        and extremes are taken over the arrays, and a row no stronger than a full heap's weakest is
        refused without an object.  A kept candidate's instance is built from ``batch`` when it is first
        asked for (most are pushed out of the heaps by stronger ones before that)."""
        if rows.size == 0:
            return
        rec = self.by_dims.setdefault(dims_key(dims), DimsRecord())
        gap, significance = gap[rows], significance[rows]
        rec.count += int(rows.size)
        rec.max_gap = max(rec.max_gap, float(np.max(gap)))  # a violating row's gap is never NaN
        significant = significance > SIGNIFICANCE
        n_significant = int(np.count_nonzero(significant))
        rec.significant += n_significant
        self.significant_total += n_significant
        shells: dict[int, Candidate] = {}  # one per row, shared by both heaps (settling_order needs it)

        def shell_of(j: int) -> Candidate:
            if j not in shells:
                shells[j] = Candidate.unfilled()
            return shells[j]

        kept: dict[int, int] = {}
        for heap, cap, offered in (
            (rec.strongest, SETTLE_PER_DIMS, np.ones(rows.size, dtype=bool)),
            (self.must_settle, MUST_SETTLE_CAP, significant),
        ):
            picked = np.flatnonzero(offered & _not_weaker(heap, cap, significance, gap))
            strengths = list(zip(significance[picked].tolist(), gap[picked].tolist(), strict=True))
            kept |= _offer_rows(heap, cap, picked.tolist(), strengths, shell_of)
        left = sorted(set(kept.values()))  # the candidates left in a heap, filled in
        kept_rows = _KeptRows(batch, rows[left])
        values = zip(gap[left].tolist(), significance[left].tolist(), ratio[rows[left]].tolist(), strict=True)
        for i, (j, (g, s, r)) in enumerate(zip(left, values, strict=True)):
            shells[j].fill(kept_rows, i, g, s, r)

    def merge(self, other: CandidatePool) -> None:
        """Take in another pool's candidates (a chunk of the same sweep), keeping what this pool would
        have kept had it seen them itself: each combination's strongest, and the significant ones up to
        the cap (equal strengths keep the one found first, the other pool's after this one's)."""
        for key, rec in other.by_dims.items():
            self.by_dims.setdefault(key, DimsRecord()).merge(rec)
        self.significant_total += other.significant_total
        for _, _, cand in sorted(other.must_settle, key=lambda t: t[1]):
            _keep_strongest(self.must_settle, cand, MUST_SETTLE_CAP)

    def __bool__(self) -> bool:
        return bool(self.by_dims)

    @property
    def total(self) -> int:
        return sum(r.count for r in self.by_dims.values())

    @property
    def significant_dropped(self) -> int:
        """Significant candidates the pool could not keep: they can never all be settled."""
        return self.significant_total - len(self.must_settle)

    def settling_order(self) -> list[Candidate]:
        """Round robin over the dims combinations (smallest instances first within a round), each
        combination's strongest candidate first; then the remaining significant ones, strongest first."""
        ranked = {k: r.ranked() for k, r in self.by_dims.items()}
        keys = sorted(ranked, key=lambda k: ranked[k][0].size())
        order, seen = [], set()
        for rank in range(SETTLE_PER_DIMS):
            for k in keys:
                if rank < len(ranked[k]):
                    c = ranked[k][rank]
                    order.append(c)
                    seen.add(id(c))
        rest = sorted(
            (c for _, _, c in self.must_settle if id(c) not in seen), key=lambda c: c.strength, reverse=True
        )
        return order + rest
