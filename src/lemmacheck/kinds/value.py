"""Worked numbers (``value``): the document's number against the computed one, exactly where possible."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from ..model.claim import Claim, ValueCheck
from .base import Context, Outcome, register

__all__ = ["ComparisonEvidence", "ValueChecker"]


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

    def run(self, claim: Claim, check: ValueCheck, ctx: Context) -> Outcome:
        from .worked import compare_value  # SymPy: imported only when a claim of this kind runs

        verdict, evidence = compare_value(check)
        return Outcome(verdict, ComparisonEvidence(**evidence))


register(ValueChecker())
