"""The statement of a claim checked by a SymPy ``derivation(...)`` alone, compared with that derivation.

The statement is compiled with its module's table (``derivations/<topic>/_notation.py``), whose
``Input("name")`` entries name the derivation's own SymPy symbols, and evaluated on those symbols
(:func:`.scalar_steps.sympy_sides`).  A symbol declared integer (a count, a length) is a dim: the two are
compared at each of :data:`INTEGER_VALUES` (a bound of ``\\prod_{t=1}^{T}`` must be a number).  Paired as
``statement_check`` pairs a check (step by step when the chains have the same length, else the endpoints),
the two state the same relation when, as SymPy expressions, their sides, their margins or their ratios are
equal; otherwise at :data:`POINTS` points of the derivation's domain, at ``REVERIFY_DPS`` digits, where a
point at which they state different relations is a ``differs``.
"""

from __future__ import annotations

import itertools

import mpmath
import numpy as np
import sympy

from ..kinds.symbolic_sampled import sample_symbols
from ..kinds.sympy_cap import SymPyStopped, sympy_cap
from ..model.claim import Claim
from ..model.tolerance import REVERIFY_DPS
from .errors import LatexError
from .parse import parse
from .relation import chain_relation, family, same_equation, same_relation
from .scalar_steps import sympy_sides
from .statement import CompiledStatement, compile_statement
from .tables import table_for

__all__ = ["derivation_statement_check", "POINTS", "INTEGER_VALUES"]

POINTS = 8  # sampled points per comparison SymPy does not settle
INTEGER_VALUES = (1, 2, 3, 5)  # the values an integer symbol takes
SYMPY_SECONDS = 10.0  # SymPy's time for one claim's comparison; past it, points only


def derivation_statement_check(claim: Claim) -> dict:
    """``agrees``, ``differs`` or ``not compiled``, in ``statement_check``'s words."""
    d = claim.derivation
    assert d is not None
    try:
        parse(claim.statement)
        compiled = compile_statement(claim.statement, table_for(claim.module, claim.id))
        derived = tuple(sympy.sympify(e) for e in d.exprs)
        return _compare(compiled, derived, d.relations, d.domain, claim.id)
    except LatexError as exc:
        return {"status": "not compiled", "reason": exc.reason}
    except Exception as exc:  # a table's function broke on symbols: say so, never a silent reading
        return {"status": "not compiled", "reason": f"evaluating the two broke: {type(exc).__name__}: {exc}"}


def _pairs(stated: tuple[str, ...], derived: tuple[str, ...]) -> list:
    if len(stated) == len(derived):
        return [((i, i + 1), (i, i + 1)) for i in range(len(stated))]
    return [((0, len(stated)), (0, len(derived)))]


def _compare(compiled: CompiledStatement, derived: tuple, relations, domain, claim_id: str) -> dict:
    pairs = _pairs(compiled.relations, tuple(relations))
    for si, ci in pairs:
        rels = (chain_relation(compiled.relations, si), chain_relation(tuple(relations), ci))
        if family(rels[0]) != family(rels[1]):
            why = f"the statement states {rels[0]!r}, the derivation {rels[1]!r}"
            return {"status": "differs", "reason": why}
    symbols = sorted(set().union(*(e.free_symbols for e in derived)), key=str)
    integers = [s for s in symbols if s.is_integer]
    n, proved = 0, True
    rng = np.random.default_rng([sum(map(ord, claim_id)), 34])
    for values in itertools.product(INTEGER_VALUES, repeat=len(integers)):
        fixed = dict(zip(integers, values, strict=True))
        names = {str(s): s for s in symbols if s not in fixed}
        written = sympy_sides(compiled, names, {str(s): v for s, v in fixed.items()}, fresh=True)
        if written is None:
            raise LatexError("the statement has no exact SymPy form on the derivation's symbols")
        at = tuple(e.subs(fixed) for e in derived)
        for si, ci in pairs:
            rels = (chain_relation(compiled.relations, si), chain_relation(tuple(relations), ci))
            s, c = (written[si[0]], written[si[1]]), (at[ci[0]], at[ci[1]])
            if _same_symbolically(s, c, rels):
                n += 1
                continue
            proved = False
            found = _at_points(s, c, rels, domain, rng)
            if isinstance(found, dict):
                return found | {
                    "step": si[1],
                    "instance": {
                        "dims": {str(k): v for k, v in fixed.items()},
                        "inputs": found.pop("inputs"),
                    },
                }
            n += found
    if n == 0:
        raise LatexError("no point of the derivation's domain where both sides are numbers to compare")
    how = "equal as SymPy expressions" if proved else f"at {POINTS} points of the derivation's domain each"
    what = "every step" if len(pairs) == len(compiled.relations) and len(pairs) > 1 else "both sides"
    return {"status": "agrees", "instances": n, "compared": f"{what} with the SymPy derivation ({how})"}


