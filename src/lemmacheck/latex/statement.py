"""A compiled statement: its relation chain (or an ``align*`` derivation) as a function of ``xp``.

``compile_statement(text, table)`` parses and compiles; ``.sides(xp, inputs, dims)`` returns the chain's
expressions, each of shape ``(batch,)``, exactly what a hand-written ``@inequality``/``@identity`` check
returns, with ``.relations`` and ``.labels`` beside them.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from lark import Token, Tree

from . import limits as _limits  # noqa: F401  (likewise, for \\lim)
from . import nodes as _nodes  # noqa: F401  (fills compile.HANDLERS with the rules' meanings)
from . import products as _products  # noqa: F401  (likewise, for products and scripts)
from . import values as V
from .compile import Compiler, Env, Node, compile_node
from .errors import LatexError
from .logic import (
    RELATIONS,
    compile_definitions,
    condition_truth,
    read_property,
    read_relation,
    sampled_condition,
)
from .parse import parse
from .symbols import SymbolTable
from .truth import Truth, all_of

__all__ = [
    "CompiledStatement",
    "CompiledProperty",
    "compile_statement",
    "compile_expression",
    "compile_property",
]


@dataclasses.dataclass(frozen=True)
class CompiledStatement:
    text: str
    relations: tuple[str, ...]
    labels: tuple[str, ...]
    nodes: tuple[Node, ...]

    probe: str = ""
    probe_fn: Any = None  # the table's probe_fn: how sides of rank >= 1 are compared
    conditions: Truth | None = None  # the statement's conditions (before \\implies or ':', after its chain)

    def holds(self, xp, inputs: dict, dims: dict, rtol: float, **reading: Any) -> Any:
        """Where the statement's conditions hold (True everywhere when it states none); ``rtol`` is the
        claim's tolerance, given by the caller, so a condition's equality is read as the run reads it
        (``reading``: :func:`.truth.settled_truth`'s, in high precision)."""
        env = Env(xp, dict(inputs), dict(dims), rtol=rtol, **reading)
        return condition_truth_or_all(self.conditions, env)

    def sides(self, xp, inputs: dict, dims: dict) -> tuple[Any, ...]:
        """Each expression of the chain on the batch: shape ``(batch,)``, like a hand-written check's (a
        vector through the table's probe, where it declares one)."""
        env = Env(xp, dict(inputs), dict(dims))
        batch = len(next(iter(inputs.values()))) if inputs else 1
        values = [n(env) for n in self.nodes]
        if self.probe_fn is not None and any(v.rank for v in values):
            values = [V.Value(self.probe_fn(xp, v.a, inputs)) if v.rank else v for v in values]
        elif self.probe and any(v.rank == 1 for v in values):
            c = V.Value(inputs[self.probe], row=True)
            values = [V.mul(c, v) if v.rank == 1 else v for v in values]
        return tuple(_batched(xp, v, k, batch) for k, v in enumerate(values))


def _batched(xp, v: V.Value, k: int, batch: int) -> Any:
    if v.rank:
        raise LatexError(
            f"expression {k} of the chain is a rank-{v.rank} value; a relation compares numbers",
            fix="compare its entries through a phrase of the table, or state it entrywise",
        )
    if v.exact:
        return xp.zeros(batch) + (
            xp.asarray(float(v.a.numerator)) / v.a.denominator if hasattr(v.a, "numerator") else v.a
        )
    return v.a


def compile_expression(text: str, table: SymbolTable) -> CompiledStatement:
    """One expression (no relation), e.g. the positive factor a check scales both sides by."""
    return compile_statement(text, table, bare=True)


def compile_statement(text: str, table: SymbolTable, *, bare: bool = False) -> CompiledStatement:
    """Parse and compile; :class:`LatexError` names the construct and column that stop it."""
    body = parse(text).children[0]
    c = Compiler(table, text)
    if body.data == "align":
        return _align(c, body)
    reading = read_relation(c, body)
    compile_definitions(c, reading.definitions)
    conditions = condition_truth(c, reading.conditions) if reading.conditions else None
    if reading.quantified:
        conditions = _quantified(c, reading.quantified, conditions)
    children = reading.chain.children
    exprs = [ch for ch in children if not isinstance(ch, Token)]
    rels = [RELATIONS[str(ch)] for ch in children if isinstance(ch, Token)]
    if not set(rels) <= CHAIN_RELATIONS:
        raise LatexError(
            f"{sorted(set(rels) - CHAIN_RELATIONS)} in the relation a check computes, which compares numbers",
            construct=text[:40],
            fix="state it as a property",
        )
    if not rels and not bare:
        raise LatexError(
            "an expression with no relation",
            construct=text[:40],
            column=1,
            fix="state what it equals or bounds",
        )
    nodes = tuple(compile_node(c, e) for e in exprs)
    labels = tuple(f"step {i + 1}" for i in range(len(rels)))
    return CompiledStatement(text, tuple(rels), labels, nodes, table.probe, table.probe_fn, conditions)


CHAIN_RELATIONS = {"=", "<=", "<", ">=", ">", "~"}


def _quantified(c: Compiler, quantifiers: list, conditions: Truth | None) -> Truth:
    """A relation stated for every value of a claim's input: the sampling quantifies, and its set is one
    more condition (an index quantified over a range would be several relations, which one chain is not)."""
    parts = [conditions] if conditions is not None else []
    for q in quantifiers:
        parts += sampled_condition(c, q)
    return all_of(parts)


def _always(env: Env):
    import numpy as np

    return np.ones(len(next(iter(env.inputs.values()))) if env.inputs else 1, dtype=bool)


def condition_truth_or_all(conditions: Truth | None, env: Env):
    return _always(env) if conditions is None else conditions(env)


@dataclasses.dataclass(frozen=True)
class CompiledProperty:
    """A truth-valued statement: one boolean per instance, like a property's check."""

    text: str
    truth: Truth
    atoms: tuple = ()  # (a, rel, b) of each relation it compares: where a - b changes sign, its truth may

    def values(self, xp, inputs: dict, dims: dict, rtol: float, **reading: Any) -> Any:
        """One truth value per instance; ``rtol`` is the claim's tolerance from the policy, given by the
        caller, so an ``=`` is read as the check reads it (``reading``: :func:`.truth.settled_truth`'s)."""
        return self.truth(Env(xp, dict(inputs), dict(dims), rtol=rtol, **reading))


def compile_property(text: str, table: SymbolTable) -> CompiledProperty:
    body = parse(text).children[0]
    c = Compiler(table, text)
    if body.data == "align":
        raise LatexError("an align* derivation, which is a chain of relations, not a property")
    truth = read_property(c, body)
    return CompiledProperty(text, truth, tuple(c.atoms))


def _align(c: Compiler, body: Tree) -> CompiledStatement:
    """``e0 &= e1 \\text{label} \\\\ &\\le e2 ...``: each row a step, its ``\\text{}`` its label."""
    first, steps = (
        body.children[1],
        [s for s in body.children if isinstance(s, Tree) and s.data == "aligned_step"],
    )
    nodes, rels, labels = [compile_node(c, first)], [], []
    for i, step in enumerate(steps, 1):
        rel, expr, *label = step.children
        rels.append(RELATIONS[str(rel)])
        nodes.append(compile_node(c, expr))
        labels.append(_label(label[0]) if label else f"step {i}")
    return CompiledStatement(
        c.text, tuple(rels), tuple(labels), tuple(nodes), c.table.probe, c.table.probe_fn
    )


def _label(node: Tree) -> str:
    raw = str(node.children[0])
    return raw[len("\\text{") : -1]
