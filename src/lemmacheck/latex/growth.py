"""A complexity claim's statement (``\\text{time}(\\ldots) = O(TN^2)``) against its check's growth model.

A ``complexity(...)`` check declares the model it tests: one exponent per variable of its grid (``stated``),
against which it fits the measured cost.  The statement names a model too, the ``f`` of ``O(f)`` or
``\\Theta(f)``.  The two are compared as models, never as truth values: ``f`` is evaluated on the check's
own grid and its log-log exponents are fitted exactly as the check fits its cost
(:func:`~lemmacheck.kinds.complexity.fit_complexity`), so a monomial gets its exponents exactly and a sum or
a log factor the exponents it shows in the regime that grid covers; each must lie within
``EXPONENT_SLACK`` of the check's stated exponent (the slack the check itself is judged with).  ``O(TN^3)``
where the check declares ``TN^2`` differs by 1 in N and is a ``differs``.

``O(f) \\ni O(g)`` names ``g`` as the term of ``f`` that dominates in the check's regime: ``g`` must be one
of the terms of ``f`` expanded (up to a constant factor), and it is ``g`` that is compared.  A regime in
words (``\\text{ in } N\\ (B, T \\text{ fixed})``) must be the check's: the variables said to vary are its
grid's and the fixed ones are not.  A letter of ``f`` is the grid variable the symbol table maps it to
(``Input("N")``), else the grid variable of the same name; a letter that is neither (``T`` of ``TN^T`` where
the check fixes T inside its cost) is refused, because the exponent would depend on a value the check does
not declare.
"""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import sympy
from lark import Token, Tree

from ..model.claim import Claim, ComplexityCheck
from ..model.tolerance import EXPONENT_SLACK
from .errors import LatexError
from .parse import parse_growth
from .symbols import Input, SymbolTable, normalise
from .tables import table_for

__all__ = ["growth_statement_check"]


def growth_statement_check(claim: Claim) -> dict:
    """``agrees``, ``differs`` or ``not compiled``, in ``statement_check``'s words."""
    from ..kinds.complexity import fit_complexity  # the kinds import the engine's model: keep it one-way

    check = claim.check
    assert isinstance(check, ComplexityCheck)
    try:
        tree = parse_growth(claim.statement)
        table = _table(claim)
        reader = _Reader(claim.statement, table, tuple(check.grid))
        orders = [reader.order(ch) for ch in tree.children if isinstance(ch, Tree) and ch.data == "order"]
        regime = next((ch for ch in tree.children if isinstance(ch, Tree) and ch.data == "regime"), None)
        if regime is not None:
            differs = reader.regime(regime, check)
            if differs:
                return {"status": "differs", "reason": differs}
        model = orders[-1]
        if len(orders) == 2 and not _is_term(model, orders[0]):
            return {
                "status": "differs",
                "reason": f"O({model}) is not a term of O({orders[0]}), as \\ni says",
            }
        fitted = _fitted(fit_complexity, model, check)
    except LatexError as exc:
        return {"status": "not compiled", "reason": exc.reason}
    off = {n: (fitted[n], float(check.stated[n])) for n in check.grid}
    gaps = {n: abs(a - b) for n, (a, b) in off.items()}
    shown = ", ".join(f"{n}: {a:.3f} vs {b:g}" for n, (a, b) in off.items())
    points = len(list(_points(check)))
    if all(g <= EXPONENT_SLACK for g in gaps.values()):
        return {
            "status": "agrees",
            "instances": points,
            "compared": f"the growth model {model} fitted on the check's grid of {points} points against the "
            f"exponents the check declares ({shown}; slack {EXPONENT_SLACK})",
        }
    worst = max(gaps, key=lambda n: gaps[n])
    return {
        "status": "differs",
        "reason": f"the statement's O({model}) has exponent {off[worst][0]:.3f} in {worst} on the check's "
        f"grid, the check declares {off[worst][1]:g} ({shown}; slack {EXPONENT_SLACK})",
        "statement": [str(model)],
        "check": [str(dict(check.stated))],
    }


def _table(claim: Claim) -> SymbolTable | None:
    try:
        return table_for(claim.module, claim.id)
    except LatexError:
        return None  # a growth model's letters are grid variables; a table only renames them


def _points(check: ComplexityCheck):
    return itertools.product(*check.grid.values())


def _fitted(fit, model: sympy.Expr, check: ComplexityCheck) -> dict[str, float]:
    names = [str(s) for s in model.free_symbols]
    fn = sympy.lambdify(sorted(model.free_symbols, key=str), model, "math")
    order = sorted(names)

    def cost(**at: float) -> float:
        return float(fn(*(at[n] for n in order)))

    try:
        _, evidence = fit(ComplexityCheck(cost=cost, grid=check.grid, stated=check.stated))
    except (ValueError, ZeroDivisionError) as exc:
        raise LatexError(f"the growth model {model} is not finite and positive on the check's grid") from exc
    return evidence["fitted_exponents"]


