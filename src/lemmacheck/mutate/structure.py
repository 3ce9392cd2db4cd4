"""What in a check function is structure, not mathematics: sites no operator is asked about.

Decided from the function's source and its claim's declared dims, before anything runs (docs/mutation.md,
"What is mutated").  A mutant of structure is not a different statement but code that cannot run (a state
index past the last state, a tuple subtracted from a tuple, ``'tanh' − 1``); its run would end in an
ERROR that says nothing about the check.  The rules:

- keyword arguments that are structure (``axis=``, ``dtype=`` …, :data:`STRUCTURAL_KEYWORDS`) and the
  docstring are not visited;
- *index arithmetic*: the value assigned to a name that is used inside a subscript's brackets, when that
  value is integer arithmetic on names and integer literals (``jj = min(j, N - 1)``; ``+ − * // %``,
  ``min``, ``max``, ``len``), is not visited: an index is mutated only where it is used, by
  ``index_shift``, as literal indices inside the brackets already are;
- *sequence building*: ``+`` or ``*`` with a list or tuple display as an operand concatenates or repeats
  a sequence (``prefix + (w,)``, ``[1] * n``); that operator, and the literals listed in the display
  (token ids, positions), are not mutation sites;
- *labels*: a subscript by a parameter whose declared dims are all strings (``SUP_D1[act]``, ``act`` in
  ``{'tanh', 'sigmoid'}``) is a lookup by key, not an index to shift.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Mapping, Sequence

from .base import PyContext
from .operators._util import STRUCTURAL_KEYWORDS

__all__ = ["Structure"]

_INTEGER_OPS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)
_INDEX_CALLS = frozenset({"min", "max", "len"})


@dataclasses.dataclass(frozen=True)
class Structure:
    """The structure of one check function (node identities are of the tree it was computed from)."""

    index_values: frozenset[int]  # id() of the assigned values that compute an index
    labels: frozenset[str]  # parameters whose declared dims are labels (strings)

    @classmethod
    def of(cls, tree: ast.AST, dims: Mapping[str, Sequence] | None = None) -> Structure:
        indexing = {
            n.id
            for sub in ast.walk(tree)
            if isinstance(sub, ast.Subscript)
            for n in ast.walk(sub.slice)
            if isinstance(n, ast.Name)
        }
        values = {
            id(a.value)
            for a in ast.walk(tree)
            if isinstance(a, ast.Assign)
            and len(a.targets) == 1
            and isinstance(a.targets[0], ast.Name)
            and a.targets[0].id in indexing
            and _integer_arithmetic(a.value)
        }
        labels = {
            name
            for name, values_ in (dims or {}).items()
            if values_ and all(isinstance(v, str) for v in values_)
        }
        return cls(frozenset(values), frozenset(labels))

    def skips(self, child: ast.AST, parent: ast.AST, field: str, pos: int | None) -> bool:
        """Whether the walk leaves ``child`` (and everything under it) alone."""
        if isinstance(child, ast.keyword) and child.arg in STRUCTURAL_KEYWORDS:
            return True  # axis=-1, dtype=...: structure, not mathematics
        return _is_docstring(child, parent, field, pos) or id(child) in self.index_values

    def not_a_site(self, node: ast.AST, ctx: PyContext) -> bool:
        """Whether no operator is asked about ``node`` itself (its children are still visited)."""
        if _builds_sequence(node):
            return True
        parents = ctx.parents
        if (
            isinstance(node, ast.Constant)
            and len(parents) >= 2
            and isinstance(parents[-1], (ast.List, ast.Tuple))
            and _builds_sequence(parents[-2])
        ):
            return True  # an item listed in a sequence being built: an id or a position
        return (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Name)
            and node.slice.id in self.labels
        )


def _builds_sequence(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.BinOp)
        and isinstance(node.op, (ast.Add, ast.Mult))
        and any(isinstance(side, (ast.List, ast.Tuple)) for side in (node.left, node.right))
    )


def _integer_arithmetic(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int) and not isinstance(node.value, bool)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return _integer_arithmetic(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, _INTEGER_OPS):
        return _integer_arithmetic(node.left) and _integer_arithmetic(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _INDEX_CALLS:
        return not node.keywords and all(_integer_arithmetic(a) for a in node.args)
    return False


def _is_docstring(node: ast.AST, parent: ast.AST, field: str, pos: int | None) -> bool:
    return (
        field == "body"
        and pos == 0
        and isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef))
        and isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )
