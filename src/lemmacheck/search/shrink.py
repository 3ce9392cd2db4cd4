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
from ..settling.highprec import Confirmation
from ..xp import numpy_xp
from .candidates import Instance
from .context import CheckContext
from .draw import apply_where, where_mask
from .relations import evaluate_chain, violated

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


def _violates(ctx: CheckContext, inst: Instance, step, relation) -> bool:
    claim_id, check = ctx.claim_id, ctx.check
    try:
        if check.where is not None:
            _, n = apply_where(claim_id, check, inst.inputs, inst.dims)
            if n == 0:
                return False
        chain = evaluate_chain(claim_id, check, numpy_xp, inst.inputs, inst.dims, 1)
    except CheckError:
        return False
    if check.is_property:
        return not bool(np.asarray(chain[0])[0])
    a, b = (chain[0], chain[-1]) if step is None else (chain[step - 1], chain[step])
    return bool(violated(a, b, relation, ctx.tol)[0])


def _in_domain(spec, x: float) -> bool:
    if getattr(spec, "positive", False) and x < 0:
        return False
    low, high = getattr(spec, "low", None), getattr(spec, "high", None)
    return low is None or high is None or low <= x <= high


def _violating_rows(ctx: CheckContext, batch: dict, dims, k: int, step, relation) -> np.ndarray | None:
    """Which of ``k`` instances still violate the relation in float64 (outside ``where``: not); None when
    the batch cannot be evaluated as one (an instance the check rejects)."""
    claim_id, check = ctx.claim_id, ctx.check
    out = np.zeros(k, dtype=bool)
    try:
        mask = where_mask(claim_id, check, batch, dims)
        rows = np.arange(k) if mask is None else np.flatnonzero(mask)
        if rows.size == 0:
            return out
        sub = {key: v[rows] for key, v in batch.items()}
        chain = evaluate_chain(claim_id, check, numpy_xp, sub, dims, rows.size)
    except CheckError:
        return None
    if check.is_property:
        out[rows] = ~np.asarray(chain[0], dtype=bool)
    else:
        a, b = (chain[0], chain[-1]) if step is None else (chain[step - 1], chain[step])
        out[rows] = np.asarray(violated(a, b, relation, ctx.tol), dtype=bool)
    return out


class _Entries:
    """One input of an instance being simplified entry by entry (an input drawn through a transform in
    its untransformed values: the transform then gives the structure, a symmetric matrix of halves)."""

    def __init__(self, best: Instance, name: str, spec):
        self.best, self.name, self.spec = best, name, spec
        self.structured = spec.transform is not None
        self.work = np.asarray(best.raw[name] if self.structured else best.inputs[name]).copy()
        self.inputs, self.raw = dict(best.inputs), dict(best.raw)

    def place(self, values: np.ndarray, inputs: dict, raw: dict) -> None:
        if self.structured:
            raw[self.name] = values.copy()
            inputs[self.name] = np.asarray(self.spec.finish(raw[self.name]))
        else:
            inputs[self.name] = values.copy()

    def with_values(self, idx: tuple, values: list[float]) -> dict:
        """The instance once for each of ``values`` at entry ``idx``, as one batch."""
        k = len(values)
        trial = np.repeat(self.work, k, axis=0)
        for j, x in enumerate(values):
            trial[(j, *idx[1:])] = x
        batch = {key: np.repeat(np.asarray(v), k, axis=0) for key, v in self.inputs.items()}
        self.place(trial, batch, {key: np.repeat(v, k, axis=0) for key, v in self.raw.items()})
        return batch

    def violates_with(self, ctx: CheckContext, idx: tuple, x: float, step, relation) -> bool:
        original = self.work[idx]
        self.work[idx] = x
        inputs, raw = dict(self.inputs), dict(self.raw)
        self.place(self.work, inputs, raw)
        self.work[idx] = original
        return _violates(ctx, Instance(self.best.dims, inputs, raw), step, relation)


def _first_violating(ctx: CheckContext, entries: _Entries, idx: tuple, values: list, step, relation) -> int:
    """The position of the first of ``values`` that, at entry ``idx``, still violates (-1: none): every
    value in one batch, as the check's cost is mostly per call; one by one where the batch fails."""
    batch = entries.with_values(idx, values)
    bad = _violating_rows(ctx, batch, entries.best.dims, len(values), step, relation)
    if bad is None:
        bad = np.array([entries.violates_with(ctx, idx, x, step, relation) for x in values], dtype=bool)
    hits = np.flatnonzero(bad)
    return int(hits[0]) if hits.size else -1


def _simplified(ctx: CheckContext, best: Instance, name, spec, step, relation, budget: list) -> tuple:
    """One input's entries moved to simple values, one at a time, each kept while the relation still
    fails in float64 (the first such value, simplest first; each value tried costs one trial of the
    budget).  Returns (inputs, raw, moved)."""
    entries, moved = _Entries(best, name, spec), 0
    for idx in np.ndindex(entries.work.shape):
        if budget[0] <= 0:
            break
        values = [x for x in simple_values(float(entries.work[idx])) if _in_domain(spec, x)]
        if not values:
            continue
        first = _first_violating(ctx, entries, idx, values, step, relation)
        budget[0] -= len(values) if first < 0 else first + 1
        if first >= 0:
            entries.work[idx] = values[first]
            moved += 1
    entries.place(entries.work, entries.inputs, entries.raw)
    return entries.inputs, entries.raw, moved


def shrink_counterexample(
    ctx: CheckContext, inst: Instance, conf: Confirmation, step: int | None, relation: str, trials: int
) -> tuple[Instance, Confirmation, int]:
    """The simplest certified variant of ``inst`` found within ``trials`` evaluations; and how many entries
    changed."""
    budget = [trials]
    best, best_conf, changed = inst, conf, 0
    for name, spec in ctx.check.inputs.items():
        if budget[0] <= 0:
            break
        if spec.transform is not None and name not in best.raw:
            continue  # structured, with no untransformed values to shrink in: it stays as it is
        if spec.transform is None and np.asarray(best.inputs[name]).dtype.kind != "f":
            continue
        inputs, raw, moved = _simplified(ctx, best, name, spec, step, relation, budget)
        if not moved:
            continue
        trial = Instance(dict(best.dims), inputs, raw)
        try:
            c = ctx.reverify(trial, step, relation)
        except CheckError:
            continue
        if c.confirmed:
            best, best_conf, changed = trial, c, changed + moved
    return best, best_conf, changed
