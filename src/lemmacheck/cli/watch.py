"""``lemmacheck watch``: re-check the claims a saved file reaches, print the verdicts that changed.

The watching process never imports content (what it imported would go stale at the next save): every
claim runs in a worker process, and one worker is kept started ahead, its engine imported, so a save
costs only the changed module's import and the claim itself.  The claims a save reaches are read from
the content index as it was (so they start at once); the index is refreshed afterwards, and claims
the edit added are then checked too.  ``reports/results.json`` (and ``index.html``) stay current.

Every save after the command starts is a change: the files are stamped first thing, and a save during
the start-up's checks interrupts them (at the next result), is handled, and the start-up goes on.  The
start-up result of a claim a save reached may be of either text, so its verdict from before the save is
the folder's report's; the latency printed is measured from the save.
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from ..project.discovery import content_dirs, find_root
from ..project.index import load_index, write_atomic
from ..report.changes import Transition, diff
from ..run.execution import RunInterrupted, default_jobs, execute
from ..run.replay import replay_command
from ..run.results import ClaimResult
from ..run.worker import start_worker
from ..search.profile import Profile, profile_named
from .run_output import counterexample_block
from .terminal import printable

__all__ = ["run", "Watcher"]


def _matcher(keyword: str | None) -> Callable[[str], bool]:
    """``-k``: pytest's grammar when the selection module provides it, else every word in the id."""
    if not keyword:
        return lambda claim_id: True
    try:
        from ..project.selection import compile_expression  # the CLI's -k grammar, when present
    except ImportError:
        words = keyword.split()
        return lambda claim_id: all(w in claim_id for w in words)
    return compile_expression(keyword)


def _readable(path: Path) -> dict | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("claims"), list) else None


