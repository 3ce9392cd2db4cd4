"""A relation flipped: ``≤`` ↔ ``≥``, ``<`` ↔ ``>`` (in a chain, a comparison, or a SymPy relational)."""

from __future__ import annotations

import ast

import sympy as sp

from ..base import Operator, PyContext, Rewrite

_FLIP = {"<=": ">=", ">=": "<=", "<": ">", ">": "<"}
_AST_FLIP = {
    ast.Lt: ast.Gt,
    ast.Gt: ast.Lt,
    ast.LtE: ast.GtE,
    ast.GtE: ast.LtE,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
}
_AST_SYMBOL = {ast.Lt: "<", ast.Gt: ">", ast.LtE: "<=", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_SP_FLIP = {
    sp.LessThan: sp.GreaterThan,
    sp.GreaterThan: sp.LessThan,
    sp.StrictLessThan: sp.StrictGreaterThan,
    sp.StrictGreaterThan: sp.StrictLessThan,
}


class FlipRelation(Operator):
    name = "relation"
    summary = "a relation flipped (≤ ↔ ≥, < ↔ >, == ↔ !=)"

    def relation(self, relation):
        new = _FLIP.get(relation)
        return [Rewrite(f"relation {relation} → {new}", new)] if new else ()

    def python(self, node, ctx: PyContext):
        if not isinstance(node, ast.Compare):
            return ()
        out = []
        for i, op in enumerate(node.ops):
            flipped = _AST_FLIP.get(type(op))
            if flipped is None:
                continue
            ops = list(node.ops)
            ops[i] = flipped()
            out.append(
                Rewrite(
                    f"comparison {_AST_SYMBOL[type(op)]} → {_AST_SYMBOL[flipped]}",
                    ast.Compare(left=node.left, ops=ops, comparators=node.comparators),
                )
            )
        return out

    def sympy(self, expr, parent, index):
        flipped = _SP_FLIP.get(type(expr))
        if flipped is None:
            return ()
        return [Rewrite(f"relation {expr.rel_op} → {flipped.rel_op}", flipped(*expr.args))]
