"""The meaning of each grammar rule: one handler per node type of ``grammar.lark``."""

from __future__ import annotations

import math
from typing import Any

from lark import Token, Tree

from . import values as V
from .compile import HANDLERS, Compiler, Env, FnNode, Node, compile_node, meaning
from .symbols import Function

__all__ = ["as_array"]

_SYMBOLIC = {"letter_sym", "font", "greek", "delta_sym", "accent", "letter"}


def _symbol(c: Compiler, node: Tree) -> Node:
    m = meaning(c, node)
    if m is None:
        raise c.table.unknown(c.key(node), c.column(node), c.text)
    return FnNode(m.fn, c.key(node)) if isinstance(m, Function) else m


def _unary(fn_name: str):
    def handler(c: Compiler, node: Tree) -> Node:
        inner = compile_node(c, [ch for ch in node.children if not isinstance(ch, Token)][-1])

        def run(env: Env) -> V.Value:
            v = inner(env)
            return V.Value(getattr(env.xp, fn_name)(as_array(env, v)), v.row)

        return run

    return handler


def as_array(env: Env, v: V.Value) -> Any:
    """An exact constant as a number of the namespace in force (for \\sqrt{2}, \\log 2)."""
    if not v.exact:
        return v.a
    return env.xp.asarray(float(v.a.numerator)) / v.a.denominator if hasattr(v.a, "numerator") else v.a


def _binary(op):
    def handler(c: Compiler, node: Tree) -> Node:
        a, b = (compile_node(c, ch) for ch in node.children if not isinstance(ch, Token))
        return lambda env: op(a(env), b(env), env)

    return handler


def _hadamard_then(c: Compiler, node: Tree) -> Node:
    """``a \\odot b c``: the table says how ``\\odot`` binds here (documents differ)."""
    left, _, first, *rest = node.children
    if c.table.odot_binds not in ("tight", "loose"):
        raise c.refuse(
            node,
            "a \\odot followed by more factors, which documents read as (a \\odot b) c or a \\odot (b c)",
            f"declare odot_binds='tight' or 'loose' in {c.table.where}, or write the parentheses",
        )
    a, b = compile_node(c, left), compile_node(c, first)
    more = [compile_node(c, ch) for ch in rest if not isinstance(ch, Token)]

    def product(env: Env, head: V.Value) -> V.Value:
        for m in more:
            head = V.mul(head, m(env))
        return head

    if c.table.odot_binds == "tight":
        return lambda env: product(env, V.hadamard(a(env), b(env)))
    return lambda env: V.hadamard(a(env), product(env, b(env)))


def _neg(c: Compiler, node: Tree) -> Node:
    a = compile_node(c, node.children[0])
    return lambda env: V.mul(V.const(-1), a(env))


def _quotient(c: Compiler):
    """Where a document's notation is entrywise (Adam's), a quotient of vectors is too."""
    return V.div_entrywise if c.table.elementwise_powers else V.div


def _frac(c: Compiler, node: Tree) -> Node:
    if "\\partial" in c.source(node):
        raise c.refuse(
            node,
            "a derivative the table does not name",
            f"add the phrase {c.key(node)!r} (with what it is applied to, if anything) to {c.table.where}: "
            "a Derived computing it",
        )
    a, b = compile_node(c, node.children[1]), compile_node(c, node.children[2])
    quotient = _quotient(c)
    return lambda env: quotient(a(env), b(env))


def _div(c: Compiler, node: Tree) -> Node:
    a, b = (compile_node(c, ch) for ch in node.children if not isinstance(ch, Token))
    quotient = _quotient(c)
    return lambda env: quotient(a(env), b(env))


def _inner(c: Compiler, node: Tree) -> Node:
    a, b = (compile_node(c, ch) for ch in node.children if not isinstance(ch, Token))
    return lambda env: V.inner(a(env), b(env))


def _group(c: Compiler, node: Tree) -> Node:
    m = meaning(c, node)
    return m if m is not None and not isinstance(m, Function) else compile_node(c, node.children[0])


def _refused(why: str, fix: str = ""):
    def handler(c: Compiler, node: Tree) -> Node:
        m = meaning(c, node)
        if m is not None and not isinstance(m, Function):
            return m
        where = f"add the phrase {c.key(node)!r} to {c.table.where}"
        raise c.refuse(node, why, f"{fix}: {where}" if fix else where)

    return handler


def _number(c: Compiler, node: Tree) -> Node:
    return compile_node(c, node.children[0])


def _infty(c: Compiler, node: Tree) -> Node:
    return lambda env: V.Value(math.inf)


def _nabla(c: Compiler, node: Tree) -> Node:
    m = meaning(c, node)
    if m is not None and not isinstance(m, Function):
        return m
    operand = node.children[-1]
    target = meaning(c, operand)
    subs = [s for s in node.children[1:-1] if isinstance(s, Tree)]
    if isinstance(target, Function) and target.grad is not None and len(subs) <= 1:
        return FnNode(target.grad, "\\nabla " + c.key(operand))
    raise c.refuse(
        node,
        "\\nabla of something the table gives no gradient for",
        f"give {c.key(operand)!r} a Function(fn, grad=...) in {c.table.where}, or map the phrase",
    )


HANDLERS.update(
    {
        **dict.fromkeys(_SYMBOLIC, _symbol),
        "add": _binary(lambda a, b, env: V.add(a, b)),
        "sub": _binary(lambda a, b, env: V.add(a, b, -1)),
        "hadamard": _binary(lambda a, b, env: V.hadamard(a, b)),
        "hadamard_then": _hadamard_then,
        "div": _div,
        "neg": _neg,
        "frac": _frac,
        "inner": _inner,
        "sqrt": _unary("sqrt"),
        "abs": _unary("abs"),
        "paren": _group,
        "bracket": _group,
        "brace": _group,
        "number": _number,
        "infty": _infty,
        "nabla": _nabla,
        "expectation": _refused(
            "an expectation or variance, which the compiler does not compute",
            "name the phrase (its closed form, or the exact average the content computes) in the table",
        ),
        "partial": _refused(
            "\\partial outside a derivative the table names",
            "name the whole derivative (\\frac{\\partial A}{\\partial B}, with what it is applied to) as a "
            "phrase in the table: a Derived computing it",
        ),
        "dots": _refused(
            "an elision (\\cdots) outside a phrase the table names",
            "name the run it elides, with the elision, as a phrase in the table",
        ),
        "tuple": _refused("a tuple outside a function's arguments"),
        "indices": _refused("an index list outside a subscript"),
        "index_range": _refused("a range of indices (w_{1:T}), which only a phrase of the table names"),
    }
)
