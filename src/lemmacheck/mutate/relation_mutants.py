"""The mutants of a claim's relation chains: each relation of a numeric chain, of an approximation, and
of a derivation chain, flipped by the operators that rewrite relations."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

from ..model.claim import Claim
from .mutant import Mutant, MutantText, kind_targets

__all__ = ["relation_mutants"]

# (target, the chain's relations, rebuild the claim from new relations, why any flip is equivalent)
_Chain = tuple[str, tuple[str, ...], Callable[[tuple[str, ...]], Claim], str | None]


def _known(reason: str | None) -> str | None:
    return reason


def _chains(claim: Claim) -> list[_Chain]:
    """The relation chains the claim's kinds offer (check and derivation), each with its rebuild."""
    chains: list[_Chain] = []
    for field in ("check", "derivation"):
        targets = kind_targets(getattr(claim, field))
        if targets is not None and targets.relations and targets.with_relations is not None:

            def with_new(rels, field=field, with_relations=targets.with_relations) -> Claim:
                return dataclasses.replace(claim, **{field: with_relations(rels)})

            chains.append((field, targets.relations, with_new, targets.relations_equivalent))
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
