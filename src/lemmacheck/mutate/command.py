"""Mutation score: mutate each claim's check and derivation, run every mutant, count the verdicts changed.

``lemmacheck mutate`` answers "how much would the suite notice?".

The lead wires it into ``cli.py`` with ``mutate.command.add_parser(sub)`` and dispatches ``"mutate"`` to
``mutate.command.run``; ``python -m lemmacheck.mutate`` runs the same command on its own.
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from pathlib import Path

from ..cli import values
from ..cli.exitcodes import NO_TESTS_COLLECTED, OK, TESTS_FAILED, USAGE_ERROR

__all__ = ["add_parser", "run", "DEFAULT_MIN_SCORE"]

DEFAULT_MIN_SCORE = 0.95


_fraction = values.number_in(0, 1, what="a fraction")
_effort = values.number_in(0, values.MAX_SCALE, what="an effort (a multiple of the quick profile)")
_cpu_seconds = values.number_in(0, values.MAX_SECONDS, what="CPU seconds")
_score = values.number_in(0, 1, low_open=False, what="a score")


def _seed(text: str) -> int:
    value = values.seed(text)
    if not isinstance(value, int):
        raise argparse.ArgumentTypeError(f"a seed is an integer in [0, 2**63), not {text!r}")
    return value


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Register ``mutate`` on a subparsers object (``argparse``'s ``add_subparsers()``)."""
    p = subparsers.add_parser(
        "mutate",
        help="mutation score: how many small changes of each check the run notices",
        description=__doc__.splitlines()[0],
    )
    _add_selection_arguments(p)
    _add_run_arguments(p)
    return p


def _add_selection_arguments(p: argparse.ArgumentParser) -> None:
    """Which claims, which mutants, drawn from which seed."""
    from .operators import OPERATORS

    p.add_argument(
        "-k",
        dest="keyword",
        default=None,
        help="claims selected as by pytest's -k (and, or, not, substrings of the id)",
    )
    p.add_argument("--seed", type=_seed, default=None, help="replay a run (default: a fresh seed, printed)")
    sample = p.add_mutually_exclusive_group()
    sample.add_argument(
        "--sample", type=values.positive_int, default=None, help="run N mutants drawn from the seed"
    )
    sample.add_argument("--fraction", type=_fraction, default=None, help="run this fraction of the mutants")
    p.add_argument(
        "--max-per-claim",
        type=values.positive_int,
        default=None,
        help="at most N mutants per claim (drawn from the seed), before --sample/--fraction",
    )
    p.add_argument(
        "--operators",
        default=None,
        help=f"comma-separated operators (default: all of {','.join(op.name for op in OPERATORS)})",
    )
    p.add_argument(
        "--mutant",
        action="append",
        default=[],
        metavar="CLAIM#K",
        help="run only this mutant (repeatable): replays one line of a report",
    )


def _add_run_arguments(p: argparse.ArgumentParser) -> None:
    """How hard each mutant is checked, and what the run writes and exits with."""
    p.add_argument(
        "--effort",
        type=_effort,
        default=0.25,
        help="search effort of each run, a fraction of the quick profile (default 0.25)",
    )
    p.add_argument(
        "--time-cap",
        type=_cpu_seconds,
        default=20.0,
        help="CPU seconds per mutant, raised to 5x the unmutated claim's (default 20)",
    )
    p.add_argument(
        "--no-implication",
        action="store_true",
        help="skip the engine test of whether a surviving mutant is implied by the original",
    )
    p.add_argument(
        "--min-score",
        type=_score,
        default=DEFAULT_MIN_SCORE,
        help=f"exit 1 when the score is below this (default {DEFAULT_MIN_SCORE})",
    )
    p.add_argument("--out", type=Path, default=None, help="report folder (default: <project>/reports)")
    p.add_argument("--quiet", action="store_true", help="no progress line")


