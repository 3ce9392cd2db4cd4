"""Tightness: the largest lhs/rhs a holding relation reaches, from instances whose ratio means something.

A float64 ratio counts only where it is *resolved*: each side exceeds its observed rounding sensitivity
(the perturbation that measures a candidate's, :mod:`lemmacheck.model.tolerance`) by ``SIGNIFICANCE``.  A
remainder of 7e-17 computed by cancellation from terms of size 1 is rounding, and its ratio to 8e-17 says
nothing about the bound.  Resolution is measured only where it could change the figure: on the rows of a
batch whose ratio exceeds the WITNESSES-th highest resolved one so far, highest first (at most
``RESOLVE_ROWS`` a batch; the rest count as unresolved).

The perturbation cannot see every rounding (a small term absorbed into an intermediate, in a check that
does not run in extended precision), so the figure is *settled*: the highest resolved instances are
re-evaluated at REVERIFY_DPS digits (beyond the inputs' range), highest first, until high precision
confirms one's float64 ratio; the figure is the largest settled ratio (a rejected candidate's too), and the
instance attaining it is reported.  The instances whose float64 ratio exceeds the figure but did not stand
(unresolved, or shown to be rounding in high precision) are the *excluded* count.

Beside the figure over every dims combination, the figure over the *non-trivial* ones (every size, a dim
that shapes an input, at least 2) is kept: a bound attained only at n = 1, where both sides coincide,
says so.
"""

from __future__ import annotations

import dataclasses
import functools
import heapq
import itertools
import math
from collections.abc import Callable, Mapping

import numpy as np

from ..model.claim import NumericCheck
from ..model.tolerance import SIGNIFICANCE
from .candidates import Instance

__all__ = [
    "RatioRecord",
    "RESOLVE_ROWS",
    "FAR",
    "is_far",
    "far_rows",
    "sizes_of",
    "nontrivial",
    "resolve_batch",
    "settled_witness",
    "witness_of",
    "figure",
    "tightness_evidence",
]

#: rows of one batch examined for resolution at most (highest ratio first); beyond them, unresolved
RESOLVE_ROWS = 256
#: resolved instances kept per record, highest ratio first, to be settled in high precision: the
#: perturbation cannot see every rounding (a sum absorbed into an intermediate, in a check that does not
#: run in extended precision), so the figure is the first whose float64 ratio high precision confirms
WITNESSES = 16

_order = itertools.count()


#: the magnitudes beyond which an instance is *far* (an entry above 1e16 absorbs a term of size 1 whole,
#: one below 1e-16 is absorbed by one): the float-range share (search/wide.py) draws such instances in
#: numbers, and there a check's two sides can cancel to the same rounding, a float64 ratio of exactly 1
#: that the perturbation does not see and high precision settles to 0
FAR = 1e16


def is_far(inst: Instance) -> bool:
    """Whether some nonzero float entry of ``inst`` lies beyond 1/FAR .. FAR in magnitude."""
    for v in inst.inputs.values():
        a = np.abs(np.asarray(v))
        if a.dtype.kind == "f" and np.any((a > FAR) | ((a < 1 / FAR) & (a > 0))):
            return True
    return False


def far_rows(inputs: Mapping[str, np.ndarray], rows: np.ndarray) -> np.ndarray:
    """:func:`is_far` of the instance of each of a batch's ``rows``, one pass per input instead of one
    per instance (a resolved row offered to two records was examined twice)."""
    far = np.zeros(rows.size, dtype=bool)
    for v in inputs.values():
        a = np.asarray(v)
        if a.dtype.kind == "f" and rows.size:
            a = np.abs(a[rows]).reshape(rows.size, -1)
            far |= ((a > FAR) | ((a < 1 / FAR) & (a > 0))).any(axis=1)
    return far


