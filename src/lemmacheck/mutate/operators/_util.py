"""Small helpers shared by the operators (numbers in Python ASTs and SymPy trees)."""

from __future__ import annotations

import ast
import numbers

import sympy as sp

# Keyword arguments whose value is structure, not mathematics (an axis, a dtype, a flag).
STRUCTURAL_KEYWORDS = frozenset({"axis", "axes", "dtype", "keepdims", "shape", "size", "ord", "out"})


def number(node: ast.AST) -> float | int | None:
    """The value of a numeric literal (``2``, ``0.5``, ``-1``), or None."""
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, numbers.Real)
        and not isinstance(node.value, bool)
    ):
        return node.value
    return None


def literal(value: float | int) -> ast.expr:
    if value < 0:
        return ast.UnaryOp(op=ast.USub(), operand=ast.Constant(value=-value))
    return ast.Constant(value=value)


def show(value) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return repr(value)
    return repr(value)


def call_name(node: ast.AST) -> str:
    """``xp.vector_norm`` -> ``vector_norm``; ``max`` -> ``max``; otherwise ``""``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def is_sympy_number(expr) -> bool:
    return isinstance(expr, sp.Number) and expr.is_finite is not False
