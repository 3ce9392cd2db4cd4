"""Local optimisation of an inequality's margin: the last phase of the search, which climbs to the supremum.

The sweep and Hypothesis sample; refinement perturbs the worst instance at random.  None of them reaches a
supremum attained only in a limit (a parameter going to 0, a probability to 1/2): the highest ratio they
find depends on the seed, and a sharp constant made 0.08 % too small survives.  This phase maximises the
end-to-end relation's normalised margin ``(lhs - rhs) / (|lhs| + |rhs|)`` (``(rhs - lhs) / ...`` for
``>=``), a monotone function of lhs/rhs, with SciPy's L-BFGS-B from the strongest instances seen:

* starts: the highest resolved ratios, the significant candidates and the worst instance, distinct,
  taken round robin over the dims combinations they were found at (``Profile.optimise_starts``);
* each start is climbed in log coordinates (an entry is ``sign · exp(u)``: limits at 0 and at the
  domain's edge are approached geometrically), then polished in linear coordinates (signs may change),
  each within the input's domain (:mod:`.coords`);
* the gradient is a forward difference computed as one vectorised batch of ``size + 1`` instances;
* ``Profile.optimise_calls`` objective evaluations per start at most (each a batch), a count and never a
  time, so the result replays from the seed.

Every point the climb evaluates is given to the tracker like any other instance: a violation is a
candidate that settling judges in high precision, a ratio counts towards tightness only where it is
resolved.  Nothing found here is accepted in float64.
"""

from __future__ import annotations

import numpy as np

from ..errors import CheckError
from ..xp import numpy_xp
from .candidates import Instance, dims_key, instance_key
from .coords import Space
from .draw import where_mask
from .profile import Profile
from .relations import evaluate_chain, take
from .tracker import Tracker

__all__ = ["optimise", "margin"]

_INEQUALITIES = ("<=", "<", ">=", ">")
#: forward-difference step in log coordinates (a relative change of 1e-7) and, relative to the entry,
#: in linear ones: small against the margins that matter (1e-4), large against float64's rounding
_STEP = 1e-7
#: what the objective is where the check cannot be evaluated (outside its domain, NaN): worse than any
#: margin (which lies in [-1, 1]), so the line search backs off
_OUTSIDE = 2.0


def margin(a: np.ndarray, b: np.ndarray, relation: str) -> np.ndarray:
    """``(a - b) / (|a| + |b|)`` for ``<=`` (``(b - a) / ...`` for ``>=``): > 0 where violated; NaN where
    undefined.  ``(r - 1) / (r + 1)`` of the ratio r for positive sides, bounded and smooth."""
    with np.errstate(all="ignore"):
        d = a - b if relation in ("<=", "<") else b - a
        out = d / (np.abs(a) + np.abs(b))
    return np.where(np.isfinite(out), out, np.nan)


def _starts(tracker: Tracker, count: int) -> list[Instance]:
    """Up to ``count`` distinct strongest instances, round robin over the dims combinations."""
    # The highest resolved ratios first: the worst gap and the weakest candidates are often rounding
    # (both sides ~1e-20 where a bound is attained at 0), where a climb has nothing to follow.
    end = tracker.end
    ranked = [inst for _, inst in end.tight.ranked()] + [inst for _, inst in end.tight_nontrivial.ranked()]
    ranked += [c.instance for c in end.pool.settling_order()[:count] if c.must_settle]
    ranked += [] if tracker.worst is None else [tracker.worst]
    by_dims: dict[str, list[Instance]] = {}
    seen: set = set()
    for inst in ranked:
        key = instance_key(inst)
        if key not in seen:
            seen.add(key)
            by_dims.setdefault(dims_key(inst.dims), []).append(inst)
    out: list[Instance] = []
    while len(out) < count and any(by_dims.values()):
        for group in by_dims.values():
            if group and len(out) < count:
                out.append(group.pop(0))
    return out


