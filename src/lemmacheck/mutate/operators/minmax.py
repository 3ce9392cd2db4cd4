"""``min`` ↔ ``max`` (also ``minimum`` ↔ ``maximum``, ``amin`` ↔ ``amax``; SymPy ``Min`` ↔ ``Max``)."""

from __future__ import annotations

import ast

import sympy as sp

from ..base import Operator, PyContext, Rewrite

_SWAP = {
    "min": "max",
    "max": "min",
    "minimum": "maximum",
    "maximum": "minimum",
    "amin": "amax",
    "amax": "amin",
    "nanmin": "nanmax",
    "nanmax": "nanmin",
}


class SwapMinMax(Operator):
    name = "minmax"
    summary = "min ↔ max"

    def python(self, node, ctx: PyContext):
        if not isinstance(node, ast.Call):
            return ()
        f = node.func
        new_f: ast.expr
        if isinstance(f, ast.Name) and f.id in _SWAP:
            new_f = ast.Name(id=_SWAP[f.id], ctx=ast.Load())
        elif isinstance(f, ast.Attribute) and f.attr in _SWAP:
            new_f = ast.Attribute(value=f.value, attr=_SWAP[f.attr], ctx=ast.Load())
        else:
            return ()
        old = f.id if isinstance(f, ast.Name) else f.attr
        return [
            Rewrite(f"{old} → {_SWAP[old]}", ast.Call(func=new_f, args=node.args, keywords=node.keywords))
        ]

    def sympy(self, expr, parent, index):
        if isinstance(expr, sp.Max):
            return [Rewrite("Max → Min", sp.Min(*expr.args))]
        if isinstance(expr, sp.Min):
            return [Rewrite("Min → Max", sp.Max(*expr.args))]
        return ()
