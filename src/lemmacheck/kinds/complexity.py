"""Growth claims (``complexity``): fitted log-log exponents of a cost against the stated ones."""

from __future__ import annotations

from typing import ClassVar

from ..model.claim import Claim, ComplexityCheck
from .base import Context, Outcome, register
from .value import ComparisonEvidence

__all__ = ["ComplexityChecker"]


class ComplexityChecker:
    spec: ClassVar[type] = ComplexityCheck
    name: ClassVar[str] = "comparison"

    def run(self, claim: Claim, check: ComplexityCheck, ctx: Context) -> Outcome:
        from .worked import fit_complexity  # SymPy: imported only when a claim of this kind runs

        verdict, evidence = fit_complexity(check)
        return Outcome(verdict, ComparisonEvidence(**evidence))


register(ComplexityChecker())
