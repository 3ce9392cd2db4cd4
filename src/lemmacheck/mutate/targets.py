"""What gets mutated: a claim's check function (its Python AST) and its derivation (its SymPy chain).

Every site is visited in a fixed order (claim kinds in declaration order, AST fields in ``ast`` order,
SymPy ``args`` order, operators in registry order), so the k-th mutant of a claim is the same on every
run of the same code.  A mutant is applied by rebuilding the claim with ``dataclasses.replace``; a
mutated Python function is compiled from the module's own source and executed in a copy of the module's
globals, so the original module is never touched.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import functools
import inspect
import os
import warnings
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

import sympy as sp

from ..kinds import MutationTargets, checker_for
from ..model.claim import Claim
from .base import Operator, PyContext
from .equivalence import equal_expressions
from .operators._util import STRUCTURAL_KEYWORDS

__all__ = ["Mutant", "enumerate_mutants", "check_function", "MutantBuildError"]

# A mutant's (description, code before, code after): the description may be a callable (SymPy terms are
# slow to print), before and after are AST source or SymPy expressions, made strings by ``Mutant.text``.
MutantText = tuple[str | Callable[[], str], object, object]
# The node of a check function: its ``def`` or its ``lambda``.
FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
# The (field, position in a list field) steps from a function node down to one of its descendants.
AstPath = tuple[tuple[str, int | None], ...]
_Node = TypeVar("_Node", bound=ast.AST)


class MutantBuildError(Exception):
    """A mutant could not be compiled (it is reported as invalid, never as killed)."""


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One small change of one claim.  ``build()`` returns the mutated claim."""

    claim_id: str
    index: int  # position in the claim's enumeration (stable for the same code)
    operator: str
    target: str  # "check", "relations" or "derivation"
    location: str  # function and file:line, or the derivation expression
    line: int | None
    # (description, code before, code after), printed on demand: printing SymPy terms is slow.
    _text: Callable[[], MutantText] = dataclasses.field(repr=False, compare=False)
    _build: Callable[[], Claim] = dataclasses.field(repr=False, compare=False)
    # Why the mutant is known equivalent without running it (dead code, a term times 0, SymPy equality),
    # computed on demand: SymPy's check is too slow to run on mutants that are not selected.
    _static: Callable[[], str | None] = dataclasses.field(repr=False, compare=False, default=lambda: None)

    @property
    def id(self) -> str:
        return f"{self.claim_id}#{self.index}"

    def build(self) -> Claim:
        return self._build()

    @functools.cached_property
    def text(self) -> tuple[str, str, str]:
        description, before, after = self._text()
        if callable(description):
            description = description()
        return str(description), _short(str(before)), _short(str(after))

    @property
    def description(self) -> str:
        return self.text[0]

    @property
    def before(self) -> str:
        return self.text[1]

    @property
    def after(self) -> str:
        return self.text[2]

    def static_equivalence(self) -> str | None:
        return self._static()


def _targets(spec) -> MutationTargets | None:
    """What the spec's kind offers to mutate (its checker's ``mutation_targets``)."""
    return None if spec is None else checker_for(spec).mutation_targets(spec)


def check_function(claim: Claim) -> tuple[str, Callable] | None:
    """The field of the claim's check that holds Python code, and the function."""
    targets = _targets(claim.check)
    return None if targets is None else targets.function


# --------------------------------------------------------------------------- Python functions


@dataclasses.dataclass
class _Source:
    tree: FunctionNode
    filename: str
    display: str  # file path relative to the working directory, for locations


def _function_source(fn: Callable) -> _Source:
    if getattr(fn, "__closure__", None):
        raise MutantBuildError(f"{fn.__qualname__} is a closure; its free variables cannot be rebuilt")
    filename = inspect.getsourcefile(fn)
    if filename is None:
        raise MutantBuildError(f"no source file for {fn.__qualname__}")
    module_tree = _parsed(filename)
    first = fn.__code__.co_firstlineno
    found: list[FunctionNode] = []
    for node in ast.walk(module_tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == fn.__name__:
            start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            if first in (start, node.lineno):
                found.append(node)
        elif isinstance(node, ast.Lambda) and fn.__name__ == "<lambda>" and node.lineno == first:
            if [a.arg for a in node.args.args] == list(fn.__code__.co_varnames[: fn.__code__.co_argcount]):
                found.append(node)
    if len(found) != 1:
        raise MutantBuildError(
            f"{'no' if not found else 'more than one'} definition of {fn.__qualname__} at {filename}:{first}"
        )
    try:
        display = os.path.relpath(filename)
    except ValueError:
        display = filename
    return _Source(found[0], filename, display)


@functools.lru_cache(maxsize=64)
def _parsed(filename: str) -> ast.Module:
    return ast.parse(Path(filename).read_text(encoding="utf-8"), filename=filename)


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


def _is_docstring(node: ast.AST, parent: ast.AST, field: str, pos: int | None) -> bool:
    return (
        field == "body"
        and pos == 0
        and isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef))
        and isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def _static_reason(node: ast.AST, parents: Sequence[ast.AST], *, dead: bool) -> str | None:
    if dead:
        return "dead code: the mutated statement is never executed"
    for parent, child in zip(parents[::-1], (node, *parents[::-1][:-1]), strict=True):
        if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mult):
            other = parent.right if parent.left is child else parent.left
            if isinstance(other, ast.Constant) and other.value == 0 and not isinstance(other.value, bool):
                return "the mutated term is multiplied by a literal zero"
    return None


