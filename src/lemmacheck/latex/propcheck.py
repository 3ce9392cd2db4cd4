"""``statement_check`` of a property: the statement's truth value and the check's, on the same instances.

A property's check returns one truth value per instance, so the two are compared as truth values: they
agree when they are true and false on the same instances.  Two statements that are both true on every
sampled instance (an implication weakened, a threshold moved where no sample reaches it) would agree for
want of an instance between them, so besides the claim's own instances (many per dims combination) the
comparison visits the *boundary* of each relation the statement compares: between two sampled instances
on which ``a - b`` of a relation ``a R b`` has opposite signs, bisecting on the line joining them gives the
two instances just either side of where that relation's truth changes.  A drifted threshold or factor
moves that boundary, and at the moved boundary the correct check and the drifted statement part.  A float64
disagreement is settled at ``REVERIFY_DPS`` digits, so rounding at a boundary never counts as a difference.
The result says how many instances were false for both and how many sat at a boundary: an agreement on
instances that are all true says less, and says so.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..model.claim import Claim, NumericCheck
from ..model.inputs import call_with_inputs
from ..model.tolerance import REVERIFY_DPS, tolerance_for
from ..search.draw import apply_where
from ..settling.highprec import exact_mp_inputs
from ..xp import mp_precision, mpmath_xp, numpy_xp
from .compile import Env
from .errors import LatexError
from .instances import check_instances
from .statement import CompiledProperty, compile_property
from .tables import table_for
from .truth import settled_truth

__all__ = ["property_check", "PROPERTY_PER_DIMS"]

PROPERTY_PER_DIMS = 24  # instances drawn per dims combination: a truth value says less than a margin
GRID = 17  # points per stage along a segment
STAGES = 8  # stages: the two points found lie 16^-8 of the segment apart, either side of the boundary
PAIRS_PER_ATOM = 2  # segments bisected per relation and dims combination


def property_check(claim: Claim, check: NumericCheck, evidence: dict, seed: int) -> dict:
    compiled = compile_property(claim.statement, table_for(claim.module, claim.id))
    # the claim's own tolerance (docs/tolerance.md): a property's equalities are read as the run reads them
    rtol = tolerance_for(override=claim.tol).rtol
    instances = check_instances(claim, check, evidence, seed, PROPERTY_PER_DIMS)
    boundary = [b for dims, inputs in instances for b in _boundaries(claim, check, compiled, dims, inputs)]
    n = both_false = 0
    for _k, (dims, inputs) in enumerate(instances + boundary):
        stated, checked = _truths(claim, compiled, numpy_xp, inputs, dims, rtol)
        for b in np.flatnonzero(stated != checked):
            one = {name: v[b : b + 1] for name, v in inputs.items()}
            settled = _settle(claim, compiled, one, dims)
            if settled is not None:
                return settled
        n += len(stated)
        both_false += int(np.sum(~stated & ~checked))
    if n == 0:
        return {"status": "not compiled", "reason": "no instance of the check to compare on"}
    at = sum(len(next(iter(i.values()))) for _, i in boundary)
    compared = f"truth values: {both_false} false for both, {at} at the boundary of one of its relations"
    if both_false == 0:
        compared += "; true for both on every instance"
    return {"status": "agrees", "instances": n, "compared": compared}


def _truths(claim: Claim, compiled: CompiledProperty, xp, inputs: dict, dims: dict, rtol: float):
    check = claim.check
    assert isinstance(check, NumericCheck)
    stated = np.asarray(compiled.values(xp, inputs, dims, rtol), dtype=bool).reshape(-1)
    out = call_with_inputs(check.fn, xp, inputs, dims)
    checked = np.broadcast_to(np.asarray(out, dtype=bool).reshape(-1), stated.shape)
    return stated, checked


def _settle(claim: Claim, compiled: CompiledProperty, inputs: dict, dims: dict) -> dict | None:
    """The float64 disagreement re-evaluated at ``REVERIFY_DPS`` digits: a difference (None if rounding)."""
    with mp_precision(REVERIFY_DPS):
        exact = exact_mp_inputs(claim.check, inputs)
        _, checked = _truths(claim, compiled, mpmath_xp, exact, dims, 10.0 ** (-REVERIFY_DPS // 2))

    def truth_at(rtol: float, **reading: Any) -> Any:
        return compiled.values(mpmath_xp, exact_mp_inputs(claim.check, inputs), dims, rtol, **reading)

    # the statement's '=' read by the VANISHING rule, as a settled difference is
    stated = np.asarray(settled_truth(truth_at, REVERIFY_DPS), dtype=bool).reshape(-1)
    if bool(stated[0]) == bool(checked[0]):
        return None
    return {
        "status": "differs",
        "instance": {"dims": dims, "inputs": {k: np.asarray(v)[0].tolist() for k, v in inputs.items()}},
        "statement": [str(bool(stated[0]))],
        "check": [str(bool(checked[0]))],
        "digits": REVERIFY_DPS,
        "reason": f"at {REVERIFY_DPS} digits the statement is {bool(stated[0])} and the check "
        f"{bool(checked[0])}",
    }


def _margins(compiled: CompiledProperty, inputs: dict, dims: dict) -> dict[int, np.ndarray]:
    """``a - b`` of each scalar relation on the batch, by its position (none for one the batch cannot
    evaluate alone, such as a relation under an index quantifier)."""
    env = Env(numpy_xp, dict(inputs), dict(dims))
    batch = len(next(iter(inputs.values())))
    out = {}
    for k, (a, _, b) in enumerate(compiled.atoms):
        try:
            x, y = a(env), b(env)
        except (LatexError, KeyError, TypeError, ValueError, IndexError):
            continue
        if not (x.rank or y.rank):
            out[k] = np.broadcast_to(np.asarray(_float(x.a), dtype=float) - _float(y.a), (batch,))
    return out


def _float(a: Any) -> Any:
    return float(a) if not hasattr(a, "shape") else np.asarray(a, dtype=float)


def _boundaries(claim: Claim, check: NumericCheck, compiled: CompiledProperty, dims: dict, inputs: dict):
    """Instances either side of where a relation of the statement changes truth, between sampled ones."""
    free = [k for k, spec in check.inputs.items() if spec.transform is None and k in inputs]
    if not free or not inputs:
        return []
    out = []
    for atom, margin in _margins(compiled, inputs, dims).items():
        pos, neg = np.flatnonzero(margin > 0), np.flatnonzero(margin < 0)
        for i, j in list(zip(pos, neg, strict=False))[:PAIRS_PER_ATOM]:
            found = _bisect(claim, compiled, dims, inputs, free, (int(i), int(j)), atom)
            if found is not None:
                out.append((dims, found))
    return out


def _segment(inputs: dict, free: list, pair: tuple[int, int], ts: np.ndarray) -> dict:
    i, j = pair
    out = {}
    for k, v in inputs.items():
        a = np.repeat(v[i : i + 1], len(ts), axis=0)
        if k in free:
            t = ts.reshape((-1,) + (1,) * (v.ndim - 1))
            a = (1 - t) * a + t * v[j : j + 1]
        out[k] = a
    return out


def _bisect(claim: Claim, compiled: CompiledProperty, dims, inputs, free, pair, atom: int) -> dict | None:
    """Stages of a grid on the segment from instance i to j: the two points straddling the sign
    change of the relation's ``a - b`` that the grid sees first (kept only where the check's domain is)."""
    lo, hi = 0.0, 1.0
    for _ in range(STAGES):
        ts = np.linspace(lo, hi, GRID)
        m = _margins(compiled, _segment(inputs, free, pair, ts), dims).get(atom)
        if m is None:
            return None
        change = np.flatnonzero(np.sign(m[:-1]) != np.sign(m[1:]))
        if not len(change):
            return None
        lo, hi = ts[change[0]], ts[change[0] + 1]
    check = claim.check
    assert isinstance(check, NumericCheck)
    kept, n = apply_where(claim.id, check, _segment(inputs, free, pair, np.array([lo, hi])), dims)
    return kept if n else None
