"""The first pass over a derivation step: both sides at a few random rational points, in exact arithmetic.

A difference that violates the relation exactly is a certified counterexample, found before SymPy is
asked to simplify anything (on some false identities ``simplify`` does not return in any time worth
waiting for).  Where a side is not rational at the point (``sqrt``, ``exp`` ...) it is re-evaluated at
``REVERIFY_DPS`` digits, as a sampled point is.

An undefined function (``sp.Function("sigma")``) stands for any function: the numeric passes evaluate it
as a random rational function with small rational coefficients (:func:`instantiations`), named with the
counterexample, so a violation is a counterexample for that function and the step, stated for every
function, is false.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import sympy as sp
from sympy.core.function import AppliedUndef

from ..model.tolerance import Tolerance
from ..search.violations import gap

__all__ = [
    "EXACT_POINTS",
    "instantiations",
    "instantiate",
    "evaluated",
    "named",
    "rational_points",
    "exact_refutation",
]

# Rational points tried on every step before SymPy is asked.
EXACT_POINTS = 3
# The largest denominator of a point's coordinates: small, so the exact arithmetic stays cheap.
_DENOMINATOR = 64
# a - b exactly violates each relation when:
_VIOLATED = {
    "=": lambda d: d != 0,
    "<=": lambda d: d > 0,
    "<": lambda d: d >= 0,
    ">=": lambda d: d < 0,
    ">": lambda d: d <= 0,
}
# Assumptions a random rational function cannot honour: such a function stays undefined.
_UNMET = ("integer", "rational", "negative", "nonpositive", "zero")


def instantiations(exprs, rng) -> dict:
    """A random rational function for every undefined function of the chain, the same on every step:
    ``f(u) = g(d·u) + e·∏ uᵢ/(1 + uᵢ²)`` with ``g(s) = c₀ + c₁s + (c₂s + c₃)/(1 + s²)`` (positive
    coefficients and no linear term for a function declared positive or nonnegative)."""
    applied: dict[Any, Any] = {}
    for e in exprs:
        for app in sp.sympify(e).atoms(AppliedUndef):
            applied.setdefault(app.func, app)
    out = {}
    for f in sorted(applied, key=str):
        app = applied[f]
        positive = bool(app.is_positive or app.is_nonnegative)
        if not positive and any(getattr(app, f"is_{q}") for q in _UNMET):
            continue

        def coef(lo: int = -9, hi: int = 9) -> sp.Rational:
            return sp.Rational(int(rng.integers(lo, hi + 1)), int(rng.integers(1, 8)))

        u = sp.symbols(f"u1:{len(app.args) + 1}", real=True)
        z = sum(coef(1) * ui for ui in u)
        if positive:
            body = coef(1) + (coef(1) * z**2 + coef(1)) / (1 + z**2)
        else:
            body = coef() + coef() * z + (coef() * z + coef()) / (1 + z**2)
        if len(u) > 1:
            body += coef() * sp.Mul(*(ui / (1 + ui**2) for ui in u))
        out[f] = _implemented(str(f), sp.Lambda(u, body))
    return out


def _implemented(name: str, lam: sp.Lambda):
    """A SymPy function that is ``lam`` at numbers and stays unevaluated at symbols, with its derivatives
    and a NumPy implementation for ``lambdify``: a nested chain keeps its size (substituting ``lam``'s
    body, in which the argument appears four times, would multiply it by four at every level)."""
    variables, body = lam.variables, lam.expr

    def evaluate(cls, *args):
        return lam(*args) if all(a.is_number for a in args) else None

    def fdiff(self, argindex=1):
        derivative = sp.Lambda(variables, sp.diff(body, variables[argindex - 1]))
        return _implemented(f"{name}_d{argindex}", derivative)(*self.args)

    attributes = {
        "nargs": len(variables),
        "eval": classmethod(evaluate),
        "fdiff": fdiff,
        "_imp_": staticmethod(sp.lambdify(variables, body, "numpy")),
        "lam": lam,
    }
    return type(name, (sp.Function,), attributes)


def instantiate(expr, functions: Mapping):
    """``expr`` with the instantiated functions in place of the undefined ones (outermost first, once per
    level of nesting: ``xreplace`` is fast where ``replace`` takes seconds on a nested chain)."""
    while apps := {e for e in expr.atoms(AppliedUndef) if e.func in functions}:
        expr = expr.xreplace({e: functions[e.func](*e.args) for e in apps})
    return expr


def evaluated(expr, point: Mapping, functions: Mapping):
    """``expr`` at ``point`` with the instantiated functions in place of the undefined ones, evaluated
    bottom-up, each shared subexpression once.

    A derivative at a point (``Subs``, as ``diff(...).subs(eps, 0)`` leaves it) is evaluated from its own
    expression at its point's value; it is never rebuilt with a symbolic point, which costs seconds per
    node on a linking chain (SymPy prints the point to name its dummies)."""
    memo: dict = {}

    def value(e):
        if e in memo:
            return memo[e]
        if e.is_Atom:
            v = point.get(e, e)
        elif isinstance(e, sp.Subs):
            at = dict(point) | {x: value(p) for x, p in zip(e.variables, e.point, strict=True)}
            v = evaluated(instantiate(e.expr, functions).doit(), at, functions)
        elif isinstance(e, sp.Derivative):
            v = value(instantiate(e, functions).doit())
        elif isinstance(e, AppliedUndef) and e.func in functions:
            v = functions[e.func](*map(value, e.args))
        else:
            v = e.func(*map(value, e.args))
        memo[e] = v
        return v

    return value(expr).doit()


def named(functions: Mapping) -> dict[str, str]:
    """The instantiated functions as a counterexample states them."""
    return {str(f): f"{g.lam.variables} -> {g.lam.expr}" for f, g in functions.items()}


def _near(s, v: float, bounds) -> sp.Rational:
    """A rational with a small denominator near ``v``, inside what ``s`` allows (else ``v``, exactly)."""
    if s.is_integer:
        return sp.Integer(round(v))
    q = sp.Rational(v).limit_denominator(_DENOMINATOR)
    lo, hi = bounds if bounds is not None else (-np.inf, np.inf)
    if not lo <= q <= hi or (s.is_positive and q <= 0) or (s.is_nonnegative and q < 0):
        return sp.Rational(v)
    return q


def rational_points(floats: Mapping, domain: Mapping) -> list[dict]:
    """The sampled float points (``{symbol: array}``) moved to nearby rationals."""
    n = min((len(v) for v in floats.values()), default=1)
    return [{s: _near(s, float(v[j]), domain.get(s)) for s, v in floats.items()} for j in range(n)]


def _exact_record(point: dict, va, vb) -> dict:
    return {
        "dims": {},
        "inputs": {str(s): str(q) for s, q in point.items()},
        "lhs": str(sp.N(va, 30)),
        "rhs": str(sp.N(vb, 30)),
        "difference": str(va - vb) if len(str(va - vb)) <= 60 else str(sp.N(va - vb, 30)),
        "exact": True,
    }


def _float_candidate(va, vb, relation: str, tol: Tolerance) -> bool:
    """Whether sides that are not rational violate the relation already in float64."""
    try:
        fa, fb = complex(sp.N(va, 20)), complex(sp.N(vb, 20))
    except (TypeError, ValueError):
        return False
    if not np.isfinite([fa.real, fb.real, fa.imag, fb.imag]).all():
        return False
    if abs(fa.imag) + abs(fb.imag) > 1e-12 * (1 + abs(fa) + abs(fb)):
        return False
    g = gap(np.array([fa.real]), np.array([fb.real]), relation, tol)[0]
    return bool(g >= 0 if relation in ("<", ">") else g > 0)


def exact_refutation(
    a,
    b,
    relation: str,
    points: list[dict],
    tol: Tolerance,
    confirm: Callable[..., dict | None],
    functions: Mapping | None = None,
) -> dict | None:
    """A certified violation of ``a R b`` at one of ``points``: exact where both sides are rational there,
    else ``confirm(a, b, relation, point, tol)`` (high precision).

    With ``functions`` the sides still hold their undefined functions (a step with a derivative at a
    point): each is evaluated by :func:`evaluated`, and a side that is not rational is confirmed from its
    exact value, ``confirm(va, vb, relation, {}, tol)``."""
    for point in points:
        try:
            va, vb = _at(a, point, functions), _at(b, point, functions)
        except Exception:  # SymPy cannot evaluate it here: the later passes still check the step
            continue
        if va.is_Rational and vb.is_Rational:
            if _VIOLATED[relation](va - vb):
                return _exact_record(point, va, vb)
        elif _float_candidate(va, vb, relation, tol):
            sides, at = ((a, b), point) if functions is None else ((va, vb), {})
            if cex := confirm(*sides, relation, at, tol):
                return cex | {"inputs": {str(s): str(q) for s, q in point.items()}}
    return None


def _at(expr, point: Mapping, functions: Mapping | None):
    if functions is not None:
        return evaluated(expr, point, functions)
    # The point first, then doit: a Sum up to a symbol is then a finite sum (doit first would look for
    # its closed form); xreplace, not subs: milliseconds instead of seconds on a nested chain.
    return expr.xreplace(point).doit()
