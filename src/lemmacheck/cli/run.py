"""``lemmacheck run``: check the selected claims, update the folder's full report, say what changed.

The seed is fixed by default (:mod:`lemmacheck.search.seed`), so a rerun with nothing changed is answered
from the result cache; ``--seed random`` explores.  A selection (``-k``, ``--lf``, a run stopped by
``-x`` or Ctrl-C) updates its claims inside the folder's full report (:mod:`lemmacheck.report.full`).

This module is the command: its options, what it checks (the plan) and in which report folder; one run's
execution, report and last lines are :class:`lemmacheck.cli.run_session.RunSession`'s.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from . import values
from .common import K_HELP, SEED_HELP, add_execution_options, emit, project_root, say, seed_argument
from .exitcodes import EPILOG, ExitCode
from .run_session import RunSession

__all__ = ["add_parser", "cmd_run"]


def add_parser(sub) -> None:
    run = sub.add_parser(
        "run", help="check every claim, write reports/results.json and reports/index.html", epilog=EPILOG
    )
    run.add_argument("-k", dest="keyword", default=None, metavar="EXPRESSION", help=K_HELP)
    run.add_argument("--seed", type=seed_argument, default=None, help=SEED_HELP)
    run.add_argument("--deep", action="store_true", help="long searches (more instances and examples)")
    run.add_argument(
        "--certify",
        action="store_true",
        help="prove each HOLDS at its stated sizes up to 4 and every declared parameter value (SymPy, Z3, "
        "arb; budgets by work), and count the certificates by scope",
    )
    run.add_argument(
        "--lf",
        "--last-failed",
        dest="last_failed",
        action="store_true",
        help="check only the claims that differed from the catalogue last time (all if none did)",
    )
    run.add_argument(
        "--ff",
        "--failed-first",
        dest="failed_first",
        action="store_true",
        help="check the claims that differed last time first, then the others",
    )
    run.add_argument(
        "-x",
        "--exitfirst",
        dest="exitfirst",
        action="store_true",
        help="stop at the first claim that differs from the catalogue",
    )
    run.add_argument("--out", type=Path, default=None, help="report folder (default: <project>/reports)")
    run.add_argument(
        "--junitxml",
        type=values.output_file,
        default=None,
        metavar="PATH",
        help="also write the checked claims as JUnit XML (one testcase per claim)",
    )
    run.add_argument(
        "--badge",
        type=values.output_file,
        default=None,
        metavar="PATH",
        help="also write an SVG badge: claims, refuted, proved (of the full report)",
    )
    run.add_argument(
        "--with-premises",
        dest="with_premises",
        action="store_true",
        help="also check everything the selected claims rest on (uses= and step_is=, transitively)",
    )
    run.add_argument("--no-studies", action="store_true", help="skip the measurement studies")
    run.add_argument("--no-html", action="store_true", help="write results.json only")
    run.add_argument("--quiet", action="store_true", help="no progress line")
    add_execution_options(run)


def _previous_results(out: Path) -> dict | None:
    """The folder's report, if readable: what a selection updates and changes are measured from."""
    import json

    try:
        data = json.loads((out / "results.json").read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("claims"), list) else None


def _plan(args, index, previous) -> tuple[list[str], list[str], str]:
    """``(first, then, note)``: the claims to check first and after (``--ff``), and what was chosen."""
    from ..project.selection import compile_expression

    selected = index.claim_ids(compile_expression(args.keyword))
    if getattr(args, "with_premises", False):
        selected = index.with_premises(selected)
    failed = {str(c) for c in (previous or {}).get("mismatches", [])}
    last = [c for c in selected if c in failed]
    if args.last_failed:
        if not last:
            return selected, [], "--lf: no claim differed last time; checking every selected claim"
        return last, [], f"--lf: checking the {len(last)} claim(s) that differed last time"
    if args.failed_first and last:
        return (
            last,
            [c for c in selected if c not in failed],
            f"--ff: the {len(last)} claim(s) that differed last time first",
        )
    return selected, [], ""


