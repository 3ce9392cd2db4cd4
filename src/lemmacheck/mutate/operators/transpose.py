"""A transpose dropped (``A.T`` → ``A``, ``xp.transpose(A)`` → ``A``) or added to an ``einsum`` operand
(its last two indices swapped, as in a lost transpose of a written derivation)."""

from __future__ import annotations

import ast

import sympy as sp

from ..base import Operator, PyContext, Rewrite
from ._util import call_name

_TRANSPOSE_CALLS = frozenset({"transpose", "matrix_transpose", "swapaxes"})


def _einsum_variants(spec: str) -> list[tuple[str, str]]:
    """``"bij,bjk->bik"`` → one variant per input operand with its last two indices swapped."""
    if "->" not in spec or "." in spec:
        return []
    ins, out = spec.replace(" ", "").split("->")
    operands = ins.split(",")
    variants = []
    for i, op in enumerate(operands):
        if len(op) < 2 or op[-1] == op[-2]:
            continue
        swapped = op[:-2] + op[-1] + op[-2]
        new = ",".join(operands[:i] + [swapped] + operands[i + 1 :]) + "->" + out
        variants.append((f"einsum operand {i + 1} transposed: {spec!r} → {new!r}", new))
    return variants


class Transpose(Operator):
    name = "transpose"
    summary = "a transpose dropped or added"

    def python(self, node, ctx: PyContext):
        if isinstance(node, ast.Attribute) and node.attr in ("T", "mT"):
            return [Rewrite(f"transpose of {ast.unparse(node.value)} dropped", node.value)]
        if isinstance(node, ast.Call) and call_name(node) in _TRANSPOSE_CALLS and node.args:
            return [Rewrite(f"{call_name(node)}({ast.unparse(node.args[0])}) dropped", node.args[0])]
        if (
            isinstance(node, ast.Call)
            and call_name(node) == "einsum"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            return [
                Rewrite(
                    text,
                    ast.Call(
                        func=node.func, args=[ast.Constant(value=new), *node.args[1:]], keywords=node.keywords
                    ),
                )
                for text, new in _einsum_variants(node.args[0].value)
            ]
        return ()

    def sympy(self, expr, parent, index):
        if isinstance(expr, sp.Transpose):
            return [Rewrite(lambda: f"transpose of {expr.arg} dropped", expr.arg)]
        return ()
