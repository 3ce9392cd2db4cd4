"""The registry of mutation operators: one small module per operator, each behind :class:`..base.Operator`.

The order of :data:`OPERATORS` is part of the enumeration order of mutants (so it is stable): add a new
operator at the end.
"""

from __future__ import annotations

from ..base import Operator
from .constant import ScaleConstant
from .drop_term import DropTerm
from .index_shift import ShiftIndex
from .minmax import SwapMinMax
from .norm_index import ChangeNormIndex
from .power import ChangePower
from .relation import FlipRelation
from .sign import FlipSign
from .transpose import Transpose

__all__ = ["OPERATORS", "operators_named"]

OPERATORS: tuple[Operator, ...] = (
    ScaleConstant(),
    FlipRelation(),
    DropTerm(),
    FlipSign(),
    ChangePower(),
    SwapMinMax(),
    Transpose(),
    ChangeNormIndex(),
    ShiftIndex(),
)


def operators_named(names) -> tuple[Operator, ...]:
    """The operators with these names, in registry order; an unknown name is an error listing the known."""
    known = {op.name: op for op in OPERATORS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise ValueError(f"unknown mutation operator(s) {unknown}; known: {sorted(known)}")
    return tuple(op for op in OPERATORS if op.name in set(names))
