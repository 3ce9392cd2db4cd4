"""Truth values of a statement's clauses: a relation between compiled expressions, a membership in an
interval, and the connectives joining them (and, or, implies, iff), each a boolean array of shape
``(batch,)``.

``=`` between computed quantities holds to the run's relative tolerance (``Env.rtol``: the float64 row of
the tolerance policy, or ``10^{-digits/2}`` when a disagreement is settled in high precision), as a check
comparing two computations does; an order relation is exact, and a disagreement it makes at a boundary is
settled in high precision like any other.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import values as V
from .compile import Env, Node
from .errors import LatexError
from .nodes import as_array

__all__ = [
    "Truth",
    "relation_truth",
    "all_of",
    "any_of",
    "implies",
    "iff",
    "negation",
    "member",
    "SETS",
    "whole",
    "shaped",
    "bools_of",
    "settled_truth",
]

Truth = Callable[[Env], np.ndarray]


def batch_of(env: Env) -> int:
    return len(next(iter(env.inputs.values()))) if env.inputs else 1


def _array(env: Env, v: V.Value) -> Any:
    """A value as an array with the batch axis (an exact constant or an infinite end repeated)."""
    a = as_array(env, v)
    return a if getattr(a, "ndim", 0) else env.xp.zeros(batch_of(env)) + a


def _bools(env: Env, x: Any) -> np.ndarray:
    return np.broadcast_to(np.asarray(x, dtype=bool).reshape(-1), (batch_of(env),)).copy()


def _scale(a: Any, rank: int) -> Any:
    m = abs(np.asarray(a))
    return m.reshape(m.shape[0], -1).max(axis=1) if rank else m


def _zero(v: V.Value) -> bool:
    return v.exact and v.a == 0


def _close(env: Env, x: V.Value, y: V.Value) -> np.ndarray:
    if x.rank != y.rank and (_zero(x) or _zero(y)):  # v = 0 of a vector or matrix: the zero one
        v = y if _zero(x) else x
        return _bools(env, _scale(np.asarray(v.a), v.rank) <= 0)
    if x.rank != y.rank:
        raise LatexError(f"'=' between a rank-{x.rank} and a rank-{y.rank} value")
    a, b = np.asarray(_array(env, x)), np.asarray(_array(env, y))
    diff = _scale(a - b, x.rank)
    held = diff <= env.rtol * (_scale(a, x.rank) + _scale(b, y.rank))
    if env.residues is not None:
        env.residues.append(diff)
    if env.finer:  # the VANISHING rule: a residue that shrank with the precision is rounding of equal sides
        held = held | (env.finer.pop(0) <= diff * env.rtol)
    return _bools(env, held)


_ORDER = {
    "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
}


def settled_truth(truth_at: Callable[..., Any], digits: int) -> Any:
    """A truth value in high precision, its ``=`` clauses read as settling reads a difference.

    A relative test cannot accept an ``=`` one of whose sides is 0 (``E[a] = 0`` of a standardised law):
    equal sides leave a residue of the precision's rounding, at any precision.  So the truth value is
    evaluated at twice ``digits`` first, recording each ``=`` residue, then at ``digits`` with the
    tolerance of that precision, where an ``=`` also holds when its residue shrank by that tolerance
    between the two (the VANISHING rule of docs/tolerance.md: a true difference stays).
    ``truth_at(rtol, **reading)`` evaluates it on the exactly converted inputs at the current precision.
    """
    from ..xp import mp_precision

    residues: list = []
    with mp_precision(2 * digits):
        truth_at(10.0 ** (-digits), residues=residues)
    with mp_precision(digits):
        return truth_at(10.0 ** (-digits // 2), finer=residues)


def bools_of(env: Env, a: Any) -> np.ndarray:
    """Truth values a table's Derived computes, one per instance."""
    return _bools(env, a)


def _entrywise(env: Env, x: V.Value, rel: str, y: V.Value) -> np.ndarray:
    """Every entry of ``x R y`` (a number on either side broadcast)."""
    rank = max(x.rank, y.rank)
    a, b = np.asarray(_array(env, x)), np.asarray(_array(env, y))
    a = a.reshape(a.shape + (1,) * (rank + 1 - a.ndim))
    b = b.reshape(b.shape + (1,) * (rank + 1 - b.ndim))
    held = np.asarray(_ORDER[rel](a, b), dtype=bool)
    return _bools(env, held.reshape(held.shape[0], -1).all(axis=1))


