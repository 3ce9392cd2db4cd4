"""First-order statements (``@approximation``): remainder order by a Taylor test, failure rate per step."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..model.claim import ApproximationCheck, Claim
from ..model.verdict import Verdict
from .approx import ApproxOutcome, measure_approximation
from .base import Context, Outcome, register

__all__ = ["ApproximationEvidence", "ApproximationChecker"]


@dataclasses.dataclass
class ApproximationEvidence(ApproxOutcome):
    order_claimed: float = 0.0
    relation: str = ""


class ApproximationChecker:
    spec: ClassVar[type] = ApproximationCheck
    name: ClassVar[str] = "approximation"

    def run(self, claim: Claim, check: ApproximationCheck, ctx: Context) -> Outcome:
        out = measure_approximation(claim.id, check, ctx.profile.approx_instances, ctx.rng, ctx.tol)
        ev = ApproximationEvidence(
            **dataclasses.asdict(out), order_claimed=check.order, relation=check.relation
        )
        return Outcome(Verdict.REFUTED if out.refuted else Verdict.APPROXIMATE, ev)


register(ApproximationChecker())
