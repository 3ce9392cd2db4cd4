"""``\\lim_{x\\to a} f``: a limit, taken exactly by SymPy where the statement is evaluated on SymPy symbols.

A limit is a statement about every sequence approaching ``a``; a finite sample of one sequence decides
nothing about it without a convergence rate the statement does not give.  So a limit is computed only where
the statement is read in SymPy (the statement of a ``derivation(...)``, a scalar chain's symbolic reading):
``sympy.limit`` of the body in the symbol the table gives ``x``, at ``a`` (``\\infty`` as ``oo``), within the
SymPy budget of one comparison.  On numbers (a numeric check's instances, in float64 or mpmath) it is refused
with that reason, as is a limit SymPy leaves unevaluated, bounded but undetermined (``AccumBounds``) or
undefined (``nan``).
"""

from __future__ import annotations

import numpy as np
import sympy
from lark import Tree

from ..certify.symbolic import symbolic, sympy_xp
from ..kinds.sympy_cap import SymPyStopped, sympy_cap
from . import values as V
from .compile import HANDLERS, Compiler, Env, Node, compile_node
from .errors import LatexError

__all__ = ["SYMPY_SECONDS"]

SYMPY_SECONDS = 10.0  # SymPy's time for one limit; past it the limit is refused, never guessed


def _one(v: V.Value):
    if v.rank:
        raise LatexError("a limit of a vector or matrix", fix="take the limit of a number (a norm, an entry)")
    a = np.asarray(v.a, dtype=object).reshape(-1)
    if a.shape != (1,):
        raise LatexError("a limit over a batch of instances")
    return sympy.sympify(a[0])


def _limit(c: Compiler, head: Tree, body: Tree) -> Node:
    var_node, target_node = (ch for ch in head.children if isinstance(ch, Tree))
    var, target, inner = compile_node(c, var_node), compile_node(c, target_node), compile_node(c, body)
    written = c.source(head)

    def run(env: Env) -> V.Value:
        if env.xp is not sympy_xp:
            raise LatexError(
                f"{written}: a limit is taken only by SymPy, and here the statement is evaluated on numbers "
                "(a finite sample of a sequence decides no limit without a stated rate)",
                fix="state the limit in a derivation(...) (SymPy), or compare the quantity at the values "
                "the check uses",
            )
        x = _one(var(env))
        if not isinstance(x, sympy.Symbol):
            raise LatexError(f"{written}: the variable of the limit is not a symbol here ({x})")
        f, a = _one(inner(env)), _one(target(env))
        try:
            with sympy_cap(SYMPY_SECONDS):
                found = sympy.limit(f, x, a)
        except (SymPyStopped, NotImplementedError, ValueError) as exc:
            raise LatexError(f"{written}: SymPy does not find the limit ({type(exc).__name__})") from exc
        if found.has(sympy.Limit, sympy.AccumBounds, sympy.nan, sympy.zoo):
            raise LatexError(f"{written}: SymPy finds no single limit ({found})")
        return V.Value(symbolic(np.array([found], dtype=object)))

    return run


def _symbol_node(c: Compiler, node: Tree) -> Node:
    """The limit's variable: the symbol as the table reads it (a letter, or one with scripts)."""
    inner = node.children[0] if len(node.children) == 1 else Tree("postfix", node.children, meta=node.meta)
    return compile_node(c, inner)


HANDLERS.update({"lim": _limit, "symbol": _symbol_node})
