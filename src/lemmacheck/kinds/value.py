"""Worked numbers (``value(...)``): the document's number against the computed one, exactly where possible."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar

from ..model.claim import REGISTRY, Claim, ValueCheck
from ..model.declare import caller_module, register_claim
from ..model.verdict import Kind
from .base import Context, MutationTargets, Outcome, declaration_unit, register

__all__ = ["value", "ComparisonEvidence", "ValueChecker"]


@dataclasses.dataclass
class ComparisonEvidence:
    """Stated against computed, leaf by leaf (shared with complexity claims, whose leaves are exponents)."""

    comparison: list
    exact: bool
    places: int | None = None
    mismatches: int | None = None
    fitted_exponents: dict | None = None
    stated_exponents: dict | None = None
    slack: float | None = None
    points: list | None = None


class ValueChecker:
    spec: ClassVar[type] = ValueCheck
    name: ClassVar[str] = "comparison"
    claim_kinds: ClassVar[dict[str, str]] = {"WORKED_EXAMPLE": "worked example"}
    evidence_schema: ClassVar[dict] = {}

    def run(self, claim: Claim, check: ValueCheck, ctx: Context) -> Outcome:
        from .worked import compare_value  # SymPy: imported only when a claim of this kind runs

        verdict, evidence = compare_value(check)
        return Outcome(verdict, ComparisonEvidence(**evidence))

    def mutation_targets(self, check: ValueCheck) -> MutationTargets:
        return MutationTargets(function=("computed", check.computed))


register(ValueChecker())


@declaration_unit
def value(
    claim_id: str, *, computed: Callable[[], Any], stated: Any, places: int | None = None, **meta
) -> None:
    """Declare a worked number: ``computed()`` against what the document states."""
    module = caller_module()
    if not callable(computed):
        REGISTRY.definition_errors.append(
            (
                str(claim_id),
                module,
                f"claim {claim_id!r}: computed must be a callable returning the value\n"
                "  fix: computed=lambda: ...",
            )
        )
        return
    if places is not None and (isinstance(places, bool) or not isinstance(places, int) or places < 0):
        REGISTRY.definition_errors.append(
            (
                str(claim_id),
                module,
                f"claim {claim_id!r}: places={places!r} must be a number of decimal "
                "places\n  fix: places=4, or leave it out for an exact comparison",
            )
        )
        return
    register_claim(
        claim_id,
        Kind("worked example"),
        meta,
        module,
        computed.__doc__ or "",
        check=ValueCheck(computed=computed, stated=stated, places=places),
    )
