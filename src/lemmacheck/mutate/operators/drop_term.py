"""An additive term dropped: ``a + b`` → ``a`` and → ``b``; ``a − b`` → ``a`` and → ``−b``."""

from __future__ import annotations

import ast

import sympy as sp

from ..base import Operator, PyContext, Rewrite

_MAX_TERMS = 8  # a long sum: drop each of its first terms, not all of them


class DropTerm(Operator):
    name = "drop_term"
    summary = "an additive term dropped"

    def python(self, node, ctx: PyContext):
        if (
            not isinstance(node, ast.BinOp)
            or not isinstance(node.op, (ast.Add, ast.Sub))
            or "slice" in ctx.fields
        ):
            return ()
        left, right = ast.unparse(node.left), ast.unparse(node.right)
        if isinstance(node.op, ast.Add):
            return [Rewrite(f"term {right} dropped", node.left), Rewrite(f"term {left} dropped", node.right)]
        return [
            Rewrite(f"term −{right} dropped", node.left),
            Rewrite(f"term {left} dropped", ast.UnaryOp(op=ast.USub(), operand=node.right)),
        ]

    def sympy(self, expr, parent, index):
        if not isinstance(expr, sp.Add) or isinstance(parent, (sp.Indexed, sp.Tuple)):
            return ()
        out = []
        for i, term in enumerate(expr.args[:_MAX_TERMS]):
            rest = expr.args[:i] + expr.args[i + 1 :]
            out.append(Rewrite(lambda term=term: f"term {term} dropped", sp.Add(*rest)))
        return out