def _holds(env: Env, x: V.Value, rel: str, y: V.Value, *, entrywise: bool = False) -> np.ndarray:
    if entrywise and rel in _ORDER:
        return _entrywise(env, x, rel, y)
    if rel == "=":
        return _close(env, x, y)
    if rel == "!=":
        return ~_close(env, x, y)
    if rel in ("succ", "succeq"):
        return _definite(env, V.add(x, y, -1), strict=rel == "succ")
    if x.rank or y.rank:
        raise LatexError(
            f"'{rel}' between a rank-{x.rank} and a rank-{y.rank} value",
            fix="compare numbers (a norm, an entry) or state it entrywise through a phrase of the table",
        )
    return _bools(env, _ORDER[rel](np.asarray(_array(env, x)), np.asarray(_array(env, y))))


def _definite(env: Env, d: V.Value, *, strict: bool) -> np.ndarray:
    """``A \\succ B``: A - B positive definite (semidefinite for ``\\succeq``), of its symmetric part."""
    if d.rank != 2:
        raise LatexError(f"\\succ of a rank-{d.rank} value", fix="compare matrices")
    sym = (d.a + env.xp.transpose(d.a)) / 2
    low = env.xp.eigvalsh(sym)[..., 0]
    return _bools(env, low > 0 if strict else low >= 0)


def relation_truth(nodes: list[Node], rels: list[str], *, entrywise: bool = False) -> Truth:
    """``e0 R1 e1 R2 e2 ...``: every link holds (``entrywise``: at every entry)."""

    def run(env: Env) -> np.ndarray:
        values = [n(env) for n in nodes]
        out = np.ones(batch_of(env), dtype=bool)
        for k, rel in enumerate(rels):
            out &= _holds(env, values[k], rel, values[k + 1], entrywise=entrywise)
        return out

    return run


def all_of(parts: list[Truth]) -> Truth:
    def run(env: Env) -> np.ndarray:
        out = np.ones(batch_of(env), dtype=bool)
        for p in parts:
            out &= p(env)
        return out

    return run


def any_of(parts: list[Truth]) -> Truth:
    def run(env: Env) -> np.ndarray:
        out = np.zeros(batch_of(env), dtype=bool)
        for p in parts:
            out |= p(env)
        return out

    return run


def implies(premise: Truth, conclusion: Truth) -> Truth:
    return lambda env: ~premise(env) | conclusion(env)


def iff(parts: list[Truth]) -> Truth:
    """``A \\iff B \\iff C``: all equal."""

    def run(env: Env) -> np.ndarray:
        values = [p(env) for p in parts]
        return np.logical_and.reduce([v == values[0] for v in values[1:]])

    return run


def negation(p: Truth) -> Truth:
    return lambda env: ~p(env)


#: an interval's ends: closed or open on each side
SETS = {"closed": ("<=", "<="), "open": ("<", "<"), "closed_open": ("<=", "<"), "open_closed": ("<", "<=")}


def member(value: Node, low: Node, high: Node, kind: str) -> Truth:
    """``x \\in [a, b)``: a number between two ends (an infinite end always satisfied)."""
    lo_rel, hi_rel = SETS[kind]

    def run(env: Env) -> np.ndarray:
        x = value(env)
        return _holds(env, low(env), lo_rel, x) & _holds(env, x, hi_rel, high(env))

    return run


def whole(value: Node, low: int) -> Truth:
    """A whole number >= low."""

    def run(env: Env) -> np.ndarray:
        v = value(env)
        if v.rank:
            raise LatexError(f"a rank-{v.rank} value in a set of numbers")
        a = np.asarray(_array(env, v), dtype=float)
        return _bools(env, (a == np.round(a)) & (a >= low))

    return run


def shaped(value: Node, sizes: list[Node]) -> Truth:
    """``v \\in \\mathbb{R}^{n \\times m}``: v has that shape (a number for ``\\mathbb{R}``), finite."""

    def run(env: Env) -> np.ndarray:
        v = value(env)
        want = tuple(int(n(env).a) for n in sizes)
        if want == (1,) and v.rank == 0:
            want = ()
        shape = tuple(np.shape(v.a)[1:]) if v.rank else ()
        finite = np.isfinite(np.asarray(_array(env, v), dtype=float).reshape(batch_of(env), -1)).all(axis=1)
        return _bools(env, finite & (shape == want))

    return run