@dataclasses.dataclass
class RatioRecord:
    """The highest resolved ratios of one relation (up to WITNESSES, each with its instance) among the
    instances at ordinary magnitudes and, apart, among the far ones (:func:`is_far`), so that rounding at
    1e200 never crowds out what the sweep found; and the ratios of the instances examined and found
    unresolved."""

    top: list = dataclasses.field(default_factory=list)  # min-heap of (ratio, order, Instance)
    far: list = dataclasses.field(default_factory=list)  # the same, for the far instances
    unresolved: list = dataclasses.field(default_factory=list)
    # instances whose ratio high precision has already settled (the optimiser's, :mod:`.optimise`), as
    # (settled ratio, order, witness)
    confirmed: list = dataclasses.field(default_factory=list)

    @property
    def value(self) -> float:
        """The largest resolved float64 ratio (-inf: none)."""
        return max((r for r, _, _ in [*self.top, *self.far]), default=-math.inf)

    @property
    def threshold(self) -> float:
        """The ratio an instance must exceed to be examined: the ordinary heap's (a far instance below it
        could not beat the ordinary witnesses; were it the far heap's too, every row would be examined
        for resolution while that heap is not full, which is most of the time)."""
        return self.top[0][0] if len(self.top) >= WITNESSES else -math.inf

    def offer(self, ratio: float, inst_of: Callable[[], Instance], *, far: bool | None = None) -> None:
        """Keep the instance if its ratio is among the highest (``far``: :func:`is_far` of it, if known)."""
        if ratio > self.threshold:
            inst = inst_of()
            far = is_far(inst) if far is None else far
            _push(self.far if far else self.top, (ratio, next(_order), inst))

    def exclude(self, ratios) -> None:
        self.unresolved.extend(float(r) for r in ratios)

    def offer_settled(self, ratio: float, witness: dict) -> None:
        """An instance whose ratio high precision settled (``witness``: :func:`settled_witness`'s form)."""
        _push(self.confirmed, (ratio, next(_order), witness))

    def merge(self, other: RatioRecord) -> None:
        heaps = [(t, False) for t in other.top] + [(t, True) for t in other.far]
        for (ratio, _, inst), far in sorted(heaps, key=lambda h: h[0][1]):
            self.offer(ratio, functools.partial(_same, inst), far=far)
        self.exclude(other.unresolved)
        for ratio, _, witness in sorted(other.confirmed, key=lambda t: t[1]):
            self.offer_settled(ratio, witness)

    def ranked(self) -> list[tuple[float, Instance]]:
        """The witnesses at ordinary magnitudes, highest ratio first, then the far ones."""
        return [*_ranked(self.top), *_ranked(self.far)]

    def heaps(self) -> list[list[tuple[float, Instance]]]:
        """The two heaps' witnesses, each highest ratio first."""
        return [_ranked(self.top), _ranked(self.far)]


def _ranked(heap: list) -> list:
    return [(r, inst) for r, _, inst in sorted(heap, key=lambda t: (-t[0], t[1]))]


def _push(heap: list, item: tuple) -> None:
    """Keep ``item`` in the min-heap of at most WITNESSES items if it is among the highest."""
    if len(heap) < WITNESSES:
        heapq.heappush(heap, item)
    elif item[0] > heap[0][0]:
        heapq.heapreplace(heap, item)


def sizes_of(check: NumericCheck) -> frozenset[str]:
    """The dims that are sizes: those naming an axis of some input."""
    return frozenset(d for spec in check.inputs.values() for d in spec.shape if isinstance(d, str))


def nontrivial(dims: Mapping, sizes: frozenset[str]) -> bool:
    """Every size at least 2 (at size 1 many bounds hold with equality: the two sides coincide)."""
    return all(int(dims[s]) >= 2 for s in sizes if s in dims)


def resolve_batch(
    records: list[RatioRecord],
    ratio: np.ndarray,
    eligible: np.ndarray,
    resolved_rows: Callable[[np.ndarray], np.ndarray],
    inst_of: Callable[[int], Instance],
    far_of: Callable[[np.ndarray], np.ndarray] | None = None,
) -> None:
    """Offer a batch's ratios (``eligible`` rows) to ``records`` (the overall one, and the non-trivial
    one when the batch's dims are): the rows above the smallest threshold, highest first, in growing
    groups, each resolved one (``resolved_rows(rows)``, a mask) kept, until WITNESSES are.  ``far_of``:
    :func:`far_rows` of the batch (default: :func:`is_far` of each instance kept)."""
    rows = np.flatnonzero(eligible & (ratio > min(r.threshold for r in records)))
    if rows.size == 0:
        return
    rows = rows[np.argsort(-ratio[rows], kind="stable")]
    start, group, kept = 0, 8, 0
    while start < min(rows.size, RESOLVE_ROWS) and kept < WITNESSES:
        part = rows[start : min(start + group, RESOLVE_ROWS)]
        ok = resolved_rows(part)
        far = far_of(part).tolist() if far_of is not None and ok.any() else [None] * part.size
        for j, good, far_j in zip(part.tolist(), ok.tolist(), far, strict=True):
            if not good:
                for rec in records:
                    rec.exclude([ratio[j]])
                continue
            inst = _Once(functools.partial(inst_of, j))  # one instance for both records, as merge shares
            for rec in records:
                rec.offer(float(ratio[j]), inst, far=far_j)
        kept += int(np.count_nonzero(ok))
        start += part.size
        group *= 4
    if kept < WITNESSES:  # the rows past the cap were never examined: not resolved
        for rec in records:
            rec.exclude(ratio[rows[RESOLVE_ROWS:]])


