"""Juxtaposition, scripts and prefix operators: the part of the grammar whose meaning needs the table
(is ``f(x)`` an application or a product, ``s_t`` a symbol or an index, ``A^T`` a transpose or a power)."""

from __future__ import annotations

import dataclasses
import inspect
import math
from fractions import Fraction
from typing import Any

from lark import Token, Tree

from . import values as V
from .compile import HANDLERS, Compiler, Env, FnNode, Node, compile_node, meaning
from .errors import LatexError
from .indexing import subscript
from .nodes import as_array
from .symbols import Function, normalise

__all__ = ["product_of", "prefixed", "postfix"]

_REDUCE = {"\\sum": "sum", "\\prod": "prod", "\\max": "max", "\\min": "min", "max": "argmax", "min": "argmin"}


def _span(c: Compiler, first: Tree, last: Tree) -> str:
    return normalise(c.text[first.meta.start_pos : last.meta.end_pos])


def _phrase(c: Compiler, factors: list, i: int) -> tuple[Node | None, int]:
    """The longest run of factors from ``i`` that the table names as one phrase (``Vs_t(\\Phi)``)."""
    for j in range(len(factors), i + 1, -1):
        m = meaning(c, factors[i], _span(c, factors[i], factors[j - 1]))
        if m is not None and not isinstance(m, Function):
            return m, j
    return None, i


def _args(c: Compiler, node: Tree) -> list[Node] | None:
    """The arguments of an application, when ``node`` is a parenthesised group."""
    if isinstance(node, Tree) and node.data == "postfix" and len(node.children) == 1:
        node = node.children[0]
    if isinstance(node, Tree) and node.data in ("paren", "tuple", "bracket"):
        return [compile_node(c, ch) for ch in node.children]
    return None


def _apply(fn: FnNode, args: list[Node]) -> Node:
    """``f(a, b)``: the table's ``fn(xp, a, b)``, its keyword-only parameters filled by name from the
    claim's inputs and dims (``\\sigma`` the activation the dim ``act`` names)."""
    named = keyword_parameters(fn.fn)

    def run(env: Env) -> V.Value:
        found = {**env.dims, **env.inputs}
        kwargs = {k: found[k] for k in named if k in found}
        return V.Value(fn.fn(env.xp, *(a(env).a for a in args), **kwargs))

    return run


def keyword_parameters(fn) -> tuple[str, ...]:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return ()
    return tuple(p.name for p in params if p.kind is inspect.Parameter.KEYWORD_ONLY)


def product_of(c: Compiler, factors: list) -> Node:
    """Juxtaposed factors: a table function takes the parenthesised group after it, the rest multiply."""
    parts: list[Node] = []
    i = 0
    while i < len(factors):
        node, j = _phrase(c, factors, i)
        if node is not None:
            parts.append(node)
            i = j
            continue
        node = compile_node(c, factors[i])
        if isinstance(node, FnNode):
            nxt = factors[i + 1] if i + 1 < len(factors) else None
            args, scripts = (_args(c, nxt) if nxt is not None else None), []
            if args is None and isinstance(nxt, Tree) and nxt.data == "postfix":  # f(x)^2, f(x)^\top
                args, scripts = (
                    _args(c, nxt.children[0]),
                    [s for s in nxt.children[1:] if isinstance(s, Tree)],
                )
            if args is None:
                raise c.refuse(factors[i], f"the function {node.what} is not followed by its (argument)")
            node, i = _scripted(c, _apply(node, args), scripts), i + 1
        parts.append(node)
        i += 1
    if len(parts) == 1:
        return parts[0]

    def run(env: Env) -> V.Value:
        out = parts[0](env)
        for p in parts[1:]:
            out = V.mul(out, p(env))
        return out

    return run


def prefixed(c: Compiler, node: Tree) -> Node:
    """``\\log``/``\\exp`` of the rest of the product, or a sum, product, max or min over it."""
    head, body = node.children
    if head.data == "lim":
        return HANDLERS["lim"](c, head, body)  # .limits: a limit is taken by SymPy
    phrase = _prefix_phrase(c, head, body)
    if phrase is not None:
        return phrase
    op = str(head.children[0])
    scripts = [s for s in head.children[1:] if isinstance(s, Tree)]
    if head.data == "opname":
        if scripts:
            raise c.refuse(head, f"a script on {op}")
        inner = compile_node(c, body)
        name = op.lstrip("\\")
        return lambda env: V.Value(getattr(env.xp, name)(as_array(env, inner(env))))
    return _bigop(c, head, op, scripts, body)


def _leading(body: Tree) -> tuple[list, list]:
    """The factors a prefix operator's body starts with, and what follows them (a further prefix)."""
    if isinstance(body, Tree) and body.data == "factors":
        return [ch for ch in body.children if not isinstance(ch, Token)], []
    if isinstance(body, Tree) and body.data == "mul_prefixed":
        *first, pre = body.children
        lead = first[0].children if first and first[0].data == "factors" else first
        return [ch for ch in lead if not isinstance(ch, Token)], [pre]
    return [body], []


def _prefix_phrase(c: Compiler, head: Tree, body: Tree) -> Node | None:
    """The longest run from the operator through leading factors of its body that the table names as one
    phrase (``\\max_x\\sigma'(x)``, then the rest of the product multiplied), or None."""
    lead, rest = _leading(body)
    for j in range(len(lead), 0, -1):
        m = meaning(c, head, normalise(c.text[head.meta.start_pos : lead[j - 1].meta.end_pos]))
        if m is None or isinstance(m, Function):
            continue
        parts = [m] + ([product_of(c, lead[j:])] if lead[j:] else []) + [prefixed(c, pre) for pre in rest]
        if len(parts) == 1:
            return m

        def run(env: Env, parts=parts) -> V.Value:
            out = parts[0](env)
            for part in parts[1:]:
                out = V.mul(out, part(env))
            return out

        return run
    return None


def _bound(c: Compiler, head: Tree, op: str, scripts: list) -> tuple[str | None, Node | None, Node | None]:
    """The bound variable of a reduction and its range (``_{t=1}^M``; ``_p`` over the table's range)."""
    sub = next((s.children[0] for s in scripts if s.data == "sub"), None)
    sup = next((s.children[0] for s in scripts if s.data == "sup"), None)
    if sub is None:
        return None, None, None
    if isinstance(sub, Tree) and sub.data == "bound_from":
        var = c.key(sub.children[0])
        if sup is None:
            raise c.refuse(head, f"{op}_{{{var}=...}} without an upper bound")
        return var, compile_node(c, sub.children[1]), compile_node(c, sup)
    var = c.key(sub)
    if var not in c.table.indices:
        raise c.refuse(
            head,
            f"{op}_{var}: the range of {var} is not stated",
            f"give {c.table.where} indices={{{var!r}: 'dim'}}",
        )
    return var, (lambda env: V.const(1)), (lambda env: V.const(c.table.index_count(var, env.dims)))


def _bigop(c: Compiler, head: Tree, op: str, scripts: list, body: Tree) -> Node:
    kind = _REDUCE[op.rsplit("\\", 1)[-1] if op.startswith("\\arg") else op]
    var, lo, hi = _bound(c, head, op, scripts)
    if var is None:
        inner = compile_node(c, body)
        return lambda env: _reduce_entries(env, kind, inner(env))
    sub_c = dataclasses.replace(
        c, defined={**c.defined, var: lambda env: V.const(env.bound[var])}, bound=c.bound | {var}
    )
    inner = compile_node(sub_c, body)

    first, last = lo, hi
    assert first is not None and last is not None  # _bound gives both with a variable

    def run(env: Env) -> V.Value:
        start, stop = _int(first(env), op), _int(last(env), op)
        if stop < start:
            raise LatexError(f"{op} over an empty range {start}..{stop}")
        values = (
            inner(dataclasses.replace(env, bound={**env.bound, var: k})) for k in range(start, stop + 1)
        )
        if kind in ("argmax", "argmin"):
            return _arg(env, kind, values, start)
        out = next(values)
        for v in values:
            out = _combine(env, kind, out, v)
        return out

    return run