def _small_big(lhs, rhs, relation: str) -> tuple:
    return (rhs, lhs) if relation in (">=", ">") else (lhs, rhs)


def _same_symbolically(s: tuple, c: tuple, rels: tuple[str, str]) -> bool:
    """Equal sides; for an inequality also equal margins (terms moved across) or equal ratios.  Two
    equalities must equate the same sides (in either order): both margins of true identities are 0, so
    equal margins would let any identity pass for any other."""
    (s0, s1), (c0, c1) = _small_big(s[0], s[1], rels[0]), _small_big(c[0], c[1], rels[1])
    candidates = [(s1 - s0) - (c1 - c0), s0 * c1 - c0 * s1] if rels[0] != "=" else []
    try:
        with sympy_cap(SYMPY_SECONDS):
            if sympy.simplify(s0 - c0) == 0 and sympy.simplify(s1 - c1) == 0:
                return True
            if rels[0] == "=" and sympy.simplify(s0 - c1) == 0 and sympy.simplify(s1 - c0) == 0:
                return True
            return any(sympy.simplify(e) == 0 for e in candidates)
    except SymPyStopped:
        return False


def _mp(e) -> mpmath.mpf:
    """A side at a point as an mpmath number; SymPy's infinities (a diverging limit) as mpmath's."""
    if e in (sympy.oo, -sympy.oo):
        return mpmath.inf if e == sympy.oo else -mpmath.inf
    if e.has(sympy.zoo, sympy.nan):
        return mpmath.nan
    return mpmath.mpf(str(sympy.re(sympy.N(e, REVERIFY_DPS))))


def _at_points(s: tuple, c: tuple, rels: tuple[str, str], domain, rng) -> int | dict:
    """How many points they state the same relation at, or the first point where they do not."""
    symbols = sorted(set().union(*(e.free_symbols for e in (*s, *c))), key=str)
    points = sample_symbols(symbols, domain, POINTS, rng)
    n = 0
    for k in range(POINTS):
        point = {sym: points[sym][k] for sym in symbols}
        with mpmath.workdps(REVERIFY_DPS):
            subs = {sym: sympy.Float(v, REVERIFY_DPS) for sym, v in point.items()}
            sv = tuple(_mp(e.subs(subs)) for e in s)
            cv = tuple(_mp(e.subs(subs)) for e in c)
            if any(mpmath.isnan(v) for v in sv + cv):
                continue  # a pole of one side at the point: nothing is stated there
            finite = all(mpmath.isfinite(v) for v in sv + cv)
            # an infinite side (a limit that diverges) is the same only where both write the same infinities
            same = same_equation if rels == ("=", "=") else lambda a, b, t: same_relation(a, b, rels, t)
            if (finite and not same(sv, cv, 10.0 ** (-REVERIFY_DPS // 2))) or (not finite and sv != cv):
                return {
                    "status": "differs",
                    "inputs": {str(sym): float(v) for sym, v in point.items()},
                    "statement": [str(v) for v in sv],
                    "check": [str(v) for v in cv],
                    "digits": REVERIFY_DPS,
                    "reason": f"at {REVERIFY_DPS} digits the statement's sides are "
                    f"({mpmath.nstr(sv[0], 12)}, {mpmath.nstr(sv[1], 12)}) and the derivation's "
                    f"({mpmath.nstr(cv[0], 12)}, {mpmath.nstr(cv[1], 12)})",
                }
        n += 1
    return n
