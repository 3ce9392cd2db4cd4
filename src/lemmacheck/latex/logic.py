"""How a statement's clauses are read: which is the relation a check computes, which define a symbol and
which state a condition, and, for a property, the truth value of the whole.

- Before ``:`` (``\\lambda = -2\\eta\\gamma:``, ``H\\succ0,\\ \\epsilon>0:``) and after the relation a check
  computes (``\\quad (p = \\mathrm{softmax}(x))``, ``,\\ w > 0``): a clause ``symbol = expression`` defines
  the symbol for the whole statement; any other clause is a condition.
- Before ``\\implies``: every clause is a condition (``d^{(t)} = d^{(t-1)} \\implies ...`` assumes, never
  defines).
- ``\\forall v`` over a claim's input is what sampling the input does (its ``\\in`` set a condition);
  over an index the table gives a range (``indices=``) it is the conjunction over that range.
- ``f, g \\ge 0``: bare expressions before a relation share it.

A relation claim's statement is its chain under its conditions (compared where they hold); a property's is
the truth value of all of it.  Anything else is refused with the construct and what to write.
"""

from __future__ import annotations

import dataclasses

from lark import Token, Tree

from . import truth as T
from . import values as V
from .compile import Compiler, Env, compile_node, meaning
from .symbols import Function, Input, normalise

__all__ = [
    "RelationReading",
    "read_relation",
    "read_property",
    "RELATIONS",
    "compile_definitions",
    "sampled_condition",
    "premise_definitions",
]

RELATIONS = {
    "=": "=",
    "\\le": "<=",
    "\\leq": "<=",
    "<": "<",
    "\\ge": ">=",
    "\\geq": ">=",
    ">": ">",
    "\\ne": "!=",
    "\\neq": "!=",
    "\\simeq": "~",  # equal to the order an approximation states
    "\\approx": "~",
    "\\lesssim": "<=",  # <= up to higher-order terms: what the checks of such statements compare
    "\\leftarrow": "=",  # an assignment: the left side is what the right computes
    "\\succ": "succ",  # positive definite (of a matrix difference)
    "\\succeq": "succeq",
}
_SYMBOLIC = {"letter_sym", "font", "greek", "delta_sym", "accent"}


@dataclasses.dataclass
class RelationReading:
    chain: Tree
    conditions: list = dataclasses.field(default_factory=list)  # clause trees, read as truth values
    definitions: list = dataclasses.field(default_factory=list)  # chains ``symbol = expression``
    quantified: list = dataclasses.field(default_factory=list)  # quantifiers over the claim's inputs


def _clauses(conj: Tree) -> list:
    """A conjunction's clauses, parenthesised groups opened (``\\quad (p = ...)``); a lone symbol after a
    trailing quantifier is one more of its variables (``\\forall i,j``, which the parse may split)."""
    out: list = []
    for ch in conj.children:
        if isinstance(ch, Tree) and ch.data == "group":
            out += _clauses(ch.children[0])
        elif isinstance(ch, Tree) and out and out[-1].data == "for_all" and _lone_symbol(ch):
            # a new tree, never the parse's: parses are cached, and appending to the cached quantifier
            # added one more bound variable at every compile (∀ i,j,j,j,…: n^k loops, a run that hung)
            head, quantifier, *rest = out[-1].children
            var = Tree("bound_var", [ch.children[0]], meta=ch.meta)
            widened = Tree(quantifier.data, [*quantifier.children, var], meta=quantifier.meta)
            out[-1] = Tree(out[-1].data, [head, widened, *rest], meta=out[-1].meta)
        elif isinstance(ch, Tree):
            out.append(ch)
    return out


def _lone_symbol(clause: Tree) -> bool:
    if clause.data != "chain" or len(clause.children) != 1:
        return False
    node = clause.children[0]
    if isinstance(node, Tree) and node.data == "postfix" and len(node.children) == 1:
        node = node.children[0]
    return isinstance(node, Tree) and node.data in ("letter_sym", "greek")


