"""Command line: ``lemmacheck run`` (the main job), ``lemmacheck list``, ``lemmacheck render``.

``run`` prints its seed first, shows progress, journals each result as it finishes, writes
``reports/results.json`` and ``reports/index.html`` together (see :mod:`lemmacheck.output`), and ends
with a table of verdicts.  Exit codes (:class:`ExitCode`) follow pytest's meanings: 0 every verdict
matches, 1 a verdict differs, 2 usage error, 3 internal error, 4 interrupted, 5 nothing selected.
"""

from __future__ import annotations

import argparse
import enum
import secrets
import signal
import sys
import time
import traceback
from pathlib import Path

__all__ = ["main", "ExitCode"]


class ExitCode(enum.IntEnum):
    """What ``lemmacheck`` returns (pytest's meanings: all passed, failed, usage, internal, interrupted,
    nothing collected)."""

    OK = 0  # every computed verdict matches the catalogue
    MISMATCH = 1  # a verdict (or broken step) differs, a claim is ERROR, or a study failed
    USAGE = 2  # bad arguments or -k expression; a report folder that cannot be written; a bad file to render
    INTERNAL = 3  # lemmacheck itself failed (please report it)
    INTERRUPTED = 4  # Ctrl-C / SIGTERM: the work done is kept in a partial report marked incomplete
    NOTHING_SELECTED = 5  # -k matched no claim, or no project here; the existing report is left alone


_EPILOG = (
    "exit codes: 0 every verdict matches; 1 a verdict differs (or a claim is ERROR, or a study "
    "failed); 2 usage error (arguments, -k syntax, report folder not writable, bad results file); "
    "3 internal error; 4 interrupted (partial report kept, marked incomplete); 5 nothing selected "
    "(the existing report is left alone)"
)
_K_HELP = (
    "select claims as pytest's -k does: case-insensitive substrings of the claim id combined with "
    "and, or, not and parentheses (e.g. -k 'lse and not hessian')"
)


def _version() -> str:
    from . import __version__

    return f"lemmacheck {__version__}"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="lemmacheck", description=__doc__.splitlines()[0], epilog=_EPILOG)
    p.add_argument("--version", action="version", version=_version())
    sub = p.add_subparsers(dest="command", required=True)
    run = sub.add_parser(
        "run", help="check every claim, write reports/results.json and reports/index.html", epilog=_EPILOG
    )
    run.add_argument("-k", dest="keyword", default=None, metavar="EXPRESSION", help=_K_HELP)
    run.add_argument("--seed", type=int, default=None, help="replay a run (default: a fresh seed, printed)")
    run.add_argument("--deep", action="store_true", help="long searches (more instances and examples)")
    run.add_argument("--out", type=Path, default=None, help="report folder (default: <project>/reports)")
    run.add_argument("--no-studies", action="store_true", help="skip the measurement studies")
    run.add_argument("--no-html", action="store_true", help="write results.json only")
    run.add_argument("--quiet", action="store_true", help="no progress line")
    _add_execution_options(run)
    ls = sub.add_parser("list", help="list the claims of the catalogue (and malformed declarations)")
    ls.add_argument("-k", dest="keyword", default=None, metavar="EXPRESSION", help=_K_HELP)
    cache = sub.add_parser("cache", help="the result cache (.lemmacheck-cache/)")
    cache.add_argument("action", choices=["clear"], help="forget every cached result")
    watch = sub.add_parser(
        "watch",
        help="re-check the claims a saved file reaches; print the verdicts that change",
        epilog=_EPILOG,
    )
    watch.add_argument("-k", dest="keyword", default=None, metavar="EXPRESSION", help=_K_HELP)
    watch.add_argument("--seed", type=int, default=None, help="run seed (default: a fresh seed, printed)")
    watch.add_argument("--deep", action="store_true", help="long searches")
    watch.add_argument(
        "--out", type=Path, default=None, help="report folder kept current (default: reports/)"
    )
    watch.add_argument("--no-html", action="store_true", help="keep results.json only")
    _add_execution_options(watch)
    show = sub.add_parser("show", help="check one claim and print everything about it")
    show.add_argument("claim_id", metavar="ID", help="the claim's exact id (see `lemmacheck list`)")
    show.add_argument(
        "--seed", type=int, default=None, help="run seed (default: the pytest plugin's default)"
    )
    show.add_argument("--deep", action="store_true", help="long searches")
    render = sub.add_parser(
        "render",
        help="render index.html from an existing results.json (validated "
        "against the shipped JSON Schema) or a journal a killed run left",
    )
    render.add_argument("results", type=Path)
    render.add_argument("--out", type=Path, default=None, help="HTML file (default: index.html beside it)")
    from .mutate.command import add_parser as add_mutate_parser

    add_mutate_parser(sub)
    return p


