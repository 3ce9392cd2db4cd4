"""SymPy derivation chains (``derivation``): each step proved symbolically or checked at sampled points.

A derivation either is the whole claim, or backs a numeric check of the same id; :func:`combine` then
merges the two: PROVED when SymPy proves what the numbers do not refute, an ERROR when they contradict
each other (one of them does not state the claim as written).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..errors import LemmacheckError
from ..model.claim import Claim, SymbolicDerivation
from ..model.verdict import Verdict
from .base import Context, Outcome, register

__all__ = ["DerivationEvidence", "DerivationChecker", "combine"]

_END_VERDICT = {
    "proved": Verdict.PROVED,
    "holds": Verdict.HOLDS,
    "broken": Verdict.REFUTED,
    "measured": Verdict.APPROXIMATE,
    "unsettled": Verdict.INCONCLUSIVE,
}


@dataclasses.dataclass
class DerivationEvidence:
    end_relation: str
    end_status: str
    module: str
    counterexample: dict | None = None
    steps: list | None = None  # the SymPy steps, when a numeric chain supplies the claim's own steps


@dataclasses.dataclass
class DerivationOnlyEvidence:
    counterexample: dict | None = None


def _run(claim: Claim, d: SymbolicDerivation, ctx: Context):
    from .symbolic import check_derivation  # SymPy: imported only when a derivation is checked

    return check_derivation(claim.id, d, ctx.profile.symbolic_points, ctx.rng, ctx.tol, ctx.budget)


class DerivationChecker:
    spec: ClassVar[type] = SymbolicDerivation
    name: ClassVar[str] = "derivation"

    def run(self, claim: Claim, d: SymbolicDerivation, ctx: Context) -> Outcome:
        dout = _run(claim, d, ctx)
        rec = DerivationEvidence(dout.end_relation, dout.end_status, d.module, dout.end_counterexample)
        verdict = _END_VERDICT[dout.end_status]
        ev = DerivationOnlyEvidence(dout.end_counterexample if verdict is Verdict.REFUTED else None)
        first = dout.first_broken_step if len(dout.steps) > 1 else None
        reason = "a sampled violation of the chain was not settled" if verdict is Verdict.INCONCLUSIVE else ""
        return Outcome(
            verdict, ev, dout.steps, first, dout.step_counterexamples, reason=reason, derivation=rec
        )


def combine(claim: Claim, outcome: Outcome, ctx: Context) -> Outcome:
    """A numeric outcome and the claim's SymPy derivation, merged."""
    assert claim.derivation is not None
    dout = _run(claim, claim.derivation, ctx)
    rec = DerivationEvidence(
        dout.end_relation, dout.end_status, claim.derivation.module, dout.end_counterexample
    )
    if len(outcome.steps) <= 1:
        # A one-step numeric chain is the claim itself: the derivation's steps are the proof.
        outcome.steps = dout.steps
        outcome.first_broken = dout.first_broken_step if len(dout.steps) > 1 else None
        outcome.step_counterexamples = dout.step_counterexamples
    else:
        rec.steps = [dataclasses.asdict(s) for s in dout.steps]
        outcome.first_broken = outcome.first_broken or dout.first_broken_step
    outcome.derivation = rec
    if dout.proved and outcome.verdict is Verdict.REFUTED:
        raise LemmacheckError(
            f"claim {claim.id!r}: the SymPy derivation proves what the numeric check refutes "
            "— one of them does not state the claim as written"
        )
    if dout.end_status == "broken" and outcome.verdict in (Verdict.HOLDS, Verdict.PROVED):
        raise LemmacheckError(
            f"claim {claim.id!r}: the SymPy derivation is refuted at "
            f"{dout.end_counterexample} but the numeric check holds — they disagree"
        )
    if dout.proved and outcome.verdict in (Verdict.HOLDS, Verdict.INCONCLUSIVE):
        # A symbolic proof settles what sampling could not.
        outcome.verdict, outcome.reason = Verdict.PROVED, ""
    return outcome


register(DerivationChecker())
