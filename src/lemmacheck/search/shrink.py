"""Shrinking a certified counterexample towards simple values: small integers, halves, zeros.

Hypothesis's own shrunk example is preferred when high precision confirms it (it is the smallest by
Hypothesis's order: smallest dims, then simplest values).  Otherwise the confirmed instance is simplified
here, entry by entry (an input drawn through a transform in its untransformed values): each float entry
tries ``0``, then ``±1, ±½, ±2, ±¼, …`` up to its magnitude, then its
value rounded to an integer and to a half, keeping the first that still violates the relation in float64
(within the input's declared domain and the claim's ``where``).  After each input's pass the instance is
re-certified
in high precision; a pass that high precision does not confirm is undone.  The whole is capped in time
(``Profile.shrink_trials`` float64 evaluations: a count, so the result replays from the seed).
"""

from __future__ import annotations

import numpy as np

from ..errors import CheckError
from ..model.claim import NumericCheck
from ..model.tolerance import Tolerance
from ..settling.highprec import Confirmation, reverify
from ..xp import numpy_xp
from .candidates import Instance
from .violations import _apply_where, evaluate_chain, violated

__all__ = ["shrink_counterexample", "simple_values"]


def simple_values(v: float) -> list[float]:
    """Simpler replacements for ``v``, simplest first: 0, then ±1, ±½, ±2, ±¼, ±4, … (powers of two of the
    sign of v, alternating above and below 1, up to its magnitude), then v rounded to an integer, a half."""
    if v == 0 or not np.isfinite(v):
        return []
    sign = 1.0 if v > 0 else -1.0
    out = [0.0]
    up, down = 1.0, 0.5
    while up <= 2 * abs(v) or down >= abs(v) / 2:
        if up <= 2 * abs(v):
            out.append(sign * up)
        if down >= abs(v) / 2:
            out.append(sign * down)
        up, down = up * 2, down / 2
    out += [float(np.round(v)), float(np.round(2 * v) / 2)]
    seen, uniq = set(), []
    for x in out:
        if x != v and x not in seen:
            seen.add(x)
            uniq.append(x)
    return uniq


def _violates(claim_id, check, inst: Instance, step, relation, tol) -> bool:
    try:
        if check.where is not None:
            _, n = _apply_where(claim_id, check, inst.inputs, inst.dims)
            if n == 0:
                return False
        chain = evaluate_chain(claim_id, check, numpy_xp, inst.inputs, inst.dims, 1)
    except CheckError:
        return False
    if check.is_property:
        return not bool(np.asarray(chain[0])[0])
    a, b = (chain[0], chain[-1]) if step is None else (chain[step - 1], chain[step])
    return bool(violated(a, b, relation, tol)[0])


def _in_domain(spec, x: float) -> bool:
    if getattr(spec, "positive", False) and x < 0:
        return False
    low, high = getattr(spec, "low", None), getattr(spec, "high", None)
    return low is None or high is None or low <= x <= high


def _simplified(claim_id, check, best: Instance, name, spec, step, relation, tol, budget: list) -> tuple:
    """One input's entries moved to simple values, one at a time, each kept while the relation still
    fails in float64.  An input drawn through a transform is simplified in its untransformed values (the
    transform then gives the structure: a symmetric matrix of halves).  Returns (inputs, raw, moved)."""
    structured = spec.transform is not None
    work = np.asarray(best.raw[name] if structured else best.inputs[name]).copy()
    inputs, raw, moved = dict(best.inputs), dict(best.raw), 0

    def place(values) -> None:
        if structured:
            raw[name] = values.copy()
            inputs[name] = np.asarray(spec.finish(raw[name]))
        else:
            inputs[name] = values.copy()

    for idx in np.ndindex(work.shape):
        if budget[0] <= 0:
            break
        original = work[idx]
        for x in simple_values(float(original)):
            if not _in_domain(spec, x):
                continue
            budget[0] -= 1
            work[idx] = x
            place(work)
            if _violates(claim_id, check, Instance(best.dims, inputs, raw), step, relation, tol):
                moved += 1
                break
            work[idx] = original
        place(work)
    return inputs, raw, moved


def shrink_counterexample(
    claim_id: str,
    check: NumericCheck,
    inst: Instance,
    conf: Confirmation,
    step: int | None,
    relation: str,
    tol: Tolerance,
    trials: int,
) -> tuple[Instance, Confirmation, int]:
    """The simplest certified variant of ``inst`` found within ``trials`` evaluations; and how many entries
    changed."""
    budget = [trials]
    best, best_conf, changed = inst, conf, 0
    for name, spec in check.inputs.items():
        if budget[0] <= 0:
            break
        if spec.transform is not None and name not in best.raw:
            continue  # structured, with no untransformed values to shrink in: it stays as it is
        if spec.transform is None and np.asarray(best.inputs[name]).dtype.kind != "f":
            continue
        inputs, raw, moved = _simplified(claim_id, check, best, name, spec, step, relation, tol, budget)
        if not moved:
            continue
        trial = Instance(dict(best.dims), inputs, raw)
        try:
            c = reverify(claim_id, check, trial, step, relation, tol)
        except CheckError:
            continue
        if c.confirmed:
            best, best_conf, changed = trial, c, changed + moved
    return best, best_conf, changed