class _Once:
    """``make()``, made on the first call only."""

    __slots__ = ("_make", "_made")

    def __init__(self, make: Callable[[], Instance]):
        self._make = make
        self._made: Instance | None = None

    def __call__(self) -> Instance:
        if self._made is None:
            self._made = self._make()
        return self._made


def settled_witness(claim_id: str, check: NumericCheck, inst: Instance, relation: str) -> dict | None:
    """The attaining instance as data, with its sides and ratio settled beyond float64 on balls, or in
    mpmath where balls cannot evaluate the check (:func:`lemmacheck.settling.witness.settled_ratio`);
    None where high precision cannot evaluate the check."""
    from ..settling.witness import settled_ratio

    settled = settled_ratio(claim_id, check, inst, relation)
    return None if settled is None else witness_of(inst, settled)


def witness_of(inst: Instance, settled: dict) -> dict:
    """An instance and its settled sides (:func:`lemmacheck.settling.witness.settled_ratio`) as data."""
    from ..run.results import jsonable

    return {
        "dims": jsonable(inst.dims),
        "inputs": {k: np.asarray(v)[0].tolist() for k, v in inst.inputs.items()},
        **settled,
    }


def _candidate_witness(ratio: float, cand, conf) -> dict:
    from ..run.results import jsonable

    inst = cand.instance
    return {
        "dims": jsonable(inst.dims),
        "inputs": {k: np.asarray(v)[0].tolist() for k, v in inst.inputs.items()},
        "lhs": conf.lhs,
        "rhs": conf.rhs,
        "ratio": ratio,
        "dps": conf.dps,
        "route": conf.route,
        # not finite where float64 lost both sides (they underflowed): "nan"/"inf" in the JSON, as the
        # schema's numbers are, never a null the schema refuses
        "float64_ratio": cand.ratio,
    }


def _float64_witness(ratio: float, inst: Instance) -> dict:
    return {
        "dims": dict(inst.dims),
        "inputs": {k: np.asarray(v)[0].tolist() for k, v in inst.inputs.items()},
        "ratio": ratio,
        "dps": None,  # high precision cannot evaluate the check: the float64 ratio stands
    }


def figure(claim_id, check, record: RatioRecord, settled: list, relation: str, keep) -> dict | None:
    """The tightness witness of one record: its resolved instances settled in high precision, highest
    float64 ratio first (the ordinary and the far ones apart), until one's settled ratio confirms its
    float64 ratio (to 2/SIGNIFICANCE, what
    resolution promises); or an instance the optimiser settled, or a rejected candidate (``keep``
    filters them by dims), whose settled ratio is larger.  ``excluded`` counts the float64 ratios above
    the figure that did not stand.  None when no instance gave a resolved ratio."""
    best, refuted = None, []
    for ranked in record.heaps():
        for r64, inst in ranked:
            w = settled_witness(claim_id, check, inst, relation) or _float64_witness(r64, inst)
            w["float64_ratio"] = r64
            if best is None or w["ratio"] > best["ratio"]:
                best = w
            if abs(w["ratio"] - r64) <= 2 / SIGNIFICANCE * abs(r64):
                break
            refuted.append(r64)  # high precision shows the float64 ratio was rounding
    for ratio, _, witness in record.confirmed:
        if best is None or ratio > best["ratio"]:
            best = dict(witness)
    for ratio, cand, conf in settled:
        if keep(cand.instance.dims) and (best is None or ratio > best["ratio"]):
            best = _candidate_witness(ratio, cand, conf)
    if best is not None:
        best["excluded"] = sum(1 for r in [*record.unresolved, *refuted] if r > best["ratio"])
    return best


def tightness_evidence(claim_id: str, check: NumericCheck, end, settled: list, combos: list) -> dict:
    """``tightness`` (settled), its witness, the excluded count, and, when the figure is attained at a
    size below 2, the figure over the dims combinations with every size at least 2 beside it."""
    sizes = sizes_of(check)
    overall = figure(claim_id, check, end.tight, settled, end.relation, lambda d: True)
    if overall is None:
        return {}
    overall["trivial"] = not nontrivial(overall["dims"], sizes)
    out = {
        "tightness": overall["ratio"],
        "tightness_witness": overall,
        "tightness_excluded": overall.pop("excluded"),
    }
    if overall["trivial"] and any(nontrivial(c, sizes) for c in combos):
        keep = lambda d: nontrivial(d, sizes)  # noqa: E731
        nt = figure(claim_id, check, end.tight_nontrivial, settled, end.relation, keep)
        if nt is not None:
            nt.pop("excluded")
            out |= {"nontrivial_tightness": nt["ratio"], "nontrivial_witness": nt}
    return out


def _same(inst: Instance) -> Instance:
    return inst
