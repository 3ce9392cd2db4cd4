"""An index shifted: ``h[t]`` → ``h[t − 1]``, ``h[t − 1]`` → ``h[t]`` (slices, SymPy ``Indexed`` too)."""

from __future__ import annotations

import ast

import sympy as sp

from ..base import Operator, PyContext, Rewrite


def _shifted(node: ast.expr) -> list[tuple[str, ast.expr]]:
    """Variants of one index expression: a name gets −1, a name ± constant loses its constant."""
    if isinstance(node, ast.Name):
        return [
            (
                f"index {node.id} → {node.id} − 1",
                ast.BinOp(left=node, op=ast.Sub(), right=ast.Constant(value=1)),
            )
        ]
    if (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, (ast.Add, ast.Sub))
        and isinstance(node.left, ast.Name)
        and isinstance(node.right, ast.Constant)
        and isinstance(node.right.value, int)
    ):
        return [(f"index {ast.unparse(node)} → {node.left.id}", node.left)]
    return []


def _variants(index: ast.expr) -> list[tuple[str, ast.expr]]:
    out: list[tuple[str, ast.expr]] = []
    if isinstance(index, ast.Tuple):
        for i, elt in enumerate(index.elts):
            for text, new in _variants(elt):
                elts = list(index.elts)
                elts[i] = new
                out.append((text, ast.Tuple(elts=elts, ctx=ast.Load())))
        return out
    if isinstance(index, ast.Slice):
        for part, bound in (("lower", index.lower), ("upper", index.upper)):
            if bound is None:
                continue
            for text, new in _shifted(bound):
                shifted = ast.Slice(
                    lower=new if part == "lower" else index.lower,
                    upper=new if part == "upper" else index.upper,
                    step=index.step,
                )
                out.append((f"slice {part} bound: {text}", shifted))
        return out
    return _shifted(index)


class ShiftIndex(Operator):
    name = "index_shift"
    summary = "an index shifted (t ↔ t − 1)"

    def python(self, node, ctx: PyContext):
        if not isinstance(node, ast.Subscript) or not isinstance(node.ctx, ast.Load):
            return ()
        return [
            Rewrite(text, ast.Subscript(value=node.value, slice=new, ctx=ast.Load()))
            for text, new in _variants(node.slice)
        ]

    def sympy(self, expr, parent, index):
        if not isinstance(expr, sp.Indexed):
            return ()
        out = []
        for i, idx in enumerate(expr.indices):
            if isinstance(idx, sp.Symbol):
                new = idx - 1
            elif isinstance(idx, sp.Add) and any(a.is_Integer for a in idx.args):
                new = sp.Add(*[a for a in idx.args if not a.is_Integer])
            else:
                continue
            indices = list(expr.indices)
            indices[i] = new
            out.append(Rewrite(f"index {idx} → {new}", expr.base[tuple(indices)]))
        return out