def _is_definition(c: Compiler, clause: Tree) -> bool:
    """``symbol = expression``: one ``=`` whose left side is a symbol or a function's name applied."""
    if clause.data != "chain" or len(clause.children) != 3 or str(clause.children[1]) != "=":
        return False
    lhs = clause.children[0]
    if isinstance(lhs, Tree) and lhs.data == "postfix":
        lhs = lhs.children[0]
    if isinstance(lhs, Tree) and lhs.data == "factors" and len(lhs.children) == 2:
        head, arg = lhs.children
        return _symbolic(head) and isinstance(arg, Tree) and _opened(arg).data in ("paren", "tuple")
    return _symbolic(lhs)


def _opened(node: Tree) -> Tree:
    return node.children[0] if node.data == "postfix" and len(node.children) == 1 else node


def _symbolic(node) -> bool:
    if isinstance(node, Tree) and node.data == "postfix":
        node = node.children[0]
    return isinstance(node, Tree) and node.data in _SYMBOLIC


def _premise(c: Compiler, premise: Tree | None, reading: RelationReading) -> None:
    if premise is None:
        return
    for ch in premise.children:
        if isinstance(ch, Tree) and ch.data == "quantifier":
            reading.quantified.append(ch)
        elif isinstance(ch, Tree) and ch.data == "conj":
            _sort(c, _clauses(ch), reading)


def _sort(c: Compiler, clauses: list, reading: RelationReading) -> None:
    for clause in clauses:
        (reading.definitions if _is_definition(c, clause) else reading.conditions).append(clause)


def premise_definitions(c: Compiler, premise: Tree | None) -> list:
    """The definitions before ``:``; a condition or quantifier there is refused (a worked example's
    numbers are one instance, with nothing to quantify)."""
    reading = RelationReading(Tree("chain", []))
    _premise(c, premise, reading)
    if premise is not None and (reading.conditions or reading.quantified):
        raise c.refuse(premise, "a condition or quantifier before the numbers of a worked example")
    return reading.definitions


def read_relation(c: Compiler, statement: Tree) -> RelationReading:
    """The chain a relation claim's check computes, with the statement's conditions and definitions."""
    *premise, formula = statement.children
    if formula.data == "iff":
        raise c.refuse(formula, "an equivalence, which is a property's statement, not a relation chain")
    antecedent: list = []
    if formula.data == "implies":
        antecedent, formula = _clauses(formula.children[0]), formula.children[2]
    clauses = _clauses(formula)
    first = clauses[0]
    reading = RelationReading(first)
    while first.data == "for_all":
        reading.quantified.append(first.children[1])
        first = first.children[0]
    if first.data != "chain":
        raise c.refuse(first, f"a {first.data} where the relation a check computes was expected")
    reading.chain = first
    _premise(c, premise[0] if premise else None, reading)
    reading.conditions += antecedent
    _sort(c, clauses[1:], reading)
    return reading


def compile_definitions(c: Compiler, definitions: list) -> None:
    """Each ``symbol = expression`` into the compiler's own symbols (the last first: a definition may use
    one written after it, as ``E = \\frac1M(f(\\theta) - g(\\theta)),\\ f(\\theta) = ...`` does)."""
    for d in reversed(definitions):
        lhs, _, rhs = d.children
        c.defined[normalise(c.source(lhs))] = compile_node(c, rhs)


def condition_truth(c: Compiler, clauses: list) -> T.Truth:
    """The conjunction of clauses; bare expressions before a relation share it (``f, g \\ge 0``)."""
    parts, pending = [], []
    for clause in clauses:
        if clause.data == "chain" and len(clause.children) == 1:
            pending.append(clause.children[0])
            continue
        if pending and clause.data == "member":  # p, q \in [1, \infty]
            parts += [_member(c, p, clause.children[2]) for p in pending]
            pending = []
        if pending:
            if clause.data != "chain" or len(clause.children) != 3:
                raise c.refuse(pending[0], "an expression with no relation", "state what it equals or bounds")
            parts += [_chain([p, *clause.children[1:]], c) for p in pending]
            pending = []
        parts.append(clause_truth(c, clause))
    if pending:
        raise c.refuse(pending[0], "an expression with no relation", "state what it equals or bounds")
    return T.all_of(parts)


