"""Reading a shipped SymPy expression back: ``srepr`` text only, never arbitrary Python.

``sympy.sympify`` evaluates its argument as Python, so a ``results.json`` written by someone else could
run code when a certificate is replayed.  A shipped margin or constraint is therefore parsed with
:mod:`ast` first and accepted only when it is what ``srepr`` writes: calls of SymPy's own constructors
(``Add``, ``Symbol``, ``Rational`` …) on literals, tuples and keyword arguments, and the singletons
``srepr`` writes as bare names (``true`` in a Piecewise's last condition, ``pi``, ``oo`` …).
"""

from __future__ import annotations

import ast
from typing import Any

import sympy
from sympy.functions.elementary.piecewise import ExprCondPair

__all__ = ["from_srepr"]

_LITERALS = (ast.Constant, ast.Tuple, ast.List, ast.keyword, ast.Load)
# the names srepr prints without a call: SymPy's singletons, each a value, none callable from the text
# classes srepr names that SymPy's top-level namespace does not export
_CLASSES = {"ExprCondPair": ExprCondPair}
_SINGLETONS = frozenset(
    {"true", "false", "pi", "E", "I", "oo", "zoo", "nan", "EulerGamma", "Catalan", "GoldenRatio"}
)


def _allowed(node: ast.AST) -> bool:
    if isinstance(node, ast.Call):  # a call of a SymPy class (Add, Symbol, ExprCondPair), never a function
        return (
            isinstance(node.func, ast.Name)
            and isinstance(_CLASSES.get(node.func.id, getattr(sympy, node.func.id, None)), type)
            and all(_allowed(a) for a in [*node.args, *node.keywords])
        )
    if isinstance(node, ast.Name):
        return node.id in _SINGLETONS
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return isinstance(node.operand, ast.Constant) or _allowed(node.operand)
    if isinstance(node, ast.keyword):
        return _allowed(node.value)
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_allowed(e) for e in node.elts)
    return isinstance(node, _LITERALS)


def from_srepr(text: str) -> Any:
    """The expression ``text`` spells, when it is ``srepr`` output; ``ValueError`` otherwise."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ValueError(f"not a SymPy srepr expression: {exc}") from None
    if not _allowed(tree.body):
        raise ValueError(f"not a SymPy srepr expression (only SymPy constructors on literals): {text[:80]!r}")
    return sympy.sympify(text, locals=dict(_CLASSES))
