"""A norm index changed: ``1`` → ``2``, ``2`` → ``1`` and ``∞``, ``∞`` → ``2`` (vector and Schatten norms)."""

from __future__ import annotations

import ast
import math

from ..base import Operator, PyContext, Rewrite
from ._util import number

_NORM_CALLS = frozenset({"vector_norm", "schatten_norm", "matrix_norm", "norm"})
_ORDER_KEYWORDS = ("ord", "p", "order")


def _order(node: ast.expr) -> float | None:
    value = number(node)
    if value is not None:
        return value
    if isinstance(node, ast.Attribute) and node.attr == "inf":
        return math.inf
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "float"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and str(node.args[0].value).lower() in ("inf", "+inf")
    ):
        return math.inf
    return None


def _order_node(value: float) -> ast.expr:
    if value == math.inf:
        return ast.Call(
            func=ast.Name(id="float", ctx=ast.Load()), args=[ast.Constant(value="inf")], keywords=[]
        )
    return ast.Constant(value=value)


_CHANGES = {1: (2,), 2: (1, math.inf), math.inf: (2,)}


def _show(v):
    return "∞" if v == math.inf else repr(v)


class ChangeNormIndex(Operator):
    name = "norm_index"
    summary = "a norm index changed (1 → 2, 2 → 1 and ∞, ∞ → 2)"

    def python(self, node, ctx: PyContext):
        if not isinstance(node, ast.Call):
            return ()
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else "")
        if name not in _NORM_CALLS:
            return ()
        out: list[Rewrite] = []
        p = _order(node.args[1]) if len(node.args) >= 2 else None
        if p is not None and p in _CHANGES:
            for q in _CHANGES[p]:
                args = [node.args[0], _order_node(q), *node.args[2:]]
                out.append(
                    Rewrite(
                        f"{name} index {_show(p)} → {_show(q)}",
                        ast.Call(func=f, args=args, keywords=node.keywords),
                    )
                )
        for i, kw in enumerate(node.keywords):
            p = _order(kw.value) if kw.arg in _ORDER_KEYWORDS else None
            if p is not None and p in _CHANGES:
                for q in _CHANGES[p]:
                    kws = list(node.keywords)
                    kws[i] = ast.keyword(arg=kw.arg, value=_order_node(q))
                    out.append(
                        Rewrite(
                            f"{name} index {_show(p)} → {_show(q)}",
                            ast.Call(func=f, args=node.args, keywords=kws),
                        )
                    )
        return out
