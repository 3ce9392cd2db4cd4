"""The mutants of a claim's SymPy derivation: every operator rewrite of every subexpression of every
expression of the chain, in SymPy ``args`` order, rebuilt node by node (never from source text)."""

from __future__ import annotations

import dataclasses

import sympy as sp

from ..model.claim import Claim
from .equivalence import equal_expressions
from .mutant import Mutant, MutantBuildError, MutantText

__all__ = ["derivation_mutants"]


def _sympy_sites(expr, operators, path=(), parent=None, index=None):
    for op in operators:
        for rw in op.sympy(expr, parent, index):
            yield op, path, expr, rw
    if isinstance(expr, sp.MatrixBase) or not isinstance(expr, sp.Basic):
        return
    for i, arg in enumerate(expr.args):
        if isinstance(arg, sp.Basic):
            yield from _sympy_sites(arg, operators, (*path, i), expr, i)


def _sympy_replace(expr, path, new):
    if not path:
        return new
    args = list(expr.args)
    args[path[0]] = _sympy_replace(args[path[0]], path[1:], new)
    return expr.func(*args)


def derivation_mutants(claim: Claim, operators, start: int) -> list[Mutant]:
    d = claim.derivation
    if d is None:
        return []
    out: list[Mutant] = []
    for k, raw in enumerate(d.exprs):
        try:
            expr = sp.sympify(raw)
        except (sp.SympifyError, TypeError):
            continue
        for op, path, node, rw in _sympy_sites(expr, operators):
            # Rebuilt on demand: rebuilding every SymPy mutant up front costs more than running a sample.
            def mutated(expr=expr, path=path, new=rw.new):
                return _sympy_replace(expr, path, new)

            def build(k=k, mutated=mutated):
                try:
                    exprs = d.exprs[:k] + (mutated(),) + d.exprs[k + 1 :]
                except Exception as exc:  # SymPy refuses the rebuilt node: the mutant cannot be built
                    raise MutantBuildError(f"{type(exc).__name__}: {exc}") from exc
                return dataclasses.replace(claim, derivation=dataclasses.replace(d, exprs=exprs))

            index = start + len(out)

            def static(old=expr, mutated=mutated, index=index):
                try:
                    new = mutated()
                except Exception:  # not built: build() says why
                    return None
                return equal_expressions(old, new, d.domain, f"{claim.id}#{index}")

            def text(node=node, rw=rw) -> MutantText:
                return rw.description, node, rw.new

            location = f"derivation e{k} ({d.module or claim.module})"
            out.append(Mutant(claim.id, index, op.name, "derivation", location, None, text, build, static))
    return out