def _python_sites(root: ast.AST, operators: Sequence[Operator]):
    """(path, node, context, rewrite, static reason) for every operator rewrite of every node, in order."""

    def visit(node, path, parents, fields, keyword, *, dead):
        if path:  # the function node itself is not a mutation site
            ctx = PyContext(parents=tuple(parents), fields=tuple(fields), keyword=keyword)
            for op in operators:
                for rw in op.python(node, ctx):
                    yield op, path, node, rw, _static_reason(node, parents, dead=dead)
        terminated_in = None  # the statement list in which a return/raise/break/continue was seen
        for field, pos, child, kw in _children(node):
            if _is_docstring(child, node, field, pos):
                continue
            if isinstance(child, ast.keyword) and child.arg in STRUCTURAL_KEYWORDS:
                continue  # axis=-1, dtype=...: structure, not mathematics
            child_dead = dead or terminated_in == field  # after a return in the same statement list
            if (
                isinstance(node, ast.If)
                and field == "body"
                and isinstance(node.test, ast.Constant)
                and not node.test.value
            ):
                child_dead = True
            yield from visit(
                child,
                (*path, (field, pos)),
                (*parents, node),
                (*fields, field),
                kw if kw is not None else keyword,
                dead=child_dead,
            )
            if isinstance(child, (ast.Return, ast.Raise, ast.Continue, ast.Break)) and pos is not None:
                terminated_in = field

    yield from visit(root, (), [], [], None, dead=False)


def _replace_at(root: _Node, path: AstPath, new: ast.AST) -> _Node:
    root = copy.deepcopy(root)
    node: ast.AST = root
    for field, pos in path[:-1]:
        node = getattr(node, field) if pos is None else getattr(node, field)[pos]
    field, pos = path[-1]
    new = copy.deepcopy(new)
    if pos is None:
        setattr(node, field, new)
    else:
        getattr(node, field)[pos] = new
    return root


def compile_function(fn: Callable, source: _Source, tree: FunctionNode) -> Callable:
    """Compile a mutated function node in a copy of the function's module globals (decorators dropped)."""
    namespace = dict(fn.__globals__)
    try:
        # A mutant may be code Python warns about at compile time (a constant subscripted, `x is 1`);
        # the warning would carry the real file's name and line and point at a bug that is not there.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SyntaxWarning)
            new = _compile_and_bind(source, tree, namespace)
    except Exception as exc:  # a mutant that does not compile is invalid, never killed
        raise MutantBuildError(f"{type(exc).__name__}: {exc}") from exc
    new.__doc__ = fn.__doc__
    return new


def _compile_and_bind(source: _Source, tree: FunctionNode, namespace: dict) -> Callable:
    if isinstance(tree, ast.Lambda):
        code = compile(ast.fix_missing_locations(ast.Expression(body=tree)), source.filename, "eval")
        return eval(code, namespace)  # noqa: S307 - the project's own source, mutated
    tree.decorator_list = []
    code = compile(
        ast.fix_missing_locations(ast.Module(body=[tree], type_ignores=[])), source.filename, "exec"
    )
    exec(code, namespace)  # noqa: S102 - the project's own source, mutated
    return namespace[tree.name]


def _python_mutants(claim: Claim, operators, start: int) -> list[Mutant]:
    found = check_function(claim)
    if found is None:
        return []
    field, fn = found
    source = _function_source(fn)
    out: list[Mutant] = []
    for op, path, node, rw, static in _python_sites(source.tree, operators):
        if ast.dump(node) == ast.dump(rw.new):
            continue

        def build(path=path, new=rw.new):
            new_fn = compile_function(fn, source, _replace_at(source.tree, path, new))
            return dataclasses.replace(claim, check=dataclasses.replace(claim.check, **{field: new_fn}))

        def text(node=node, rw=rw) -> MutantText:
            return rw.description, ast.unparse(node), ast.unparse(rw.new)

        def static_reason(static=static) -> str | None:
            return static

        line = getattr(node, "lineno", None)
        out.append(
            Mutant(
                claim.id,
                start + len(out),
                op.name,
                "check",
                f"{fn.__name__} ({source.display}:{line})",
                line,
                text,
                build,
                static_reason,
            )
        )
    return out


