"""``statement_check`` of a worked example: the statement's chains of numbers against what its check
computes, at the check's own precision.

A worked example's check is ``value(computed=..., stated=..., places=...)``.  Its computed value's leaves
are what the statement's symbols may denote: the table maps a symbol to a leaf by name, ``Input("variance")``
for ``computed()["variance"]``, ``Input("means[2]")`` for an entry of a list, ``Input("value")`` for a
single number.  Every clause of the statement is a chain (``\\sigma^2 = \\tfrac{12.92}{12} = 1.08``), and
every link of every chain is compared as the check compares a stated number with a computed one
(the check's own ``_compare_leaf``): exactly, or to ``places`` decimals where the check rounds.
Numbers are exact (``12.92`` is 1292/100), so a link fails only by what it states.  A statement none of
whose expressions reads the computed value says nothing about the check, and is ``not compiled``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from lark import Token, Tree

from ..model.claim import Claim, ValueCheck
from ..xp import numpy_xp
from .compile import Compiler, Env, compile_node
from .errors import LatexError
from .logic import RELATIONS, compile_definitions, premise_definitions
from .parse import parse
from .tables import table_for

__all__ = ["value_statement_check", "computed_leaves"]


class _Reading(dict):
    """The computed leaves, remembering which the statement read."""

    def __init__(self, leaves: Mapping[str, Any]):
        super().__init__(leaves)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)


def computed_leaves(value: Any, path: str = "") -> dict[str, Any]:
    """``{"variance": 1.07, "means[2]": 5/2, ...}``; a single number is ``"value"``."""
    if isinstance(value, Mapping):
        return {
            k: v for key, item in value.items() for k, v in computed_leaves(item, _join(path, key)).items()
        }
    if isinstance(value, list | tuple):  # the list itself (a tuple the statement writes) and its entries
        entries = {
            k: v for i, item in enumerate(value) for k, v in computed_leaves(item, f"{path}[{i}]").items()
        }
        return {path or "value": [_exact(v) for v in value], **entries}
    return {path or "value": _exact(value)}


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def _exact(v: Any) -> Any:
    """A SymPy rational as a Fraction (exact arithmetic with the statement's numbers), else as it is."""
    try:
        import sympy as sp

        if isinstance(v, sp.Rational):
            return Fraction(int(v.p), int(v.q))
        if isinstance(v, sp.Basic) and v.is_number:
            return float(v)
    except ImportError:  # pragma: no cover - SymPy is a dependency
        pass
    return v


def value_statement_check(claim: Claim) -> dict:
    check = claim.check
    assert isinstance(check, ValueCheck)
    # the check's own comparison of a stated number with a computed one (SymPy: imported only here)
    from ..kinds.worked import _compare_leaf as compare_leaf

    body = parse(claim.statement).children[0]
    if body.data != "statement":
        raise LatexError("an align* derivation where a worked example's numbers were expected")
    c = Compiler(table_for(claim.module, claim.id), claim.statement)
    *premise, formula = body.children
    compile_definitions(c, premise_definitions(c, premise[0] if premise else None))
    chains = _chains(c, formula)
    leaves = _Reading(computed_leaves(check.computed()))
    env = Env(numpy_xp, leaves, {})
    links = 0
    for exprs, rels in chains:
        values = [_number(n(env)) for n in exprs]
        for k, rel in enumerate(rels):
            ok = _link(values[k], values[k + 1], rel, check.places, compare_leaf)
            if not ok:
                return _differs(claim, values[k], values[k + 1], rel, check.places, links + 1)
            links += 1
    if not leaves.read:
        return {
            "status": "not compiled",
            "reason": "no expression of the statement reads the check's computed value; fix: map its symbols "
            f"to the computed leaves ({', '.join(sorted(leaves)[:6])}) with Input('leaf') in "
            f"{c.table.where}",
        }
    precision = "exactly" if check.places is None else f"to {check.places} decimals, as the check rounds"
    return {
        "status": "agrees",
        "instances": 1,
        "compared": f"{links} links of {len(chains)} chains {precision}, reading {sorted(leaves.read)}",
    }


def _chains(c: Compiler, formula: Tree) -> list:
    if formula.data != "conj":
        raise c.refuse(formula, f"a {formula.data} where a worked example's chains of numbers were expected")
    out = []
    for clause in formula.children:
        if not (isinstance(clause, Tree) and clause.data == "chain" and len(clause.children) > 1):
            raise c.refuse(clause, "a clause that is no chain of relations", "state what it equals")
        exprs = [_expression(c, ch) for ch in clause.children if not isinstance(ch, Token)]
        rels = [RELATIONS[str(ch)] for ch in clause.children if isinstance(ch, Token)]
        out.append((exprs, rels))
    return out


def _expression(c: Compiler, node):
    """A node, or the nodes of a tuple the statement writes, ``(2, 3, 2.5, 2.67)``."""
    inner = node
    if isinstance(node, Tree) and node.data == "postfix" and len(node.children) == 1:
        inner = node.children[0]
    if isinstance(inner, Tree) and inner.data == "tuple":
        parts = [compile_node(c, ch) for ch in inner.children]
        return lambda env: [p(env) for p in parts]
    return compile_node(c, node)


def _number(v: Any) -> Any:
    if isinstance(v, list):
        return [_number(x) for x in v]
    if v.rank:
        raise LatexError(f"a rank-{v.rank} value in a worked example's chain", fix="compare its entries")
    return [_exact(x) for x in v.a] if isinstance(v.a, list) else v.a


def _link(a: Any, b: Any, rel: str, places: int | None, compare) -> bool:
    if isinstance(a, list) or isinstance(b, list):
        if not (isinstance(a, list) and isinstance(b, list) and len(a) == len(b)):
            return False
        return all(_link(x, y, rel, places, compare) for x, y in zip(a, b, strict=True))
    return bool(compare(b, a, places)[0]) if rel == "=" else _order([a, b], 0, rel)


_ORDER = {
    "<=": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    ">=": lambda a, b: a >= b,
    ">": lambda a, b: a > b,
}


def _order(values: list, k: int, rel: str) -> bool:
    if rel not in _ORDER:
        raise LatexError(f"'{rel}' between two numbers of a worked example")
    return bool(_ORDER[rel](values[k], values[k + 1]))


def _differs(claim: Claim, a: Any, b: Any, rel: str, places: int | None, link: int) -> dict:
    how = "exactly" if places is None else f"to {places} decimals"
    return {
        "status": "differs",
        "step": link,
        "statement": [str(a), str(b)],
        "check": [],
        "reason": f"link {link} states {_show(a)} {rel} {_show(b)}, which does not hold {how}",
    }


def _show(v: Any) -> str:
    return f"{v} ({float(v):.6g})" if isinstance(v, Fraction) else str(v)