class Watcher:
    """The state of one watch session: the selection, the last result of each claim, the warm worker."""

    def __init__(
        self,
        root: Path,
        profile: Profile,
        *,
        keyword: str | None = None,
        select: Callable[[str], bool] | None = None,
        jobs: int | None = None,
        timeout: float | None = None,
        use_cache: bool = True,
        out: Path | None = None,
        html: bool = True,
        echo: Callable[[str], None] = print,
        since: dict[Path, tuple[int, int]] | None = None,
    ):
        self.root, self.profile, self.keyword = root.resolve(), profile, keyword
        self.select = select or _matcher(keyword)
        self.jobs, self.timeout, self.html, self.echo = jobs or default_jobs(), timeout, html, echo
        self.out = out or self.root / "reports"
        self.index = load_index(self.root)
        self.cache = None
        if use_cache:
            from ..run.cache import ResultCache

            self.cache = ResultCache(self.root, index=self.index)
        self.results: dict[str, ClaimResult] = {}
        self.base = _readable(self.out / "results.json")
        self.last_latency = math.nan  # seconds from the last save to its verdicts
        self.folders = [self.root / d for d in content_dirs(self.root) if (self.root / d).is_dir()]
        # the files as the command found them: a save from then on is a change (see start)
        self.since = stamps(self.folders) if since is None else since
        self.pending: list[str] = []  # start-up claims not checked yet (a save interrupted the start-up)
        self._saved = False  # the start-up was stopped by a save (not by Ctrl-C)
        self._looked = -math.inf  # when the start-up last looked for a save (time.monotonic)
        self.warm = [start_worker(self.root)]

    def _execute(self, ids: list[str], on_result=None) -> list[ClaimResult]:
        warm, self.warm = self.warm, []
        try:
            return execute(
                ids,
                self.profile,
                jobs=self.jobs,
                timeout=self.timeout,
                cache=self.cache,
                root=self.root,
                index=self.index,
                warm=warm,
                on_result=on_result,
            )
        finally:
            self.warm = [start_worker(self.root)]  # warms up while the user edits

    def start(self) -> dict[Path, tuple[int, int]]:
        """Check the selected claims; a save meanwhile interrupts them at the next result, is handled as a
        change, and the rest go on.  Returns the files' stamps as of the last change handled (a save
        after them is the watch loop's to find)."""
        ids = self.index.claim_ids(self.select)
        self.pending = list(ids)
        while self.pending:
            try:
                for r in self._execute(self.pending, on_result=self._saved_meanwhile):
                    self.results[r.id] = r
                self.pending = []
            except RunInterrupted as stop:
                if not self._saved:  # Ctrl-C
                    raise
                self._saved = False
                self.results.update({r.id: r for r in stop.results})
                self.pending = [c for c in self.pending if c not in self.results]
            self._startup_saves()
        self._summary_line(ids)
        return self.since

    def _saved_meanwhile(self, result: ClaimResult) -> None:
        """During the start-up: stop its checks when a file was saved (looked at once a second at most)."""
        now = time.monotonic()
        if now - self._looked < 1.0:
            return
        self._looked = now
        if changed_since(self.since, self.folders):
            self._saved = True
            raise _SavedDuringStartup

    def _startup_saves(self) -> None:
        """Handle the saves made since the files were stamped, as changes from the folder's report."""
        now = stamps(self.folders)
        saved = {p for p in self.since.keys() | now.keys() if self.since.get(p) != now.get(p)}
        self.since = now
        if saved:
            self.handle(sorted(saved), during_startup=True)

    def _summary_line(self, ids: list[str]) -> None:
        counts: dict[str, int] = {}
        for r in self.results.values():
            counts[r.verdict.value] = counts.get(r.verdict.value, 0) + 1
        self.echo(
            f"watching {len(ids)} claims ({', '.join(f'{n} {v}' for v, n in sorted(counts.items()))}); "
            f"save a file under {', '.join(content_dirs(self.root))} to re-check what it reaches"
        )
        self.write_reports()

    def handle(self, changed: Iterable[Path], *, during_startup: bool = False) -> list[Transition]:
        """Re-check the claims ``changed`` files reach; print each changed verdict as soon as it is
        known, then a summary; return the transitions.  ``during_startup``: the saves came while the
        start-up checked, so a reached claim's verdict before them is the folder's report's."""
        changed = [Path(p) for p in changed]
        t_saved = max((p.stat().st_mtime for p in changed if p.exists()), default=time.time())
        reached = [c for c in self.index.claim_ids(self.select) if c in self.index.reached_by(changed)]
        unknown = self._before_the_save(reached) if during_startup else set()
        before = self._document()
        rechecked = 0

        def show(result: ClaimResult) -> None:
            nonlocal rechecked
            rechecked += 1
            old = self.results.get(result.id)
            self.results[result.id] = result
            after = f"{time.time() - t_saved:.2f} s after the save"
            if result.id in unknown:
                self.echo(
                    f"  ? {result.id}: {result.verdict.value}, saved during the start-up, no earlier "
                    f"verdict in the report to compare  ({after})"
                )
            elif old is None:
                self.echo(f"  + {result.id}: new, {result.verdict.value}  ({after})")
            elif old.verdict is not result.verdict:
                self.echo(f"  ~ {result.id}: {old.verdict.value} -> {result.verdict.value}  ({after})")
            elif old.first_broken_step != result.first_broken_step:
                self.echo(
                    f"  ~ {result.id}: first broken step {old.first_broken_step} -> "
                    f"{result.first_broken_step}  ({after})"
                )
            else:
                return
            if not result.matches_expectation:  # the instance, where the difference is read
                for line in counterexample_block(result):
                    self.echo(line)

        if reached:
            self._execute(reached, on_result=show)
        self.last_latency = time.time() - t_saved
        # the edit may have added, removed or renamed claims: the refreshed index says which
        self.index = load_index(self.root)
        if self.cache is not None:
            self.cache.index = self.index
        now_selected = self.index.claim_ids(self.select)
        added = [c for c in now_selected if c not in self.results and c not in self.pending]
        if added:
            self._execute(added, on_result=show)
        for gone in [c for c in self.results if c not in now_selected]:
            self.echo(f"  - {gone}: removed (was {self.results.pop(gone).verdict.value})")
        transitions = diff(before, self._document())
        self.echo(
            f"[{_dt.datetime.now().strftime('%H:%M:%S')}] {rechecked} claim(s) re-checked, "
            f"{len(transitions) or 'no'} change(s); verdicts {self.last_latency:.2f} s after the save"
        )
        self.write_reports()
        return transitions

    def _before_the_save(self, ids: list[str]) -> set[str]:
        """The start-up results of ``ids`` may be of the text before a save or after it: each is replaced
        by the folder's report's (the verdict seen before the command); returns those it has none for."""
        from ..run.cache import result_from_dict

        known = {c.get("id"): c for c in (self.base or {}).get("claims", []) if isinstance(c, dict)}
        unknown = set()
        for cid in ids:
            try:
                self.results[cid] = result_from_dict(known[cid])
            except (KeyError, TypeError, ValueError, AttributeError):
                self.results.pop(cid, None)
                unknown.add(cid)
        return unknown

    def _document(self) -> dict:
        from ..run.engine import RunResult

        order = {c: i for i, c in enumerate(self.index.claim_ids())}
        results = sorted(self.results.values(), key=lambda r: order.get(r.id, len(order)))
        return RunResult(
            seed=self.profile.seed,
            profile=self.profile.name,
            results=results,
            studies=[],
            started=_dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
            seconds=sum(r.seconds for r in results),
            selection=self.keyword or "",
        ).to_dict()

    def write_reports(self) -> None:
        from ..errors import OutputError
        from ..report.full import merge
        from ..schema import validate_written

        # the claims watched update their place in the folder's full report; the others are kept
        data = merge(self.base, self._document(), self.index.claim_ids())
        try:
            validate_written(data)
        except OutputError as exc:  # the watch goes on; the previous report stays as it was
            print(printable(str(exc)), file=sys.stderr, flush=True)
            return
        write_atomic(self.out / "results.json", json.dumps(data, indent=1, ensure_ascii=False))
        if self.html:
            from ..report.html import write_html

            write_html(data, self.out / "index.html")

    def close(self) -> None:
        for w in self.warm:
            w.stop()
        self.warm = []


