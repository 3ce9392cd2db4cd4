"""Is a mutant of a property weaker than the original, by the shape of its code?  Decided from the code,
never from a run.

A property returns one truth value per instance, so the implication test of :mod:`.implication` cannot
apply: "original ⇒ mutant" on instances where the original always holds is the mutant's own run again.
What can be read from the code is *monotonicity*.  A constant that is an operand of a comparison
(``op_norm(J) > 1``) moves the comparison's truth set one way: raised to 2, ``‖J‖ > 2`` holds on a subset
of where ``‖J‖ > 1`` does.  If that comparison reaches the returned value only through ``not``, ``and``,
``or`` (``~``, ``&``, ``|``, ``xp.logical_*``) and names assigned once, each ``not`` flipping the
direction, the returned truth value is a monotone function of it, and the mutant is true on a superset of
the instances the original is true on: ``‖J‖ > 2 ⇒ c`` follows from ``‖J‖ > 1 ⇒ c``.  Anything else
(arithmetic between the comparison and the result, a name assigned twice, a loop) is not read: no answer.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from .operators._util import number

__all__ = ["weaker_property"]

# the comparisons whose truth set grows (+1) or shrinks (-1) as their right operand grows
_RIGHT = {ast.Lt: 1, ast.LtE: 1, ast.Gt: -1, ast.GtE: -1}
_KEEP_CALLS = frozenset({"logical_and", "logical_or"})
_FLIP_CALLS = frozenset({"logical_not"})
#: names followed from the comparison to the returned value, at most (a chain of assignments)
_DEPTH = 4


def _value(node: ast.AST) -> float | None:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = number(node.operand)
        return None if inner is None else -inner
    v = number(node)
    return None if v is None else float(v)


def _comparison_direction(node: ast.AST, parent: ast.AST, new: ast.AST) -> int | None:
    """+1 if the mutated literal operand makes its comparison true more often, -1 less often."""
    old_v, new_v = _value(node), _value(new)
    if old_v is None or new_v is None or old_v == new_v:
        return None
    if not (isinstance(parent, ast.Compare) and len(parent.ops) == 1 and type(parent.ops[0]) in _RIGHT):
        return None
    grows = _RIGHT[type(parent.ops[0])]
    if parent.comparators[0] is node:
        side = grows
    elif parent.left is node:
        side = -grows
    else:
        return None
    return side if new_v > old_v else -side


def _name(node: ast.AST) -> str:
    f = node.func if isinstance(node, ast.Call) else None
    if isinstance(f, ast.Attribute):
        return f.attr
    return f.id if isinstance(f, ast.Name) else ""


def _step(parent: ast.AST, child: ast.AST) -> int | None:
    """How ``parent``'s truth value moves with ``child``'s: +1, -1, or None (not a logical connective)."""
    if isinstance(parent, ast.UnaryOp) and isinstance(parent.op, (ast.Invert, ast.Not)):
        return -1
    if isinstance(parent, ast.BoolOp) or (
        isinstance(parent, ast.BinOp) and isinstance(parent.op, (ast.BitOr, ast.BitAnd))
    ):
        return 1
    if isinstance(parent, ast.Call) and child in parent.args and not parent.keywords:
        name = _name(parent)
        return 1 if name in _KEEP_CALLS else -1 if name in _FLIP_CALLS else None
    return None


def _parents(root: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(root) for child in ast.iter_child_nodes(node)}


def _polarity(expr: ast.AST, up: dict, root: ast.AST, depth: int) -> int | None:
    """How the function's returned value moves with ``expr``'s truth value (+1, -1), or None."""
    sign, node = 1, expr
    while True:
        parent = up.get(node)
        if isinstance(parent, ast.Return):
            return sign
        if isinstance(parent, ast.Assign) and depth > 0:
            return _through_name(parent, up, root, depth - 1, sign)
        step = None if parent is None else _step(parent, node)
        if parent is None or step is None:
            return None
        sign, node = sign * step, parent


def _through_name(assign: ast.Assign, up: dict, root: ast.AST, depth: int, sign: int) -> int | None:
    """The polarity of a name assigned once, at statement level of the function, through all its uses."""
    if len(assign.targets) != 1 or not isinstance(assign.targets[0], ast.Name) or up.get(assign) is not root:
        return None
    name = assign.targets[0].id
    stores = [n for n in ast.walk(root) if isinstance(n, ast.Name) and n.id == name and not _loads(n)]
    uses = [n for n in ast.walk(root) if isinstance(n, ast.Name) and n.id == name and _loads(n)]
    if len(stores) != 1 or not uses:
        return None
    found = {_polarity(u, up, root, depth) for u in uses}
    if len(found) != 1 or None in found:
        return None
    (p,) = found
    return None if p is None else sign * p


def _loads(n: ast.Name) -> bool:
    return isinstance(n.ctx, ast.Load)


def weaker_property(root: ast.AST, parents: Sequence[ast.AST], node: ast.AST, new: ast.AST) -> str | None:
    """Why the property whose function is ``root``, with ``node`` (under ``parents``, outermost first)
    replaced by the literal ``new``, is true wherever the original is; None when the code does not show it."""
    if not parents or any(isinstance(p, (ast.For, ast.While, ast.Lambda)) for p in parents):
        return None
    compare = parents[-1]
    direction = _comparison_direction(node, compare, new)
    if direction is None:
        return None
    polarity = _polarity(compare, _parents(root), root, _DEPTH)
    if polarity is None or direction * polarity < 0:
        return None
    return (
        f"weaker than the original, by its code: the comparison {ast.unparse(compare)} with "
        f"{ast.unparse(node)} → {ast.unparse(new)} is true "
        f"{'more' if direction > 0 else 'less'} often, and reaches the property's value only through "
        f"not/and/or, {'as is' if polarity > 0 else 'negated'}: the mutant holds wherever the original does"
    )
