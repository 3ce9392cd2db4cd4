"""Command line: ``lemmacheck run`` (the main job), ``show``, ``list``, ``diff``, ``history``, ``render``.

``run`` prints its seed first, shows progress, journals each result as it finishes, writes
``reports/results.json`` and ``reports/index.html`` together (see :mod:`lemmacheck.report.folder`), and ends
with a table of verdicts.  Exit codes are pytest's (:mod:`lemmacheck.cli.exitcodes`).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
import traceback
from pathlib import Path

from .common import (
    K_HELP,
    SEED_HELP,
    Parser,
    UsageError,
    add_execution_options,
    add_root_option,
    emit,
    project_root,
    say,
    seed_argument,
)
from .exitcodes import EPILOG, ExitCode
from .terminal import printable, printable_line
from .values import environment_problem

__all__ = ["main", "ExitCode", "UsageError", "say", "emit"]


def _version() -> str:
    from ..version import __version__

    return f"lemmacheck {__version__}"


# --------------------------------------------------------------------------- the parser


def _parser() -> argparse.ArgumentParser:
    p = Parser(prog="lemmacheck", description=__doc__.splitlines()[0], epilog=EPILOG)
    p.add_argument("--version", action="version", version=_version())
    sub = p.add_subparsers(dest="command", required=True)
    from .run import add_parser as add_run_parser

    add_run_parser(sub)
    ls = sub.add_parser("list", help="list the claims of the catalogue (and malformed declarations)")
    ls.add_argument("-k", dest="keyword", default=None, metavar="EXPRESSION", help=K_HELP)
    add_root_option(ls)
    cache = sub.add_parser("cache", help="the result cache and kept counterexamples (.lemmacheck-cache/)")
    cache.add_argument("action", choices=["clear"], help="forget every cached result and kept example")
    add_root_option(cache)
    watch = sub.add_parser(
        "watch",
        help="re-check the claims a saved file reaches; print the verdicts that change",
        epilog=EPILOG,
    )
    watch.add_argument("-k", dest="keyword", default=None, metavar="EXPRESSION", help=K_HELP)
    watch.add_argument("--seed", type=seed_argument, default=None, help=SEED_HELP)
    watch.add_argument("--deep", action="store_true", help="long searches")
    watch.add_argument(
        "--out", type=Path, default=None, help="report folder kept current (default: reports/)"
    )
    watch.add_argument("--no-html", action="store_true", help="keep results.json only")
    add_execution_options(watch)
    show = sub.add_parser("show", help="check one claim and print everything about it")
    show.add_argument("claim_id", metavar="ID", help="the claim's exact id (see `lemmacheck list`)")
    show.add_argument("--seed", type=seed_argument, default=None, help=SEED_HELP)
    show.add_argument("--deep", action="store_true", help="long searches")
    add_root_option(show)
    render = sub.add_parser(
        "render",
        help="render index.html from an existing results.json (validated "
        "against the shipped JSON Schema) or a journal a killed run left",
    )
    render.add_argument("results", type=Path)
    render.add_argument("--out", type=Path, default=None, help="HTML file (default: index.html beside it)")
    diff = sub.add_parser("diff", help="what changed between two results.json: verdicts, proofs, evidence")
    diff.add_argument("before", type=Path)
    diff.add_argument("after", type=Path)
    history = sub.add_parser("history", help="render reports/history.html: verdicts and counts per commit")
    history.add_argument("--out", type=Path, default=None, help="report folder (default: <project>/reports)")
    add_root_option(history)
    from ..mutate.command import add_parser as add_mutate_parser
    from .certify import add_parser as add_certify_parser

    add_mutate_parser(sub)
    add_certify_parser(sub)
    return p


# --------------------------------------------------------------------------- small commands


def cmd_list(args) -> int:
    from ..model.claim import REGISTRY
    from ..project.discovery import discover
    from ..project.selection import compile_expression, matches, select

    compile_expression(args.keyword)
    project_root()
    failed = discover()
    for m, err in failed:
        emit(f"IMPORT ERROR {printable_line(m)}: {printable_line(err.splitlines()[0])}")
    # the catalogue is complete once discovered: its link problems are declaration errors, as in `run`
    declared = REGISTRY.definition_errors + REGISTRY.link_problems()
    bad = [(cid, m, msg) for cid, m, msg in declared if matches(args.keyword, str(cid))]
    for cid, m, msg in bad:
        emit(f"DECLARATION ERROR {printable_line(cid)} ({m}): {printable_line(msg.splitlines()[0])}")
    claims = select(REGISTRY, args.keyword)
    for c in claims:
        emit(
            printable_line(
                f"{c.id:<45} {c.kind.value:<15} {c.expected.value:<12} {c.source.file} {c.source.location}"
            )
        )
    if not claims and not bad and not failed:
        why = f"no claim selected by -k {args.keyword!r}" if args.keyword else "the catalogue is empty"
        say(f"{why} ({len(REGISTRY)} claims in the catalogue)")
        return ExitCode.NO_TESTS_COLLECTED
    # as `pytest --collect-only` on a collection error: a script must not read a broken catalogue as whole
    return ExitCode.TESTS_FAILED if failed or bad else ExitCode.OK


def cmd_render(args) -> int:
    from ..errors import OutputError, ReportInputError
    from ..report.folder import write_html_only
    from ..schema import load_results

    try:
        data = load_results(args.results)
    except RecursionError:
        raise ReportInputError(f"{args.results}: nested too deeply to be a lemmacheck results file") from None
    out = args.out or args.results.with_name("index.html")
    try:
        emit(str(write_html_only(out, data)))
    except OutputError as exc:
        raise UsageError(str(exc)) from None
    except RecursionError:
        raise ReportInputError(f"{args.results}: nested too deeply to be a lemmacheck results file") from None
    return ExitCode.OK


def cmd_cache(args) -> int:
    import shutil

    from ..run.cache import ResultCache
    from ..search.examples import examples_dir

    root = project_root()
    with ResultCache(root) as c:
        n = c.clear()
    kept = examples_dir(root)
    examples = len(list(kept.glob("*.json"))) if kept.is_dir() else 0
    shutil.rmtree(kept, ignore_errors=True)
    shutil.rmtree(c.path.parent / "plots", ignore_errors=True)  # the render cache: drawn again next time
    emit(
        f"forgot {n} cached results, the kept counterexamples of {examples} claims and the drawn plots "
        f"({c.path.parent})"
    )
    return ExitCode.OK


def cmd_watch(args) -> int:
    from ..search.examples import keeping
    from . import watch

    project_root()
    with keeping():
        return int(watch.run(args))


def cmd_show(args) -> int:
    from ..model.claim import REGISTRY
    from ..model.links import judge_links
    from ..project.index import import_modules, load_index
    from ..run.cache import ResultCache
    from ..run.execution import execute, handing_on
    from ..run.standing import standings
    from ..search.examples import keeping
    from ..search.profile import profile_named
    from ..search.seed import resolve_seed
    from .show import format_claim, standing_text

    root = project_root()
    index = load_index(root)  # only the claim's own modules are imported, as `run -k` does
    if args.claim_id not in index.claim_ids():
        close = [c for c in index.claim_ids() if args.claim_id.lower() in c.lower()][:8]
        hint = f"; ids containing it: {', '.join(close)}" if close else "; `lemmacheck list` shows every id"
        raise UsageError(f"no claim {args.claim_id!r} in {root}{hint}")
    errors = import_modules(root, index.declaring_modules([args.claim_id]))
    if args.claim_id not in REGISTRY:
        detail = "; ".join(f"{m}: {e.splitlines()[0]}" for m, e in errors) or "not declared on import"
        raise UsageError(f"claim {args.claim_id!r} could not be loaded ({detail})")
    seed = resolve_seed(args.seed)
    claim = REGISTRY[args.claim_id]
    # show certifies a HOLDS (lemmacheck.certify, its own time cap): one claim, everything about it
    profile = dataclasses.replace(
        profile_named("deep" if args.deep else "quick").with_seed(seed), certify=True
    )
    known = set(index.claim_ids())
    worker: list = []  # one for the claim, its links and its premises (each new one imports the engine)

    def in_a_worker(ids):  # a check's sys.exit, hang or crash costs its claim only: see execution
        settings = dict(jobs=1, root=root, index=index, **handing_on(worker))
        return execute([i for i in ids if i in known], profile, **settings)

    def as_run(ids):  # what it rests on, as `run` checks it (answered from the result cache when it can)
        plain = dataclasses.replace(profile, certify=False)
        settings = dict(jobs=1, root=root, index=index, cache=cache, **handing_on(worker))
        return execute([i for i in ids if i in known], plain, **settings)

    with keeping(), ResultCache(root, index=index) as cache:
        try:
            (result,) = in_a_worker([claim.id])
            judge_links([result], in_a_worker)  # a chain's linked steps are judged, as in a run
            premises = as_run([i for i in index.with_premises([claim.id]) if i != claim.id])
            judge_links(premises, as_run)
        finally:
            for w in worker:
                w.stop()
    standing = standings([r.to_dict() for r in [result, *premises]])[claim.id]
    standing["dependents"] = [c for c, ps in index.premises().items() if claim.id in ps]
    emit(printable(format_claim(claim, result) + "\n" + standing_text(standing, premises)))
    return ExitCode.OK if result.matches_expectation else ExitCode.TESTS_FAILED


def cmd_history(args) -> int:
    from ..project.index import write_atomic
    from ..report.history import HISTORY_HTML, HISTORY_NAME, history_html, read

    out = (args.out or project_root() / "reports").resolve()
    history = read(out)
    if not history:
        raise UsageError(f"no history in {out / HISTORY_NAME}: `lemmacheck run` records one per commit")
    write_atomic(out / HISTORY_HTML, history_html(history))
    emit(str(out / HISTORY_HTML))
    return ExitCode.OK


def cmd_diff(args) -> int:
    from ..report.diff import diff_files

    text, changed = diff_files(args.before, args.after)
    emit(text)
    return ExitCode.TESTS_FAILED if changed else ExitCode.OK


# --------------------------------------------------------------------------- entry point


def _commands() -> dict:
    from ..mutate.command import run as cmd_mutate
    from .certify import cmd_certify
    from .run import cmd_run

    return {
        "mutate": cmd_mutate,
        "run": cmd_run,
        "list": cmd_list,
        "show": cmd_show,
        "render": cmd_render,
        "cache": cmd_cache,
        "watch": cmd_watch,
        "diff": cmd_diff,
        "history": cmd_history,
        "certify": cmd_certify,
    }


def main(argv: list[str] | None = None) -> int:
    from ..errors import MissingExtraError, ReportInputError, SelectionError

    saved_root = os.environ.get("LEMMACHECK_ROOT")
    try:
        try:
            args = _parser().parse_args(argv)
        except SystemExit as exc:  # --help / --version
            return int(exc.code or 0)
        if environment_problem():
            raise UsageError(environment_problem())
        if getattr(args, "root", None) is not None:  # workers and every find_root() see it too
            os.environ["LEMMACHECK_ROOT"] = str(args.root.resolve())
        return int(_commands()[args.command](args))
    except (UsageError, SelectionError, ReportInputError, MissingExtraError) as exc:
        say(f"error: {exc}")
        return ExitCode.USAGE_ERROR
    except KeyboardInterrupt:
        say("interrupted")
        return ExitCode.INTERRUPTED
    except BrokenPipeError:  # the reader of our output went away: nothing failed here
        return ExitCode.OK
    except Exception as exc:
        traceback.print_exc()
        say(
            f"internal error: {type(exc).__name__}: {exc} (this is a bug in lemmacheck; please report it "
            "with the traceback above)"
        )
        return ExitCode.INTERNAL_ERROR
    finally:
        if saved_root is None:
            os.environ.pop("LEMMACHECK_ROOT", None)
        else:
            os.environ["LEMMACHECK_ROOT"] = saved_root


if __name__ == "__main__":
    sys.exit(main())