def _arg(env: Env, kind: str, values, start: int) -> V.Value:
    """``\\arg\\max_i``: the first index (from the range's start) where the largest value is reached."""
    best, where = None, None
    for k, v in enumerate(values, start):
        a = V.scalar(v, kind)
        if best is None:
            best, where = a, env.xp.zeros(env_batch(env)) + k
            continue
        better = a > best if kind == "argmax" else a < best
        best, where = env.xp.where(better, a, best), env.xp.where(better, k, where)
    return V.Value(where)


def env_batch(env: Env) -> int:
    return len(next(iter(env.inputs.values()))) if env.inputs else 1


def _int(v: V.Value, op: str) -> int:
    if isinstance(v.a, int):
        return v.a
    raise LatexError(f"a bound of {op} that is not a whole number")


def _combine(env: Env, kind: str, a: V.Value, b: V.Value) -> V.Value:
    if kind == "sum":
        return V.add(a, b)
    if kind == "prod":
        return V.mul(a, b)
    pick = env.xp.maximum if kind == "max" else env.xp.minimum
    return V.Value(pick(V.scalar(a, kind), V.scalar(b, kind)))


def _reduce_entries(env: Env, kind: str, v: V.Value) -> V.Value:
    if v.rank == 0:
        raise LatexError(f"\\{kind} with no index of a scalar", fix="write the index it runs over")
    axes = tuple(range(1, v.rank + 1))
    return V.Value(getattr(env.xp, kind)(v.a, axis=axes if len(axes) > 1 else -1))


def postfix(c: Compiler, node: Tree) -> Node:
    """A primary and its scripts: the table's longest match first, then indices, powers, transposes."""
    if node.data != "postfix":
        node = Tree("postfix", [node], meta=node.meta)
    prim, scripts = node.children[0], [s for s in node.children[1:] if isinstance(s, Tree)]
    labelled = next((k for k, s in enumerate(scripts) if _label_top(s)), None)
    if labelled is not None:
        return _labelled_transpose(c, prim, scripts, labelled)
    if c.table.euler and c.key(prim) == c.table.euler and scripts and scripts[0].data == "sup":
        power = compile_node(c, scripts[0].children[0])
        exp: Node = lambda env: V.Value(env.xp.exp(as_array(env, power(env))))  # noqa: E731
        return _scripted(c, exp, scripts[1:])
    is_norm = isinstance(prim, Tree) and prim.data == "norm"
    for k in range(len(scripts), 0, -1):
        m = meaning(c, node, _span(c, prim, scripts[k - 1]))
        if m is not None and not (is_norm and isinstance(m, Function)):
            if isinstance(m, Function):
                if k < len(scripts):
                    raise c.refuse(scripts[k], "a script after a function's name")
                return FnNode(m.fn, _span(c, prim, scripts[k - 1]))
            return _scripted(c, m, scripts[k:])
    if is_norm:  # \|Q_{t-1:,:,q}\|_{S^1} the table names is looked up above, whole
        return _scripted(c, _norm(c, prim, scripts[:1]), scripts[1:] if _has_index(scripts) else scripts)
    if (
        isinstance(prim, Tree)
        and prim.data in ("letter_sym", "font", "greek", "delta_sym", "accent")
        and scripts
    ):
        if scripts[0].data == "sub" and meaning(c, prim) is None:
            raise c.table.unknown(_span(c, prim, scripts[0]), c.column(prim), c.text)
    return _scripted(c, compile_node(c, prim), scripts)


def _label_top(s: Tree) -> bool:
    return s.data == "sup" and isinstance(s.children[0], Tree) and s.children[0].data == "label_top"


def _labelled_transpose(c: Compiler, prim, scripts: list, k: int) -> Node:
    """``U^{(f)\\top}``: the symbol ``U^{(f)}`` the table names, transposed, then the scripts after it."""
    before = c.text[prim.meta.start_pos : (scripts[k - 1].meta.end_pos if k else prim.meta.end_pos)]
    key = normalise(before + "^{" + c.source(scripts[k].children[0].children[0]) + "}")
    m = meaning(c, prim, key)
    if m is None or isinstance(m, Function):
        raise c.table.unknown(key, c.column(prim), c.text)
    base = m
    return _scripted(c, lambda env: V.transpose(base(env), env.xp), scripts[k + 1 :])


