"""A numeric constant scaled by 2 and by ½ (the ½ of a Taylor bound, a Lipschitz constant, a step size)."""

from __future__ import annotations

import ast

import sympy as sp

from ..base import Operator, PyContext, Rewrite
from ._util import STRUCTURAL_KEYWORDS, call_name, literal, number

# Calls whose integer arguments are shapes or counts of a construction, not constants of the mathematics.
_SHAPE_CALLS = frozenset(
    {
        "zeros",
        "ones",
        "eye",
        "empty",
        "full",
        "reshape",
        "arange",
        "linspace",
        "range",
        "stack",
        "concatenate",
        "einsum",
        "swapaxes",
        "moveaxis",
        "expand_dims",
    }
)
_NORM_CALLS = frozenset({"vector_norm", "schatten_norm", "matrix_norm", "norm"})
# A float literal this small in a check is a rounding allowance or a guard against dividing by zero
# (`abs(a - b) <= 1e-12 * abs(b)`, `norm > 1e-100`), not a constant of the mathematics: doubling it
# states the same claim, and no sound check could notice.  The smallest constants the documents state
# (step sizes, Adam's δ = 1e-8) are module constants, which are not mutated (only the body is).
ROUNDING_ALLOWANCE = 1e-6


class ScaleConstant(Operator):
    name = "constant"
    summary = "a numeric constant scaled by 2 and by ½"

    def python(self, node, ctx: PyContext):
        value = number(node)
        if value is None or value == 0 or self._owned_elsewhere(node, ctx):
            return ()
        if isinstance(value, float) and abs(value) <= ROUNDING_ALLOWANCE:
            return ()
        scaled: list[int | float]
        if isinstance(value, int):
            scaled = [value * 2, value // 2] if abs(value) >= 2 else [value * 2]
        else:
            scaled = [value * 2, value / 2]
        return [Rewrite(f"constant {value!r} → {s!r}", literal(s)) for s in scaled]

    @staticmethod
    def _owned_elsewhere(node, ctx: PyContext) -> bool:
        parent = ctx.parent
        if isinstance(parent, ast.UnaryOp):  # -c is scaled as one literal at the UnaryOp
            return True
        if ctx.keyword in STRUCTURAL_KEYWORDS or "slice" in ctx.fields:
            return True
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Pow) and ctx.field == "right":
            return True  # an exponent: the power operator changes it
        call = next((p for p in reversed(ctx.parents) if isinstance(p, ast.Call)), None)
        if call is not None and call_name(call) in _SHAPE_CALLS:
            return True
        return isinstance(parent, ast.Call) and call_name(parent) in _NORM_CALLS and ctx.field == "args"

    def sympy(self, expr, parent, index):
        if not isinstance(expr, sp.Number) or expr == 0 or not expr.is_finite:
            return ()
        if isinstance(parent, sp.Pow) and index == 1:
            return ()
        if isinstance(parent, (sp.Indexed, sp.Tuple)):
            return ()
        return [Rewrite(f"constant {expr} → {expr * f}", expr * f) for f in (2, sp.Rational(1, 2))]
