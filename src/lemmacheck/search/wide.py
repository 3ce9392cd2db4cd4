"""The whole domain: a stated share of the sweep at magnitudes across the float range.

An input's ``scale`` is where the author expects the interesting instances, not the statement's domain:
an inequality over all of ℝⁿ that fails only where an entry exceeds 50 holds at every instance a scale of
(0.1, 10) draws.  So beside the sweep's batches of each dims combination, ``WIDE_SHARE`` of their size
more instances are drawn (one batch per combination, after its last: one instance in nine of the sweep)
with every unbounded input's per-instance magnitude log-uniform in ``10^[-300, 300]`` (up to the input's
declared ``bound``, :class:`lemmacheck.model.inputs.Array`); the other inputs are drawn as usual.

float64 cannot evaluate every check there (``x**2`` overflows at 1e200): an instance whose inputs or sides
are not finite, or at which the check raises, or a violating one whose evaluation under- or overflowed
on the way (:mod:`.faithful`), is *dropped*, never judged, and counted
(``Tracker.wide_dropped``), so the evidence says how much of the float range was actually explored; the
magnitudes explored per input are reported beside it (``Tracker.magnitudes``).  What is evaluated is an
instance like any other: a violation is a candidate settled in high precision (the WIDE_CANDIDATES
strongest of each batch; the others are counted, ``wide_candidates_dropped``, and never judged).
Properties (a boolean per instance) are not explored here: a NaN compares False, and would pose as a
failure; nor are checks that approximate a side by a discretisation (:func:`discretisation`), whose error
is bounded only near the sampling scale: the evidence says so (``wide_skipped``).
"""

from __future__ import annotations

import math
import warnings
from types import SimpleNamespace

import numpy as np

from ..errors import CheckError
from ..model.inputs import call_with_inputs, resolve_shape
from ..model.returns import validated_chain
from ..xp import numpy_xp
from .draw import where_mask
from .faithful import faithful_rows, native_output_muted
from .relations import gap, violated_at
from .tracker import Tracker

__all__ = ["WIDE_SHARE", "WIDE_EXPONENTS", "wide_batch", "unbounded", "discretisation"]

#: wide instances drawn beside each sweep batch, as a share of the batch: one in nine of the sweep's
WIDE_SHARE = 1 / 8
#: the decimal exponents of an unbounded input's magnitude in the wide share
WIDE_EXPONENTS = (-300.0, 300.0)
#: violations of one wide batch given to settling at most (its strongest)
WIDE_CANDIDATES = 4
#: the stream of the sweep's generator seed the wide draws use (the batch's own draws are unchanged)
_STREAM = 7
#: rows below which a batch the check raises on is dropped rather than split again (at most 7 calls for
#: a wide batch of 64 rows)
_SPLIT_FLOOR = 16


def unbounded(spec) -> bool:
    """Whether the input is drawn at a scale rather than on an interval, with a scale that varies."""
    scale = getattr(spec, "scale", None)
    return getattr(spec, "low", None) is None and isinstance(scale, tuple) and scale[0] < scale[1]


def _draw(check, rng, n: int, dims) -> tuple[dict, dict]:
    inputs, raw = {}, {}
    for name, spec in check.inputs.items():
        shape = resolve_shape(spec.shape, dims)
        if unbounded(spec):
            top = WIDE_EXPONENTS[1] if spec.bound is None else min(WIDE_EXPONENTS[1], math.log10(spec.bound))
            mag = 10.0 ** rng.uniform(WIDE_EXPONENTS[0], top, size=(n,) + (1,) * len(shape))
            r = rng.standard_normal((n, *shape)) * mag
            if spec.bound is not None:
                r = np.clip(r, -spec.bound, spec.bound)
            r = np.abs(r) if spec.positive else r
        else:
            r = spec.raw_draw(rng, n, shape)
        with np.errstate(all="ignore"):
            inputs[name] = np.asarray(spec.finish(r))
        if spec.transform is not None:
            raw[name] = np.asarray(r)
    return inputs, raw


def _finite_rows(arrays) -> np.ndarray:
    n = len(next(iter(arrays)))
    ok = np.ones(n, dtype=bool)
    for a in arrays:
        a = np.asarray(a)
        if a.dtype.kind in "fc":
            ok &= np.all(np.isfinite(a.reshape(n, -1)), axis=1)
    return ok


def _subset(d: dict, rows: np.ndarray) -> dict:
    return {k: v[rows] for k, v in d.items()}


def _evaluable(tracker: Tracker, inputs: dict, raw: dict, dims) -> tuple[list, dict, dict] | None:
    """The chain on the rows float64 can evaluate (finite sides, no exception), with their inputs: one
    call of the check, its sides validated on the finite rows; where the check raises (an SVD of an
    overflowed matrix), the rows are tried in halves down to _SPLIT_FLOOR."""
    n = len(next(iter(inputs.values())))
    try:
        sides = _sides(tracker.check, inputs, dims)
    except Exception:
        sides = None
    if sides is not None:
        try:
            keep = np.flatnonzero(_finite_rows(sides))
            sub = [side[keep] for side in sides]
            if not keep.size:
                return None
            chain = validated_chain(
                tracker.claim_id, tracker.check, sub, _subset(inputs, keep), dims, keep.size
            )
        except (CheckError, IndexError, ValueError, TypeError):
            return None  # not a chain of (batch,) arrays: the sweep's own batches report that
        return chain, _subset(inputs, keep), _subset(raw, keep)
    if n < _SPLIT_FLOOR:
        return None
    half = n // 2  # the check raised on the batch: some rows are beyond it, find them by halves
    halves = (np.arange(half), np.arange(half, n))
    parts = [p for r in halves if (p := _evaluable(tracker, _subset(inputs, r), _subset(raw, r), dims))]
    if not parts:
        return None
    chain = [np.concatenate(es) for es in zip(*(p[0] for p in parts), strict=True)]
    merged = [{k: np.concatenate([p[i][k] for p in parts]) for k in parts[0][i]} for i in (1, 2)]
    return chain, merged[0], merged[1]


