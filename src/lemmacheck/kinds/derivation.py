"""SymPy derivation chains (``derivation(...)``): each step proved symbolically or checked at sampled points.

A derivation either is the whole claim, or backs a numeric check of the same id;
:meth:`DerivationChecker.merge` then merges the two: PROVED when SymPy proves what the numbers do not
refute, an ERROR when they contradict each other (one of them does not state the claim as written).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..errors import ClaimDefinitionError, LemmacheckError
from ..model.claim import REGISTRY, Claim, SymbolicDerivation, validate_relations
from ..model.declare import caller_module, declaration_failed, register_claim
from ..model.fields import check_domain
from ..model.verdict import Kind, Verdict
from .base import Context, MutationTargets, Outcome, declaration_unit, register

__all__ = ["derivation", "DerivationEvidence", "DerivationChecker"]

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
    # a derivation declared with metadata is an identity or an inequality (``kind=`` may say otherwise)
    claim_kinds: ClassVar[dict[str, str]] = {"IDENTITY": "identity", "INEQUALITY": "inequality"}
    evidence_schema: ClassVar[dict] = {}

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

    def mutation_targets(self, d: SymbolicDerivation) -> MutationTargets:
        # Its SymPy expressions are mutated by lemmacheck.mutate's own pass over SymPy terms.
        return MutationTargets(
            relations=tuple(d.relations), with_relations=lambda rels: dataclasses.replace(d, relations=rels)
        )

    def merge(self, claim: Claim, outcome: Outcome, ctx: Context) -> Outcome:
        """The outcome of the claim's check, and of the SymPy derivation that backs it, merged."""
        return _merge(claim, outcome, ctx)


def _merge(claim: Claim, outcome: Outcome, ctx: Context) -> Outcome:
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
    elif claim.derivation.steps_of_check:
        _fold_steps(claim.id, outcome, dout)
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


def _fold_steps(claim_id: str, outcome: Outcome, dout) -> None:
    """The SymPy steps of a chain that is the check's own (a compiled statement) folded into its steps: a
    step SymPy proves is proved, one its exact points refute is broken with that counterexample."""
    for mine, sym in zip(outcome.steps, dout.steps, strict=True):
        if sym.status == "proved" and mine.status == "broken":
            raise LemmacheckError(
                f"claim {claim_id!r}: SymPy proves step {mine.index} ({mine.label}) that its instances "
                "refute — the statement's symbolic and numeric readings differ"
            )
        if sym.status in ("proved", "broken") and mine.status != "broken":
            mine.status, mine.detail = sym.status, sym.detail
            if sym.index in dout.step_counterexamples:
                outcome.step_counterexamples[mine.index] = dout.step_counterexamples[sym.index]
    broken = [s.index for s in outcome.steps if s.status == "broken"]
    outcome.first_broken = min(broken) if broken else outcome.first_broken


register(DerivationChecker())


@declaration_unit
def derivation(
    claim_id: str,
    *,
    chain: Sequence[Any],
    labels: Sequence[str] = (),
    domain: Mapping[Any, tuple[float, float]] | None = None,
    kind: Kind | None = None,
    **meta,
) -> None:
    """Declare a SymPy derivation ``[e0, R1, e1, R2, e2, ...]``.

    Without metadata it attaches to the claim of the same id declared in ``checks/``; with metadata
    it declares the claim itself.
    """
    module = caller_module()
    try:
        if kind is not None and not isinstance(kind, Kind):
            raise ClaimDefinitionError(
                claim_id,
                f"kind={kind!r} is not a claim kind",
                "use one of " + ", ".join(f"Kind.{k.name}" for k in Kind) + ", or leave it out",
            )
        if isinstance(chain, str) or not isinstance(chain, Sequence):
            raise ClaimDefinitionError(claim_id, "chain must be a list", "chain=[e0, '<=', e1, '=', e2]")
        exprs, rels = tuple(chain[0::2]), tuple(chain[1::2])
        if len(exprs) != len(rels) + 1 or len(exprs) < 2:
            raise ClaimDefinitionError(
                claim_id,
                "chain must alternate expression, relation, expression ...",
                "chain=[e0, '<=', e1, '=', e2]",
            )
        rels = validate_relations(claim_id, rels)
        if labels and len(labels) != len(rels):
            raise ClaimDefinitionError(claim_id, f"{len(labels)} labels for {len(rels)} steps")
        check_domain(claim_id, domain or {})
        d = SymbolicDerivation(
            exprs=exprs, relations=rels, labels=tuple(labels), domain=dict(domain or {}), module=module
        )
        if meta:
            if kind is None:
                kind = Kind("identity") if all(r == "=" for r in rels) else Kind("inequality")
            register_claim(claim_id, kind, meta, module, "", derivation=d)
        else:
            REGISTRY.attach_derivation(claim_id, d)
    except Exception as exc:
        declaration_failed(claim_id, module, exc)