def _is_term(g: sympy.Expr, f: sympy.Expr) -> bool:
    return any((term / g).is_number and term / g != 0 for term in sympy.Add.make_args(sympy.expand(f)))


@dataclasses.dataclass(frozen=True)
class _Reader:
    """The ``f`` of ``O(f)`` as a SymPy expression of the check's grid variables."""

    text: str
    table: SymbolTable | None
    grid: tuple[str, ...]

    def refuse(self, node: Tree | Token, why: str, fix: str = "") -> LatexError:
        src = str(node) if isinstance(node, Token) else self.text[node.meta.start_pos : node.meta.end_pos]
        column = node.column if isinstance(node, Token) else node.meta.column
        return LatexError(why, construct=src[:40], column=column, text=self.text, fix=fix)

    def order(self, node: Tree) -> sympy.Expr:
        return self.expr(node.children[1])

    def variable(self, node: Tree) -> str:
        key = self.key(node)
        m = self.table.get(key) if self.table is not None else None
        name = m.name if isinstance(m, Input) else key
        if name not in self.grid:
            raise self.refuse(
                node,
                f"{key!r} is not a variable of the check's grid {list(self.grid)}: the exponents of the "
                "growth model would depend on a value the check does not declare",
                "vary it in the check's grid (with its stated exponent), or map the letter to a grid "
                "variable (Input) in the symbol table",
            )
        return name

    def regime(self, node: Tree, check: ComplexityCheck) -> str:
        """'' when the regime in words is the check's grid (what varies is its grid, what is held fixed is
        not), else the difference."""
        first, varying, held, last = node.children
        if normalise(str(first)) != "\\text{in}" or normalise(str(last)) != "\\text{fixed}":
            raise self.refuse(node, "a regime other than '\\text{ in } x\\ (y, z \\text{ fixed})'")
        vary, hold = ([self.key(s) for s in part.children] for part in (varying, held))
        stated = self.text[node.meta.start_pos : node.meta.end_pos]
        if set(vary) != set(check.grid) or set(hold) & set(check.grid):
            return (
                f"the statement's regime {stated!r} varies {vary} and holds {hold} fixed; the check's grid "
                f"varies {list(check.grid)}"
            )
        return ""

    def key(self, node: Tree) -> str:
        return normalise(self.text[node.meta.start_pos : node.meta.end_pos])

    def expr(self, node: Tree | Token) -> Any:
        if isinstance(node, Token):
            if node.type in ("NUMBER", "DIGIT"):
                return sympy.Rational(str(node))
            raise self.refuse(node, f"a {node.type} in a growth model")
        handler = getattr(self, "_" + str(node.data), None)
        if handler is None:
            raise self.refuse(
                node,
                f"a {node.data} in a growth model, which the compiler reads only as sums, products, powers, "
                "\\log and \\frac of the grid's variables",
            )
        return handler(node)

    def _parts(self, node: Tree) -> list:
        return [self.expr(ch) for ch in node.children if not isinstance(ch, Token) or ch.type == "NUMBER"]

    def _letter_sym(self, node: Tree) -> Any:
        return sympy.Symbol(self.variable(node), positive=True)

    def _number(self, node: Tree) -> Any:
        return self.expr(node.children[0])

    def _factors(self, node: Tree) -> Any:
        return sympy.Mul(*self._parts(node))

    def _mul_prefixed(self, node: Tree) -> Any:
        return sympy.Mul(*self._parts(node))

    def _prefixed(self, node: Tree) -> Any:
        head, body = node.children
        if head.data != "opname" or str(head.children[0]) != "\\log" or len(head.children) > 1:
            raise self.refuse(head, "an operator other than \\log in a growth model")
        return sympy.log(self.expr(body))

    def _add(self, node: Tree) -> Any:
        a, b = self._parts(node)
        return a + b

    def _paren(self, node: Tree) -> Any:
        return self.expr(node.children[0])

    def _frac(self, node: Tree) -> Any:
        a, b = (self.expr(ch) for ch in node.children[1:])
        return a / b

    def _postfix(self, node: Tree) -> Any:
        base = self.expr(node.children[0])
        for s in node.children[1:]:
            if not isinstance(s, Tree) or s.data != "sup":
                raise self.refuse(s, "a script other than a power in a growth model")
            base = base ** self.expr(s.children[0])
        return base
