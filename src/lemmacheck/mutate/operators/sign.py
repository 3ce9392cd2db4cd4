"""A sign flipped: ``a + b`` ↔ ``a − b``, ``−x`` → ``x``."""

from __future__ import annotations

import ast

import sympy as sp

from ..base import Operator, PyContext, Rewrite


class FlipSign(Operator):
    name = "sign"
    summary = "a sign flipped (+ ↔ −, −x → x)"

    def python(self, node, ctx: PyContext):
        if "slice" in ctx.fields:
            return ()  # index arithmetic (t − 1) belongs to the index operator
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            new_op, text = (ast.Sub(), "+ → −") if isinstance(node.op, ast.Add) else (ast.Add(), "− → +")
            return [Rewrite(f"sign {text}", ast.BinOp(left=node.left, op=new_op, right=node.right))]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return [Rewrite(f"sign of −{ast.unparse(node.operand)} flipped", node.operand)]
        return ()

    def sympy(self, expr, parent, index):
        if isinstance(expr, sp.Mul) and expr.args and expr.args[0].is_Number and expr.args[0].is_negative:
            return [Rewrite(lambda: f"sign of {expr} flipped", -expr)]
        return ()