def _add_execution_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="worker processes (default: every core; 1: one worker; a claim never runs in this process)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="S",
        help="seconds per claim before it is an ERROR (default 120 quick, 3600 deep)",
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


class _Progress:
    """A one-line progress display on a terminal; plain lines otherwise (CI logs)."""

    def __init__(self, *, enabled: bool):
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.t0 = time.perf_counter()

    def __call__(self, name: str, i: int, total: int) -> None:
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.t0
        line = f"[{i + 1:>4}/{total}] {elapsed:6.1f}s  {name}"
        if self.tty:
            sys.stderr.write("\r\033[K" + line[:120])
        elif (i + 1) % 25 == 0 or i + 1 == total:
            sys.stderr.write(line + "\n")
        sys.stderr.flush()

    def done(self) -> None:
        if self.enabled and self.tty:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _say(message: str) -> None:
    print(f"lemmacheck: {message}", file=sys.stderr, flush=True)


def _summary(run) -> str:
    from .verdict import ProofStatus, Verdict

    counts, proofs = run.counts(), run.proof_counts()
    lines = ["", f"{'statement':<14}{'claims':>8}    {'proof as written':<18}{'claims':>8}", "-" * 52]
    rows = max(len(Verdict), len(ProofStatus))
    for v, p in zip([*Verdict, *[None] * rows][:rows], [*ProofStatus, *[None] * rows][:rows], strict=True):
        left = f"{v.value:<14}{counts[v.value]:>8}" if v else " " * 22
        right = f"{p.value:<18}{proofs[p.value]:>8}" if p else ""
        lines.append(f"{left}    {right}".rstrip())
    lines += ["-" * 52, f"{'total':<14}{len(run.results):>8}"]
    mism = run.mismatches()
    errors = [r for r in run.results if r.verdict is Verdict.ERROR]
    inconclusive = [r for r in run.results if r.verdict is Verdict.INCONCLUSIVE]
    if inconclusive:
        lines += ["", "INCONCLUSIVE (the evidence cannot decide):"]
        lines += [f"  {r.id}: {r.reason}" for r in inconclusive]
    failed_studies = [s for s in run.studies if s.get("error")]
    if errors:
        lines += ["", "ERROR (the check itself broke):"]
        lines += [f"  {r.id}: {r.message.splitlines()[0] if r.message else ''}" for r in errors]
    if failed_studies:
        lines += ["", f"{len(failed_studies)} study(ies) failed:"]
        lines += [f"  {s['id']}: {s['error'].splitlines()[0]}" for s in failed_studies]
    if mism:
        lines += ["", f"{len(mism)} claim(s) differ from the catalogue's expectation:"]
        for r in mism:
            extra = ""
            if r.first_broken_step != r.expected_broken_step:
                extra = f" (first broken step {r.first_broken_step}, expected {r.expected_broken_step})"
            if r.proof.status.value != r.expected_proof:
                at = f" at step {r.proof.step}" if r.proof.step else ""
                extra += f" (proof {r.proof.status.value}{at}, expected {r.expected_proof})"
            replay = f"   replay: {r.replay}" if r.replay else ""
            lines.append(f"  {r.id}: computed {r.verdict.value}, expected {r.expected}{extra}{replay}")
    elif not failed_studies:
        lines += ["", "every computed verdict matches the catalogue's expectation"]
    return "\n".join(lines)