# --------------------------------------------------------------------------- relation chains


def _known(reason: str | None) -> str | None:
    return reason


def _relation_mutants(claim: Claim, operators, start: int) -> list[Mutant]:
    out: list[Mutant] = []
    # (target, the chain's relations, rebuild the claim from new relations, why any flip is equivalent)
    chains: list[tuple[str, tuple[str, ...], Callable[[tuple[str, ...]], Claim], str | None]] = []
    for field in ("check", "derivation"):
        targets = _targets(getattr(claim, field))
        if targets is not None and targets.relations and targets.with_relations is not None:

            def with_new(rels, field=field, with_relations=targets.with_relations) -> Claim:
                return dataclasses.replace(claim, **{field: with_relations(rels)})

            chains.append((field, targets.relations, with_new, targets.relations_equivalent))
    for target, rels, rebuild, equivalent in chains:
        for i, rel in enumerate(rels):
            for op in operators:
                for rw in op.relation(rel):
                    new = rels[:i] + (rw.new,) + rels[i + 1 :]

                    def text(rw=rw, rel=rel) -> MutantText:
                        return rw.description, rel, rw.new

                    def build(new=new, rebuild=rebuild) -> Claim:
                        return rebuild(new)

                    out.append(
                        Mutant(
                            claim.id,
                            start + len(out),
                            op.name,
                            "relations",
                            f"{target} relation {i + 1} of {len(rels)}",
                            None,
                            text,
                            build,
                            functools.partial(_known, equivalent),
                        )
                    )
    return out


# --------------------------------------------------------------------------- SymPy chains


def _sympy_sites(expr, operators, path=(), parent=None, index=None):
    for op in operators:
        for rw in op.sympy(expr, parent, index):
            yield op, path, expr, rw
    if isinstance(expr, sp.MatrixBase) or not isinstance(expr, sp.Basic):
        return
    for i, arg in enumerate(expr.args):
        if isinstance(arg, sp.Basic):
            yield from _sympy_sites(arg, operators, (*path, i), expr, i)


def _sympy_replace(expr, path, new):
    if not path:
        return new
    args = list(expr.args)
    args[path[0]] = _sympy_replace(args[path[0]], path[1:], new)
    return expr.func(*args)


def _derivation_mutants(claim: Claim, operators, start: int) -> list[Mutant]:
    d = claim.derivation
    if d is None:
        return []
    out: list[Mutant] = []
    for k, raw in enumerate(d.exprs):
        try:
            expr = sp.sympify(raw)
        except (sp.SympifyError, TypeError):
            continue
        for op, path, node, rw in _sympy_sites(expr, operators):
            # Rebuilt on demand: rebuilding every SymPy mutant up front costs more than running a sample.
            def mutated(expr=expr, path=path, new=rw.new):
                return _sympy_replace(expr, path, new)

            def build(k=k, mutated=mutated):
                try:
                    exprs = d.exprs[:k] + (mutated(),) + d.exprs[k + 1 :]
                except Exception as exc:  # SymPy refuses the rebuilt node: the mutant cannot be built
                    raise MutantBuildError(f"{type(exc).__name__}: {exc}") from exc
                return dataclasses.replace(claim, derivation=dataclasses.replace(d, exprs=exprs))

            index = start + len(out)

            def static(old=expr, mutated=mutated, index=index):
                try:
                    new = mutated()
                except Exception:  # not built: build() says why
                    return None
                return equal_expressions(old, new, d.domain, f"{claim.id}#{index}")

            def text(node=node, rw=rw) -> MutantText:
                return rw.description, node, rw.new

            out.append(
                Mutant(
                    claim.id,
                    index,
                    op.name,
                    "derivation",
                    f"derivation e{k} ({d.module or claim.module})",
                    None,
                    text,
                    build,
                    static,
                )
            )
    return out


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def enumerate_mutants(claim: Claim, operators: Sequence[Operator]) -> tuple[list[Mutant], list[str]]:
    """Every mutant of one claim in a stable order, and notes on what could not be mutated (and why)."""
    mutants: list[Mutant] = []
    notes: list[str] = []
    for part, make in (
        ("check function", _python_mutants),
        ("relations", _relation_mutants),
        ("derivation", _derivation_mutants),
    ):
        try:
            mutants += make(claim, operators, len(mutants))
        except MutantBuildError as exc:
            notes.append(f"{part} not mutated: {exc}")
    if claim.check is not None and _targets(claim.check) is None:
        kind = checker_for(claim.check).name
        notes.append(f"check not mutated: the {kind} kind offers no mutation targets (its mutation_targets)")
    return mutants, notes