def _norm_family(c: Compiler, arg: Tree | Token) -> str:
    """``S^p`` (Schatten) or ``\\ell_p`` (entrywise) in a norm's index; '' for a plain index."""
    if not (isinstance(arg, Tree) and arg.data == "postfix" and len(arg.children) == 2):
        return ""
    family = {"S": "schatten", "\\ell": "entrywise"}.get(c.key(arg.children[0]), "")
    script = arg.children[1].data
    return family if (family == "schatten") == (script == "sup") and script in ("sup", "sub") else ""


def _has_index(scripts: list) -> bool:
    return bool(scripts) and scripts[0].data == "sub"


def _norm(c: Compiler, prim: Tree, scripts: list) -> Node:
    inner = compile_node(c, prim.children[0])
    index, family = None, ""
    if _has_index(scripts):
        arg = scripts[0].children[0]
        family = _norm_family(c, arg)
        if family:
            arg = arg.children[1].children[0]
        index = compile_node(c, arg)

    def run(env: Env) -> V.Value:
        p = None if index is None else _index_value(index(env), schatten=family == "schatten")
        return V.norm(
            inner(env), p, env.xp, c.table, schatten=family == "schatten", entrywise=family == "entrywise"
        )

    return run


def _index_value(v: V.Value, *, schatten: bool) -> Any:
    """A norm's index: a number >= 1 or \\infty; a Schatten index may be in (0, 1), the quasi-norm
    (sum of sigma^p)^(1/p) (Hoelder's 1/r = 1/p + 1/q reaches r = 1/2)."""
    a = v.a
    if isinstance(a, Fraction):
        a = float(a)
    if isinstance(a, (int, float)) and (a >= 1 or math.isinf(a) or (schatten and a > 0)):
        return a
    raise LatexError(f"a norm index {a!r} that is not a number >= 1 or \\infty")


def _scripted(c: Compiler, base: Node, scripts: list) -> Node:
    for s in scripts:
        base = _script(c, base, s)
    return base


def _script(c: Compiler, base: Node, s: Tree) -> Node:
    if s.data == "sup":
        arg = s.children[0]
        key = c.key(arg)
        if key == "\\top":
            return lambda env: V.transpose(base(env), env.xp)
        power = compile_node(c, arg)
        if key in c.table.transpose_letters:  # A^T: a matrix's or vector's transpose, a number's power
            return lambda env: _transpose_or_power(base(env), power, env)
        if c.table.elementwise_powers:
            return lambda env: _entrywise_power(base(env), power(env), env)
        return lambda env: V.power(base(env), power(env), env.xp)
    if s.data == "sub":
        return subscript(c, base, s.children[0])
    raise c.refuse(s, f"a {s.data} the table does not name", f"add the symbol with it to {c.table.where}")


def _entrywise_power(v: V.Value, k: V.Value, env: Env) -> V.Value:
    if v.rank and isinstance(k.a, int) and k.a >= 0:
        return V.Value(v.a**k.a, v.row)
    return V.power(v, k, env.xp)


def _transpose_or_power(v: V.Value, power: Node, env: Env) -> V.Value:
    return V.transpose(v, env.xp) if v.rank else V.power(v, power(env), env.xp)


def _mul_prefixed(c: Compiler, node: Tree) -> Node:
    *head, pre = node.children
    right = prefixed(c, pre)
    if not head:
        return right
    left = compile_node(c, head[0])
    return lambda env: V.mul(left(env), right(env))


HANDLERS.update(
    {
        "factors": lambda c, node: product_of(c, [ch for ch in node.children if not isinstance(ch, Token)]),
        "mul_prefixed": _mul_prefixed,
        "postfix": postfix,
        "norm": postfix,
    }
)
