"""A toy kind of claim, added the way docs/authoring.md says a kind is added: this one module.

``@monotone(id, lo=..., hi=..., **meta)`` declares that ``fn(x)`` is non-decreasing on ``[lo, hi]``.  The
checker evaluates it at sorted sampled points; a decrease found in float64 is re-checked at
``REVERIFY_DPS`` digits before it refutes the claim, and one high precision does not confirm leaves the
verdict INCONCLUSIVE.  tests/test_kinds.py registers it, checks claims of it and removes it again.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import ClassVar

import mpmath
import numpy as np

from lemmacheck.errors import ClaimDefinitionError
from lemmacheck.kinds.base import Context, MutationTargets, Outcome, declaration_unit, register
from lemmacheck.model.claim import Claim
from lemmacheck.model.declare import declaration_failed, register_claim
from lemmacheck.model.tolerance import REVERIFY_DPS
from lemmacheck.model.verdict import Kind, Verdict

__all__ = ["monotone", "MonotoneCheck", "MonotoneEvidence", "MonotoneChecker"]


@dataclasses.dataclass(frozen=True)
class MonotoneCheck:
    """``fn(x)`` is non-decreasing on ``[lo, hi]`` (``fn`` takes floats and mpmath numbers alike)."""

    fn: Callable[[float], float]
    lo: float
    hi: float


@dataclasses.dataclass
class MonotoneEvidence:
    points: int
    first_decrease: dict | None = None  # {x0, x1, f0, f1, dps} where f(x1) < f(x0) for x0 < x1


class MonotoneChecker:
    spec: ClassVar[type] = MonotoneCheck
    name: ClassVar[str] = "monotone"
    claim_kinds: ClassVar[dict[str, str]] = {"MONOTONE": "monotone"}
    evidence_schema: ClassVar[dict] = {
        "points": {"type": "integer", "minimum": 0},
        "first_decrease": {"type": ["object", "null"]},
    }

    def run(self, claim: Claim, check: MonotoneCheck, ctx: Context) -> Outcome:
        x = np.sort(ctx.rng.uniform(check.lo, check.hi, ctx.profile.approx_instances * 64))
        f = np.array([check.fn(float(v)) for v in x])
        evidence = MonotoneEvidence(points=len(x))
        if not np.all(np.isfinite(f)):
            return Outcome(Verdict.INCONCLUSIVE, evidence, reason="fn is not finite at a sampled point")
        for i in np.flatnonzero(f[1:] < f[:-1]):
            with mpmath.workdps(REVERIFY_DPS):
                f0, f1 = check.fn(mpmath.mpf(float(x[i]))), check.fn(mpmath.mpf(float(x[i + 1])))
                if f1 < f0:
                    evidence.first_decrease = {
                        "x0": float(x[i]),
                        "x1": float(x[i + 1]),
                        "f0": mpmath.nstr(f0, 20),
                        "f1": mpmath.nstr(f1, 20),
                        "dps": REVERIFY_DPS,
                    }
                    return Outcome(Verdict.REFUTED, evidence)
        if np.any(f[1:] < f[:-1]):
            return Outcome(Verdict.INCONCLUSIVE, evidence, reason="float64 decreases were not confirmed")
        return Outcome(Verdict.HOLDS, evidence)

    def mutation_targets(self, check: MonotoneCheck) -> MutationTargets:
        return MutationTargets(function=("fn", check.fn))


register(MonotoneChecker())


@declaration_unit
def monotone(claim_id: str, *, lo: float, hi: float, **meta):
    """Declare that the decorated ``fn(x)`` is non-decreasing on ``[lo, hi]``."""

    def wrap(fn: Callable) -> Callable:
        try:
            if not (callable(fn) and math.isfinite(lo) and math.isfinite(hi) and lo < hi):
                raise ClaimDefinitionError(
                    claim_id, f"[lo, hi] = [{lo}, {hi}] is not an interval", "lo=0, hi=1"
                )
            check = MonotoneCheck(fn=fn, lo=float(lo), hi=float(hi))
        except Exception as exc:
            declaration_failed(claim_id, getattr(fn, "__module__", "?"), exc)
            return fn
        register_claim(claim_id, Kind("monotone"), meta, fn.__module__, fn.__doc__ or "", check=check)
        return fn

    return wrap