def _preamble_results(keyword: str | None, index) -> list:
    """The results a run reports before any claim runs: modules that failed to import and malformed
    declarations (what :func:`run_claims` puts first; needed again for a partial report)."""
    from .engine import preamble_results

    return preamble_results(keyword, index.failed_imports(), index.definition_errors())


def _sigterm_as_interrupt(signum, frame):  # CI cancellations send SIGTERM: keep the work done, as for Ctrl-C
    raise KeyboardInterrupt


def cmd_run(args) -> int:
    from .discovery import content_dirs, find_root
    from .engine import RunResult, run_claims
    from .index import load_index
    from .output import Journal, folder_problem, write_report
    from .profile import profile_named
    from .selection import compile_expression

    compile_expression(args.keyword)  # a malformed -k is a usage error before anything runs
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    profile = profile_named("deep" if args.deep else "quick").with_seed(seed)
    root = find_root()
    if not any((root / d).is_dir() for d in content_dirs(root)):
        _say(
            f"no lemmacheck project at or above {Path.cwd()} (a folder with pyproject.toml and "
            f"{' or '.join(d + '/' for d in content_dirs(root))}); run it from the project folder. "
            "Nothing checked."
        )
        return ExitCode.NOTHING_SELECTED
    selection = f" -k {args.keyword!r}" if args.keyword else ""
    print(
        f"lemmacheck: seed {seed} (replay with: lemmacheck run --seed {seed}"
        f"{' --deep' if args.deep else ''}{selection})",
        flush=True,
    )
    # The index says which modules declare what, so nothing is imported before it is needed.
    index = load_index(root)
    match = compile_expression(args.keyword)
    preamble = _preamble_results(args.keyword, index)
    claims = index.claim_ids(match)
    studies = index.study_ids(match) if not args.no_studies else []
    out = (args.out or root / "reports").resolve()
    if not claims and not studies and not preamble:
        why = f"no claim selected by -k {args.keyword!r}" if args.keyword else "the catalogue is empty"
        _say(
            f"{why} ({len(index.claim_ids())} claims in the catalogue; `lemmacheck list` shows them); {out} "
            "left as it was"
        )
        return ExitCode.NOTHING_SELECTED
    previous = _previous_results(out)
    cache = None
    if not args.no_cache:
        from .cache import ResultCache

        cache = ResultCache(root, index=index)

    problem = folder_problem(out)
    if problem:
        _say(f"{problem}; the verdicts will be printed, no report written")
    journal = None
    if not problem:
        header_run = RunResult(
            seed=seed,
            profile=profile.name,
            results=preamble,
            studies=[],
            started="",
            seconds=0.0,
            selection=args.keyword or "",
        )
        try:
            journal = Journal(out, {"total": len(claims), "data": header_run.to_dict()})
        except OSError:
            journal = None
    done: list = []

    def on_result(result) -> None:
        done.append(result)
        if journal is not None:
            journal.append(result.to_dict())

    progress = _Progress(enabled=not args.quiet)
    try:
        old_term = signal.signal(signal.SIGTERM, _sigterm_as_interrupt)
    except ValueError:  # not the main thread (an embedding caller): leave SIGTERM alone
        old_term = None
    try:
        run = run_claims(
            profile,
            keyword=args.keyword,
            with_studies=not args.no_studies,
            progress=progress,
            on_result=on_result,
            index=index,
            root=root,
            jobs=args.jobs,
            timeout=args.timeout,
            cache=cache,
            dask=args.dask,
        )
    except KeyboardInterrupt:
        progress.done()
        return _interrupted(args, profile, preamble, done, len(claims), out, journal, problem)
    except BaseException:
        if journal is not None:
            journal.close()  # kept on disk: the results that finished before the failure
        raise
    finally:
        if old_term is not None:
            signal.signal(signal.SIGTERM, old_term)
        if cache is not None:
            cache.close()
    progress.done()
    data = run.to_dict()
    data["changes"] = _changes(previous, data, args.keyword)
    written, write_error = [], problem
    if not problem:
        from .errors import OutputError

        try:
            t0 = time.perf_counter()
            written = write_report(
                out, data, html=not args.no_html, plot_cache=root / ".lemmacheck-cache" / "plots"
            )
            if not args.no_html:
                print(f"report rendered in {time.perf_counter() - t0:.1f}s", flush=True)
        except OutputError as exc:
            write_error = str(exc)
        except KeyboardInterrupt:
            kept = ""
            if journal is not None:
                journal.close()
                kept = f"; every result is kept in {journal.path} (`lemmacheck render` it)"
            _say(f"interrupted while writing the report; the previous report is untouched{kept}")
            return ExitCode.INTERRUPTED
    if journal is not None:
        if written:
            journal.discard()
        else:
            journal.close()
    print(_summary(run))
    cached = sum(1 for r in run.results if r.cached)
    if cached:
        print(
            f"\n{cached} of {len(run.results)} results answered from the cache "
            "(.lemmacheck-cache/; --no-cache checks again)"
        )
    print(_format_changes(data["changes"], previous))
    failed = bool(run.mismatches()) or any(s.get("error") for s in run.studies)
    if write_error:
        print(f"\n{len(run.results)} claims in {run.seconds:.1f}s", flush=True)
        kept = (
            f"; every result is kept in {journal.path}"
            if journal and not journal.failed and not problem
            else ""
        )
        _say(f"{write_error}; no report written (the verdicts above are complete{kept})")
        return ExitCode.MISMATCH if failed else ExitCode.USAGE
    print(f"\n{len(run.results)} claims in {run.seconds:.1f}s; wrote " + ", ".join(str(p) for p in written))
    return ExitCode.MISMATCH if failed else ExitCode.OK


