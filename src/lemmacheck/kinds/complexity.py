"""Growth claims (``complexity(...)``): fitted log-log exponents of a cost against the stated ones."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from ..errors import ClaimDefinitionError
from ..model.claim import REGISTRY, Claim, ComplexityCheck
from ..model.declare import caller_module, declaration_failed, register_claim
from ..model.fields import check_growth
from ..model.verdict import Kind
from .base import Context, MutationTargets, Outcome, declaration_unit, register
from .value import ComparisonEvidence

__all__ = ["complexity", "ComplexityChecker"]


class ComplexityChecker:
    spec: ClassVar[type] = ComplexityCheck
    name: ClassVar[str] = "comparison"
    claim_kinds: ClassVar[dict[str, str]] = {"COMPLEXITY": "complexity"}
    evidence_schema: ClassVar[dict] = {}

    def run(self, claim: Claim, check: ComplexityCheck, ctx: Context) -> Outcome:
        from .worked import fit_complexity  # SymPy: imported only when a claim of this kind runs

        verdict, evidence = fit_complexity(check)
        return Outcome(verdict, ComparisonEvidence(**evidence))

    def mutation_targets(self, check: ComplexityCheck) -> MutationTargets:
        return MutationTargets(function=("cost", check.cost))


register(ComplexityChecker())


@declaration_unit
def complexity(
    claim_id: str,
    *,
    cost: Callable[..., float],
    grid: Mapping[str, Sequence[float]],
    stated: Mapping[str, float],
    **meta,
) -> None:
    """Declare a growth claim: fitted log-log exponents of ``cost`` against the stated ones."""
    module = caller_module()
    if (
        not callable(cost)
        or not isinstance(grid, Mapping)
        or not isinstance(stated, Mapping)
        or set(grid) != set(stated)
        or any(len(list(v)) < 3 for v in grid.values())
    ):
        REGISTRY.definition_errors.append(
            (
                str(claim_id),
                module,
                f"claim {claim_id!r}: cost must be a function, and grid and stated must "
                "name the same variables, each with at least 3 grid values\n"
                "  fix: grid={'n': [8, 16, 32]}, stated={'n': 2}",
            )
        )
        return
    try:
        check_growth(claim_id, grid, stated)
    except ClaimDefinitionError as exc:
        declaration_failed(claim_id, module, exc)
        return
    register_claim(
        claim_id,
        Kind("complexity"),
        meta,
        module,
        cost.__doc__ or "",
        check=ComplexityCheck(cost=cost, grid=dict(grid), stated=dict(stated)),
    )
