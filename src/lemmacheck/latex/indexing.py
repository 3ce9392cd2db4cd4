"""Subscripts that index: ``a_i`` (entry i of a vector, row i of a stack), ``A_{ij}`` / ``A_{i,j}`` (an
entry), ``V_{j,:}`` (row j, a row vector), ``V_{:,j}`` (column j), ``T_{:,:,p}`` (a slice); indices count
from 1.  ``A_{ij}`` is an entry only where i and j are both bound around it (``\\sum_i``, ``\\forall i``):
elsewhere two letters in a subscript are a symbol's name, which the table gives.
"""

from __future__ import annotations

from lark import Token, Tree

from . import values as V
from .compile import Compiler, Env, Node, compile_node
from .errors import LatexError

__all__ = ["subscript"]


def _positions(c: Compiler, arg) -> list | None:
    """The index expressions of a multi-index (None at a ``:``), or None for a single index."""
    if isinstance(arg, Tree) and arg.data == "indices":
        odd = [ch for ch in arg.children if _phrase_only(ch)]
        if odd:
            raise c.refuse(arg, "an index glued to a slice, or a '*', which only a phrase of the table names")
        return [None if isinstance(ch, Token) and ch.type == "COLON" else ch for ch in arg.children]
    if isinstance(arg, Tree) and arg.data == "factors" and len(arg.children) == 2:
        keys = [c.key(ch) for ch in arg.children]
        if all(k in c.bound for k in keys):
            return list(arg.children)
    return None


def _phrase_only(ch) -> bool:
    return (isinstance(ch, Tree) and ch.data in ("glued", "star")) or (
        isinstance(ch, Token) and ch.type == "STAR"
    )


def subscript(c: Compiler, base: Node, arg) -> Node:
    if isinstance(arg, Tree) and arg.data == "index_range":
        raise c.refuse(arg, "a range of indices (w_{1:T}), which only a phrase of the table names")
    positions = _positions(c, arg)
    if positions is None:
        index = compile_node(c, arg)
        return lambda env: _index(base(env), index(env))
    nodes = [None if p is None else compile_node(c, p) for p in positions]

    def run(env: Env) -> V.Value:
        return _multi(base(env), [None if n is None else n(env) for n in nodes])

    return run


def _take(v: V.Value, axis: int, i: V.Value):
    if not isinstance(i.a, int):
        raise LatexError(f"an index {i.a!r} that is not a whole number")
    size = v.a.shape[axis]
    if not 1 <= i.a <= size:
        raise LatexError(f"the index {i.a} is outside 1..{size}")
    return i.a - 1


def _multi(v: V.Value, items: list) -> V.Value:
    """``v_{i, :, k}``: the entries at whole-number positions, every entry at a ``:``."""
    if len(items) != v.rank:
        raise LatexError(f"{len(items)} indices on a rank-{v.rank} value")
    key: list = [slice(None)]
    for axis, i in enumerate(items, 1):
        key.append(slice(None) if i is None else _take(v, axis, i))
    out = v.a[tuple(key)]
    row = v.rank == 2 and items[0] is not None and items[1] is None  # V_{j,:}: row j
    return V.Value(out, row=row)


def _index(v: V.Value, i: V.Value) -> V.Value:
    """``a_i``: entry i (from 1) of a vector, row i of a stack (``g_i`` of gradients g of shape (T, n))."""
    if v.rank == 0 or not isinstance(i.a, int):
        raise LatexError(f"a subscript on a rank-{v.rank} value that is no entry index")
    if not 1 <= i.a <= v.a.shape[1]:
        raise LatexError(f"the index {i.a} is outside 1..{v.a.shape[1]}")
    return V.Value(v.a[:, i.a - 1])
