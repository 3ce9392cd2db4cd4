"""The mutants of a check function: every operator rewrite of every node of its Python AST, in ``ast``
field order, leaving structure alone (:mod:`.structure`) and marking what is known equivalent without
running it (dead code, a term that is a literal zero)."""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator, Mapping, Sequence

from ..model.claim import Claim
from .base import Operator, PyContext, Rewrite
from .mutant import Mutant, MutantText, check_function
from .polarity import weaker_property
from .python_source import compile_function, function_source, replace_at
from .structure import Structure

__all__ = ["python_sites", "python_mutants"]

_TERMINATORS = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def _children(node: ast.AST) -> Iterator[tuple[str, int | None, ast.AST, str | None]]:
    """(field, position in a list field, child, keyword name) in ``ast`` field order."""
    for field, value in ast.iter_fields(node):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and field in (
            "decorator_list",
            "args",
            "returns",
            "type_params",
            "type_comment",
        ):
            continue
        if isinstance(value, list):
            for i, child in enumerate(value):
                if isinstance(child, ast.AST):
                    yield field, i, child, None
        elif isinstance(value, ast.AST):
            yield field, None, value, (node.arg if isinstance(node, ast.keyword) else None)


def _zero_term(node: ast.AST) -> bool:
    """A literal zero, or a product with a literal zero factor (``0 * delta``, there to broadcast)."""
    if isinstance(node, ast.Constant):
        return node.value == 0 and not isinstance(node.value, bool)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        return _zero_term(node.left) or _zero_term(node.right)
    return False


def _changes_only_a_zero_term(node: ast.AST, rw: Rewrite) -> bool:
    """A sum whose changed term is zero: its sign flipped, or the term dropped."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub))):
        return False
    new = ast.dump(rw.new)
    left, right = ast.dump(node.left), ast.dump(node.right)
    if isinstance(rw.new, ast.BinOp) and (ast.dump(rw.new.left), ast.dump(rw.new.right)) == (left, right):
        return _zero_term(node.right)  # + ↔ − changes the right operand's sign only
    if new == left:
        return _zero_term(node.right)
    if new == right or new == ast.dump(ast.UnaryOp(op=ast.USub(), operand=node.right)):
        return _zero_term(node.left)
    return False


def _static_reason(node: ast.AST, parents: Sequence[ast.AST], rw: Rewrite, *, dead: bool) -> str | None:
    if dead:
        return "dead code: the mutated statement is never executed"
    if _changes_only_a_zero_term(node, rw):
        return "the term whose sign is flipped or that is dropped is a literal zero times a finite value"
    for parent, child in zip(parents[::-1], (node, *parents[::-1][:-1]), strict=True):
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mult):
            other = parent.right if parent.left is child else parent.left
            if isinstance(other, ast.Constant) and other.value == 0 and not isinstance(other.value, bool):
                return "the mutated term is multiplied by a literal zero"
    return None


@dataclasses.dataclass(frozen=True)
class _Walk:
    operators: Sequence[Operator]
    structure: Structure

    def visit(self, node, path, parents, fields, keyword, *, dead):
        ctx = PyContext(parents=tuple(parents), fields=tuple(fields), keyword=keyword)
        if path and not self.structure.not_a_site(node, ctx):  # the function node is not a site
            for op in self.operators:
                for rw in op.python(node, ctx):
                    yield op, path, node, rw, _static_reason(node, parents, rw, dead=dead)
        terminated_in = None  # the statement list in which a return/raise/break/continue was seen
        for field, pos, child, kw in _children(node):
            if self.structure.skips(child, node, field, pos):
                continue
            child_dead = dead or terminated_in == field  # after a return in the same statement list
            if isinstance(node, ast.If) and field == "body" and isinstance(node.test, ast.Constant):
                child_dead = child_dead or not node.test.value
            yield from self.visit(
                child,
                (*path, (field, pos)),
                (*parents, node),
                (*fields, field),
                kw if kw is not None else keyword,
                dead=child_dead,
            )
            if isinstance(child, _TERMINATORS) and pos is not None:
                terminated_in = field


def python_sites(root: ast.AST, operators: Sequence[Operator], dims: Mapping | None = None):
    """(operator, path, node, rewrite, static reason) for every rewrite of every node, in order."""
    yield from _Walk(operators, Structure.of(root, dims)).visit(root, (), [], [], None, dead=False)


def _along(root: ast.AST, path) -> list[ast.AST]:
    """The nodes from ``root`` down to the parent of the node at ``path``."""
    out, node = [], root
    for field, pos in path:
        out.append(node)
        node = getattr(node, field) if pos is None else getattr(node, field)[pos]
    return out


def python_mutants(claim: Claim, operators, start: int) -> list[Mutant]:
    found = check_function(claim)
    if found is None:
        return []
    field, fn = found
    source = function_source(fn)
    out: list[Mutant] = []
    dims = getattr(claim.check, "dims", None)
    is_property = bool(getattr(claim.check, "is_property", False))
    for op, path, node, rw, static in python_sites(source.tree, operators, dims):
        if ast.dump(node) == ast.dump(rw.new):
            continue

        def build(path=path, new=rw.new):
            new_fn = compile_function(fn, source, replace_at(source.tree, path, new))
            return dataclasses.replace(claim, check=dataclasses.replace(claim.check, **{field: new_fn}))

        def text(node=node, rw=rw) -> MutantText:
            return rw.description, ast.unparse(node), ast.unparse(rw.new)

        def static_reason(static=static) -> str | None:
            return static

        def weaker(node=node, path=path, new=rw.new) -> str | None:
            return weaker_property(source.tree, _along(source.tree, path), node, new) if is_property else None

        line = getattr(node, "lineno", None)
        location = f"{fn.__name__} ({source.display}:{line})"
        index = start + len(out)
        mutant = Mutant(claim.id, index, op.name, "check", location, line, text, build, static_reason, weaker)
        out.append(mutant)
    return out
