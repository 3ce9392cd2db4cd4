"""Why a statement cannot be given to an exact route: one exception every part of certification raises,
and the reason given when a check calls a numbers-only library on the symbols certification evaluates."""

from __future__ import annotations

import linecache
import re
from types import TracebackType

__all__ = ["NotCertifiable", "numbers_only_call"]

_NUMBERS_ONLY = ("mpmath", "math", "flint")
# the modules between a check and the library it called: never the author's line
_PASS_THROUGH = ("numpy", "lemmacheck", "mpmath", "flint", "sympy")


class NotCertifiable(Exception):
    """The statement cannot be given to an exact route; the message says why."""


def _module(tb: TracebackType) -> str:
    return str(tb.tb_frame.f_globals.get("__name__", ""))


def numbers_only_call(exc: BaseException, xp_names: set[str]) -> str | None:
    """The reason a check failed on symbols, when its last line of its own called mpmath or math (which
    take numbers): that line, and the ``xp`` function to write instead (``xp_names``: those the symbolic
    namespace has).  ``None`` when the failure came from elsewhere."""
    frames: list[TracebackType] = []
    tb = exc.__traceback__
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    own = [i for i, f in enumerate(frames) if _module(f).split(".")[0] not in _PASS_THROUGH]
    if not own:
        return None
    author = frames[own[-1]]
    code = author.tb_frame.f_code
    line = linecache.getline(code.co_filename, author.tb_lineno).strip()
    called = re.findall(rf"\b({'|'.join(_NUMBERS_ONLY)})\.(\w+)", line)
    in_mpmath = any(_module(f).split(".")[0] == "mpmath" for f in frames[own[-1] :])
    if not called and not in_mpmath:
        return None
    library, name = called[0] if called else ("mpmath", "")
    fix = (
        f"write xp.{name}(...), which runs on every namespace (float64, mpmath, balls and symbols)"
        if name in xp_names
        else "write it with xp functions (docs/authoring.md, 'The xp vocabulary'), which run on symbols too"
    )
    where = f"{code.co_filename.rsplit('/', 1)[-1]}:{author.tb_lineno} ({code.co_name}): {line[:120]}"
    what = f"{library}.{name}" if name else library
    return f"{where} calls {what}, which takes numbers, not the symbols certification evaluates; {fix}"
