"""A derivative-free polish of a climb's result: coordinate moves, corners and their sum, in batches.

L-BFGS-B (:mod:`.optimise`) stops short of a supremum in two shapes of objective, whatever its budget:

* on a *kink*: a bound with an ∞-norm or a max is largest where two entries tie (``‖x2 − x1‖∞`` with
  ``|Δx_1| = |Δx_2|``).  Its line search fails at the first step (0 iterations, "ABNORMAL"), and the climb
  stays where the ties are off by 0.45 % (loss.lse_bound_hw at seed 3: tightness 0.99554);
* on a *box's faces*: a supremum at the domain's corners in 40-odd coordinates, where 30 forward-difference
  gradients do not converge (sens.general_bound_000: 0.9845 to 0.9984 depending on the seed).

A compass search needs no gradient and crosses no kink blindly.  Each round is a batch of every
coordinate moved by plus and minus its own step, and, in a bounded domain, moved to either end of it (a
face of the box, where a supremum at a corner lies); then a second batch along the sum of the moves that
improved (which follows a ridge no single move can: both entries of a tie moved together), at 1, 1/2 and
1/4 of it.  A coordinate whose move improved doubles its step, one that did not halves it, so a kink is
approached geometrically.  The best row of a round that improves is resolved above rounding first
(:meth:`.climb.Climb.resolve`), as every point of a climb is; the caller confirms the result in high
precision.  ``rounds`` is a count, never a time, so the result replays from the seed.
"""

from __future__ import annotations

import zlib

import numpy as np

from .candidates import Instance
from .climb import Climb
from .coords import Space
from .faithful import native_output_muted
from .tracker import Tracker

__all__ = ["faces", "pattern"]

#: the first step of a coordinate, relative to its magnitude (or, for an entry at 0, to the largest)
_FIRST = 0.1
#: a step below this relative to its entry moves it by a few roundings: that coordinate has no more to give
_FLOOR = 1e-10
#: fractions of the sum of the improving moves tried in the second batch of a round
_ALONG = np.array([8.0, 4.0, 2.0, 1.0, 0.5, 0.25])
#: a margin gain below this is float64's rounding of the margin, not a move
_GAIN = 1e-14
#: a domain edge beyond this magnitude is no face (the whole real line is clipped to 1e300)
_FACE = 1e15


def faces(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Which coordinates have a domain with two ends (a box's faces to move to)."""
    return (np.abs(lo) < _FACE) & (np.abs(hi) < _FACE)


def pattern(tracker: Tracker, inst: Instance, rounds: int, *, near: bool) -> tuple[Instance, int]:
    """Compass search from ``inst`` for at most ``rounds`` rounds, in linear coordinates within the
    inputs' domains; the best instance reached, and the instances evaluated."""
    space = Space(tracker.check, inst, log=False, near=near)
    if not space.size or rounds < 1:
        return inst, 0
    climb, u = Climb(tracker, space), space.start()
    lo, hi = np.array(space.bounds(), dtype=float).reshape(-1, 2).T
    scale = np.max(np.abs(u)) if np.any(u) else 1.0
    step = _FIRST * np.where(u != 0, np.abs(u), scale)
    on_faces = faces(lo, hi)
    rng = np.random.default_rng(zlib.crc32(u.tobytes()))
    with np.errstate(all="ignore"), native_output_muted():
        here = _best(climb, u[None], -np.inf)
        if here is None:
            return inst, climb.evaluated
        level = here[1]
        for _ in range(rounds):
            if np.all(step <= _FLOOR * np.maximum(np.abs(u), 1e-300)):
                break
            u, level, step = _round(climb, u, level, step, lo, hi, on_faces, rng)
    climb.record()
    if not climb.path:
        return inst, climb.evaluated
    return Instance(dict(inst.dims), *space.instances(u)), climb.evaluated


def _round(climb: Climb, u, level: float, step, lo, hi, faces, rng) -> tuple[np.ndarray, float, np.ndarray]:
    """One round: the coordinate and face moves, then their improving sum; the point, its margin, the
    new steps."""
    n = u.size
    moves = np.vstack([np.diag(step), -np.diag(step)])
    idx = np.concatenate([np.arange(n), np.arange(n)])
    spread = rng.standard_normal((n, n)) * step
    oblique = np.clip(u + np.vstack([spread, -spread]), lo, hi)
    if np.any(faces):
        at = np.flatnonzero(faces)
        for edge in (lo, hi):
            face = np.zeros((at.size, n))
            face[np.arange(at.size), at] = edge[at] - u[at]
            moves, idx = np.vstack([moves, face]), np.concatenate([idx, at])
    rows = np.clip(u + moves, lo, hi)
    m = _margins(climb, rows)
    gain = np.where(np.isfinite(m), m - level, -np.inf)
    # per coordinate, its best move if that improves: their sum is the ridge direction
    best_of = np.full(n, -np.inf)
    np.maximum.at(best_of, idx, gain)
    improved = best_of > _GAIN
    direction = np.zeros(n)
    for i in np.flatnonzero(improved):
        j = np.flatnonzero((idx == i) & (gain == best_of[i]))[0]
        direction[i] = rows[j, i] - u[i]
    step = np.where(improved, 2.0 * step, 0.5 * step)
    step = np.where(faces, np.minimum(step, hi - lo), step)
    single = rows[int(np.argmax(gain))]
    tries = np.vstack([single, np.clip(u + np.outer(_ALONG, direction), lo, hi), oblique])
    found = _best(climb, tries, level + _GAIN)
    if found is None:
        return u, level, step
    return found[0], found[1], step


def _margins(climb: Climb, rows: np.ndarray) -> np.ndarray:
    """The margins of a batch of rows (NaN outside the domain), unresolved: only a row that is to be
    moved to is resolved (:func:`_best`), 2-3 more evaluations each."""
    m, chain, _, _ = climb.margins(rows)
    return m if chain is not None else np.full(len(rows), np.nan)


def _best(climb: Climb, rows: np.ndarray, above: float) -> tuple[np.ndarray, float] | None:
    """The row of ``rows`` with the highest margin above ``above`` that rounding cannot explain, given to
    the climb's path; None if there is none."""
    m, chain, inputs, raw = climb.margins(rows)
    if chain is None:
        return None
    better = np.flatnonzero(np.isfinite(m) & (m > above))
    climb.resolve(m, chain, inputs, better)
    better = better[np.isfinite(m[better])]
    if not better.size:
        return None
    j = int(better[np.argmax(m[better])])
    climb.keep(m, chain, inputs, raw, j, resolve=False)
    return rows[j].copy(), float(m[j])
