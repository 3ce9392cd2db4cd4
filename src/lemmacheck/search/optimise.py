"""Local optimisation of an inequality's margin: the last phase of the search, which climbs to the supremum.

The sweep and Hypothesis sample; refinement perturbs the worst instance at random.  None of them reaches a
supremum attained only in a limit (a parameter going to 0, a probability to 1/2): the highest ratio they
find depends on the seed, and a sharp constant made 0.08 % too small survives.  This phase maximises the
end-to-end relation's normalised margin ``(lhs - rhs) / (|lhs| + |rhs|)`` (``(rhs - lhs) / ...`` for
``>=``), a monotone function of lhs/rhs, with SciPy's L-BFGS-B from the strongest instances seen:

* starts: the highest resolved ratios, round robin over the dims combinations they were found at, then
  (while starts are missing) the significant candidates and the worst instance (``Profile.optimise_starts``);
* each start is *scanned*: every input scaled as a whole by 10^-12 .. 10^12 (one batch per input), which
  follows a step or a parameter to 0 or infinity even where the bound has a kink (a max, an ∞-norm); then
  climbed in log coordinates (an entry is ``sign · exp(u)``: limits at 0 and at the domain's edge are
  approached geometrically), scanned again, and polished in linear coordinates (signs may change), each
  within the input's domain (:mod:`.coords`); and last a compass search (:mod:`.pattern`), for a
  supremum on a kink or a box's faces, where L-BFGS-B stops;
* after the starts, hops from the highest point they reached (:mod:`.hop`), for a supremum among several
  local maxima, where a compass search stays in the basin it started in;
* the gradient is a forward difference computed as one vectorised batch of ``size + 1`` instances;
* ``Profile.optimise_calls`` objective evaluations per start at most (each a batch), a count and never a
  time, so the result replays from the seed.

Every point the climb evaluates is given to the tracker like any other instance: a violation is a
candidate that settling judges in high precision, a ratio counts towards tightness only where it is
resolved.  Nothing found here is accepted in float64, and a violation whose float64 evaluation under- or
overflowed (:mod:`.faithful`: log coordinates reach 1e-300, where a side can underflow to 0) is treated as
outside the domain: the climb backs off it and it is never a candidate.
"""

from __future__ import annotations

import functools
import sys

import numpy as np

from ..errors import CheckError
from ..xp import numpy_xp
from .candidates import Instance, dims_key, instance_key
from .climb import Climb
from .coords import Space
from .faithful import native_output_muted
from .hop import HOPS, end_ratio, hop
from .pattern import pattern
from .profile import Profile
from .relations import evaluate_chain, ratio
from .tightness import nontrivial, sizes_of, witness_of
from .tracker import Tracker
from .wide import discretisation

__all__ = ["optimise"]

_INEQUALITIES = ("<=", "<", ">=", ">")
#: how closely high precision must agree with the float64 ratio a phase reached for it to count: far
#: below the margins that matter (a constant 1e-3 or 8e-4 too small), far above float64's rounding
CONFIRM_RTOL = 1e-6
#: rows of a scan's batch tried in high precision, until one is confirmed: the best, then by bisection
#: towards the current point (a family of 49 factors needs ~5)
SCAN_TRIES = 5
#: high-precision confirmations one start may ask for (past them, nothing more is confirmed: the start
#: keeps what it has); a check on many inputs made 90 of them, 15 s for one claim
CONFIRMATIONS_PER_START = 12
#: candidate starts screened in high precision per start climbed, at most: the strongest instances can
#: all be rounding, which the float-range share (search/wide.py) draws in numbers
SCREENED = 4
#: pairs of same-shape inputs a scan moves along their difference, at most (in the inputs' order)
PAIRS = 6


def _starts(tracker: Tracker, count: int) -> list[Instance]:
    """Up to ``count`` distinct instances: the highest resolved ratios, round robin over the dims
    combinations they were found at; then, while starts are missing, the significant candidates and the
    worst instance (those are often rounding, both sides ~1e-20 where a bound is attained at 0, where a
    climb has nothing to follow)."""
    end = tracker.end
    witnesses = [inst for _, inst in end.tight.ranked()] + [inst for _, inst in end.tight_nontrivial.ranked()]
    others = [c.instance for c in end.pool.settling_order()[:count] if c.must_settle]
    others += [] if tracker.worst is None else [tracker.worst]
    seen: set = set()
    out: list[Instance] = []
    for group in (witnesses, others):
        by_dims: dict[str, list[Instance]] = {}
        for inst in group:
            key = instance_key(inst)
            if key not in seen:
                seen.add(key)
                by_dims.setdefault(dims_key(inst.dims), []).append(inst)
        while len(out) < count and any(by_dims.values()):
            for insts in by_dims.values():
                if insts and len(out) < count:
                    out.append(insts.pop(0))
    return out