def _previous_results(out: Path) -> dict | None:
    """The last run's results in the report folder, if any is readable (to say what changed)."""
    import json

    try:
        return json.loads((out / "results.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _changes(previous: dict | None, data: dict, keyword: str | None) -> list[dict]:
    """Verdict and proof transitions since the previous run, over the claims this run selected."""
    if previous is None:
        return []
    from .changes import diff
    from .selection import matches

    prev = dict(previous)
    prev["claims"] = [c for c in previous.get("claims", []) if matches(keyword, str(c.get("id", "")))]
    return [t.to_dict() for t in diff(prev, data)]


def _format_changes(changes: list[dict], previous: dict | None) -> str:
    if previous is None:
        return "\nno previous results in the report folder: nothing to compare with"
    if not changes:
        return "\nno verdict or proof status changed since the previous run"
    lines = [f"\n{len(changes)} change(s) since the previous run:"]
    lines += [f"  {c['claim_id']}: {c['what']} {c['before']} → {c['after']}" for c in changes]
    return "\n".join(lines)


def _interrupted(args, profile, preamble, done, total, out, journal, problem) -> int:
    """Ctrl-C: keep what was done as a report marked incomplete, say so in one line, exit 4."""
    import datetime as _dt

    from .engine import RunResult
    from .errors import OutputError
    from .output import write_report

    where = f"interrupted after {len(done)} of {total} claims"
    if problem or journal is None:
        _say(
            f"{where}; {problem or 'the report folder could not be written'}, so no partial report was "
            "written"
        )
        return ExitCode.INTERRUPTED
    run = RunResult(
        seed=profile.seed,
        profile=profile.name,
        results=[*preamble, *done],
        studies=[],
        started=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        seconds=sum(r.seconds for r in done),
        selection=args.keyword or "",
    )
    data = run.to_dict()
    data["run"]["incomplete"] = f"{where}; the remaining claims were not checked"
    try:
        written = write_report(out, data, html=not args.no_html)
    except OutputError as exc:
        journal.close()
        _say(f"{where}; {exc}; every finished result is kept in {journal.path}")
        return ExitCode.INTERRUPTED
    except KeyboardInterrupt:
        journal.close()
        _say(
            f"{where}; interrupted again while writing the partial report; every finished result is kept "
            f"in {journal.path}"
        )
        return ExitCode.INTERRUPTED
    journal.discard()
    _say(f"{where}; partial report written to {written[-1]}, marked incomplete")
    return ExitCode.INTERRUPTED


def cmd_list(args) -> int:
    from .claim import REGISTRY
    from .discovery import discover
    from .selection import compile_expression, matches, select

    compile_expression(args.keyword)
    for m, err in discover():
        print(f"IMPORT ERROR {m}: {err.splitlines()[0]}")
    bad = [(cid, m, msg) for cid, m, msg in REGISTRY.definition_errors if matches(args.keyword, str(cid))]
    for cid, m, msg in bad:
        print(f"DECLARATION ERROR {cid} ({m}): {msg.splitlines()[0]}")
    claims = select(REGISTRY, args.keyword)
    for c in claims:
        print(f"{c.id:<45} {c.kind.value:<15} {c.expected.value:<12} {c.source.file} {c.source.location}")
    if not claims and not bad:
        why = f"no claim selected by -k {args.keyword!r}" if args.keyword else "the catalogue is empty"
        _say(f"{why} ({len(REGISTRY)} claims in the catalogue)")
        return ExitCode.NOTHING_SELECTED
    return ExitCode.OK


def cmd_render(args) -> int:
    from .errors import OutputError
    from .output import write_html_only
    from .schema import load_results

    data = load_results(args.results)
    out = args.out or args.results.with_name("index.html")
    try:
        print(write_html_only(out, data))
    except OutputError as exc:
        _say(str(exc))
        return ExitCode.USAGE
    return ExitCode.OK


def cmd_cache(args) -> int:
    from .cache import ResultCache
    from .discovery import find_root

    with ResultCache(find_root()) as c:
        print(f"forgot {c.clear()} cached results ({c.path})")
    return ExitCode.OK


def cmd_watch(args) -> int:
    from . import watch

    return int(watch.run(args))


def cmd_show(args) -> int:
    from .api import DEFAULT_SEED
    from .claim import REGISTRY
    from .discovery import discover, find_root
    from .execution import execute
    from .profile import profile_named
    from .show import format_claim

    discover()
    if args.claim_id not in REGISTRY:
        close = [c for c in REGISTRY.ids() if args.claim_id in c][:8]
        _say(
            f"error: no claim {args.claim_id!r}"
            + (f"; ids containing it: {', '.join(close)}" if close else "")
        )
        return ExitCode.USAGE
    seed = DEFAULT_SEED if args.seed is None else args.seed
    claim = REGISTRY[args.claim_id]
    profile = profile_named("deep" if args.deep else "quick").with_seed(seed)
    (result,) = execute([claim.id], profile, jobs=1, root=find_root())  # in a worker: see execution
    print(format_claim(claim, result))
    return ExitCode.OK if result.matches_expectation else ExitCode.MISMATCH


def main(argv: list[str] | None = None) -> int:
    from .errors import ReportInputError, SelectionError

    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # argparse: --help / --version (0) or a usage error (2)
        return int(exc.code or 0)
    try:
        from .mutate.command import run as cmd_mutate

        commands = {
            "mutate": cmd_mutate,
            "run": cmd_run,
            "list": cmd_list,
            "show": cmd_show,
            "render": cmd_render,
            "cache": cmd_cache,
            "watch": cmd_watch,
        }
        return int(commands[args.command](args))
    except (SelectionError, ReportInputError) as exc:
        _say(f"error: {exc}")
        return ExitCode.USAGE
    except KeyboardInterrupt:
        _say("interrupted")
        return ExitCode.INTERRUPTED
    except Exception as exc:
        traceback.print_exc()
        _say(
            f"internal error: {type(exc).__name__}: {exc} (this is a bug in lemmacheck; please report it "
            "with the traceback above)"
        )
        return ExitCode.INTERNAL


if __name__ == "__main__":
    sys.exit(main())
