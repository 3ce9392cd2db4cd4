"""Command line: ``lemmacheck run`` (the main job), ``lemmacheck list``, ``lemmacheck render``.

``run`` prints its seed first, shows progress, writes ``reports/results.json`` then renders
``reports/index.html`` from it, ends with a table of verdicts, and exits 1 when any computed verdict
differs from the catalogue's expectation (so it fits a CI pipeline).
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from pathlib import Path

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="lemmacheck", description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="check every claim, write reports/results.json and reports/index.html")
    run.add_argument("-k", dest="keyword", default=None, help="only claims whose id contains every word given")
    run.add_argument("--seed", type=int, default=None, help="replay a run (default: a fresh seed, printed)")
    run.add_argument("--deep", action="store_true", help="long searches (more instances and examples)")
    run.add_argument("--out", type=Path, default=None, help="report folder (default: <project>/reports)")
    run.add_argument("--no-studies", action="store_true", help="skip the measurement studies")
    run.add_argument("--no-html", action="store_true", help="write results.json only")
    run.add_argument("--quiet", action="store_true", help="no progress line")
    ls = sub.add_parser("list", help="list the claims of the catalogue")
    ls.add_argument("-k", dest="keyword", default=None)
    render = sub.add_parser("render", help="render index.html from an existing results.json")
    render.add_argument("results", type=Path)
    render.add_argument("--out", type=Path, default=None)
    return p


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


def _summary(run) -> str:
    from .verdict import Verdict

    counts = run.counts()
    lines = ["", f"{'verdict':<12}{'claims':>8}", "-" * 20]
    lines += [f"{v.value:<12}{counts[v.value]:>8}" for v in Verdict]
    lines += ["-" * 20, f"{'total':<12}{len(run.results):>8}"]
    mism = run.mismatches()
    errors = [r for r in run.results if r.verdict is Verdict.ERROR]
    if errors:
        lines += ["", "ERROR (the check itself broke):"]
        lines += [f"  {r.id}: {r.message.splitlines()[0] if r.message else ''}" for r in errors]
    if mism:
        lines += ["", f"{len(mism)} claim(s) differ from the catalogue's expectation:"]
        for r in mism:
            extra = ""
            if r.first_broken_step != r.expected_broken_step:
                extra = f" (first broken step {r.first_broken_step}, expected {r.expected_broken_step})"
            lines.append(f"  {r.id}: computed {r.verdict.value}, expected {r.expected}{extra}   "
                         f"replay: {r.replay}")
    else:
        lines += ["", "every computed verdict matches the catalogue's expectation"]
    return "\n".join(lines)


def cmd_run(args) -> int:
    from .discovery import discover, find_root
    from .engine import run_claims
    from .profile import profile_named

    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    profile = profile_named("deep" if args.deep else "quick").with_seed(seed)
    print(f"lemmacheck: seed {seed} (replay with: lemmacheck run --seed {seed}"
          f"{' --deep' if args.deep else ''}{' -k ' + repr(args.keyword) if args.keyword else ''})", flush=True)
    root = find_root()
    import_errors = discover(root)
    progress = _Progress(enabled=not args.quiet)
    run = run_claims(profile, keyword=args.keyword, import_errors=import_errors,
                     with_studies=not args.no_studies, progress=progress)
    progress.done()
    out = args.out or root / "reports"
    out.mkdir(parents=True, exist_ok=True)
    data = run.to_dict()
    (out / "results.json").write_text(json.dumps(data, indent=1, ensure_ascii=False))
    written = [out / "results.json"]
    if not args.no_html:
        from .report.html import write_html

        t0 = time.perf_counter()
        written.append(write_html(data, out / "index.html"))
        data_seconds = time.perf_counter() - t0
        print(f"report rendered in {data_seconds:.1f}s", flush=True)
    print(_summary(run))
    print(f"\n{len(run.results)} claims in {run.seconds:.1f}s; wrote " + ", ".join(str(p) for p in written))
    return 1 if run.mismatches() else 0


def cmd_list(args) -> int:
    from .claim import REGISTRY
    from .discovery import discover
    from .engine import select

    for m, err in discover():
        print(f"IMPORT ERROR {m}: {err.splitlines()[0]}")
    for c in select(REGISTRY, args.keyword):
        print(f"{c.id:<45} {c.kind.value:<15} {c.expected.value:<12} {c.source.file} {c.source.location}")
    return 0


def cmd_render(args) -> int:
    from .report.html import write_html

    data = json.loads(args.results.read_text())
    out = args.out or args.results.with_name("index.html")
    print(write_html(data, out))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    return {"run": cmd_run, "list": cmd_list, "render": cmd_render}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
