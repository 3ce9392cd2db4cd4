"""The constants a check's source writes, read as the rationals written, before the symbolic run.

The symbolic run calls the check on SymPy symbols, but Python evaluates an expression of literals in
float64 before SymPy sees it: ``x**2 * (1 + 1e-20)`` reaches SymPy as ``x**2 * 1.0``, and the false
``x²(1 + 1e-20) ≤ x²`` was certified with margin 0.  So the check's source is read (its body, and the
names it uses that its module or body binds to an expression of literals): every expression of numeric
literals is evaluated exactly (:class:`~fractions.Fraction` of each literal's text) and in float64, as
Python does; where the two differ after the float is read back as its shortest decimal form (how the
symbolic route reads a float), the certificate is refused, naming the expression, what float64 makes
of it and what the source writes.  A literal whose own text float64 cannot hold (``1.00000000000000001``)
is refused the same way.  The literals read are listed in the certificate.
"""

from __future__ import annotations

import ast
import inspect
import operator
import textwrap
from fractions import Fraction
from typing import Any

from .refusal import NotCertifiable
from .symbolic import decimal_rational

__all__ = ["source_constants"]

_OPS: dict[type, Any] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


class _Unreadable(Exception):
    """An expression that is not one of numeric literals (or not one exact arithmetic evaluates)."""


def _source_tree(obj) -> ast.AST | None:
    try:
        return ast.parse(textwrap.dedent(inspect.getsource(obj)))
    except (OSError, TypeError, SyntaxError):
        return None


def _bindings(tree: ast.AST | None, *, body_only: bool) -> dict[str, ast.expr]:
    """``name = <expression>`` at the top level of a module (or anywhere in a function's body)."""
    if tree is None:
        return {}
    nodes = ast.walk(tree) if not body_only else iter(getattr(tree, "body", []))
    return {
        t.id: n.value
        for n in nodes
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name)
    }


class _Reader:
    """Exact and float64 values of expressions of numeric literals (names resolved through ``names``)."""

    def __init__(self, names: dict[str, ast.expr]):
        self.names = names
        self.literals: dict[str, str] = {}  # literal text -> the rational it writes
        self.folded: list[str] = []

    def value(self, node: ast.expr, depth: int = 0) -> tuple[Fraction, float, bool]:
        """(exact, as float64 computes it, whether a float literal is involved)."""
        if depth > 20:
            raise _Unreadable
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            if isinstance(node.value, bool):
                raise _Unreadable
            if isinstance(node.value, int):
                return Fraction(node.value), float(node.value), False
            return self._literal(node), node.value, True
        if isinstance(node, ast.Name) and node.id in self.names:
            return self.value(self.names[node.id], depth + 1)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            e, f, fl = self.value(node.operand, depth + 1)
            return (-e, -f, fl) if isinstance(node.op, ast.USub) else (e, f, fl)
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            (ea, fa, la), (eb, fb, lb) = self.value(node.left, depth + 1), self.value(node.right, depth + 1)
            op = _OPS[type(node.op)]
            try:
                return op(ea, eb), float(op(fa, fb)), la or lb
            except (ZeroDivisionError, OverflowError):
                raise _Unreadable from None
        raise _Unreadable

    def _literal(self, node: ast.Constant) -> Fraction:
        text = getattr(node, "text", None) or repr(node.value)
        exact = Fraction(text.replace("_", ""))
        self.literals[text] = str(exact)
        if Fraction(str(decimal_rational(node.value))) != exact:
            self.folded.append(f"the literal {text} (float64 holds {node.value!r})")
        return exact

    def scan(self, tree: ast.AST) -> None:
        """Every maximal expression of literals in ``tree``, and every literal."""
        for node in ast.walk(tree):
            if not isinstance(node, (ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name)):
                continue
            try:
                exact, computed, floats = self.value(node)
            except _Unreadable:
                continue
            if not isinstance(node, ast.Constant) and Fraction(str(decimal_rational(computed))) != exact:
                self.folded.append(
                    f"{ast.unparse(node)} (float64 makes it {computed!r}, the source writes {exact})"
                )


def _with_texts(tree: ast.AST, source: str) -> None:
    """Each float literal's own text (``1e-20``, not its repr), where the source gives it."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, float):
            node.text = ast.get_source_segment(source, node)  # type: ignore[attr-defined]


def _parsed(fn) -> tuple[str, ast.AST] | None:
    """``fn``'s source and tree; for a lambda written inside a call (``where=lambda xp, x, **_: x > 0,``)
    the longest text from its ``lambda`` that parses."""
    try:
        source = textwrap.dedent(inspect.getsource(fn))
    except (OSError, TypeError):
        return None
    try:
        return source, ast.parse(source)
    except SyntaxError:
        pass
    start = source.find("lambda")
    for end in range(len(source), start + len("lambda"), -1):
        text = source[start:end]
        try:
            tree = ast.parse(text, mode="eval")
        except SyntaxError:
            continue
        return (text, tree) if isinstance(tree.body, ast.Lambda) else None
    return None


def source_constants(*fns) -> dict[str, str]:
    """The float literals the functions' source writes (text -> rational); :class:`NotCertifiable`
    when an expression of literals is folded by float64 to a value other than the one written."""
    literals: dict[str, str] = {}
    folded: list[str] = []
    for fn in fns:
        if fn is None:
            continue
        parsed = _parsed(fn)
        if parsed is None:
            continue  # no source to read (a builtin, a function made at run time): its floats stay as read
        source, tree = parsed
        module = inspect.getmodule(fn)
        module_tree = _source_tree(module) if module is not None else None
        if module_tree is not None:
            _with_texts(module_tree, inspect.getsource(module))  # type: ignore[arg-type]
        _with_texts(tree, source)
        func = next((n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.Lambda))), tree)
        body = func.body if isinstance(func, ast.FunctionDef) else [func]
        names = _bindings(module_tree, body_only=True) | _bindings(func, body_only=False)
        reader = _Reader(names)
        for stmt in body:
            reader.scan(stmt)
        literals |= reader.literals
        folded += [f for f in reader.folded if f not in folded]
    if folded:
        raise NotCertifiable(
            "a constant of the check is not what float64 computes from it, and the symbolic run sees only "
            f"the float: {'; '.join(folded)}; keep each literal beside an input (x*x + 1e-20*x*x, not "
            "x*x*(1 + 1e-20)) so the symbolic run reads it as written"
        )
    return literals
