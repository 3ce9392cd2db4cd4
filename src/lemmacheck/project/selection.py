"""``-k`` selection with pytest's grammar: ``and``, ``or``, ``not``, parentheses, substring match.

    expression: expr? EOF
    expr:       and_expr ('or' and_expr)*
    and_expr:   not_expr ('and' not_expr)*
    not_expr:   'not' not_expr | '(' expr ')' | word

A word matches a claim when it occurs in the claim's id, ignoring case (as pytest's ``-k`` matches a
substring of a test's name): ``-k ext`` selects ``ext.weyl`` and ``viterbi.full_context_t2`` alike.  Two
prefixed words match exactly instead: ``id:ext.weyl`` the claim whose whole id is ``ext.weyl``, and
``topic:ext`` the claims whose id's first dotted part is ``ext``; they combine with the grammar like any word
(``-k 'topic:lse and not id:lse.bound'``).  The tokens are pytest's: a word is made of letters, digits and
``_ : + - . [ ] \\ /``.
An empty expression selects everything.  A malformed one raises :class:`SelectionError` saying where.
The parser is our own (a few lines) rather than ``_pytest.mark.expression``, whose interface is private
and has changed between pytest releases; a test checks the two agree on a table of expressions.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TypeVar

from ..errors import SelectionError

__all__ = ["compile_expression", "matches", "select", "SelectionError"]

T = TypeVar("T")
_WORD = re.compile(r"(?:\w|:|\+|-|\.|\[|\]|\\|/)+")
_KEYWORDS = ("and", "or", "not")
Predicate = Callable[[str], bool]
# A plain word matches a substring (`-k ext` selects viterbi.full_context_*); these match a whole part
_EXACT: dict[str, Callable[[str], str]] = {"id": lambda name: name, "topic": lambda name: name.split(".")[0]}
_EXAMPLE = {"id": "lse.bound", "topic": "lse"}
# Parentheses and 'not' nested deeper than this are refused with a SelectionError: the parser and the
# predicate it builds recurse once per level, and Python's stack (1000 frames) must never be what stops them.
MAX_NESTING = 100


def _tokens(expression: str) -> list[tuple[str, str, int]]:
    """``(kind, text, position)`` with kind one of ``( ) and or not word end``."""
    out, pos = [], 0
    while pos < len(expression):
        ch = expression[pos]
        if ch in " \t":
            pos += 1
        elif ch in "()":
            out.append((ch, ch, pos))
            pos += 1
        else:
            m = _WORD.match(expression, pos)
            if not m:
                raise SelectionError(expression, pos, f"unexpected character {ch!r}")
            word = m.group(0)
            out.append((word if word in _KEYWORDS else "word", word, pos))
            pos = m.end()
    out.append(("end", "", len(expression)))
    return out


class _Parser:
    def __init__(self, expression: str):
        self.expression = expression
        self.tokens = _tokens(expression)
        self.i = 0
        self.depth = 0

    def _peek(self) -> str:
        return self.tokens[self.i][0]

    def _take(self, kind: str) -> bool:
        if self._peek() == kind:
            self.i += 1
            return True
        return False

    def _nested(self) -> Predicate:
        if self._take("not"):
            inner = self._not()
            return lambda name: not inner(name)
        self._take("(")
        inner = self._expr()
        if not self._take(")"):
            self._fail("')'")
        return inner

    def _fail(self, wanted: str):
        kind, text, pos = self.tokens[self.i]
        got = "end of input" if kind == "end" else repr(text)
        raise SelectionError(self.expression, pos, f"expected {wanted}; got {got}")

    def parse(self) -> Predicate:
        if self._take("end"):
            return lambda _name: True
        pred = self._expr()
        if not self._take("end"):
            self._fail("'and', 'or' or end of input")
        return pred

    def _expr(self) -> Predicate:
        terms = [self._and()]
        while self._take("or"):
            terms.append(self._and())
        return terms[0] if len(terms) == 1 else (lambda name: any(t(name) for t in terms))

    def _and(self) -> Predicate:
        terms = [self._not()]
        while self._take("and"):
            terms.append(self._not())
        return terms[0] if len(terms) == 1 else (lambda name: all(t(name) for t in terms))

    def _not(self) -> Predicate:
        if self._peek() in ("not", "("):
            self.depth += 1
            if self.depth > MAX_NESTING:
                pos = self.tokens[self.i][2]
                raise SelectionError(self.expression, pos, f"nested deeper than {MAX_NESTING} levels")
            inner = self._nested()
            self.depth -= 1
            return inner
        kind, text, pos = self.tokens[self.i]
        if kind != "word":
            self._fail("a word, 'not' or '('")
        self.i += 1
        return self._word(text, pos)

    def _word(self, text: str, pos: int) -> Predicate:
        field, colon, value = text.partition(":")
        part = _EXACT.get(field.lower()) if colon else None
        if part is None:
            needle = text.lower()
            return lambda name: needle in name.lower()
        if not value:
            raise SelectionError(
                self.expression, pos, f"{field}: needs a value, as in '{field}:{_EXAMPLE[field]}'"
            )
        wanted = value.lower()
        return lambda name: part(name.lower()) == wanted


def compile_expression(expression: str | None) -> Predicate:
    """A predicate on claim ids; raises :class:`SelectionError` on a malformed expression."""
    return _Parser((expression or "").strip()).parse()


def matches(expression: str | None, claim_id: str) -> bool:
    """Whether ``-k expression`` selects the claim ``claim_id`` (pytest's ``-k`` semantics)."""
    return compile_expression(expression)(str(claim_id))


def select(items: Iterable[T], expression: str | None) -> list[T]:
    """The items (claims, studies, or anything with an ``id``; or plain id strings) that ``-k`` selects."""
    pred = compile_expression(expression)
    return [it for it in items if pred(str(getattr(it, "id", it)))]
