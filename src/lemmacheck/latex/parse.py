"""LaTeX statement -> parse tree, with lark's Earley parser over ``grammar.lark`` (a statement whose
reading is not in doubt is read by the LALR fast path of fast_parse.py, to the same tree).

A statement the grammar does not cover raises :class:`LatexError` naming the construct (the command or
character where the parse stopped) and its column, never a tree of what happened to parse.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from lark import Lark, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .errors import LatexError
from .fast_parse import fast_parse

__all__ = ["parse", "parse_growth", "GRAMMAR"]

GRAMMAR = Path(__file__).with_name("grammar.lark")
_COMMAND = re.compile(r"\\[A-Za-z]+|\\.|.")


@functools.cache
def _parser() -> Lark:
    # Earley, because juxtaposition is multiplication and a prefix operator takes the rest of a product:
    # LALR would need the symbol table to decide them, and the table's meaning belongs to the compiler.
    return Lark(
        GRAMMAR.read_text(encoding="utf-8"),
        parser="earley",
        lexer="dynamic",
        propagate_positions=True,
        start=["start", "growth"],
    )


def _construct(text: str, column: int) -> str:
    """The command or character starting at 1-based ``column`` (what a reader would search for)."""
    m = _COMMAND.match(text, max(column - 1, 0))
    return m.group(0) if m else "end of statement"


def parse(text: str) -> Tree:
    """The parse tree of a statement; :class:`LatexError` with the construct and column where it stops."""
    return _answer(_parsed(text, "start"), text)


def parse_growth(text: str) -> Tree:
    """The parse tree of a complexity claim's statement (``cost = O(f)``), located errors as :func:`parse`."""
    return _answer(_parsed(text, "growth"), text)


@functools.lru_cache(maxsize=2048)
def _parsed(text: str, start: str) -> Tree | LatexError:
    """The tree, or the refusal: both are remembered (a refusal was parsed again whenever its claim ran
    again in the process: 26 ms of CPU for sens.u_remainder_000's ``\\int``, and a third of the
    catalogue's statements are refused)."""
    try:
        return _parse(text, start)
    except LatexError as exc:
        return exc


def _answer(parsed: Tree | LatexError, text: str) -> Tree:
    if isinstance(parsed, LatexError):  # a fresh error each time: a raised one collects its traceback
        again = LatexError(
            parsed.why, construct=parsed.construct, column=parsed.column, text=text, fix=parsed.fix
        )
        raise again from parsed.__cause__
    return parsed


def _parse(text: str, start: str) -> Tree:
    fast = fast_parse(text, GRAMMAR) if start == "start" else None
    if fast is not None:
        return fast
    try:
        return _parser().parse(text, start=start)
    except UnexpectedEOF as exc:
        raise LatexError(
            "statement ends early", construct="end of statement", column=len(text) + 1, text=text
        ) from exc
    except (UnexpectedCharacters, UnexpectedToken) as exc:
        column = exc.column if isinstance(exc.column, int) and exc.column > 0 else 1
        what = _construct(text, column)
        raise LatexError(
            "the grammar has no rule for it here", construct=what, column=column, text=text
        ) from exc
    except UnexpectedInput as exc:  # any other lark refusal still names where it stopped
        column = getattr(exc, "column", 1) or 1
        raise LatexError(
            str(exc).splitlines()[0], construct=_construct(text, column), column=column, text=text
        ) from exc