def _climb(tracker: Tracker, inst: Instance, calls: int, *, log: bool, near: bool) -> tuple[Instance, int]:
    """Climb from ``inst`` for at most ``calls`` evaluations; the best instance reached, and the count."""
    # imported when first needed (most claims never get here); one BLAS thread: L-BFGS-B's steps are
    # on vectors of a few entries, where OpenBLAS's threads cost 30x the work on a loaded machine
    from scipy.optimize import minimize

    space = Space(tracker.check, inst, log=log, near=near)
    if not space.size or calls < 2:
        return inst, 0
    climb = Climb(tracker, space)
    options = {"maxfun": calls, "maxiter": calls, "ftol": 0.0, "gtol": 0.0, "maxls": 10}
    with np.errstate(all="ignore"), _one_blas_thread(), native_output_muted():
        minimize(climb, space.start(), jac=True, method="L-BFGS-B", bounds=space.bounds(), options=options)
    climb.record()
    if climb.best[1] is None:
        return inst, climb.evaluated
    inputs, raw = space.instances(climb.best[1])
    return Instance(dict(inst.dims), inputs, raw), climb.evaluated


def _one_blas_thread():
    """A context in which BLAS runs on one thread (:func:`_blas_controller`)."""
    return _blas_controller(len(sys.modules)).limit(limits=1, user_api="blas")


@functools.lru_cache(maxsize=1)
def _blas_controller(modules: int):
    """The native libraries loaded, listed once per count of loaded modules: listing them made afresh
    for every climb (``threadpool_limits``) was 5 % of the optimiser's time; a library a check's import
    loads since is listed as ``threadpool_limits`` would list it."""
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


#: the factors each input is scaled by in a scan: 10^-12 to 10^12 in half decades
_FACTORS = 10.0 ** np.arange(-12.0, 12.5, 0.5)


def _scan(tracker: Tracker, inst: Instance, *, near: bool) -> tuple[Instance, int]:
    """Each movable input scaled as a whole by every one of _FACTORS (one batch per input), then each
    input moved towards or away from every other of its shape (``x_j <- x_i + f (x_j - x_i)``, one batch
    per pair), keeping the best: the directions in which a step or a parameter goes to 0 or to infinity,
    a step given as its own input (``Δx``) or as the difference of two (``x2 - x1``).  They keep which
    entry is largest, so a bound with a max or an ∞-norm, whose kink stops a gradient method exactly
    where the supremum lies (‖Δx‖∞ with two entries of equal size), is followed all the same."""
    evaluated = 0
    for log in (True, False):
        space = Space(tracker.check, inst, log=log, near=near)
        if not space.size:
            continue
        climb, u = Climb(tracker, space), space.start()
        lo, hi = np.array(space.bounds(), dtype=float).reshape(-1, 2).T
        with native_output_muted():
            for rows in _moves(space, log=log):
                u = _try_rows(climb, space, u, np.clip(rows(u), lo, hi))
        climb.record()
        inst, evaluated = Instance(dict(inst.dims), *space.instances(u)), evaluated + climb.evaluated
    return inst, evaluated


def _moves(space: Space, *, log: bool) -> list:
    """The scan's batches, as functions of the current point: in log coordinates each input scaled,
    in linear ones each input moved along its difference from another of the same size."""
    groups = [g for g in space.groups() if g.size]

    def scaled(g):
        return lambda u: np.vstack([u, u + np.outer(np.log(_FACTORS), np.isin(np.arange(u.size), g))])

    def towards(gi, gj):
        def rows(u):
            out = np.repeat(u[None], len(_FACTORS) + 1, axis=0)
            out[1:, gj] = u[gi] + _FACTORS[:, None] * (u[gj] - u[gi])
            return out

        return rows

    if log:
        return [scaled(g) for g in groups]
    pairs = [(gi, gj) for gi in groups for gj in groups if gi is not gj and gi.size == gj.size]
    return [towards(gi, gj) for gi, gj in pairs[:PAIRS]]