def _sides(check, inputs: dict, dims) -> list[np.ndarray]:
    """The check's sides as it returns them, unvalidated (non-finite values included)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        out = call_with_inputs(check.fn, numpy_xp, inputs, dims)
    return [np.asarray(e) for e in out]


def discretisation(check, inputs: dict, dims) -> str | None:
    """What the check approximates by a discretisation (``xp.discretised``: a finite difference, a
    quadrature rule) when evaluated on the first row of ``inputs``, or None.  Such an approximation's
    error is bounded only near the sampling scale (a central difference of tanh(1e37 g) is noise), so a
    check that makes one is judged there only: the float-range share skips it, and the optimiser stays
    within three times its scale."""
    found: list[str] = []
    spy = SimpleNamespace(**vars(numpy_xp))
    spy.discretised = found.append
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            call_with_inputs(check.fn, spy, {k: np.asarray(v)[:1] for k, v in inputs.items()}, dims)
    except Exception:
        return None  # the sweep's own evaluation reports a check that cannot run
    return found[0] if found else None


def wide_batch(tracker: Tracker, seed: int, index: int, batch: int, dims) -> tuple[list, dict, dict] | None:
    """Draw and evaluate ``batch * WIDE_SHARE`` wide instances at ``dims``, from the generator stream of
    sweep batch ``index`` (the sweep calls it once per dims combination, after its last batch).  Counts
    what it dropped and returns the rows it kept, ``(chain, inputs, raw)``, for the caller to add to the
    tracker as one unit after its sweep batches (None: nothing to add)."""
    check = tracker.check
    if check.is_property or not any(unbounded(s) for s in check.inputs.values()):
        return None
    n = max(1, int(batch * WIDE_SHARE))
    inputs, raw = _draw(check, np.random.default_rng([seed, index, _STREAM]), n, dims)
    if tracker.wide_skipped is None:
        what = discretisation(check, inputs, dims)
        tracker.wide_skipped = "" if what is None else f"the check approximates {what}"
    if tracker.wide_skipped:
        return None
    rows = np.flatnonzero(_finite_rows(list(inputs.values())))  # a transform can overflow (A Aᵀ at 1e200)
    dropped = n - rows.size
    if rows.size and check.where is not None:
        try:
            mask = where_mask(tracker.claim_id, check, _subset(inputs, rows), dims)
        except CheckError:  # where() itself cannot be evaluated there
            mask = np.zeros(rows.size, dtype=bool)
            dropped += rows.size
        rows = rows[mask] if mask is not None else rows
    before = tracker.wide_candidates_dropped
    with native_output_muted():
        got = _evaluable(tracker, _subset(inputs, rows), _subset(raw, rows), dims) if rows.size else None
        if got is not None:
            got = _faithful(tracker, *got, dims)
    evaluated = 0 if got is None else len(got[0][0])
    tracker.wide_instances += evaluated
    tracker.wide_dropped += dropped + int(rows.size) - evaluated - (tracker.wide_candidates_dropped - before)
    return got if evaluated else None


def _faithful(tracker: Tracker, chain: list, inputs: dict, raw: dict, dims) -> tuple[list, dict, dict]:
    """The rows kept: those that violate no relation, and of the violating ones float64 evaluated
    without a floating-point exception (:mod:`.faithful`) the WIDE_CANDIDATES strongest (by their
    largest gap over the relations); the other violations are counted in
    ``Tracker.wide_candidates_dropped``, never judged."""
    gaps = [
        gap(a, b, rel, tracker.tol)
        for rel, a, b in zip(tracker.check.relations, chain[:-1], chain[1:], strict=True)
    ]
    gaps.append(gap(chain[0], chain[-1], tracker.end.relation, tracker.tol))
    bad = np.zeros(len(chain[0]), dtype=bool)
    for rel, g in zip([*tracker.check.relations, tracker.end.relation], gaps, strict=True):
        bad |= violated_at(g, rel)
    rows = np.flatnonzero(bad)
    if rows.size == 0:
        return chain, inputs, raw
    keep = np.ones(len(chain[0]), dtype=bool)
    keep[rows] = faithful_rows(tracker.check, inputs, dims, rows)
    # Rounding float64 cannot see (1e300 + 10 - 1e300 = 0 under every perturbation) makes hundreds of
    # "significant" candidates at these magnitudes, and settling them one by one spent the budget of a
    # true claim.  The strongest are settled; the rest of the batch's violations are near them.
    strength = np.max(np.where(np.isfinite(gaps), gaps, -np.inf), axis=0)
    kept = rows[keep[rows]]
    weaker = kept[np.argsort(-strength[kept], kind="stable")][WIDE_CANDIDATES:]
    keep[weaker] = False
    tracker.wide_candidates_dropped += int(weaker.size)
    return [e[keep] for e in chain], _subset(inputs, keep), _subset(raw, keep)
