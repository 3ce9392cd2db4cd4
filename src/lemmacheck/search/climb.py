"""The objective the local optimiser (:mod:`.optimise`, :mod:`.pattern`) climbs: an inequality's normalised
margin on a :class:`~.coords.Space`, its forward-difference gradient, and the points a climb gives the
tracker.  Every point is resolved above rounding before it may count (:meth:`Climb.resolve`)."""

from __future__ import annotations

import numpy as np

from ..errors import CheckError
from ..model.tolerance import SIGNIFICANCE
from ..xp import numpy_xp
from .coords import Space
from .draw import where_mask
from .faithful import faithful_rows
from .relations import evaluate_chain, take
from .tracker import Tracker

__all__ = ["Climb", "margin", "OUTSIDE", "VIOLATIONS_KEPT"]

#: forward-difference step in log coordinates (a relative change of 1e-7) and, relative to the entry,
#: in linear ones: small against the margins that matter (1e-4), large against float64's rounding
_STEP = 1e-7
#: what the objective is where the check cannot be evaluated (outside its domain, NaN): worse than any
#: margin (which lies in [-1, 1]), so the line search backs off
OUTSIDE = 2.0
#: violations a climb or a scan gives the tracker at most (its strongest)
VIOLATIONS_KEPT = 2


def margin(a: np.ndarray, b: np.ndarray, relation: str) -> np.ndarray:
    """``(a - b) / (|a| + |b|)`` for ``<=`` (``(b - a) / ...`` for ``>=``): > 0 where violated; NaN where
    undefined.  ``(r - 1) / (r + 1)`` of the ratio r for positive sides, bounded and smooth."""
    with np.errstate(all="ignore"):
        d = a - b if relation in ("<=", "<") else b - a
        out = d / (np.abs(a) + np.abs(b))
    return np.where(np.isfinite(out), out, np.nan)


class Climb:
    """One climb: the objective and its gradient on a Space, and every centre point it evaluated."""

    def __init__(self, tracker: Tracker, space: Space):
        self.tracker, self.space = tracker, space
        self.dims = space.inst.dims
        self.path: list[tuple[list, dict, dict]] = []  # (chain, inputs, raw) of each centre point
        self.evaluated = 0
        self.best: tuple[float, np.ndarray | None] = (np.inf, None)  # (objective, coordinates)
        # the domain's upper edge per coordinate, read once: L-BFGS-B calls the objective 30-odd times
        self.upper = np.array(space.bounds(), dtype=float).reshape(-1, 2)[:, 1]

    def margins(self, u: np.ndarray) -> tuple[np.ndarray, list | None, dict, dict]:
        tracker = self.tracker
        inputs, raw = self.space.instances(u)
        n = len(u)
        self.evaluated += n
        try:
            # where() can fail where the check does (an SVD at 1e280): a point the climb made, not a
            # sampled instance, so both mean "outside the domain", as in the float-range share
            mask = where_mask(tracker.claim_id, tracker.check, inputs, self.dims)
            chain = evaluate_chain(tracker.claim_id, tracker.check, numpy_xp, inputs, self.dims, n)
        except CheckError:
            return np.full(n, np.nan), None, inputs, raw  # outside the check's domain (or non-finite)
        m = margin(chain[0], chain[-1], tracker.end.relation)
        if mask is not None:
            m = np.where(mask, m, np.nan)
        return m, chain, inputs, raw

    def __call__(self, u: np.ndarray) -> tuple[float, np.ndarray]:
        """Minus the margin at ``u``, and its forward-difference gradient (one batch)."""
        if not np.all(np.isfinite(u)):  # L-BFGS-B's line search can propose NaN: no instance there
            return OUTSIDE, np.zeros_like(u)
        h = _STEP if self.space.log else _STEP * np.maximum(np.abs(u), 1e-8 * (np.max(np.abs(u)) + 1e-300))
        h = np.where(u + h > self.upper, -h, h)  # step inwards at the domain's upper edge
        rows = np.vstack([u, u + np.diag(np.broadcast_to(h, u.shape))])
        m, chain, inputs, raw = self.margins(rows)
        # only a point that would be the best so far needs its resolution measured (3 more evaluations)
        improves = bool(np.isfinite(m[0]) and -m[0] < self.best[0])
        if chain is None or not self.keep(m, chain, inputs, raw, 0, resolve=improves):
            return OUTSIDE, np.zeros_like(u)
        if -m[0] < self.best[0]:
            self.best = (-float(m[0]), u.copy())
        grad = np.where(np.isfinite(m[1:]), -(m[1:] - m[0]) / h, 0.0)
        return -float(m[0]), grad

    def resolve(self, m: np.ndarray, chain: list, inputs: dict, rows: np.ndarray) -> None:
        """Set to NaN the margins of ``rows`` that rounding could explain: a side within SIGNIFICANCE
        times its rounding sensitivity (the tracker's measure: a remainder computed by cancellation,
        the step scaled to 1e-12), or a violation whose float64 evaluation under- or overflowed.  A climb
        that followed those would find only rounding, which settling rejects one by one."""
        rows = rows[np.isfinite(m[rows])]
        if not rows.size:
            return
        sens = self.tracker.sensitivity(chain, inputs, self.dims, rows)
        if sens is None:
            m[rows] = np.nan
            return
        a, b = np.abs(chain[0][rows]), np.abs(chain[-1][rows])
        with np.errstate(invalid="ignore"):
            ok = (a >= SIGNIFICANCE * sens[0]) & (b >= SIGNIFICANCE * sens[-1])
        m[rows[~ok]] = np.nan
        bad = rows[ok & (m[rows] > 0)]
        if bad.size:
            m[bad[~faithful_rows(self.tracker.check, inputs, self.dims, bad)]] = np.nan

    def keep(self, m: np.ndarray, chain: list, inputs: dict, raw: dict, j: int, *, resolve: bool) -> bool:
        """Whether row ``j`` counts (with ``resolve``, its margin resolved above rounding first,
        :meth:`resolve`); if it does, it joins the path given to the tracker."""
        if resolve:
            self.resolve(m, chain, inputs, np.array([j]))
        if not np.isfinite(m[j]):
            return False
        self.path.append(([e[j : j + 1] for e in chain], take(inputs, j), take(raw, j)))
        return True

    def record(self) -> None:
        """Give the tracker the centre points evaluated, as one batch: every one that holds (its ratio
        counts towards tightness where resolved), and the VIOLATIONS_KEPT strongest violations (a climb's
        violations are near-copies of each other; as candidates they would only repeat one question,
        and a climb into rounding would spend the settling budget on it)."""
        if not self.path:
            return
        chain = [np.concatenate(parts) for parts in zip(*(c for c, _, _ in self.path), strict=True)]
        m = margin(chain[0], chain[-1], self.tracker.end.relation)
        order = np.argsort(-np.where(np.isfinite(m), m, -np.inf), kind="stable")
        rows = np.sort(np.concatenate([order[:VIOLATIONS_KEPT], np.flatnonzero(~(m > 0))]))
        rows = np.unique(rows)
        chain = [e[rows] for e in chain]
        inputs = {k: np.concatenate([i[k] for _, i, _ in self.path])[rows] for k in self.path[0][1]}
        raw = {k: np.concatenate([r[k] for _, _, r in self.path])[rows] for k in self.path[0][2]}
        self.tracker.add(chain, inputs, self.dims, raw=raw)
