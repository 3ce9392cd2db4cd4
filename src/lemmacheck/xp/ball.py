"""Real balls (python-flint's ``arb``: a midpoint and a radius, every operation rounded outward) as numbers
that NumPy object arrays can hold, with comparisons that never guess.

Bare ``arb`` answers ``False`` to ``x > y`` both when it is false and when the balls overlap, so a
``where`` or a ``max`` written with comparisons would silently pick a side.  :class:`Ball` decides a
comparison only when every point of the balls agrees, and raises :class:`Undecided` otherwise
(:meth:`Ball.compare` gives the three-valued answer without raising).  A value that balls cannot enclose
(an mpmath function applied to a ball, NaN, a conversion to float) raises :class:`NotEnclosable`, which
the caller turns into "used mpmath, because …".
"""

from __future__ import annotations

import contextlib
import fractions
import math
import operator
from collections.abc import Callable, Iterator
from typing import Any

import mpmath
import numpy as np
from flint import arb, ctx, fmpq

__all__ = [
    "Ball",
    "NotEnclosable",
    "Undecided",
    "ball_precision",
    "bits_for",
    "to_arb",
    "to_ball",
    "DIGITS_TO_BITS",
    "GUARD_BITS",
]

#: bits per decimal digit, rounded up: a precision of d digits is carried at ceil(d · this) bits
DIGITS_TO_BITS = math.log2(10)
#: guard bits beyond the digits asked for (the working precision is a floor, never a ceiling)
GUARD_BITS = 16


def bits_for(dps: int) -> int:
    """The ball precision that carries ``dps`` decimal digits, GUARD_BITS to spare."""
    return math.ceil(dps * DIGITS_TO_BITS) + GUARD_BITS


class NotEnclosable(Exception):
    """Balls cannot enclose this value: say so, and let the caller use another route."""


class Undecided(NotEnclosable):
    """A comparison of overlapping balls: neither answer holds for every point."""


def to_arb(v) -> arb:
    """An exact ball of a Python, NumPy or mpmath number (floats and mpf are dyadic, so exact)."""
    if isinstance(v, Ball):
        return v.a
    if isinstance(v, arb):
        return v
    if isinstance(v, (bool, np.bool_)):
        return arb(int(v))
    if isinstance(v, (int, np.integer)):
        return arb(int(v))
    if isinstance(v, (float, np.floating)):
        if not math.isfinite(float(v)):
            raise NotEnclosable(f"{float(v)} is not a finite number")
        return arb(float(v))
    if isinstance(v, mpmath.mpf):
        if not mpmath.isfinite(v):
            raise NotEnclosable(f"{v} is not a finite number")
        sign, man, exp, _ = v._mpf_  # man_exp drops the sign: man is the magnitude
        return arb((-int(man) if sign else int(man), int(exp)))
    if isinstance(v, fractions.Fraction):
        return arb(fmpq(v.numerator, v.denominator))
    if isinstance(v, fmpq):
        return arb(v)
    raise NotEnclosable(f"cannot make a ball of {type(v).__name__} {v!r}")


def _operand(v):
    """The arb (or exact int) to combine with, or NotImplemented for a type balls do not take (an array:
    NumPy then applies the operation elementwise)."""
    t = type(v)
    if t is Ball:
        return v.a
    if t is int:
        return v
    if t is float:
        return arb(v) if math.isfinite(v) else NotImplemented
    if t is np.ndarray:
        return NotImplemented
    try:
        return to_arb(v)
    except NotEnclosable:
        return NotImplemented


def _integer_power(a: arb, n: int) -> arb:
    """``a ** n`` for an integer n.  For a ball reaching both sides of 0, python-flint's is NaN ([± 1e-30]
    squared) or reaches below 0 for an even n ([−0.5, 1.5]² came out as [−1.75, 2.26]); its power is
    spanned by the powers of the two ends, and by 0 when n is even."""
    if n <= 0 or not a.is_finite() or not (a.lower() < 0 < a.upper()):
        return a**n
    ends = (a.lower() ** n).union(a.upper() ** n)
    return ends.union(arb(0)).nonnegative_part() if n % 2 == 0 else ends


def _wrap(a: arb) -> Ball:
    """A Ball of an arb without the constructor's conversion (the hot path of every operation)."""
    b = _NEW(Ball)
    b.a = a
    return b


_NEW = object.__new__


def _arithmetic(op: Callable[[Any, Any], arb], *, reflected: bool = False) -> Callable:
    """``ball op other`` (``other op ball`` when ``reflected``) for a binary arb operation, as a method.

    The hot path of every evaluation on balls (an object array's product is one call per entry): a ball
    or an int operand is taken as it is, and the result is made without the constructor's conversion, in
    the one Python call of the method itself (a call to :func:`_operand` and one to :func:`_wrap` each
    time cost a fifth of an operation)."""

    def method(self: Ball, o):
        t = type(o)
        if t is Ball:
            b = o.a
        elif t is int:
            b = o
        else:
            b = _operand(o)
            if b is NotImplemented:
                return b
        out = _NEW(Ball)
        out.a = op(b, self.a) if reflected else op(self.a, b)
        return out

    return method