def stamps(folders: Iterable[Path]) -> dict[Path, tuple[int, int]]:
    """``{file: (mtime_ns, size)}`` of the Python files under ``folders``."""
    out = {}
    for folder in folders:
        for path in Path(folder).rglob("*.py"):
            try:
                st = path.stat()
            except OSError:
                continue
            out[path] = (st.st_mtime_ns, st.st_size)
    return out


class _SavedDuringStartup(KeyboardInterrupt):
    """Raised from a start-up result when a file was saved: it stops the start-up's checks the way
    Ctrl-C does (the results so far kept), so the save is handled at once."""


def changed_since(before: dict[Path, tuple[int, int]], folders: Iterable[Path]) -> set[Path]:
    """The Python files saved, added or removed since ``before`` was taken."""
    now = stamps(folders)
    return {p for p in before.keys() | now.keys() if before.get(p) != now.get(p)}


def run(args) -> int:
    """``lemmacheck watch [-k EXPR] [--seed N] [--deep] [-j N] [--timeout S] [--no-cache] [--out DIR]
    [--no-html]``: runs until Ctrl-C."""
    from ..extras import require

    watchfiles = require("watch")  # absent: the CLI says which extra to install (exit 4)
    from ..search.seed import resolve_seed
    from .exitcodes import OK

    seed = resolve_seed(getattr(args, "seed", None))
    deep = getattr(args, "deep", False)
    profile = profile_named("deep" if deep else "quick").with_seed(seed)
    root = find_root()
    # first thing: every save from now on is a change (a save during the start-up too)
    since = stamps(d for d in (root / c for c in content_dirs(root)) if d.is_dir())
    print(
        f"lemmacheck: seed {seed} (replay with: {replay_command('run', seed, deep=deep)})",
        flush=True,
    )
    watcher = Watcher(
        root,
        profile,
        keyword=getattr(args, "keyword", None),
        jobs=getattr(args, "jobs", None),
        timeout=getattr(args, "timeout", None),
        use_cache=not getattr(args, "no_cache", False),
        out=getattr(args, "out", None),
        html=not getattr(args, "no_html", False),
        echo=lambda line: print(printable(line), flush=True),  # ids come from claims: escaped
        since=since,
    )
    folders = watcher.folders
    try:
        # a save between the start-up's last look and the notifier's start is found by comparing
        before: dict[Path, tuple[int, int]] | None = watcher.start()
        # debounce 50 ms: an editor's save is one event; the default 1.6 s would be most of the budget.
        # The first (possibly empty) yield comes once the notifier is up: the files are compared then.
        for changes in watchfiles.watch(
            *folders,
            watch_filter=watchfiles.PythonFilter(),
            debounce=50,
            step=20,
            rust_timeout=200,
            yield_on_timeout=True,
        ):
            paths = {Path(path) for _, path in changes}
            if before is not None:
                paths |= changed_since(before, folders)
                before = None
            if paths:
                watcher.handle(sorted(paths))
    except KeyboardInterrupt:
        print("\nstopped watching", flush=True)
    finally:
        watcher.close()
    return OK
