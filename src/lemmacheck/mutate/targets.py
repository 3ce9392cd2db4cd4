"""What gets mutated: a claim's check function (its Python AST), its relation chains and its derivation
(its SymPy chain), one module each (:mod:`.python_sites`, :mod:`.relation_mutants`,
:mod:`.derivation_mutants`).

Every site is visited in a fixed order (claim kinds in declaration order, AST fields in ``ast`` order,
SymPy ``args`` order, operators in registry order), so the k-th mutant of a claim is the same on every
run of the same code.  A mutant is applied by rebuilding the claim with ``dataclasses.replace``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..kinds import checker_for
from ..model.claim import Claim
from .base import Operator
from .derivation_mutants import derivation_mutants
from .mutant import Mutant, MutantBuildError, check_function, kind_targets
from .python_sites import python_mutants
from .relation_mutants import relation_mutants

__all__ = ["Mutant", "enumerate_mutants", "check_function", "MutantBuildError"]


def enumerate_mutants(claim: Claim, operators: Sequence[Operator]) -> tuple[list[Mutant], list[str]]:
    """Every mutant of one claim in a stable order, and notes on what could not be mutated (and why)."""
    mutants: list[Mutant] = []
    notes: list[str] = []
    for part, make in (
        ("check function", python_mutants),
        ("relations", relation_mutants),
        ("derivation", derivation_mutants),
    ):
        try:
            mutants += make(claim, operators, len(mutants))
        except MutantBuildError as exc:
            notes.append(f"{part} not mutated: {exc}")
    if claim.check is not None and kind_targets(claim.check) is None:
        kind = checker_for(claim.check).name
        notes.append(f"check not mutated: the {kind} kind offers no mutation targets (its mutation_targets)")
    return mutants, notes