def _chain(children: list, c: Compiler) -> T.Truth:
    exprs = [ch for ch in children if not isinstance(ch, Token)]
    rels = [RELATIONS[str(ch)] for ch in children if isinstance(ch, Token)]
    nodes = [compile_node(c, e) for e in exprs]
    c.atoms.extend((nodes[k], rel, nodes[k + 1]) for k, rel in enumerate(rels))
    return T.relation_truth(nodes, rels)


def clause_truth(c: Compiler, node: Tree) -> T.Truth:
    """The truth value of a clause or formula."""
    kind = node.data
    if kind == "chain":
        if len(node.children) == 1:
            raise c.refuse(node, "an expression with no relation", "state what it equals or bounds")
        return _chain(node.children, c)
    if kind in ("conj", "group"):
        return condition_truth(c, _clauses(node if kind == "conj" else node.children[0]))
    if kind == "disjunction":
        return T.any_of([clause_truth(c, ch) for ch in node.children if isinstance(ch, Tree)])
    if kind == "implies":
        return T.implies(clause_truth(c, node.children[0]), clause_truth(c, node.children[2]))
    if kind == "iff":
        return T.iff([clause_truth(c, ch) for ch in _iff_parts(node)])
    if kind == "member":
        return _member(c, node.children[0], node.children[2])
    if kind == "for_all":
        return for_all(c, node.children[1], lambda sub: clause_truth(sub, node.children[0]))
    if kind in ("qualified", "prose"):
        return _worded(c, node)
    raise c.refuse(node, f"the compiler has no truth value for a {kind}")


def _worded(c: Compiler, node: Tree) -> T.Truth:
    """A clause with words: ``A \\ge B\\ \\text{entrywise}`` compares every entry; any other wording is a
    truth value the table names as a phrase (the whole clause, a Derived returning booleans), or refused."""
    words = str(node.children[-1])[len("\\text{") : -1].strip()
    if node.data == "qualified" and words == "entrywise" and node.children[0].data == "chain":
        chain = node.children[0]
        exprs = [compile_node(c, e) for e in chain.children if not isinstance(e, Token)]
        rels = [RELATIONS[str(t)] for t in chain.children if isinstance(t, Token)]
        return T.relation_truth(exprs, rels, entrywise=True)
    named = meaning(c, node)
    if named is None or isinstance(named, Function) or isinstance(c.table.get(c.key(node)), Input):
        raise c.refuse(
            node,
            f"words ({words!r}) the compiler does not read",
            f"name the clause {c.key(node)!r} in {c.table.where} as a Derived returning its truth values",
        )
    return lambda env: T.bools_of(env, named(env).a)


def _iff_parts(node: Tree) -> list:
    parts = [ch for ch in node.children if isinstance(ch, Tree)]
    first = parts[0]
    return (_iff_parts(first) if first.data == "iff" else [first]) + parts[1:]


def _member(c: Compiler, value: Tree, s: Tree) -> T.Truth:
    if s.data == "set_product":
        left, right = (ch for ch in s.children if isinstance(ch, Tree))
        items = _opened(value) if isinstance(value, Tree) else value
        if not (isinstance(items, Tree) and items.data == "tuple" and len(items.children) == 2):
            raise c.refuse(value, "membership in a product of sets of something that is not a pair")
        return T.all_of([_member(c, items.children[0], left), _member(c, items.children[1], right)])
    return _in_set(c, compile_node(c, value), s)


def _in_set(c: Compiler, value, s: Tree) -> T.Truth:
    if s.data == "number_set":
        return _number_set(c, value, s)
    if s.data not in T.SETS:
        raise c.refuse(s, f"membership in a {s.data}", "write an interval [a, b], (a, b), [a, b) or (a, b]")
    low, high = (compile_node(c, ch) for ch in s.children if isinstance(ch, Tree | Token))
    return T.member(value, low, high, s.data)


def _number_set(c: Compiler, value, s: Tree) -> T.Truth:
    """``\\mathbb{R}`` (a number), ``\\mathbb{R}^{n\\times m}`` (an array of that shape), ``\\mathbb{N}``
    (a whole number >= 0), ``\\mathbb{N}^*`` (>= 1)."""
    kind = "N" if "N" in str(s.children[0]) else "R"
    sup = next((ch.children[0] for ch in s.children[1:] if isinstance(ch, Tree) and ch.data == "sup"), None)
    if kind == "N":
        low = 1 if sup is not None and c.key(sup) == "*" else 0
        return T.whole(value, low)
    sizes = (
        []
        if sup is None
        else (list(sup.children) if isinstance(sup, Tree) and sup.data == "factors" else [sup])
    )
    return T.shaped(value, [compile_node(c, n) for n in sizes])