class Ball:
    """One real ball.  Arithmetic with ints, floats and mpf is exact conversion then outward rounding."""

    __slots__ = ("a",)
    __hash__ = None  # type: ignore[assignment]  # equality is three-valued

    def __init__(self, a):
        self.a = a if isinstance(a, arb) else to_arb(a)

    # ------------------------------------------------------------------ arithmetic
    __add__ = __radd__ = _arithmetic(operator.add)
    __sub__ = _arithmetic(operator.sub)
    __rsub__ = _arithmetic(operator.sub, reflected=True)
    __mul__ = __rmul__ = _arithmetic(operator.mul)
    __truediv__ = _arithmetic(operator.truediv)
    __rtruediv__ = _arithmetic(operator.truediv, reflected=True)

    def __pow__(self, o):
        if isinstance(o, (int, np.integer)) and not isinstance(o, bool):
            return _wrap(_integer_power(self.a, int(o)))
        if isinstance(o, (float, np.floating)) and float(o).is_integer():
            return _wrap(_integer_power(self.a, int(o)))
        o = _operand(o)
        return NotImplemented if o is NotImplemented else _wrap(self.a**o)

    def __rpow__(self, o):
        o = _operand(o)
        return NotImplemented if o is NotImplemented else _wrap(arb(o) ** self.a)

    def __neg__(self):
        return _wrap(-self.a)

    def __pos__(self):
        return self

    def __abs__(self):
        # Arb's abs of a ball about 0 is [|m| ± r], which reaches below 0: a non-integer power of it
        # is then NaN at every precision (a zero singular value to the power ½)
        return _wrap(abs(self.a).nonnegative_part())

    # ------------------------------------------------------------------ comparisons, three-valued
    def compare(self, o) -> int | None:
        """-1, 0 or 1 when every point of the two balls agrees on it; None when they overlap undecided."""
        b = to_arb(o)
        if self.a < b:
            return -1
        if self.a > b:
            return 1
        if self.a == b:  # arb: both exact and equal
            return 0
        return None

    def _decide(self, o, op: str) -> bool:
        b = to_arb(o)
        yes = {"<": self.a < b, "<=": self.a <= b, ">": self.a > b, ">=": self.a >= b}[op]
        if yes:
            return True
        no = {"<": self.a >= b, "<=": self.a > b, ">": self.a <= b, ">=": self.a < b}[op]
        if no:
            return False
        raise Undecided(f"undecided comparison {self} {op} {Ball(b)}: the balls overlap")

    def __lt__(self, o):
        return self._decide(o, "<")

    def __le__(self, o):
        return self._decide(o, "<=")

    def __gt__(self, o):
        return self._decide(o, ">")

    def __ge__(self, o):
        return self._decide(o, ">=")

    def __eq__(self, o):
        c = self.compare(o) if _operand(o) is not NotImplemented else 1
        if c is None:
            raise Undecided(f"undecided comparison {self} == {o}: the balls overlap")
        return c == 0

    def __ne__(self, o):
        return not self.__eq__(o)

    def __bool__(self):
        return self != 0

    def __float__(self):
        raise NotEnclosable(f"a ball ({self}) is not converted to a float: that would drop its radius")

    # ------------------------------------------------------------------ what NumPy's object ufuncs call
    def exp(self):
        return Ball(self.a.exp())

    def log(self):
        return Ball(self.a.log())

    def sqrt(self):
        return Ball(self.a.sqrt())

    def tanh(self):
        return Ball(self.a.tanh())

    # ------------------------------------------------------------------ reading
    def lower(self) -> arb:
        return self.a.lower()

    def upper(self) -> arb:
        return self.a.upper()

    def is_finite(self) -> bool:
        return bool(self.a.is_finite())

    def __str__(self):
        return self.a.str(radius=True)

    def __repr__(self):
        return f"Ball({self.a.str(radius=True)})"


_TO_BALL = np.frompyfunc(lambda v: v if isinstance(v, Ball) else Ball(v), 1, 1)


def to_ball(a):
    """An object array (or one Ball) of exact balls of float64 / mpf / rational values."""
    if isinstance(a, np.ndarray):
        if a.dtype.kind in "fiu" or a.dtype == object:
            out = _TO_BALL(a)
            return out if isinstance(out, np.ndarray) else np.asarray(out, dtype=object)[()]
        return a  # bool / str arrays pass through
    if isinstance(a, (Ball, str)):
        return a
    return Ball(a)


@contextlib.contextmanager
def ball_precision(bits: int) -> Iterator[None]:
    """Scoped arb working precision in bits, always restored."""
    old = ctx.prec
    ctx.prec = bits
    try:
        yield
    finally:
        ctx.prec = old
