"""The rounding estimate: how much a candidate row's sides move under a few ulps of its inputs.

A *unit* is the rows estimated together: their inputs are perturbed with signs drawn from their own bytes
(:func:`lemmacheck.search.relations.perturbed`), so a unit's figures depend on which rows it holds, and
the unit is a batch's candidate rows whatever else is estimated at the same time.  Several units of one
dims combination are still evaluated in one call of the check (a check's cost is mostly per call, and a
row's values do not depend on the rows beside it), so their figures are those of one call per unit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from ..errors import CheckError
from ..model.claim import NumericCheck
from ..model.tolerance import NOISE_REPEATS
from ..xp import numpy_xp
from .instance import Instance, dims_key
from .relations import evaluate_chain, perturbed_copies, take_rows

__all__ = ["ESTIMATE_ROWS", "Estimate", "estimate_together", "sensitivities"]

#: perturbed rows one joint call of the check evaluates at most: the largest call the estimate made one
#: unit at a time (a sweep group of 512 rows, all candidates, in NOISE_REPEATS copies), so joining units
#: never makes a check's intermediates larger than they were
ESTIMATE_ROWS = 512 * NOISE_REPEATS

_Unit = tuple[Mapping[str, np.ndarray], list[np.ndarray]]  # a unit's inputs, and its chain's values


def sensitivities(
    claim_id: str, check: NumericCheck, units: list[_Unit], dims
) -> list[list[np.ndarray] | None]:
    """Per unit, each side's observed rounding sensitivity on its rows (None: no estimate, a perturbation
    left the domain).

    The largest change under NOISE_REPEATS perturbations of the inputs by NOISE_ULPS ulps, and the
    difference from an evaluation in extended precision (``np.longdouble``) where the check runs in it:
    a perturbation of the inputs cannot see the rounding of an intermediate (``(x + 1e8) - 1e8``), the
    wider evaluation does.  Every unit's perturbed copies in one call (the rows' own values are the
    batch's), and their extended ones in another; where the check refuses a joint call, unit by unit, so
    a unit the check refuses does not take the others' estimates with it.
    """
    copies = [copy for sub, _ in units for copy in perturbed_copies(sub, NOISE_REPEATS)]
    try:
        values = _evaluate(
            claim_id, check, copies, [len(b[0]) for _, b in units for _ in range(NOISE_REPEATS)], dims
        )
    except CheckError:
        if len(units) == 1:
            return [None]
        return [s for unit in units for s in sensitivities(claim_id, check, [unit], dims)]
    wide = _extended(claim_id, check, units, dims)
    out: list[list[np.ndarray] | None] = []
    at = 0
    for (_, base), extended in zip(units, wide, strict=True):
        n = len(base[0])
        alternatives = []
        for _ in range(NOISE_REPEATS):
            alternatives.append([e[at : at + n] for e in values])
            at += n
        if extended is not None:
            alternatives.append(extended)
        worst = [np.zeros(n) for _ in base]
        for alt in alternatives:
            worst = [np.maximum(w, np.abs(x - y)) for w, x, y in zip(worst, alt, base, strict=True)]
        out.append(worst)
    return out


def _evaluate(claim_id: str, check: NumericCheck, parts: Sequence[Mapping], sizes: list[int], dims) -> list:
    """The chain on the rows of ``parts`` (``sizes`` rows each) stacked in order."""
    stacked = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    return evaluate_chain(claim_id, check, numpy_xp, stacked, dims, sum(sizes))


def _extended(claim_id: str, check: NumericCheck, units: list[_Unit], dims) -> list[list | None]:
    """Each unit's chain evaluated in ``np.longdouble`` (None: the check does not run in it, or there is
    no wider type)."""
    if np.finfo(np.longdouble).eps >= np.finfo(np.float64).eps:
        return [None] * len(units)
    wide = [
        {k: v.astype(np.longdouble) if v.dtype.kind == "f" else v for k, v in s.items()} for s, _ in units
    ]
    sizes = [len(base[0]) for _, base in units]
    try:
        values = _evaluate(claim_id, check, wide, sizes, dims)
    except CheckError:  # the check does not run in extended precision (a function of its own refuses it)
        return [None] if len(units) == 1 else [_extended(claim_id, check, [u], dims)[0] for u in units]
    out: list[list | None] = []
    at = 0
    for n in sizes:
        out.append([e[at : at + n] for e in values])
        at += n
    return out


class Estimate:
    """A batch's rounding sensitivity on its candidate rows (one unit), made once, when first asked for
    (alone, or with others by :func:`estimate_together`): a refuted claim's settling ranks few
    combinations, and the others' estimates, two perturbed evaluations and one in extended precision
    per candidate, are never needed."""

    def __init__(
        self, claim_id: str, check: NumericCheck, chain, inputs, dims, bad: np.ndarray, raw: Mapping | None
    ):
        self.rows = np.flatnonzero(bad)
        self._claim_id, self._check = claim_id, check
        self._dims, self._shape = dims, (len(chain), len(bad))
        # the candidate rows themselves (their inputs also build the candidates' instances), so the
        # batch's other rows need not be kept while they wait
        self._sub = {k: np.asarray(v)[self.rows] for k, v in inputs.items()}
        self._raw = {k: np.asarray(v)[self.rows] for k, v in raw.items()} if raw else {}
        self._base: list | None = [np.asarray(e)[self.rows] for e in chain]
        self._noise: np.ndarray | None = None

    def instances(self, rows: np.ndarray) -> list[Instance]:
        """The instances of the batch's ``rows`` (candidate rows), as the tracker builds them."""
        at = np.searchsorted(self.rows, rows)
        raws = take_rows(self._raw, at) if self._raw else [{} for _ in at]
        inputs = take_rows(self._sub, at)
        return [Instance(dict(self._dims), x, r) for x, r in zip(inputs, raws, strict=True)]

    @property
    def made(self) -> bool:
        return self._noise is not None

    def value(self) -> np.ndarray:
        """Each side's sensitivity, by side and batch row (NaN off the candidate rows, or no estimate)."""
        if self._noise is None:
            estimate_together([self])
        assert self._noise is not None
        return self._noise

    def _unit(self) -> _Unit:
        assert self._base is not None
        return self._sub, self._base

    def _joins(self) -> tuple:
        """What units evaluated in one call share: the check, the dims, and each input's dtype and
        shape past the batch axis."""
        shapes = tuple((k, v.dtype.str, v.shape[1:]) for k, v in self._sub.items())
        return id(self._check), self._claim_id, dims_key(self._dims), shapes

    def _take(self, sens: list[np.ndarray] | None) -> None:
        self._noise = np.full(self._shape, np.nan)
        for e, s_ in enumerate(sens or ()):
            self._noise[e, self.rows] = s_
        self._base = None


def estimate_together(estimates: list[Estimate]) -> None:
    """Make the estimates not made yet, those of one dims combination in as few calls of the check as
    ESTIMATE_ROWS allows, each still its own unit (the figures of one call per estimate)."""
    groups: dict[tuple, list[list[Estimate]]] = {}
    seen: set[int] = set()  # a batch's estimate serves every relation of the chain
    for est in estimates:
        if est.made or id(est) in seen:
            continue
        seen.add(id(est))
        calls = groups.setdefault(est._joins(), [[]])
        rows = sum(e.rows.size for e in calls[-1]) + est.rows.size
        if calls[-1] and rows * NOISE_REPEATS > ESTIMATE_ROWS:
            calls.append([])
        calls[-1].append(est)
    for calls in groups.values():
        for call in calls:
            head = call[0]
            units = [e._unit() for e in call]
            for est, sens in zip(
                call, sensitivities(head._claim_id, head._check, units, head._dims), strict=True
            ):
                est._take(sens)
