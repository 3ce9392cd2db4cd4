"""Local refinement: random perturbations around the worst instance seen, one vectorised batch a round,
within each input's declared domain (an input drawn through a transform is moved in its untransformed
values, so its structure is kept)."""

from __future__ import annotations

import numpy as np

from ..errors import CheckError
from ..xp import numpy_xp
from .candidates import Instance
from .draw import where_mask
from .profile import Profile
from .relations import evaluate_chain, gap, take
from .tracker import Tracker

__all__ = ["refine"]


def _moved(spec, v: np.ndarray, step: float, w: int, rng) -> np.ndarray:
    """``w`` random perturbations of one input's values (batch axis of 1), within its declared domain."""
    mag = np.abs(v) + 1e-3 * (np.max(np.abs(v)) + 1e-12)
    pert = v + step * mag * rng.standard_normal((w, *v.shape[1:]))
    # Stay in the declared domain (the one Hypothesis searches): refinement sharpens instances, it must
    # not wander to magnitudes the claim was never sampled at.
    if getattr(spec, "low", None) is not None:
        pert = np.clip(pert, spec.low, spec.high)
    else:  # near the sampling scale, and inside a declared bound
        lo, hi = spec.domain()
        pert = np.clip(pert, max(lo, -3.0 * spec.scale[1]), min(hi, 3.0 * spec.scale[1]))
    if getattr(spec, "positive", False):
        pert = np.abs(pert)
    return pert


def _movable(check, best: Instance) -> list[str]:
    """The inputs refinement moves: float inputs, and those drawn through a transform whose untransformed
    values are known (moved in those, so the structure is kept)."""
    return [
        k
        for k, v in best.inputs.items()
        if (check.inputs[k].transform is None and np.asarray(v).dtype.kind == "f")
        or (check.inputs[k].transform is not None and k in best.raw)
    ]


def _perturbations(check, best: Instance, names, step: float, w: int, rng) -> tuple[dict, dict]:
    cand, raw = {}, {}
    for k, v in best.inputs.items():
        spec = check.inputs[k]
        if k not in names:
            cand[k] = np.repeat(np.asarray(v), w, axis=0)
        elif spec.transform is None:
            cand[k] = _moved(spec, np.asarray(v), step, w, rng)
        else:
            raw[k] = _moved(spec, np.asarray(best.raw[k]), step, w, rng)
            cand[k] = np.asarray(spec.finish(raw[k]))
    return cand, raw


def refine(tracker: Tracker, profile: Profile, rng) -> int:
    """Random local search around the worst instance: one vectorised batch of perturbations a round."""
    claim_id, check = tracker.claim_id, tracker.check
    if tracker.worst is None or check.is_property:
        return 0
    best = tracker.worst
    best_gap = tracker.worst_gap
    step = 0.1
    evaluated = 0
    names = _movable(check, best)
    if not names:
        return 0
    for _ in range(profile.refine_rounds):
        cand, raw = _perturbations(check, best, names, step, profile.refine_width, rng)
        try:
            mask = where_mask(claim_id, check, cand, best.dims)
        except CheckError:
            step *= 0.5  # where() cannot be evaluated at the perturbation (as the check below); look closer
            continue
        if mask is not None:
            cand, raw = {k: v[mask] for k, v in cand.items()}, {k: v[mask] for k, v in raw.items()}
        n = len(next(iter(cand.values())))
        if n == 0:
            step *= 0.5
            continue
        try:
            chain = evaluate_chain(claim_id, check, numpy_xp, cand, best.dims, n)
        except CheckError:
            step *= 0.5  # the perturbation left the claim's domain; look closer
            continue
        evaluated += n
        # Only each round's sharpest instance is counted: the others are near-copies of it, and as
        # candidates they would only repeat the one question high precision has to answer.
        g = gap(chain[0], chain[-1], tracker.end.relation, tracker.tol)
        j = int(np.nanargmax(np.where(np.isfinite(g), g, -np.inf)))
        tracker.add([e[j : j + 1] for e in chain], take(cand, j), best.dims, raw=take(raw, j))
        if g[j] > best_gap:
            best_gap, best = float(g[j]), Instance(dict(best.dims), take(cand, j), take(raw, j))
            step *= 1.5
        else:
            step *= 0.7
        step = min(max(step, 1e-6), 1.0)
    return evaluated
