"""A power changed: an exponent ``c`` → ``c − 1`` when ``c ≥ 2`` (a norm no longer squared), else ``c + 1``
(``c − 1`` for negative ``c``); a square root dropped."""

from __future__ import annotations

import ast

import sympy as sp

from ..base import Operator, PyContext, Rewrite
from ._util import call_name, literal, number


def _changed(c):
    if c >= 2:
        return c - 1
    return c - 1 if c < 0 else c + 1


class ChangePower(Operator):
    name = "power"
    summary = "a power changed (c → c−1 for c ≥ 2, else c+1; √x → x)"

    def python(self, node, ctx: PyContext):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            c = number(node.right)
            if c is None:
                return ()
            new = _changed(c)
            return [
                Rewrite(f"power {c!r} → {new!r}", ast.BinOp(left=node.left, op=ast.Pow(), right=literal(new)))
            ]
        if (
            isinstance(node, ast.Call)
            and call_name(node) == "sqrt"
            and len(node.args) == 1
            and not node.keywords
        ):
            return [Rewrite("square root dropped", node.args[0])]
        return ()

    def sympy(self, expr, parent, index):
        if not isinstance(expr, sp.Pow) or not expr.exp.is_Number:
            return ()
        if isinstance(parent, (sp.Indexed, sp.Tuple)):
            return ()
        new = _changed(expr.exp)
        return [Rewrite(f"power {expr.exp} → {new}", sp.Pow(expr.base, new))]
