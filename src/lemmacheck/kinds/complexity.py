"""Growth claims (``complexity(...)``): fitted log-log exponents of a cost against the stated ones."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

import numpy as np

from ..errors import ClaimDefinitionError
from ..model.claim import REGISTRY, Claim, ComplexityCheck
from ..model.declare import caller_module, declaration_failed, register_claim
from ..model.fields import check_growth
from ..model.tolerance import EXPONENT_SLACK
from ..model.verdict import Kind, Verdict
from .base import Context, MutationTargets, Outcome, declaration_unit, register
from .value import ComparisonEvidence

__all__ = ["complexity", "ComplexityChecker"]


class ComplexityChecker:
    spec: ClassVar[type] = ComplexityCheck
    name: ClassVar[str] = "comparison"
    claim_kinds: ClassVar[dict[str, str]] = {"COMPLEXITY": "complexity"}
    evidence_schema: ClassVar[dict] = {}

    def run(self, claim: Claim, check: ComplexityCheck, ctx: Context) -> Outcome:
        verdict, evidence = fit_complexity(check)
        return Outcome(verdict, ComparisonEvidence(**evidence))

    def mutation_targets(self, check: ComplexityCheck) -> MutationTargets:
        return MutationTargets(function=("cost", check.cost))


def fit_complexity(check: ComplexityCheck) -> tuple[Verdict, dict]:
    names = list(check.grid)
    points = list(itertools.product(*[check.grid[n] for n in names]))
    costs = np.array([float(check.cost(**dict(zip(names, p, strict=True)))) for p in points])
    if not (np.all(np.isfinite(costs)) and np.all(costs > 0)):
        raise ValueError("cost must be finite and positive at every grid point")
    X = np.column_stack([np.ones(len(points))] + [np.log([p[i] for p in points]) for i in range(len(names))])
    coef, *_ = np.linalg.lstsq(X, np.log(costs), rcond=None)
    fitted = dict(zip(names, (float(c) for c in coef[1:]), strict=True))
    ok = all(abs(fitted[n] - float(check.stated[n])) <= EXPONENT_SLACK for n in names)
    table = [
        dict(zip(names, p, strict=True)) | {"cost": c} for p, c in zip(points, costs.tolist(), strict=True)
    ]
    return (Verdict.HOLDS if ok else Verdict.REFUTED), {
        "fitted_exponents": fitted,
        "stated_exponents": dict(check.stated),
        "slack": EXPONENT_SLACK,
        "points": table,
        "exact": True,
        "comparison": [
            {
                "where": f"exponent of {n}",
                "stated": str(check.stated[n]),
                "computed": f"{fitted[n]:.3f}",
                "match": abs(fitted[n] - float(check.stated[n])) <= EXPONENT_SLACK,
                "difference": None,
            }
            for n in names
        ],
    }


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