class _Climb:
    """One climb: the objective and its gradient on a Space, and every centre point it evaluated."""

    def __init__(self, tracker: Tracker, space: Space):
        self.tracker, self.space = tracker, space
        self.dims = space.inst.dims
        self.path: list[tuple[list, dict, dict]] = []  # (chain, inputs, raw) of each centre point
        self.evaluated = 0
        self.best: tuple[float, np.ndarray | None] = (np.inf, None)  # (objective, coordinates)

    def _margins(self, u: np.ndarray) -> tuple[np.ndarray, list | None, dict, dict]:
        tracker = self.tracker
        inputs, raw = self.space.instances(u)
        n = len(u)
        self.evaluated += n
        mask = where_mask(tracker.claim_id, tracker.check, inputs, self.dims)
        try:
            chain = evaluate_chain(tracker.claim_id, tracker.check, numpy_xp, inputs, self.dims, n)
        except CheckError:
            return np.full(n, np.nan), None, inputs, raw  # outside the check's domain (or non-finite)
        m = margin(chain[0], chain[-1], tracker.end.relation)
        if mask is not None:
            m = np.where(mask, m, np.nan)
        return m, chain, inputs, raw

    def __call__(self, u: np.ndarray) -> tuple[float, np.ndarray]:
        """Minus the margin at ``u``, and its forward-difference gradient (one batch)."""
        bounds = np.array(self.space.bounds(), dtype=float).reshape(-1, 2)
        h = _STEP if self.space.log else _STEP * np.maximum(np.abs(u), 1e-8 * (np.max(np.abs(u)) + 1e-300))
        h = np.where(u + h > bounds[:, 1], -h, h)  # step inwards at the domain's upper edge
        rows = np.vstack([u, u + np.diag(np.broadcast_to(h, u.shape))])
        m, chain, inputs, raw = self._margins(rows)
        if chain is not None and np.isfinite(m[0]):
            self.path.append(([e[:1] for e in chain], take(inputs, 0), take(raw, 0)))
        if not np.isfinite(m[0]):
            return _OUTSIDE, np.zeros_like(u)
        if -m[0] < self.best[0]:
            self.best = (-float(m[0]), u.copy())
        grad = np.where(np.isfinite(m[1:]), -(m[1:] - m[0]) / h, 0.0)
        return -float(m[0]), grad

    def record(self) -> None:
        """Give the tracker every centre point evaluated, as one batch."""
        if not self.path:
            return
        chain = [np.concatenate(parts) for parts in zip(*(c for c, _, _ in self.path), strict=True)]
        inputs = {k: np.concatenate([i[k] for _, i, _ in self.path]) for k in self.path[0][1]}
        raw = {k: np.concatenate([r[k] for _, _, r in self.path]) for k in self.path[0][2]}
        self.tracker.add(chain, inputs, self.dims, raw=raw)


def _climb(tracker: Tracker, inst: Instance, calls: int, *, log: bool) -> tuple[Instance, int]:
    """Climb from ``inst`` for at most ``calls`` evaluations; the best instance reached, and the count."""
    # imported when first needed (most claims never get here); one BLAS thread: L-BFGS-B's steps are
    # on vectors of a few entries, where OpenBLAS's threads cost 30x the work on a loaded machine
    from scipy.optimize import minimize
    from threadpoolctl import threadpool_limits

    space = Space(tracker.check, inst, log=log)
    if not space.size or calls < 2:
        return inst, 0
    climb = _Climb(tracker, space)
    options = {"maxfun": calls, "maxiter": calls, "ftol": 0.0, "gtol": 0.0, "maxls": 10}
    with np.errstate(all="ignore"), threadpool_limits(1, user_api="blas"):
        minimize(climb, space.start(), jac=True, method="L-BFGS-B", bounds=space.bounds(), options=options)
    climb.record()
    if climb.best[1] is None:
        return inst, climb.evaluated
    inputs, raw = space.instances(climb.best[1])
    return Instance(dict(inst.dims), inputs, raw), climb.evaluated


def optimise(tracker: Tracker, profile: Profile) -> int:
    """Climb the end-to-end margin of an inequality from its strongest instances; the instances
    evaluated (every centre point was given to the tracker)."""
    check = tracker.check
    if check.is_property or tracker.end.relation not in _INEQUALITIES or profile.optimise_starts < 1:
        return 0
    evaluated, half = 0, profile.optimise_calls // 2
    for inst in _starts(tracker, profile.optimise_starts):
        reached, n = _climb(tracker, inst, half, log=True)
        evaluated += n + _climb(tracker, reached, profile.optimise_calls - half, log=False)[1]
    return evaluated
