"""Claims written in LaTeX alone: the statement (a relation chain or an ``align*`` derivation) compiles into
the check, so what the report shows is, by construction, what is checked.

    from_statement(inequality, "my.bound", statement=r"\\|x\\odot y\\|_1 \\le \\|x\\|_2\\|y\\|_2",
                   inputs={"x": Array("n"), "y": Array("n")}, dims={"n": [1, 2, 3]}, title=..., ...)

The relations (and, for ``align*``, the step labels from each row's ``\\text{...}``) come from the LaTeX.
A statement that does not compile is that claim's ERROR (``ClaimDefinitionError`` naming the construct,
its column and the table to extend); the module still imports.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable
from typing import Any

from ..errors import ClaimDefinitionError
from ..model.declare import declaration_failed
from .errors import LatexError
from .statement import CompiledStatement, compile_statement
from .symbols import SymbolTable
from .tables import table_for

__all__ = ["from_statement", "compiled_check", "COMPILED_ATTR"]

#: the attribute a check compiled from its statement carries (statement_check reads it)
COMPILED_ATTR = "__compiled_statement__"


def compiled_check(compiled: CompiledStatement, inputs: list[str], dims: list[str], module: str) -> Callable:
    """A check function computing the compiled chain, with the signature a hand-written one would have
    (so the engine passes it exactly the inputs and dims it names)."""

    def check(xp, **named: Any):
        return compiled.sides(xp, {k: named[k] for k in inputs}, {k: named[k] for k in dims})

    params = [inspect.Parameter("xp", inspect.Parameter.POSITIONAL_ONLY)]
    params += [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY) for n in [*inputs, *dims]]
    check.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    check.__module__ = module
    check.__doc__ = "The statement, compiled (lemmacheck.latex)."
    setattr(check, COMPILED_ATTR, compiled)
    return check


def from_statement(unit: Callable, claim_id: str, *, symbols: SymbolTable | None = None, **meta: Any) -> None:
    """Declare ``claim_id`` with ``unit`` (``inequality``, ``identity``) and its statement as its check."""
    module = sys._getframe(1).f_globals.get("__name__", "?")
    try:
        table = symbols if symbols is not None else table_for(module, claim_id)
        compiled = compile_statement(meta.get("statement", ""), table)
    except LatexError as exc:
        declaration_failed(
            claim_id,
            module,
            ClaimDefinitionError(claim_id, f"its statement does not compile: {exc.reason}", exc.fix),
        )
        return
    meta.setdefault("relations", compiled.relations)
    if any(not label.startswith("step ") for label in compiled.labels):
        meta.setdefault("labels", list(compiled.labels))
    fn = compiled_check(compiled, list(meta.get("inputs", {})), list(meta.get("dims", {})), module)
    unit(claim_id, **meta)(fn)
