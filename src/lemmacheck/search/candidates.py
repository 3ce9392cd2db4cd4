"""Candidate violations, kept so that none can crowd out another.

A float64 instance that violates a relation beyond the slack is a *candidate*.  The pool of one relation
keeps, for every dims combination, its strongest candidates (by significance, then gap), and, across all
combinations, every candidate significant enough that it must be settled (see
:mod:`lemmacheck.model.tolerance`).  A combination whose smallest instances are rounding artefacts therefore
cannot starve another whose violations are genuine.

Significance needs each batch's rounding estimate (:meth:`lemmacheck.search.tracker.Tracker.sensitivity`),
so a batch's rows wait in the pool unranked until a heap is read: settling reads the order only as far as
it goes, and a refuted relation's combinations beyond its confirmed counterexample are never estimated.
Each heap takes the rows in the order they were found, so it is the heap an eager offer would have made.
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import math
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from ..model.tolerance import SETTLE_PER_DIMS, SIGNIFICANCE
from .estimate import Estimate, estimate_together
from .instance import BatchRows, Candidate, Instance, KeptRows, dims_key, instance_key

__all__ = [
    "Instance",
    "instance_key",
    "BatchRows",
    "Candidate",
    "CandidatePool",
    "dims_key",
    "MUST_SETTLE_CAP",
    "SettlingOrder",
]

#: significant candidates kept for settling; beyond this many the pool counts them, and a claim whose
#: significant candidates cannot all be settled is INCONCLUSIVE unless one of them is confirmed
MUST_SETTLE_CAP = 4096

_tiebreak = itertools.count()


def _keep_strongest(heap: list, cand: Candidate, cap: int) -> None:
    """Keep ``cand`` in the min-heap of the ``cap`` strongest (equal strengths: the first found stays)."""
    item = (cand.strength, next(_tiebreak), cand)
    if len(heap) < cap:
        heapq.heappush(heap, item)
    elif item[0] > heap[0][0]:
        heapq.heapreplace(heap, item)


def _not_weaker(heap: list, cap: int, significance: np.ndarray, gap: np.ndarray) -> np.ndarray:
    """Which rows could still enter the heap: a full heap's weakest only grows, so a row no stronger
    than it is now is refused whenever it is offered (a row whose comparison is undecided is kept)."""
    if len(heap) < cap:
        return np.ones(significance.shape, dtype=bool)
    weakest_sig, weakest_gap = heap[0][0]
    with np.errstate(invalid="ignore"):
        refused = (significance < weakest_sig) | ((significance == weakest_sig) & (gap <= weakest_gap))
    return ~refused


class _Entry:
    """One batch's violating rows of one relation, waiting to be offered to the heaps.

    Their significance needs the batch's rounding estimate, which is computed only when a heap must
    rank them (``significance_of``, once): a refuted claim's settling stops at its first confirmed
    candidate, so most combinations are never ranked and their estimate never paid for.  The rows are
    offered in the order found, each heap taking its entries in that order, so the heaps are the ones an
    eager offer would have made, ties included."""

    __slots__ = (
        "rec",
        "rows",
        "gap",
        "ratio",
        "batch",
        "significance_of",
        "estimate",
        "sig",
        "shells",
        "kept",
        "size",
    )

    def __init__(self, rec: DimsRecord, rows, gap, ratio, significance_of, batch: BatchRows, estimate):
        self.rec, self.rows, self.gap, self.ratio, self.batch = rec, rows, gap, ratio, batch
        self.significance_of: Callable[[], np.ndarray] | None = significance_of
        self.estimate: Estimate | None = estimate  # what significance_of waits for, made with others
        self.sig: np.ndarray | None = None
        self.shells: dict[int, Candidate] = {}  # one per row, shared by both heaps (settling_order needs it)
        self.kept: KeptRows | None = None
        self.size = batch.size

    def significance(self) -> np.ndarray:
        """The rows' significance, estimated on first use and counted in the combination's record."""
        if self.sig is None:
            assert self.significance_of is not None
            self.sig, self.significance_of = np.asarray(self.significance_of(), dtype=float), None
            self.estimate = None  # made: the candidates' instances keep what they need of it
            self.rec.estimated += int(self.rows.size)
            self.rec.significant += int(np.count_nonzero(self.sig > SIGNIFICANCE))
        return self.sig

    def shell(self, i: int) -> Candidate:
        if i not in self.shells:
            if self.kept is None:
                self.kept = KeptRows(self.batch, self.rows)
            cand = self.shells[i] = Candidate.unfilled()
            cand.fill(self.kept, i, float(self.gap[i]), float(self.sig[i]), float(self.ratio[i]))  # type: ignore[index]
        return self.shells[i]

    def offer(self, heap: list, cap: int, *, only_significant: bool) -> None:
        """Offer the rows (the significant ones only, for the pool's must-settle heap) to ``heap``, as
        :func:`_keep_strongest` would offer their candidates one by one, building a Candidate only for a
        row that can still enter it (a full heap's weakest only grows)."""
        sig = self.significance()
        offered = sig > SIGNIFICANCE if only_significant else np.ones(sig.shape, dtype=bool)
        picked = np.flatnonzero(offered & _not_weaker(heap, cap, sig, self.gap))
        strengths = zip(sig[picked].tolist(), self.gap[picked].tolist(), strict=True)
        for i, strength in zip(picked.tolist(), strengths, strict=True):
            if len(heap) < cap:
                heapq.heappush(heap, (strength, next(_tiebreak), self.shell(i)))
            elif strength > heap[0][0]:
                heapq.heapreplace(heap, (strength, next(_tiebreak), self.shell(i)))


def _estimate(entries: list[_Entry]) -> None:
    """Make the rounding estimates the entries about to be ranked wait for, in as few calls of the check
    as they can share (each batch still its own unit: the same significance as one call per batch)."""
    estimate_together([e.estimate for e in entries if e.sig is None and e.estimate is not None])


@dataclasses.dataclass
class DimsRecord:
    """What one dims combination produced: counts, its strongest candidates, and the rows not yet
    ranked (``pending``, after every row that was: each heap takes the rows in the order found)."""

    count: int = 0
    significant: int = 0  # of the estimated rows
    max_gap: float = -math.inf
    strongest: list = dataclasses.field(default_factory=list)  # min-heap of (strength, tiebreak, Candidate)
    pending: list = dataclasses.field(default_factory=list)  # _Entry, in the order found
    estimated: int = 0  # rows whose rounding sensitivity was estimated
    sizes: set = dataclasses.field(default_factory=set)  # the instances' sizes (one, for a dims combination)

    def offer(self, cand: Candidate) -> None:
        self.rank()
        _keep_strongest(self.strongest, cand, SETTLE_PER_DIMS)

    def rank(self) -> None:
        """Offer the pending rows to the heap, in the order found (estimating their significance)."""
        _estimate(self.pending)
        for entry in self.pending:
            entry.offer(self.strongest, SETTLE_PER_DIMS, only_significant=False)
        self.pending = []

    def merge(self, other: DimsRecord) -> None:
        self.count += other.count
        self.significant += other.significant
        self.estimated += other.estimated
        self.max_gap = max(self.max_gap, other.max_gap)
        self.sizes |= other.sizes
        if other.strongest:
            self.rank()  # this record's rows were found before the other's
        for _, _, cand in sorted(other.strongest, key=lambda t: t[1]):  # in the order they were found
            _keep_strongest(self.strongest, cand, SETTLE_PER_DIMS)
        for entry in other.pending:
            entry.rec = self
        self.pending += other.pending

    def ranked(self) -> list[Candidate]:
        self.rank()
        return [c for _, _, c in sorted(self.strongest, key=lambda t: (t[0], -t[1]), reverse=True)]

    def size(self) -> int:
        """The size of its strongest candidate's instance (ranking them only if the sizes differ)."""
        if len(self.sizes) == 1:
            return next(iter(self.sizes))
        return self.ranked()[0].size()


class CandidatePool:
    """A relation's candidates: each dims combination's record, and the significant candidates across
    them, strongest kept up to MUST_SETTLE_CAP (built, like the records' heaps, only when read)."""

    def __init__(self) -> None:
        self.by_dims: dict[str, DimsRecord] = {}  # dims key -> DimsRecord
        self._must_settle: list = []  # min-heap of (strength, tiebreak, Candidate)
        self._unsettled: list[_Entry] = []  # entries not yet offered to it, in the order found

    def __getstate__(self) -> dict:
        # pickled (a chunk's pool sent back from a cluster) ranked: the estimates need the tracker
        self.rank_all()
        return self.__dict__

    def add(self, cand: Candidate) -> None:
        rec = self.by_dims.setdefault(dims_key(cand.instance.dims), DimsRecord())
        rec.count += 1
        rec.max_gap = max(rec.max_gap, cand.gap)
        rec.sizes.add(cand.size())
        rec.estimated += 1
        rec.offer(cand)
        if cand.must_settle:
            rec.significant += 1
            self._rank_must_settle()
            _keep_strongest(self._must_settle, cand, MUST_SETTLE_CAP)

    def add_batch(
        self,
        dims: dict,
        gap: np.ndarray,
        significance: np.ndarray | Callable[[], np.ndarray],
        ratio: np.ndarray,
        rows: np.ndarray,
        batch: BatchRows,
        estimate: Estimate | None = None,
    ) -> None:
        """:meth:`add` the candidate of each of ``rows`` (a batch's violating rows at ``dims``, in order),
        with the same result once ranked.  ``significance``: the batch's, or a function computing it
        (called at most once, when a heap first needs these rows ranked); ``estimate``: the rounding
        estimate that function waits for, made with the other entries' when a heap ranks them.  Counts and
        extremes are taken over the arrays now; a Candidate is built only for a row that can enter a heap,
        and its instance from ``batch`` only when it is first asked for."""
        if rows.size == 0:
            return
        rec = self.by_dims.setdefault(dims_key(dims), DimsRecord())
        gap = gap[rows]
        rec.count += int(rows.size)
        rec.max_gap = max(rec.max_gap, float(np.max(gap)))  # a violating row's gap is never NaN
        rec.sizes.add(batch.size)
        if callable(significance):
            entry = _Entry(rec, rows, gap, ratio[rows], lambda: significance()[rows], batch, estimate)
        else:
            entry = _Entry(rec, rows, gap, ratio[rows], lambda: significance[rows], batch, None)
            entry.significance()
        rec.pending.append(entry)
        self._unsettled.append(entry)

    def _rank_must_settle(self) -> None:
        _estimate(self._unsettled)
        for entry in self._unsettled:
            entry.offer(self._must_settle, MUST_SETTLE_CAP, only_significant=True)
        self._unsettled = []

    def rank_all(self) -> None:
        """Estimate and rank every row (the heaps as an eager offer would have left them)."""
        for rec in self.by_dims.values():
            rec.rank()
        self._rank_must_settle()

    def merge(self, other: CandidatePool) -> None:
        """Take in another pool's candidates (a chunk of the same sweep), keeping what this pool would
        have kept had it seen them itself: each combination's strongest, and the significant ones up to
        the cap (equal strengths keep the one found first, the other pool's after this one's)."""
        for key, rec in other.by_dims.items():
            self.by_dims.setdefault(key, DimsRecord()).merge(rec)
        if other._must_settle:
            self._rank_must_settle()
        for _, _, cand in sorted(other._must_settle, key=lambda t: t[1]):
            _keep_strongest(self._must_settle, cand, MUST_SETTLE_CAP)
        self._unsettled += other._unsettled

    def __bool__(self) -> bool:
        return bool(self.by_dims)

    @property
    def must_settle(self) -> list:
        """The significant candidates kept for settling (every row estimated)."""
        self.rank_all()
        return self._must_settle

    @property
    def total(self) -> int:
        return sum(r.count for r in self.by_dims.values())

    @property
    def estimated(self) -> int:
        """Candidates whose rounding sensitivity has been estimated so far."""
        return sum(r.estimated for r in self.by_dims.values())

    @property
    def significant_estimated(self) -> int:
        """Significant candidates among those estimated so far."""
        return sum(r.significant for r in self.by_dims.values())

    @property
    def significant_total(self) -> int:
        """Significant candidates (every row estimated)."""
        self.rank_all()
        return self.significant_estimated

    @property
    def significant_dropped(self) -> int:
        """Significant candidates the pool could not keep: they can never all be settled."""
        return self.significant_total - len(self.must_settle)

    def smaller_than(self, size: int) -> bool:
        """Whether some candidate's instance may have fewer entries than ``size``."""
        return any(min(r.sizes, default=0) < size for r in self.by_dims.values())

    def smaller_part(self, size: int) -> CandidatePool:
        """A pool of this one's combinations that may hold an instance of fewer entries than ``size``
        (their records shared, not copied)."""
        part = CandidatePool()
        part.by_dims = {k: r for k, r in self.by_dims.items() if min(r.sizes, default=0) < size}
        return part

    def settling_order(self) -> SettlingOrder:
        """Round robin over the dims combinations (smallest instances first within a round), each
        combination's strongest candidate first; then the remaining significant ones, strongest first.
        Lazy: a combination is ranked (its rows' rounding estimated) when the order reaches it."""
        return SettlingOrder(self._order())

    def _order(self) -> Iterator[Candidate]:
        keys = sorted(self.by_dims, key=lambda k: self.by_dims[k].size())
        ranked: dict[str, list[Candidate]] = {}
        seen = set()
        for rank in range(SETTLE_PER_DIMS):
            for k in keys:
                if k not in ranked:
                    ranked[k] = self.by_dims[k].ranked()
                if rank < len(ranked[k]):
                    seen.add(id(ranked[k][rank]))
                    yield ranked[k][rank]
        rest = sorted(
            (c for _, _, c in self.must_settle if id(c) not in seen), key=lambda c: c.strength, reverse=True
        )
        yield from rest


class SettlingOrder(Sequence):
    """The settling order, produced as far as it is read (a slice of its head estimates only the
    combinations it reaches; ``len`` and a full read rank every candidate)."""

    def __init__(self, source: Iterator[Candidate]):
        self._source: Iterator[Candidate] | None = source
        self._seen: list[Candidate] = []

    def _upto(self, n: int | None) -> None:
        while self._source is not None and (n is None or len(self._seen) < n):
            nxt = next(self._source, None)
            if nxt is None:
                self._source = None
            else:
                self._seen.append(nxt)

    def __iter__(self) -> Iterator[Candidate]:
        i = 0
        while True:
            self._upto(i + 1)
            if i >= len(self._seen):
                return
            yield self._seen[i]
            i += 1

    def __getitem__(self, index):
        if isinstance(index, slice):
            stop = index.stop if index.stop is not None and index.stop >= 0 and index.step is None else None
            self._upto(stop)
            return self._seen[index]
        self._upto(index + 1 if index >= 0 else None)
        return self._seen[index]

    def __len__(self) -> int:
        self._upto(None)
        return len(self._seen)
