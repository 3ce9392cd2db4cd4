"""Values of a compiled statement: an ``xp`` array with its batch axis, and whether a vector is a row.

The rank (0 scalar, 1 vector, 2 matrix) is the array's number of axes after the batch axis, so juxtaposition
means what a reader means: ``x^\\top y`` an inner product, ``A^\\top B`` and ``A x`` matrix products,
``x y^\\top`` an outer product, a scalar times anything elementwise.  A product a reader could not
read either (two column vectors side by side) is refused, not guessed.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any

import numpy as np

from .errors import LatexError

__all__ = ["Value", "const", "add", "mul", "hadamard", "div", "power", "transpose", "inner", "norm", "scalar"]


@dataclasses.dataclass(frozen=True)
class Value:
    a: Any  # an xp array with a leading batch axis, or a Python int (an exact constant)
    row: bool = False  # a transposed vector

    @property
    def rank(self) -> int:
        return max(self.a.ndim - 1, 0) if hasattr(self.a, "ndim") else 0

    @property
    def exact(self) -> bool:
        return isinstance(self.a, (int, Fraction))


def const(n: int | Fraction) -> Value:
    return Value(n)


def _coerce(x: Value, y: Value) -> tuple[Value, Value]:
    """An exact constant meets a float64 batch as a float (a Fraction would make NumPy build an object
    array); mpmath numbers and balls take the Fraction exactly."""

    def as_for(c: Value, other: Value) -> Value:
        if not isinstance(c.a, Fraction) or other.exact:
            return c
        if getattr(other.a, "dtype", None) is not np.dtype(object):
            return Value(float(c.a))
        import mpmath  # an mpmath batch: the fraction exactly, at the precision in force

        return Value(mpmath.mpf(c.a.numerator) / c.a.denominator)

    return as_for(x, y), as_for(y, x)


def _lift(v: Value, rank: int) -> Any:
    """The array broadcast against one of ``rank``: a scalar per instance gains trailing axes."""
    if v.rank == 0 and hasattr(v.a, "ndim"):
        return v.a[(...,) + (None,) * rank]
    return v.a


def _refuse(why: str, fix: str = "") -> LatexError:
    return LatexError(why, fix=fix)


def add(x: Value, y: Value, sign: int = 1) -> Value:
    x, y = _coerce(x, y)
    if x.exact and y.exact:
        return Value(x.a + y.a if sign > 0 else x.a - y.a)
    if x.rank and y.rank and (x.rank != y.rank or x.row != y.row):
        raise _refuse(f"adds a rank-{x.rank} value to a rank-{y.rank} one (row {x.row} and {y.row})")
    rank = max(x.rank, y.rank)
    b = _lift(y, rank)
    out = _lift(x, rank) + b if sign > 0 else _lift(x, rank) - b
    return Value(out, x.row or y.row)


def mul(x: Value, y: Value) -> Value:
    x, y = _coerce(x, y)
    if x.rank == 0 or y.rank == 0:
        rank = max(x.rank, y.rank)
        return Value(_lift(x, rank) * _lift(y, rank), x.row if x.rank else y.row)
    if x.rank == 1 and y.rank == 1:
        if x.row and not y.row:
            return Value((x.a * y.a).sum(axis=-1))
        if not x.row and y.row:
            return Value(x.a[..., :, None] * y.a[..., None, :])
        raise _refuse(
            "two vectors side by side with no transpose between them", "write x^\\top y or x y^\\top"
        )
    if x.rank == 2 and y.rank == 2:
        return Value(x.a @ y.a)
    if x.rank == 2 and y.rank == 1 and not y.row:
        return Value((x.a @ y.a[..., :, None])[..., 0])
    if x.rank == 1 and x.row and y.rank == 2:
        return Value((x.a[..., None, :] @ y.a)[..., 0, :], row=True)
    raise _refuse(
        f"a product of a rank-{x.rank} and a rank-{y.rank} value that no reading makes a matrix product"
    )


def hadamard(x: Value, y: Value) -> Value:
    x, y = _coerce(x, y)
    if x.rank != y.rank:
        raise _refuse(f"\\odot of a rank-{x.rank} and a rank-{y.rank} value")
    return Value(x.a * y.a, x.row)


def div(x: Value, y: Value) -> Value:
    if y.rank:
        raise _refuse(f"divides by a rank-{y.rank} value")
    if x.exact and y.exact:
        return Value(Fraction(x.a) / y.a)
    x, y = _coerce(x, y)
    return Value(_lift(x, x.rank) / _lift(y, x.rank), x.row)


def div_entrywise(x: Value, y: Value) -> Value:
    """``x / y`` entry by entry where both are vectors of one rank (Adam's ``\\hat m_t/\\sqrt{v}``)."""
    if y.rank == 0:
        return div(x, y)
    if x.rank != y.rank:
        raise _refuse(f"an entrywise quotient of a rank-{x.rank} by a rank-{y.rank} value")
    x, y = _coerce(x, y)
    return Value(x.a / y.a, x.row)


def scalar(v: Value, what: str) -> Any:
    if v.rank:
        raise _refuse(f"{what} of a rank-{v.rank} value")
    return v.a


def power(x: Value, k: Value, xp) -> Value:
    if x.rank:
        raise _refuse(f"a power of a rank-{x.rank} value", "write the product, or declare the symbol")
    if isinstance(k.a, int) and k.a >= 0:
        return Value(x.a**k.a)
    if isinstance(k.a, int):
        return div(const(1), Value(x.a ** (-k.a)))
    if isinstance(k.a, Fraction) and k.a == Fraction(1, 2) and not x.exact:
        return Value(xp.sqrt(x.a))
    if x.exact:
        raise _refuse("a non-integer power of a number", "write \\sqrt or the value")
    return Value(xp.exp(_coerce(k, x)[0].a * xp.log(x.a)))


def transpose(x: Value, xp) -> Value:
    if x.rank == 1:
        return Value(x.a, not x.row)
    if x.rank == 2:
        return Value(xp.transpose(x.a))
    raise _refuse(f"the transpose of a rank-{x.rank} value")


def inner(x: Value, y: Value) -> Value:
    if x.rank != y.rank or x.rank == 0:
        raise _refuse(f"\\langle\\cdot,\\cdot\\rangle of a rank-{x.rank} and a rank-{y.rank} value")
    prod = x.a * y.a
    return Value(prod.sum(axis=tuple(range(1, prod.ndim))))


def norm(x: Value, index: Any, xp, table, *, schatten: bool, entrywise: bool = False) -> Value:
    """``\\|x\\|_index``: l_p of a vector, Schatten-p of a matrix (``S^p``), else what the table declares."""
    if x.rank == 0:
        return Value(xp.abs(x.a))
    if entrywise:
        return Value(xp.vector_norm(x.a.reshape(x.a.shape[:1] + (-1,)), index))
    if schatten:  # a vector is an n x 1 matrix: its one singular value is its Euclidean norm
        return Value(xp.schatten_norm(x.a, index) if x.rank == 2 else xp.vector_norm(x.a, 2))
    if index is None:
        if table.norm is None:
            raise LatexError(
                "\\|\\cdot\\| without an index, which this document's table does not define",
                construct="\\|",
                fix=f"give {table.where} norm=fn(xp, a, rank) (e.g. the spectral norm)",
            )
        return Value(table.norm(xp, x.a, x.rank))
    if x.rank == 1:
        return Value(xp.vector_norm(x.a, index))
    if table.matrix_norm is None:
        raise LatexError(
            f"\\|M\\|_{index} of a matrix, which this document's table does not define",
            construct="\\|",
            fix=f"give {table.where} matrix_norm=fn(xp, M, p)",
        )
    return Value(table.matrix_norm(xp, x.a, index))


INF = math.inf
