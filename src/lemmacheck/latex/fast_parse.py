"""A fast path for :func:`parse`: lark's LALR parser over a narrowed copy of ``grammar.lark``.

Earley over the whole grammar costs ~40 ms of CPU per statement (16-19 s per catalogue run), LALR ~2 ms.
The grammar is ambiguous on purpose and Earley resolves each ambiguity its own way
(``\\|W\\|\\|D\\| c \\|E\\|`` nests the last two norms, ``|a|b|c|`` does not; ``\\nabla_V f_t`` puts
``_t`` on the gradient, not on ``f``), so this path only answers where the reading is not in doubt, and
returns None everywhere else for Earley to decide:

- the LALR grammar leaves out the ambiguous constructs (an expectation without brackets, a script after a
  gradient or an expectation, a gradient of a sum, the duplicate tuple rule): a text using them is refused
  by LALR; a text with ``\\forall`` is not tried (a quantifier's comma may be its own, the next variable's
  or a separator);
- a bar (``|`` or ``\\|``) is paired before parsing, and only where its role is forced by its neighbours:
  after an operator or an opening it opens, before a script, a relation or the end (or with too few bars
  left to close it) it closes; a bar that could do either gives the text to Earley;
- the separators, ``:`` and ``=`` are single terminals here (Earley's dynamic lexer tries each overlapping
  terminal; a contextual lexer picks one), with the same tokens left in the tree; a separator with a space
  inside, which Earley's one-token separator refuses, is refused here too.

Whatever this path returns is the tree Earley returns (types, values and positions):
tests/test_latex_fast_parse.py compares them on the catalogue's statements and on generated ones. A
refusal here never becomes a LatexError: the text goes to Earley, which says where it stops.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from lark import Lark, Tree
from lark.exceptions import LarkError

__all__ = ["fast_parse"]

# Each edit replaces one line of grammar.lark; an edit that no longer applies is an error when the parser is
# built, so a change of the grammar cannot silently leave the fast path reading an older one.
_EDITS = (
    ('        | "(" expr ("," expr)+ ")" -> tuple\n', ""),  # the same tree as the rule after it
    ("        | EXPECT script* factor -> expectation\n", ""),
    ('        | EXPECT script* "[" expr "]" -> expectation\n', ""),
    ("        | NABLA script* prefixed -> nabla", "//"),
    ("?factor: primary script*  -> postfix\n", "?factor: primary script*  -> postfix\n    | alone\n"),
    ('        | "\\\\|" expr "\\\\|" -> norm\n', '        | "\x03\x03" expr "\x04\x04" -> norm\n'),
    ('        | "|" expr "|"   -> abs\n', '        | "\x01" expr "\x02" -> abs\n'),
    ('"{" letter_sym "=" expr "}"', '"{" letter_sym "\x05" expr "}"'),
    ("        | NABLA script* factor -> nabla\n", ""),
    ("_JOIN: _SEP+ | _SEP* AND_TEXT _SEP*\n", "_join: _sep+ | _sep* _AND_TEXT\n"),
    ("conj: clause (_JOIN clause)*", "conj: clause (_join clause)*"),
    ('_SEP: "," | ";" | /\\\\q?quad(?![a-zA-Z])/\n', '_sep: "," | ";" | _QUAD\n'),
    ('_COLON: ":"\n', ""),
    ("AND_TEXT: ", "_AND_TEXT.2: "),  # "\text{ and }" joins wherever it can: TEXT_CMD there is refused
    ("DIGIT: ", "DIGIT.2: "),  # a digit where a NUMBER is meant is refused, never misread
)
# A gradient or an expectation takes no script after it: Earley may give the script to its operand or to
# it, case by case, so such a text is Earley's.
_EXTRA = r"""
_QUAD: /\\q?quad(?![a-zA-Z])/
alone: (gradient | expected) -> postfix
gradient: NABLA script* nabla_operand -> nabla
nabla_operand: primary -> postfix
expected: EXPECT script* "[" expr "]" -> expectation
"""


def _grammar(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    for old, new in _EDITS:
        if old not in text:
            raise RuntimeError(f"grammar.lark changed: the fast path's edit {old.strip()!r} does not apply")
        text = text.replace(old, new)
    return text.replace("_COLON", '":"').replace("_SEP", "_sep") + _EXTRA


# The pre-scan's lexemes, as the grammar's lexer cuts them where it matters for a bar's neighbours.
_LEXEME = re.compile(r"\\text\{[^{}]*\}|\\mathbb\{?[A-Z]\}?|\\[a-zA-Z]+|\\.|\s+|.")
_IGNORED = re.compile(
    r"\\(left|right|bigl|bigr|Bigl|Bigr|biggl|biggr|big|Big|bigg|Bigg|textstyle|displaystyle)$|\\[ ,;!]$|\s+$"
)
# After one of these a bar cannot close (the content would end in an operator or an opening): it opens.
_OPENS_AFTER = frozenset("( [ { \\{ , ; : + - / ^ _ = < > & \\\\".split()) | frozenset(
    r"""\cdot \times \odot \frac \tfrac \dfrac \sqrt \log \exp \tanh \sin \cos \sum \prod \max \min \lim
    \nabla \langle \in \forall \implies \iff \Rightarrow \Leftrightarrow \lor \le \leq \ge \geq \ne \neq
    \lesssim \leftarrow \succ \succeq \simeq \approx \to \rightarrow \quad \qquad \mathbf \boldsymbol
    \mathrm \bm
    \operatorname \mathcal \tilde \hat \bar \overline \dot \Delta \arg \partial""".split()
)
# Before one of these a bar cannot open (no expression starts with it): it closes.
_CLOSES_BEFORE = frozenset(") ] } \\} , ; : _ ^ ' = < > & \\\\".split()) | frozenset(
    r"""\le \leq \ge \geq \ne \neq \lesssim \leftarrow \succ \succeq \simeq \approx \implies \iff \Rightarrow
    \Leftrightarrow \lor \quad \qquad \rangle \in \to \rightarrow \forall \odot \cdot \times \end""".split()
)


_JOINING = re.compile(r"[,;]$|\\q?quad$|\\text\{\s*(and|with)\s*\}$")


def _lexemes(text: str) -> list[tuple[int, str]]:
    out = []
    for m in _LEXEME.finditer(text):
        if not _IGNORED.match(m.group(0)):
            out.append((m.start(), m.group(0)))
    return out


def bar_roles(text: str) -> dict[int, bool] | None:
    """Each bar's start position -> True where it opens, False where it closes; None if any bar could do
    either (Earley's reading of such a text is its own tie-break, not a rule this path can follow)."""
    return _bar_roles(_lexemes(text))


def _bar_roles(lex: list[tuple[int, str]]) -> dict[int, bool] | None:
    roles: dict[int, bool] = {}
    pending = {"|": 0, "\\|": 0}
    for k, (pos, lexeme) in enumerate(lex):
        if lexeme not in pending:
            continue
        before = lex[k - 1] if k else (-1, "(")
        after = lex[k + 1][1] if k + 1 < len(lex) else "\\end"
        mark = before[1] == "+" and k > 1 and lex[k - 2][1] in ("^", "_")  # x^+ is a complete factor
        opening_before = before[1] in _OPENS_AFTER and not mark or roles.get(before[0]) is True
        later = sum(1 for _, other in lex[k + 1 :] if other == lexeme)
        must_open = not pending[lexeme] or opening_before
        must_close = after in _CLOSES_BEFORE or after.startswith("\\text{") or later < pending[lexeme] + 1
        if must_open == must_close:  # either way, or neither: not this path's to read
            return None
        pending[lexeme] += 1 if must_open else -1
        roles[pos] = must_open
    return roles


# A bar's role and a bound's '=' are written into the text as control characters of the same length, so
# every position (and so every token's and node's) is the original one; the tokens they become are
# anonymous, left out of the tree as the bars and the bound's '=' are in Earley's.
_MARKS = {("|", True): "\x01", ("|", False): "\x02", ("\\|", True): "\x03\x03", ("\\|", False): "\x04\x04"}
_BOUND_EQ = "\x05"


def _marked(text: str) -> str | None:
    if any(c in text for c in "\x01\x02\x03\x04\x05") or "\\forall" in text:
        return None  # a quantifier's comma may be its own, the next variable's or a separator: Earley decides
    lex = _lexemes(text)
    roles = _bar_roles(lex)
    if roles is None:
        return None
    chars = list(text)
    for pos, opens in roles.items():
        bar = "\\|" if text.startswith("\\|", pos) else "|"
        chars[pos : pos + len(bar)] = _MARKS[bar, opens]
    for (start, first), (end, second) in zip(lex, lex[1:], strict=False):
        if _JOINING.match(first) and _JOINING.match(second) and end != start + len(first):
            return None  # Earley's separator is one token: ", \quad" (a space inside) is two, and refused
        if _JOINING.match(first) and first.startswith("\\text") and second.startswith("\\text{"):
            return None  # '\text{and} \text{...}': qualifying the clause before, or joining a prose clause
    for (_, brace), (_, letter), (pos, eq) in zip(lex, lex[1:], lex[2:], strict=False):
        if (brace, eq) == ("{", "=") and letter.isalpha() and len(letter) == 1:
            chars[pos] = _BOUND_EQ  # '{t=1}': a bound, the only '=' of the grammar that is no relation
    return "".join(chars)


@functools.cache
def _parser(path: Path) -> Lark:
    return Lark(_grammar(path), parser="lalr", start="start", propagate_positions=True)


def fast_parse(text: str, grammar: Path) -> Tree | None:
    """Earley's tree of a statement (start rule ``start``) where this path can tell it, else None."""
    marked = _marked(text)
    if marked is None:
        return None
    try:
        return _parser(grammar).parse(marked)
    except LarkError:
        return None
