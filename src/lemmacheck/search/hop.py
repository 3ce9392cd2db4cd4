"""Basin hopping of the compass search (:mod:`.pattern`): a supremum among several local maxima.

The compass search climbs to the top of the basin it starts in.  On a box of 40-odd entries a bound can
have several local maxima, on the box's faces, and the strongest start's basin is not always the
highest: sens.general_bound_000 at seed 3 plateaus at tightness 0.99857, where a second compass search
from the same point gains 3e-7 and twice the optimiser's budget reaches 0.99955, while seed 1 reaches
0.999999.  A hop leaves the basin: a random share of the coordinates of the best point so far (a half, a
quarter, a tenth, in turn: SHARES) move to one end of their domain each (a face of the box, where such a
supremum lies; an unbounded coordinate is moved by that share of its size instead), and the compass
search climbs from there.  The result is kept
where it is higher and high precision confirms it, so each hop starts from the best basin found.

The work is spent only where it can change what is reported: from a climb that ended within HOP_FROM of
a ratio of 1 (a tight bound, or one false by a hair), never on a bound far from its limit nor on one
already violated.  The generator is seeded from the claim's seed, so a hop replays.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..errors import CheckError
from ..xp import numpy_xp
from .candidates import Instance
from .coords import Space
from .pattern import faces, pattern
from .relations import evaluate_chain, ratio
from .tracker import Tracker

__all__ = ["HOP_FROM", "HOPS", "hop"]

#: hops from the best point of the optimiser, each a compass search of a sixth of its calls
HOPS = 6
#: a hop is made from a ratio at least this: a bound far from 1 is reported as far either way, and a
#: scaled bound (1 - 1e-3) or a sharp constant 0.08 % too small is within it
HOP_FROM = 0.99
#: the shares of the coordinates the hops move, in turn: a basin next to the plateau and one far from it
SHARES = (0.5, 0.25, 0.1)


def end_ratio(tracker: Tracker, inst: Instance) -> float:
    """The float64 ratio of the end-to-end relation at ``inst`` (NaN where it cannot be evaluated)."""
    try:
        chain = evaluate_chain(tracker.claim_id, tracker.check, numpy_xp, inst.inputs, inst.dims, 1)
    except CheckError:
        return float("nan")
    return float(ratio(chain[0], chain[-1], tracker.end.relation)[0])


def hop(
    tracker: Tracker,
    inst: Instance,
    best: float,
    rounds: int,
    seed: int,
    *,
    near: bool,
    confirmed: Callable[[Tracker, Instance], bool],
) -> int:
    """HOPS hops from ``inst`` (whose ratio high precision confirmed; ``best`` is its end_ratio, as the
    optimiser computed it), each a compass search of at most ``rounds`` rounds; the instances evaluated
    (every point the searches reached was given to the tracker; ``confirmed`` judges whether a hop's
    result may be the next one's start)."""
    if not HOP_FROM <= best <= 1.0 or rounds < 1:
        return 0
    rng = np.random.default_rng(seed)
    evaluated = 0
    for k in range(HOPS):
        space = Space(tracker.check, inst, log=False, near=near)
        if not space.size:
            break
        start = Instance(dict(inst.dims), *space.instances(_moved(space, rng, SHARES[k % len(SHARES)])))
        reached, n = pattern(tracker, start, rounds, near=near)
        evaluated += n
        r = end_ratio(tracker, reached)
        if r > best and confirmed(tracker, reached):
            inst, best = reached, r
    return evaluated


def _moved(space: Space, rng: np.random.Generator, share: float) -> np.ndarray:
    """The coordinates of ``space``'s instance with a random ``share`` of them moved: a bounded one to an
    end of its domain chosen at random, an unbounded one by ``share`` of its size (or of the largest)."""
    u = space.start()
    lo, hi = np.array(space.bounds(), dtype=float).reshape(-1, 2).T
    chosen = rng.random(u.size) < share
    bounded = faces(lo, hi)
    end = np.where(rng.random(u.size) < 0.5, lo, hi)
    size = np.where(u != 0, np.abs(u), np.max(np.abs(u)) if np.any(u) else 1.0)
    shaken = u + share * size * rng.standard_normal(u.size)
    return np.clip(np.where(chosen, np.where(bounded, end, shaken), u), lo, hi)