def _replay(args, seed: int) -> str:
    from ..run.replay import replay_command

    parts = []
    if args.keyword:
        parts.append(f"-k {args.keyword!r}")
    for flag, value in (
        ("--sample", args.sample),
        ("--fraction", args.fraction),
        ("--max-per-claim", args.max_per_claim),
        ("--operators", args.operators),
    ):
        if value is not None:
            parts.append(f"{flag} {value}")
    if args.effort != 0.25:
        parts.append(f"--effort {args.effort}")
    return replay_command("mutate", seed, options=" ".join(parts))


def run(args) -> int:
    """Run the mutation analysis; 0 when the score is at least ``--min-score``, 1 otherwise."""
    from ..project.discovery import find_root
    from ..search.profile import profile_named
    from .results import write_json
    from .runner import Settings, run_mutation

    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    names = _operator_names(args)
    if names is None:
        return USAGE_ERROR
    print(f"lemmacheck mutate: seed {seed} (replay with: {_replay(args, seed)})", flush=True)
    root = find_root()
    claims = _selected_claims(args, root)
    if not claims:
        print("lemmacheck mutate: no claim selected; check -k / --mutant", file=sys.stderr)
        return NO_TESTS_COLLECTED
    settings = Settings(
        seed=seed,
        effort=args.effort,
        time_cap=args.time_cap,
        max_per_claim=args.max_per_claim,
        sample=args.sample,
        fraction=args.fraction,
        operators=names,
        only=tuple(args.mutant),
        implication=not args.no_implication,
    )
    path = (args.out or root / "reports") / "mutation.json"

    def journal(data: dict) -> None:
        data["run"] |= {"selection": args.keyword or "", "replay": _replay(args, seed)}
        write_json(data, path)

    progress = _Progress(quiet=args.quiet)
    data = run_mutation(
        claims, profile_named("quick").with_seed(seed), settings, progress=progress, on_claim=journal
    )
    progress.clear()
    journal(data)
    return _finish(data, path, args.min_score)


def _operator_names(args) -> tuple[str, ...] | None:
    """The operators asked for, or None (said on stderr) when one is unknown or the effort is not positive."""
    from .operators import OPERATORS, operators_named

    names = (
        tuple(n.strip() for n in args.operators.split(","))
        if args.operators
        else tuple(o.name for o in OPERATORS)
    )
    try:
        operators_named(names)
    except ValueError as exc:
        print(f"lemmacheck mutate: {exc}", file=sys.stderr)
        return None
    if not args.effort > 0:
        print(f"lemmacheck mutate: --effort must be positive, got {args.effort}", file=sys.stderr)
        return None
    return names


def _selected_claims(args, root: Path) -> list:
    from ..model.claim import REGISTRY
    from ..project.discovery import discover
    from ..run.engine import select

    for module, err in discover(root):
        print(
            f"lemmacheck mutate: content module {module} failed to import: {err.splitlines()[0]}",
            file=sys.stderr,
        )
    claims = select(REGISTRY, args.keyword)
    if args.mutant:
        wanted = {m.split("#", 1)[0] for m in args.mutant}
        claims = [c for c in claims if c.id in wanted]
    return claims


class _Progress:
    """The progress line on stderr: rewritten in place on a terminal, every 50 mutants otherwise."""

    def __init__(self, *, quiet: bool) -> None:
        self.quiet, self.tty, self.t0 = quiet, sys.stderr.isatty(), time.perf_counter()

    def __call__(self, name: str, i: int, total: int) -> None:
        if self.quiet:
            return
        line = f"[{i + 1:>5}/{total}] {time.perf_counter() - self.t0:7.1f}s  {name}"
        if self.tty:
            sys.stderr.write("\r\033[K" + line[:120])
        elif (i + 1) % 50 == 0 or i + 1 == total:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def clear(self) -> None:
        if self.tty and not self.quiet:
            sys.stderr.write("\r\033[K")


def _finish(data: dict, path: Path, min_score: float) -> int:
    from .results import summary_text

    print(summary_text(data))
    print(f"\nwrote {path}")
    score = data["score"]
    if score is None:
        print("no mutant was killed or survived: no score", file=sys.stderr)
        return TESTS_FAILED
    if score < min_score:
        print(f"score {100 * score:.1f} % is below --min-score {100 * min_score:.1f} %")
        return TESTS_FAILED
    return OK
