"""The mutants of a claim's relation chains: each relation of a numeric chain, of an approximation, and
of a derivation chain, flipped by the operators that rewrite relations."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

from ..model.claim import ApproximationCheck, Claim, NumericCheck
from .mutant import Mutant, MutantText

__all__ = ["relation_mutants"]

# An approximation states lhs = rhs + O(eps^order), and that is what its verdict measures; the relation
# it is written with only says how often the exact relation fails (the ignored higher-order terms).  With
# the remainder term, lhs <= rhs + O(eps^k) and lhs >= rhs + O(eps^k) state the same thing.
_APPROXIMATION_RELATION = (
    "an approximation claims lhs = rhs + O(eps^order); with the remainder term a flipped relation states "
    "the same (the written relation is measured only as the failure rate of the exact relation)"
)

# (target, the chain's relations, rebuild the claim from new relations, why any flip is equivalent)
_Chain = tuple[str, tuple[str, ...], Callable[[tuple[str, ...]], Claim], str | None]


def _known(reason: str | None) -> str | None:
    return reason


def _chains(claim: Claim) -> list[_Chain]:
    check = claim.check
    chains: list[_Chain] = []
    if isinstance(check, NumericCheck) and not check.is_property:
        chains.append(
            (
                "check",
                tuple(check.relations),
                lambda rels: dataclasses.replace(claim, check=dataclasses.replace(check, relations=rels)),
                None,
            )
        )
    if isinstance(check, ApproximationCheck):
        chains.append(
            (
                "check",
                (check.relation,),
                lambda rels: dataclasses.replace(claim, check=dataclasses.replace(check, relation=rels[0])),
                _APPROXIMATION_RELATION,
            )
        )
    if claim.derivation is not None:
        d = claim.derivation
        chains.append(
            (
                "derivation",
                tuple(d.relations),
                lambda rels: dataclasses.replace(claim, derivation=dataclasses.replace(d, relations=rels)),
                None,
            )
        )
    return chains


def relation_mutants(claim: Claim, operators, start: int) -> list[Mutant]:
    out: list[Mutant] = []
    for target, rels, rebuild, equivalent in _chains(claim):
        for i, rel in enumerate(rels):
            for op in operators:
                for rw in op.relation(rel):
                    new = rels[:i] + (rw.new,) + rels[i + 1 :]

                    def text(rw=rw, rel=rel) -> MutantText:
                        return rw.description, rel, rw.new

                    def build(new=new, rebuild=rebuild) -> Claim:
                        return rebuild(new)

                    out.append(
                        Mutant(
                            claim.id,
                            start + len(out),
                            op.name,
                            "relations",
                            f"{target} relation {i + 1} of {len(rels)}",
                            None,
                            text,
                            build,
                            functools.partial(_known, equivalent),
                        )
                    )
    return out
