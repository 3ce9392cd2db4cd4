"""Instances chosen to make a statement and its check disagree: from the sampled instance where they are
furthest from the same relation, a few rounds of random perturbation keep whatever moves them further
apart.  Settling in high precision still decides every difference; this only looks harder for one.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..model.claim import Claim, NumericCheck
from ..search.draw import apply_where
from ..xp import numpy_xp
from .relation import float_rows, mismatches

__all__ = ["harder_instances"]

ROUNDS = 4  # perturbation rounds per dims combination
TRIES = 8  # perturbed instances per round (one batch)
STEP = 0.3  # relative size of a perturbation


def harder_instances(claim: Claim, instances: list, sides: Callable, pairs: list, seed: int) -> list:
    """One more instance per sampled batch: the hardest its perturbations found (none where nothing
    can be perturbed: every input drawn through a transform keeps its sampled structure).  ``pairs``:
    the compared expressions and their relations, ``[(statement span, check span, (rel, rel))]``."""
    check = claim.check
    assert isinstance(check, NumericCheck)
    rng = np.random.default_rng([seed, 34, 2])
    out = []
    for dims, inputs in instances:
        free = [k for k, spec in check.inputs.items() if spec.transform is None and k in inputs]
        scores = _scores(sides, inputs, dims, pairs)
        if not free or scores is None:
            continue
        best = {k: v[int(np.argmax(scores)) :][:1] for k, v in inputs.items()}
        best_score = float(np.max(scores))
        for _ in range(ROUNDS):
            trial = _perturbed(check, best, free, rng)
            trial, kept = apply_where(claim.id, check, trial, dims)
            scores = _scores(sides, trial, dims, pairs) if kept else None
            if scores is not None and float(np.max(scores)) > best_score:
                i = int(np.argmax(scores))
                best, best_score = {k: v[i : i + 1] for k, v in trial.items()}, float(scores[i])
        out.append((dims, best))
    return out


def _perturbed(check: NumericCheck, inst: dict, free: list[str], rng) -> dict:
    trial = {k: np.repeat(v, TRIES, axis=0) for k, v in inst.items()}
    for k in free:
        spec, v = check.inputs[k], trial[k]
        size = np.maximum(np.abs(v), np.max(np.abs(v), axis=tuple(range(1, v.ndim)), keepdims=True) + 1e-300)
        moved = v + STEP * size * rng.standard_normal(v.shape)
        low, high = getattr(spec, "low", None), getattr(spec, "high", None)
        if low is not None and high is not None:  # a bounded input stays in its range
            moved = np.clip(moved, low, high)
        trial[k] = np.abs(moved) if getattr(spec, "positive", False) else moved
    return trial


def _scores(sides: Callable, inputs: dict, dims: dict, pairs: list) -> np.ndarray | None:
    """Per instance, how far the two are from one relation (the largest over the compared pairs; a pair
    with a side that is not finite on the instance does not count there)."""
    try:
        written, checked = sides(numpy_xp, inputs, dims)
    except Exception:  # an instance the check refuses is no candidate
        return None
    batch = len(next(iter(inputs.values())))
    scores = np.zeros(batch)
    for si, ci, rels in pairs:
        s = tuple(float_rows(written[k], batch) for k in si)
        c = tuple(float_rows(checked[k], batch) for k in ci)
        finite = np.logical_and.reduce([np.isfinite(v) for v in s + c])
        m = mismatches(s, c, rels)
        scores = np.where(finite & (m > scores), m, scores)  # max(score, m), which a NaN never raises
    return scores