def _journal(out: Path, seed: int, profile: str, preamble: list, total: int, keyword: str):
    from ..report.folder import Journal
    from ..run.engine import RunResult

    header = RunResult(seed, profile, preamble, [], "", 0.0, keyword)
    try:
        return Journal(out, {"total": total, "data": header.to_dict()})
    except OSError:
        return None


def _extras_for(args) -> None:
    """An option whose extra is missing is a usage error before anything runs (exit 4, naming the extra);
    ``--certify`` without Z3 still certifies by SymPy and balls, and says what it leaves out."""
    from ..extras import available, install_hint, require

    if args.dask:
        require("dask")
    if args.certify and not available("certify"):
        say(f"--certify: the Z3 route is off (z3-solver is not installed: {install_hint('certify')})")


def _workers_ahead(args, root: Path) -> list:
    """The pool's workers, started before the content index is built when no result cache can answer
    (``--no-cache``, or a fresh checkout without one), so that their imports of the engine overlap the
    index's imports of the content instead of following them; none for Dask or when a cache may answer
    every claim (a rerun with nothing changed should not start interpreters it does not use)."""
    from ..project.index import CACHE_DIR
    from ..run.execution import default_jobs
    from ..run.worker import start_worker

    fresh = args.no_cache or not (root / CACHE_DIR / "results.sqlite").exists()
    if args.dask or not fresh:
        return []
    return [start_worker(root) for _ in range(args.jobs or default_jobs())]


def cmd_run(args) -> int:
    """Print the seed, plan what to check, and run the plan in a :class:`RunSession`."""
    from ..project.selection import compile_expression

    compile_expression(args.keyword)  # a malformed -k is a usage error before anything runs
    _extras_for(args)
    from ..search.examples import keeping

    with keeping():  # the counterexamples this run finds are kept: the workers inherit it when they start
        warm = _workers_ahead(args, project_root())
        try:
            return _run(args, warm)
        finally:  # the pool stops those it took; stopping again costs nothing, and here also stops those
            for w in warm:  # an early return or an error before the pool (an internal error) left running
                w.stop()


def _run(args, warm: list) -> int:
    """The run, whose RunSession hands ``warm`` to its first pool."""
    from ..project.index import load_index
    from ..project.selection import compile_expression
    from ..report.folder import folder_problem, pair_problem
    from ..run.engine import preamble_results
    from ..run.replay import replay_command
    from ..search.profile import profile_named
    from ..search.seed import resolve_seed

    root = project_root()
    seed = resolve_seed(args.seed)
    profile = dataclasses.replace(
        profile_named("deep" if args.deep else "quick").with_seed(seed), certify=args.certify
    )
    selection = f"-k {args.keyword!r}" if args.keyword else ""
    replay = replay_command("run", seed, deep=args.deep, options=selection)
    emit(f"lemmacheck: seed {seed} (replay with: {replay}; --seed random explores)")
    index = load_index(root)  # which modules declare what: nothing is imported before it is needed
    out = (args.out or root / "reports").resolve()
    previous = _previous_results(out)
    first, then, note = _plan(args, index, previous)
    preamble = preamble_results(args.keyword, index.failed_imports(), index.definition_errors())
    studies = [] if args.no_studies or args.last_failed else index.study_ids(compile_expression(args.keyword))
    if not first and not studies and not preamble:
        why = f"no claim selected by -k {args.keyword!r}" if args.keyword else "the catalogue is empty"
        say(
            f"{why} ({len(index.claim_ids())} claims in the catalogue; `lemmacheck list` shows them); "
            f"{out} left as it was"
        )
        return ExitCode.NO_TESTS_COLLECTED
    if note:
        say(note)
    problem = folder_problem(out)
    if problem:
        say(f"{problem}; the verdicts will be printed, no report written")
    elif pair_problem(out):
        say(f"warning: {pair_problem(out)}")
    total = len(first) + len(then)
    journal = None if problem else _journal(out, seed, profile.name, preamble, total, args.keyword or "")
    session = RunSession(args, root, index, profile, out, previous, journal, problem)
    session.warm = list(warm)  # handed to the first pool; cmd_run stops them all at the end
    return session.execute(first, then, with_studies=bool(studies))