def for_all(c: Compiler, quantifier: Tree, body) -> T.Truth:
    """``\\forall v (\\in S)``: over a claim's input, the sampling (S a condition); over an index with a
    range in the table, the conjunction over it.  ``body(compiler)`` compiles what is quantified."""
    names = [ch for ch in quantifier.children if isinstance(ch, Tree) and ch.data == "bound_var"]
    s = next((ch for ch in quantifier.children if isinstance(ch, Tree) and ch.data != "bound_var"), None)
    keys = [c.key(v) for v in names]
    if any(k in c.table.indices for k in keys):
        if s is not None or not all(k in c.table.indices for k in keys):
            raise c.refuse(quantifier, "\\forall over an index with a set, or mixed with inputs", "one kind")
        for k in reversed(keys[1:]):
            body = _ranged(k, body)
        return _over_range(c, keys[0], body)
    truth = body(c)
    for var, key in zip(names, keys, strict=True):
        found = meaning(c, var, key)
        if found is None or not (isinstance(c.table.get(key), Input) or key in c.defined):
            raise c.table.unknown(key, c.column(var), c.text, "a quantified symbol")
        if s is not None:
            truth = T.implies(_in_set(c, found, s), truth)
    return truth


def sampled_condition(c: Compiler, quantifier: Tree) -> list:
    """``\\forall v \\in S`` in a relation's statement: v a claim's input, which the sampling quantifies;
    the membership in S is the condition it leaves (none without a set)."""
    names = [ch for ch in quantifier.children if isinstance(ch, Tree) and ch.data == "bound_var"]
    s = next((ch for ch in quantifier.children if isinstance(ch, Tree) and ch.data != "bound_var"), None)
    out = []
    for var in names:
        key = c.key(var)
        if key in c.table.indices:
            raise c.refuse(var, "a relation stated for every index of a range: several relations, one check")
        found = meaning(c, var, key)
        if found is None or not (isinstance(c.table.get(key), Input) or key in c.defined):
            raise c.table.unknown(key, c.column(var), c.text, "a quantified symbol")
        if s is not None:
            out.append(_in_set(c, found, s))
    return out


def _ranged(var: str, body):
    return lambda cc: _over_range(cc, var, body)


def _over_range(c: Compiler, var: str, body) -> T.Truth:
    sub = dataclasses.replace(
        c, defined={**c.defined, var: lambda env: V.const(env.bound[var])}, bound=c.bound | {var}
    )
    inner = body(sub)

    def run(env: Env):
        out = T.all_of([])(env)
        for k in range(1, c.table.index_count(var, env.dims) + 1):
            out &= inner(dataclasses.replace(env, bound={**env.bound, var: k}))
        return out

    return run


def read_property(c: Compiler, statement: Tree) -> T.Truth:
    """A property's statement as one truth value: premise conditions imply the formula; definitions (before
    ``:``, or after the first clause of the conclusion) substitute; premise quantifiers take it all."""
    *premise, formula = statement.children
    reading = RelationReading(formula)
    _premise(c, premise[0] if premise else None, reading)
    if formula.data == "conj":
        clauses = _clauses(formula)
        kept = [cl for cl in clauses[1:] if not _is_definition(c, cl)]
        reading.definitions += [cl for cl in clauses[1:] if _is_definition(c, cl)]
        formula = Tree("conj", [clauses[0], *kept], meta=formula.meta)

    def build(cc: Compiler) -> T.Truth:
        compile_definitions(cc, reading.definitions)
        truth = clause_truth(cc, formula)
        return T.implies(condition_truth(cc, reading.conditions), truth) if reading.conditions else truth

    for q in reversed(reading.quantified):
        build = _quantify(q, build)
    return build(c)


def _quantify(quantifier: Tree, inner):
    return lambda cc: for_all(cc, quantifier, inner)
