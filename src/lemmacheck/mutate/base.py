"""The one interface every mutation operator implements, and the record of one mutation.

An operator is a local rewrite rule, like a Hypothesis shrink pass: given one node of a tree it proposes
replacements, each with a short description.  The walkers in :mod:`.targets` visit every node of a check
function's Python AST (or of a derivation's SymPy expressions) in a fixed order and ask each operator in
turn; the operators never see a claim, and the runner never sees an operator's internals.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["Operator", "Rewrite", "PyContext"]


@dataclasses.dataclass(frozen=True)
class Rewrite:
    """One proposed replacement of a node: what it does, and the new node (AST node or SymPy expression)."""

    description: str | Callable[[], str]  # a callable when printing it is costly (SymPy terms)
    new: Any


@dataclasses.dataclass(frozen=True)
class PyContext:
    """Where a Python node sits, so an operator can leave alone what another operator owns.

    ``parents`` runs from the function node down to the node's direct parent; ``fields`` names the
    attribute followed at each level (``"slice"``, ``"args"`` ...); ``fields[-1]`` holds the node.
    """

    parents: tuple[ast.AST, ...]
    fields: tuple[str, ...]
    keyword: str | None = None  # the keyword argument's name when the node is (inside) its value

    @property
    def field(self) -> str:
        return self.fields[-1] if self.fields else ""

    @property
    def parent(self) -> ast.AST | None:
        return self.parents[-1] if self.parents else None

    def inside(self, *types: type) -> bool:
        return any(isinstance(p, types) for p in self.parents)


class Operator:
    """A mutation operator: ``name`` is its registry key, ``summary`` one line for the docs and report."""

    name: str = ""
    summary: str = ""

    def python(self, node: ast.AST, ctx: PyContext) -> Sequence[Rewrite]:
        """Replacements for one node of a check function's AST (the node itself is never modified)."""
        return ()

    def sympy(self, expr: Any, parent: Any, index: int | None) -> Sequence[Rewrite]:
        """Replacements for one subexpression of a SymPy derivation (SymPy trees are immutable);
        ``parent.args[index]`` is ``expr`` (``parent`` is None at the top of an expression)."""
        return ()

    def relation(self, relation: str) -> Sequence[Rewrite]:
        """Replacements for one relation of a chain (``"<="`` ...); ``Rewrite.new`` is the new relation."""
        return ()
