"""What every command of the command line shares: its usage error and parser, its output lines, the
options of a run, and the project it works on.  :mod:`.main`, :mod:`.run` and the other
commands import it."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import values
from .terminal import printable_line

__all__ = [
    "UsageError",
    "Parser",
    "K_HELP",
    "SEED_HELP",
    "ROOT_HELP",
    "say",
    "emit",
    "seed_argument",
    "add_root_option",
    "add_execution_options",
    "project_root",
]


class UsageError(Exception):
    """A mistake in how lemmacheck was called: one line, exit code USAGE_ERROR."""


class Parser(argparse.ArgumentParser):
    """argparse that reports a bad argument as a :class:`UsageError` (pytest's exit code 4, not 2)."""

    def error(self, message: str):
        raise UsageError(f"{self.prog}: {message}")


K_HELP = (
    "select claims as pytest's -k does: case-insensitive substrings of the claim id combined with "
    "and, or, not and parentheses (e.g. -k 'lse and not hessian'); id:ID selects one whole id, "
    "topic:T the ids whose first part is T (-k 'id:ext.weyl')"
)
SEED_HELP = "run seed: an integer, or 'random' for a fresh one (default: LEMMACHECK_SEED or 20261125)"
ROOT_HELP = (
    "the project (a folder with pyproject.toml and checks/ or derivations/); default: LEMMACHECK_ROOT, "
    "else the nearest such folder at or above the working directory"
)


def say(message: str) -> None:
    """One line on stderr, prefixed ``lemmacheck:`` (control characters escaped)."""
    _write(sys.stderr, f"lemmacheck: {printable_line(message)}\n")


def emit(text: str = "") -> None:
    """A line on stdout; a reader that closed the pipe (``| head``) is not an error."""
    _write(sys.stdout, text + "\n")


def _write(stream, text: str) -> None:
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError:
        # the reader has what it wanted: send the rest nowhere (Python's documented idiom for SIGPIPE)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, stream.fileno())


def seed_argument(text: str):
    return values.seed(text)


# --------------------------------------------------------------------------- the parser


def add_root_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--root", type=Path, default=None, metavar="DIR", help=ROOT_HELP)


def add_execution_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-j",
        "--jobs",
        type=values.jobs,
        default=None,
        metavar="N",
        help="worker processes (default: every core; 1: one worker; a claim never runs in this process)",
    )
    parser.add_argument(
        "--timeout",
        type=values.seconds,
        default=None,
        metavar="S",
        help=f"seconds per claim before it is an ERROR, in (0, {values.MAX_SECONDS:g}], or 'none' "
        "(default 120 quick, 3600 deep; --certify adds 600)",
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="check every claim again (the cache in .lemmacheck-cache/ is left untouched)",
    )
    parser.add_argument(
        "--dask",
        default=None,
        metavar="ADDRESS",
        help="run the claims on a dask.distributed scheduler ('local': a LocalCluster here)",
    )
    add_root_option(parser)


# --------------------------------------------------------------------------- the project


def project_root() -> Path:
    """The project the command works on, or a :class:`UsageError` saying where it was looked for."""
    from ..project.discovery import content_dirs, find_root

    root = find_root()
    if not any((root / d).is_dir() for d in content_dirs(root)):
        where = os.environ.get("LEMMACHECK_ROOT") or f"at or above {Path.cwd()}"
        raise UsageError(
            f"no lemmacheck project {where} (a folder with pyproject.toml and "
            f"{' or '.join(d + '/' for d in content_dirs(root))}); run it from the project folder, or "
            "point at one with --root DIR or LEMMACHECK_ROOT=DIR. Nothing checked."
        )
    return root
