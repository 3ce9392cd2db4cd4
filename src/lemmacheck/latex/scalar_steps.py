"""A statement compiled from LaTeX whose every quantity is scalar, also checked step by step by SymPy.

The compiled chain is evaluated once on SymPy symbols (the certification routes' ``xp``,
:mod:`lemmacheck.certify.symbolic`), one per input, and the result backs the claim as a hand-written
``derivation(...)`` backs its check (:mod:`lemmacheck.kinds.derivation`): each step proved by SymPy is
*proved*, a step SymPy's exact points refute is *broken* under its own ``\\text{...}`` label, the rest
stays checked on instances.  Only where that reading is the statement's: every input a real number drawn
in a plain interval, no dims, no ``where=`` filter (SymPy would reason outside its hypotheses), every
expression of the chain a number.  Anything else is left to the instances, never half-read.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
import sympy

from ..certify.refusal import NotCertifiable
from ..certify.symbolic import exact_constants, symbolic, sympy_xp
from ..model.claim import Claim, NumericCheck, SymbolicDerivation
from ..model.inputs import Array
from .compile import Env
from .declare import COMPILED_ATTR
from .errors import LatexError
from .statement import CompiledStatement

__all__ = ["with_scalar_derivation", "scalar_derivation", "sympy_sides"]


def with_scalar_derivation(claim: Claim) -> Claim:
    """``claim`` backed by the SymPy form of its compiled statement, when it has one; else unchanged."""
    if claim.derivation is not None or not isinstance(claim.check, NumericCheck):
        return claim
    compiled = getattr(claim.check.fn, COMPILED_ATTR, None)
    if compiled is None or claim.check.where is not None or claim.check.dims:
        return claim
    d = scalar_derivation(compiled, dict(claim.check.inputs), claim.check.fn.__module__)
    if d is None or len(d.relations) != len(claim.check.relations):
        return claim
    # the claim's relations, not the compiled ones: a mutant that changes a relation changes both checks
    return dataclasses.replace(claim, derivation=dataclasses.replace(d, relations=claim.check.relations))


def _symbol(name: str, spec) -> tuple[sympy.Symbol, tuple[float, float]] | None:
    """The input as a real symbol (nonnegative or positive where its interval says so), or None when it is
    not a plain real number per instance (a vector, or one drawn through a transform)."""
    if not isinstance(spec, Array) or spec.shape or spec.transform is not None:
        return None
    lo, hi = spec.domain()
    return sympy.Symbol(name, real=True, nonnegative=lo >= 0 or None, positive=lo > 0 or None), (lo, hi)


def scalar_derivation(compiled: CompiledStatement, inputs: dict, module: str) -> SymbolicDerivation | None:
    """The chain as SymPy expressions of its scalar inputs, with their intervals as the sampling domain;
    None when some quantity is not a scalar or has no exact SymPy form."""
    read = {name: _symbol(name, spec) for name, spec in inputs.items()}
    if not read or any(v is None for v in read.values()):
        return None
    try:
        exprs = sympy_sides(compiled, {name: v[0] for name, v in read.items() if v is not None}, {})
    except LatexError:
        return None
    if exprs is None:
        return None
    domain = {v[0]: v[1] for v in read.values() if v is not None}
    return SymbolicDerivation(
        exprs=exprs,
        relations=compiled.relations,
        labels=compiled.labels,
        domain=domain,
        module=module,
        steps_of_check=True,
    )


class _Symbols(dict):
    """Input name -> a one-instance array of its symbol; with ``fresh``, a name that is not a dim and was
    not given is a new real symbol (a quantity the statement writes, the derivation simplified away)."""

    def __init__(self, symbols: dict, dims: dict, *, fresh: bool):
        super().__init__({n: symbolic(np.array([s], dtype=object)) for n, s in symbols.items()})
        self.dims, self.fresh = dims, fresh

    def __contains__(self, name: object) -> bool:
        return super().__contains__(name) or (self.fresh and isinstance(name, str) and name not in self.dims)

    def __missing__(self, name: str):
        if not self.fresh:
            raise KeyError(name)
        self[name] = symbolic(np.array([sympy.Symbol(name, real=True)], dtype=object))
        return self[name]


def sympy_sides(
    compiled: CompiledStatement, symbols: dict, dims: dict, *, fresh: bool = False
) -> tuple[sympy.Expr, ...] | None:
    """Each expression of the chain as a SymPy expression of ``symbols`` (input name -> symbol) at
    ``dims`` (with ``fresh``, any other name the table gives is a new real symbol); None when one is not
    a number or has no exact SymPy form (LatexError when the statement cannot be evaluated there, e.g. a
    bound of a sum that is not a whole number)."""
    env = Env(sympy_xp, _Symbols(symbols, dims, fresh=fresh), dict(dims))
    try:
        exprs = tuple(_expr(node(env)) for node in compiled.nodes)
    except (NotCertifiable, TypeError, ValueError, AttributeError):
        # a phrase of the table with no SymPy form (a NumPy-only helper, a spectrum)
        return None
    return None if any(e is None for e in exprs) else exprs  # type: ignore[return-value]


def _expr(v) -> sympy.Expr | None:
    if v.rank:
        return None
    if v.exact:
        a = Fraction(v.a)
        return sympy.Rational(a.numerator, a.denominator)
    arr = np.asarray(v.a, dtype=object).reshape(-1)
    if arr.shape != (1,):
        return None
    e = sympy.sympify(arr[0])
    # a float a table's phrase multiplies in is read as the rational its decimal form writes, as the
    # certification routes read it
    return exact_constants(e)[0] if isinstance(e, sympy.Expr) else None
