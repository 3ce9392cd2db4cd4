"""A check function's source: found in its module's AST, edited at one node, compiled back.

A mutated function is compiled from the module's own source and executed in a copy of the module's
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
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from .mutant import MutantBuildError

__all__ = ["FunctionNode", "AstPath", "FunctionSource", "function_source", "replace_at", "compile_function"]

# The node of a check function: its ``def`` or its ``lambda``.
FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
# The (field, position in a list field) steps from a function node down to one of its descendants.
AstPath = tuple[tuple[str, int | None], ...]
_Node = TypeVar("_Node", bound=ast.AST)


@dataclasses.dataclass
class FunctionSource:
    tree: FunctionNode
    filename: str
    display: str  # file path relative to the working directory, for locations


def function_source(fn: Callable) -> FunctionSource:
    """The one definition of ``fn`` in its module's source (a closure cannot be rebuilt: an error)."""
    if getattr(fn, "__closure__", None):
        raise MutantBuildError(f"{fn.__qualname__} is a closure; its free variables cannot be rebuilt")
    filename = inspect.getsourcefile(fn)
    if filename is None:
        raise MutantBuildError(f"no source file for {fn.__qualname__}")
    first = fn.__code__.co_firstlineno
    found = [
        node
        for node in ast.walk(_parsed(filename))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and _defines(node, fn, first)
    ]
    if len(found) != 1:
        raise MutantBuildError(
            f"{'no' if not found else 'more than one'} definition of {fn.__qualname__} at {filename}:{first}"
        )
    try:
        display = os.path.relpath(filename)
    except ValueError:
        display = filename
    return FunctionSource(found[0], filename, display)


def _defines(node: ast.AST, fn: Callable, first: int) -> bool:
    """Whether ``node`` is the ``def`` or ``lambda`` that compiled to ``fn`` (first line ``first``)."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == fn.__name__:
        start = node.decorator_list[0].lineno if node.decorator_list else node.lineno
        return first in (start, node.lineno)
    if isinstance(node, ast.Lambda) and fn.__name__ == "<lambda>" and node.lineno == first:
        return [a.arg for a in node.args.args] == list(fn.__code__.co_varnames[: fn.__code__.co_argcount])
    return False


@functools.lru_cache(maxsize=64)
def _parsed(filename: str) -> ast.Module:
    return ast.parse(Path(filename).read_text(encoding="utf-8"), filename=filename)


def replace_at(root: _Node, path: AstPath, new: ast.AST) -> _Node:
    """A copy of ``root`` with the node at ``path`` replaced by (a copy of) ``new``."""
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


def compile_function(fn: Callable, source: FunctionSource, tree: FunctionNode) -> Callable:
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


def _compile_and_bind(source: FunctionSource, tree: FunctionNode, namespace: dict) -> Callable:
    if isinstance(tree, ast.Lambda):
        code = compile(ast.fix_missing_locations(ast.Expression(body=tree)), source.filename, "eval")
        return eval(code, namespace)  # noqa: S307 - the project's own source, mutated
    tree.decorator_list = []
    code = compile(
        ast.fix_missing_locations(ast.Module(body=[tree], type_ignores=[])), source.filename, "exec"
    )
    exec(code, namespace)  # noqa: S102 - the project's own source, mutated
    return namespace[tree.name]
