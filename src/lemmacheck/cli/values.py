"""Every value the command line reads, checked before any work starts: the options' types and the
environment variables the engine reads.  A bad one is a :class:`~lemmacheck.cli.common.UsageError` of
one line naming the option or variable and what it may be (exit 4, as pytest answers a bad option),
never a traceback from deep inside a run.  The argparse types raise ``ArgumentTypeError`` (which the
parser turns into the usage error); :func:`environment_problem` is asked once, before any command.
"""

from __future__ import annotations

import argparse
import math
import os
from pathlib import Path

__all__ = [
    "MAX_SECONDS",
    "MAX_SCALE",
    "seconds",
    "jobs",
    "seed",
    "number_in",
    "positive_int",
    "output_file",
    "SEED_WORDS",
    "environment_problem",
]

# A time limit is armed with setitimer and added to clocks; past about 3e8 s (ten years) the C
# conversion overflows.  No claim is meant to run for more than days: "none" says "no limit".
MAX_SECONDS = 1e6
# LEMMACHECK_SCALE multiplies sample counts that are held as ints; 1000 is already 25 000 000 quick
# instances a claim (the deep profile is 25x quick).
MAX_SCALE = 1000.0
SEED_WORDS = "an integer in [0, 2**63) or 'random'"


def seconds(text: str) -> float:
    """``--timeout``: seconds in (0, MAX_SECONDS], or ``none``/``inf`` for no limit."""
    if text.strip().lower() in ("none", "inf", "infinity"):
        return math.inf
    value = _float(text)
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(
            f"a time limit is a number of seconds in (0, {MAX_SECONDS:g}], or 'none' for no limit; "
            f"not {text!r}"
        )
    return value


def jobs(text: str) -> int:
    """``-j``: worker processes, at least one."""
    return positive_int(text, what="-j takes a number of worker processes")


def seed(text: str):
    from ..search.seed import parse_seed

    try:
        return parse_seed(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is {SEED_WORDS}, not {text!r}") from None


def number_in(low: float, high: float, *, low_open: bool = True, what: str = "a number"):
    """An argparse type: a finite number in (low, high] (``low_open``) or [low, high]."""
    bracket = "(" if low_open else "["

    def parse(text: str) -> float:
        value = _float(text)
        if not (low < value <= high if low_open else low <= value <= high):
            raise argparse.ArgumentTypeError(f"{what} in {bracket}{low:g}, {high:g}], not {text!r}")
        return value

    return parse


def positive_int(text: str, what: str = "an integer") -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{what} ≥ 1, not {text!r}")
    return value


def output_file(text: str) -> Path:
    """``--junitxml``, ``--badge``: a file to write, whose folder exists or can be made; not a folder."""
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"a file to write, not the folder {text!r}")
    if any(p.exists() and not p.is_dir() for p in path.parents):
        raise argparse.ArgumentTypeError(f"a file to write in a folder, but a parent of {text!r} is a file")
    return path


def _float(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return math.nan  # fails every range test above


# --------------------------------------------------------------------------- the environment


def _scale(raw: str) -> str:
    value = _float(raw)
    return "" if 0 < value <= MAX_SCALE else f"a number in (0, {MAX_SCALE:g}], like 4 or 0.5"


def _seed(raw: str) -> str:
    from ..search.seed import parse_seed

    try:
        parse_seed(raw)
    except ValueError:
        return SEED_WORDS
    return ""


def _folder(raw: str) -> str:
    return "" if Path(raw).is_dir() else "an existing folder"


def _folder_or_new(raw: str) -> str:
    path = Path(raw)
    return "" if path.is_dir() or not path.exists() else "a folder (or a path where one can be made)"


#: every variable of ours the engine reads, and the check of its value ("" when good, else what it may be)
_VARIABLES = {
    "LEMMACHECK_SEED": _seed,
    "LEMMACHECK_SCALE": _scale,
    "LEMMACHECK_ROOT": _folder,
    "LEMMACHECK_EXAMPLES": _folder_or_new,
}


def environment_problem(environ=os.environ) -> str:
    """The one line naming the first variable whose value the engine could not use, and what it may
    be; "" when every one is usable (an empty value counts as unset, as the engine reads it)."""
    for name, allowed in _VARIABLES.items():
        raw = environ.get(name, "")
        problem = allowed(raw) if raw else ""
        if problem:
            return f"{name}={raw!r}: must be {problem}"
    return ""
