"""A witness that a certificate's domain is not empty: an exact rational point where every constraint
(the inputs' and the ``where=`` hypotheses) holds.  A statement proved on an empty domain is vacuous
("certified … where False" was counted as certified); without a witness nothing is certified.

Points are tried in a fixed order (box centres and simple fractions, then seeded random rationals),
each decided exactly by SymPy; then, for algebraic constraints, Z3 is asked for one (its unsat proves
the domain empty).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import sympy

from .smt import find_point, z3_available

__all__ = ["EmptyDomain", "witness_of"]

#: seeded random points tried after the simple ones
RANDOM_POINTS = 64
_SIMPLE = [
    Fraction(1),
    Fraction(1, 2),
    Fraction(-1),
    Fraction(2),
    Fraction(1, 3),
    Fraction(-1, 2),
    Fraction(0),
]


class EmptyDomain(Exception):
    """No point of the domain was found (``proved``: Z3 or SymPy shows there is none)."""

    def __init__(self, message: str, *, proved: bool):
        super().__init__(message)
        self.proved = proved


def _holds(constraints, at) -> bool:
    return all(sympy.sympify(c).xreplace(at) is sympy.true for c in constraints)


def _candidates(symbols, box):
    k = max(len(symbols), 1)
    for t in [Fraction(1, 2), Fraction(1, k + 1), Fraction(1, 2 * k + 1), Fraction(1, 3), Fraction(2, 3)]:
        yield [_in(s, box, t, t) for s in symbols]
    for v in _SIMPLE:
        yield [_in(s, box, Fraction(1, 2), v) for s in symbols]
    rng = random.Random(20261127)  # fixed: the same certificate at every run
    for _ in range(RANDOM_POINTS):
        yield [
            _in(s, box, Fraction(rng.randint(1, 63), 64), Fraction(rng.randint(-48, 48), 8)) for s in symbols
        ]


def _in(s, box, t: Fraction, free: Fraction) -> Fraction:
    """The point at fraction ``t`` of ``s``'s box, or ``free`` where it has none."""
    if s.name not in box:
        return free
    lo, hi = (Fraction(int(b.p), int(b.q)) for b in box[s.name])
    return lo + t * (hi - lo)


def witness_of(symbols, constraints, box) -> dict[str, str]:
    """An exact point of the domain (symbol name -> rational text), or :class:`EmptyDomain`."""
    if any(c is sympy.false for c in constraints):
        raise EmptyDomain("its where= hypothesis is False at these dims", proved=True)
    for point in _candidates(symbols, box):
        at = {s: sympy.Rational(v.numerator, v.denominator) for s, v in zip(symbols, point, strict=True)}
        if _holds(constraints, at):
            return {s.name: str(v) for s, v in at.items()}
    if z3_available():
        answer, point = find_point(constraints)
        if answer == "unsat":
            raise EmptyDomain("Z3 shows no point satisfies its constraints and hypotheses", proved=True)
        found: dict[Any, Any] = {
            s: sympy.Rational(point[s.name].numerator, point[s.name].denominator) if s.name in point else 0
            for s in symbols
        }
        if answer == "sat" and _holds(constraints, found):
            return {s.name: str(v) for s, v in found.items()}
    raise EmptyDomain(
        f"no point of it was found ({RANDOM_POINTS + 12} exact points tried, and Z3 where it applies)",
        proved=False,
    )


def is_witness(point: dict[str, str], symbols, constraints) -> bool:
    """Whether a shipped witness lies in the domain (decided exactly)."""
    try:
        at = {s: sympy.Rational(point[s.name]) for s in symbols}
    except (KeyError, TypeError, ValueError):
        return False
    return _holds(constraints, at)
