"""Parse tree -> a function of ``xp``: each node becomes a closure over an :class:`Env` returning a
:class:`~.values.Value`.  Meaning comes from the content's :class:`~.symbols.SymbolTable`; a construct the
compiler has no meaning for raises :class:`LatexError` naming it and its column."""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from lark import Token, Tree

from ..model.inputs import call_with_inputs, parameter_names
from . import values as V
from .errors import LatexError
from .symbols import Derived, Function, Input, SymbolTable, normalise

__all__ = ["Env", "Node", "FnNode", "compile_node", "meaning", "Compiler"]


@dataclasses.dataclass
class Env:
    xp: Any
    inputs: dict
    dims: dict
    bound: dict = dataclasses.field(default_factory=dict)  # \sum_{t=1}^M: t -> its current value
    memo: dict = dataclasses.field(default_factory=dict)  # a Derived's computation, once per evaluation
    rtol: float = 0.0  # how close the two sides of an '=' clause must be for it to hold (truth.py)
    residues: list | None = None  # each '=' clause's residue, recorded (truth.settled_truth)
    finer: list | None = None  # the residues recorded at twice the digits, read in the same order


Node = Callable[[Env], V.Value]

#: the meaning of each grammar rule, filled by .nodes and .products (imported by .statement), which use
#: this module's helpers: the registry keeps the import graph one-way
HANDLERS: dict[str, Callable[..., Any]] = {}


class FnNode:
    """A table Function (or its gradient) waiting for its parenthesised argument in a product."""

    def __init__(self, fn: Any, what: str):
        self.fn, self.what = fn, what

    def __call__(self, env: Env) -> V.Value:
        raise LatexError(
            f"{self.what} is a function and is applied to nothing", fix="write its argument in ()"
        )


@dataclasses.dataclass(frozen=True)
class Compiler:
    table: SymbolTable
    text: str
    defined: dict = dataclasses.field(default_factory=dict)  # symbols the statement defines itself
    bound: frozenset = frozenset()  # variables bound around the node compiled (\sum_i, \forall t)
    atoms: list = dataclasses.field(default_factory=list)  # each relation a truth value compares (a, rel, b)

    def source(self, node: Tree | Token) -> str:
        if isinstance(node, Token):
            return str(node)
        return self.text[node.meta.start_pos : node.meta.end_pos]

    def column(self, node: Tree | Token) -> int | None:
        meta = node if isinstance(node, Token) else getattr(node, "meta", None)
        return getattr(meta, "column", None)

    def refuse(self, node: Tree | Token, why: str, fix: str = "") -> LatexError:
        return LatexError(
            why, construct=self.source(node)[:40], column=self.column(node), text=self.text, fix=fix
        )

    def key(self, node: Tree | Token) -> str:
        return normalise(self.source(node))


def compile_node(c: Compiler, node: Tree | Token) -> Node:
    """The closure computing ``node``; located errors raised at evaluation carry no column, so the
    closure re-raises them with this node's."""
    inner = _compile(c, node)
    if isinstance(inner, FnNode):
        return inner  # a function waiting for its argument: the product applies it

    def run(env: Env) -> V.Value:
        try:
            return inner(env)
        except LatexError as exc:
            if exc.column is not None:
                raise
            raise c.refuse(node, exc.why, exc.fix) from exc

    return run


def _compile(c: Compiler, node: Tree | Token) -> Node:
    if isinstance(node, Token):
        return _token(c, node)
    named = meaning(c, node) if node.data not in _SCRIPTED else None
    if named is not None and not isinstance(named, Function):
        return named  # a phrase the table names as a whole (\langle\nabla_\Phi f_t,\Delta\Phi\rangle)
    handler = HANDLERS.get(str(node.data))
    if handler is None:
        raise c.refuse(node, f"the compiler has no meaning for a {node.data}")
    return handler(c, node)


#: nodes whose table lookup is the longest match over their scripts (products.postfix), not the whole
_SCRIPTED = frozenset({"postfix", "factors"})


def _token(c: Compiler, tok: Token) -> Node:
    if tok.type in ("NUMBER", "DIGIT"):
        n = Fraction(str(tok))
        value = V.const(int(n) if n.denominator == 1 else n)
        return lambda env: value
    if tok.type == "INFTY":
        return lambda env: V.Value(math.inf)  # only an index or a bound uses it
    raise c.refuse(tok, f"a bare {tok.type} token")


def meaning(c: Compiler, node: Tree | Token, key: str | None = None) -> Node | Function | None:
    """What the table (or the statement's own definitions) says ``node`` is, or None."""
    key = key if key is not None else c.key(node)
    if key in c.defined:
        return c.defined[key]
    m = c.table.get(key)
    if m is None:
        return None
    if isinstance(m, Function):
        return m
    found, name = m, key

    def run(env: Env) -> V.Value:
        v = _input(env, found.name, name) if isinstance(found, Input) else _derived(env, found, name)
        return V.Value(v.a, row=True) if found.row and v.rank == 1 else v

    return run


def _input(env: Env, name: str, key: str) -> V.Value:
    if name in env.inputs:
        return V.Value(env.inputs[name])
    if name in env.dims:
        v = env.dims[name]
        if isinstance(v, int):
            return V.const(v)
        return V.Value(v)
    raise LatexError(
        f"the table maps {key!r} to {name!r}, which is neither an input nor a dim of this claim",
        construct=key,
        fix=f"declare the input {name!r} or map {key!r} to one of {sorted(env.inputs) + sorted(env.dims)}",
    )


def _derived(env: Env, d: Derived, key: str) -> V.Value:
    """A Derived's value; one that names a variable bound around it (``t`` of ``\\prod_{t=1}^T``) gets its
    current value, and a phrase that mentions a bound variable its Derived does not take is refused (its
    value would silently be the same for every t)."""
    params = parameter_names(d.fn)
    bound = {k: v for k, v in env.bound.items() if k in params}
    ignored = [
        k
        for k in env.bound
        if k not in bound and re.search(rf"(?<![A-Za-z\\]){re.escape(k)}(?![A-Za-z])", key)
    ]
    if ignored:
        raise LatexError(
            f"the phrase {key!r} mentions {ignored[0]}, bound around it, which its Derived does not take",
            construct=key,
            fix=f"give the Derived of {key!r} a parameter {ignored[0]!r} (its current value is passed)",
        )
    memo = (d.fn, tuple(sorted(bound.items())))
    try:
        if memo not in env.memo:  # several symbols often name parts of one computation (Derived(f, item))
            env.memo[memo] = call_with_inputs(d.fn, env.xp, env.inputs, {**env.dims, **bound})
        out = env.memo[memo]
        return V.Value(out[d.item] if d.item is not None else out)
    except TypeError as exc:
        raise LatexError(
            f"the table's Derived for {key!r} cannot be computed from this claim: {exc}"
        ) from exc