def _try_rows(climb: Climb, space: Space, u: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The best row of a scan's batch (row 0 the current point, row ``1 + i`` the move by ``_FACTORS[i]``)
    that improves on row 0 and whose ratio high precision confirms; else the current point.  The best
    row is tried first, then, SCAN_TRIES rows in all, by bisection towards the current point."""
    m, chain, inputs, raw = climb.margins(rows)
    if chain is None:
        return u
    # a gain below 1e-12 is not worth a high-precision evaluation
    better = np.flatnonzero(np.isfinite(m) & (m > (m[0] + 1e-12 if np.isfinite(m[0]) else -np.inf)))
    climb.resolve(m, chain, inputs, better)
    better = better[np.isfinite(m[better])]
    failed = None
    for _ in range(SCAN_TRIES):
        if not better.size:
            break
        j = _next_try(better, m, failed)
        found = Instance(dict(space.inst.dims), *space.instances(rows[j]))
        if _confirmed(climb.tracker, found) and climb.keep(m, chain, inputs, raw, j, resolve=False):
            return rows[j]
        # float64 degrades towards a limit (a remainder computed by cancellation is noise long before it
        # is 0), so the rows further out than an unconfirmed one are at least as suspect: only those
        # between it and the current point stay
        better, failed = better[(better - j) * (_HERE - j) > 0], j
    return u


#: the row of a scan's batch that is the current point (the factor 1)
_HERE = 1 + int(np.argmin(np.abs(np.log(_FACTORS))))


def _next_try(better: np.ndarray, m: np.ndarray, failed: int | None) -> int:
    """The row to confirm next: the best; after an unconfirmed row, the one midway between it and the
    current point (so SCAN_TRIES confirmations find the furthest row float64 is right at among
    2^SCAN_TRIES), or, if none lies between, the best of the others.  The best row of a family that
    goes to a limit is often float64's rounding there (the ratio of two cancelled remainders), and the
    next best its neighbour."""
    if failed is not None:
        between = better[(better - _HERE) * (failed - _HERE) > 0]
        if between.size:
            return int(between[len(between) // 2])
    return int(better[np.argmax(m[better])])


def optimise(tracker: Tracker, profile: Profile, seed: int = 0) -> int:
    """Climb the end-to-end margin of an inequality from its strongest instances, then hop from the
    highest point reached (:mod:`.hop`, its generator seeded by ``seed``); the instances evaluated
    (every centre point was given to the tracker)."""
    check = tracker.check
    if check.is_property or tracker.end.relation not in _INEQUALITIES or profile.optimise_starts < 1:
        return 0
    evaluated, half, started = 0, profile.optimise_calls // 2, 0
    best: tuple[float, Instance | None] = (-np.inf, None)
    for inst in _starts(tracker, SCREENED * profile.optimise_starts):
        if started == profile.optimise_starts:
            break
        # a start whose float64 ratio is rounding (sides cancelling to the same noise at 1e200, which
        # read 1.0 and settle to 0) has nothing to climb, and its climb's rounding would crowd the
        # tracker's records: only a start high precision confirms is climbed from
        tracker.confirmations_left = 1
        if not _confirmed(tracker, inst):
            continue
        started += 1
        tracker.confirmations_left = CONFIRMATIONS_PER_START
        # a discretisation's error is bounded only near the sampling scale (search/wide.py)
        near = discretisation(check, inst.inputs, inst.dims) is not None
        for phase in ("scan", "log", "scan", "linear", "pattern"):
            if phase == "scan":  # confirms what it moves to, row by row
                reached, n = _scan(tracker, inst, near=near)
            elif phase == "pattern":  # where L-BFGS-B stops: at a kink, on a box's faces
                reached, n = pattern(tracker, inst, half, near=near)
            else:
                calls = half if phase == "log" else profile.optimise_calls - half
                reached, n = _climb(tracker, inst, calls, log=phase == "log", near=near)
            scanned = phase == "scan"
            inst = reached if scanned or reached is inst or _confirmed(tracker, reached) else inst
            evaluated += n
        r = end_ratio(tracker, inst)
        best = (r, inst) if r > best[0] else best
    if best[1] is not None:
        tracker.confirmations_left = HOPS
        near = discretisation(check, best[1].inputs, best[1].dims) is not None
        rounds = profile.optimise_calls // HOPS
        evaluated += hop(tracker, best[1], best[0], rounds, seed, near=near, confirmed=_confirmed)
    return evaluated


def _confirmed(tracker: Tracker, inst: Instance) -> bool:
    """Whether high precision confirms the float64 ratio ``inst`` was climbed to, to CONFIRM_RTOL: a
    remainder computed by cancellation at a step of 1e-100 is exactly 0 in float64 and in extended
    precision alike, which no rounding estimate sees, and at a step of 1e-6 it is off by 1e-4, which is
    the size of the margins this phase is for.  A phase whose result
    is not confirmed is discarded (the next starts where it did).  Where high precision cannot evaluate
    the check, the float64 ratio stands, as it does for tightness."""
    from ..settling.witness import settled_ratio

    if tracker.confirmations_left <= 0:
        return False
    tracker.confirmations_left -= 1
    check, relation = tracker.check, tracker.end.relation
    try:
        chain = evaluate_chain(tracker.claim_id, check, numpy_xp, inst.inputs, inst.dims, 1)
        settled = settled_ratio(tracker.claim_id, check, inst, relation)
    except CheckError:
        return False
    if settled is None:
        return True
    r64 = float(ratio(chain[0], chain[-1], relation)[0])
    if abs(float(settled["ratio"]) - r64) > CONFIRM_RTOL * abs(r64):
        return False
    _record_settled(tracker, inst, settled, r64)
    return True


def _record_settled(tracker: Tracker, inst: Instance, settled: dict, r64: float) -> None:
    """A holding instance whose ratio high precision confirmed counts towards tightness whatever float64
    ratios (maybe rounding, which high precision rejects only at the end) fill the tracker's records."""
    value = float(settled["ratio"])
    strict = tracker.end.relation in ("<", ">")
    if not np.isfinite(value) or value > 1 or (strict and value == 1):  # a violation: settling's to judge
        return
    witness = {**witness_of(inst, settled), "float64_ratio": r64}
    records = [tracker.end.tight]
    if nontrivial(inst.dims, sizes_of(tracker.check)):
        records.append(tracker.end.tight_nontrivial)
    for record in records:
        record.offer_settled(value, witness)
