"""One ``lemmacheck run`` once its plan is made: execute it, journal each result, write the merged
report (with its history, JUnit XML and badge), print the end.

Ctrl-C, SIGTERM (a CI cancellation) and ``-x`` stop the run the same way: the claims done so far update
the report, marked incomplete; a report that cannot be written leaves every result in the journal.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .common import UsageError, emit, say
from .exitcodes import ExitCode
from .run_output import Progress, format_changes, mismatch_line, summary
from .terminal import printable_line

if TYPE_CHECKING:
    from ..report.prewarm import Prewarm

__all__ = ["RunSession"]


class _FirstFailure(KeyboardInterrupt):
    """``-x``: raised from the result callback, it stops the run the way Ctrl-C does (workers stopped)."""


def _sigterm_as_interrupt(signum, frame):  # CI cancellations send SIGTERM: keep the work done, as for Ctrl-C
    raise KeyboardInterrupt


class RunSession:
    """One ``run``: executes the plan, journals each result, writes the merged report, prints the end."""

    def __init__(self, args, root, index, profile, out, previous, journal, problem) -> None:
        self.args, self.root, self.index, self.profile = args, root, index, profile
        self.out, self.previous, self.journal, self.problem = out, previous, journal, problem
        self.done: list = []
        self.checked: list[str] = []
        self.stopped_at_failure = False
        self.first_difference = None  # -x: the claim that stopped the run
        self.why = ""
        self.prewarm: Prewarm | None = None  # draws the report's plots and statements as results arrive
        # workers started before the content index (cli.run._workers_ahead), then those an execution's
        # pool leaves running, for the next (--ff's second half)
        self.warm: list = []

    def _plots(self) -> Path:
        return self.root / ".lemmacheck-cache" / "plots"

    def on_result(self, result) -> None:
        self.done.append(result)
        # converted once (1-1.4 ms a result): the prewarm thread and the journal only read it
        data = result.to_dict() if self.prewarm is not None or self.journal is not None else {}
        if self.prewarm is not None:
            self.prewarm.claim(data)
        if self.journal is not None:
            self.journal.append(data)
        if self.args.exitfirst and not result.matches_expectation:
            self.stopped_at_failure = True
            self.first_difference = result
            raise _FirstFailure

    def _claims(self, ids: list[str], *, with_studies: bool, cache, progress):
        from ..run.engine import run_claims

        a = self.args
        warm, self.warm = self.warm, []  # this execution's pool takes them, and leaves its own in self.warm
        try:
            return run_claims(
                self.profile,
                keyword=a.keyword,
                claim_ids=ids,
                with_studies=with_studies,
                progress=progress,
                on_result=self.on_result,
                on_study=self.prewarm.study if self.prewarm is not None else None,
                index=self.index,
                root=self.root,
                jobs=a.jobs,
                timeout=a.timeout,
                cache=cache,
                dask=a.dask,
                warm=warm,
                keep=self.warm,  # for --ff's second execution: a new pool would import the engine again
            )
        except OSError as exc:
            if a.dask:  # an unreachable or refusing scheduler is how lemmacheck was called, not a bug
                raise UsageError(f"--dask {a.dask}: cannot use the Dask scheduler ({exc})") from None
            raise

    def execute(self, first: list[str], then: list[str], *, with_studies: bool) -> int:
        cache = None
        if not self.args.no_cache:
            from ..run.cache import ResultCache

            cache = ResultCache(self.root, index=self.index)
        progress = Progress(enabled=not self.args.quiet)
        if not self.args.no_html:
            from ..report.prewarm import Prewarm

            self.prewarm = Prewarm(self._plots())
        try:
            old_term = signal.signal(signal.SIGTERM, _sigterm_as_interrupt)
        except ValueError:  # not the main thread (an embedding caller): leave SIGTERM alone
            old_term = None
        try:
            runs = [
                self._claims(first, with_studies=with_studies and not then, cache=cache, progress=progress)
            ]
            if then:
                runs.append(self._claims(then, with_studies=with_studies, cache=cache, progress=progress))
        except KeyboardInterrupt:
            progress.done()
            return self.stopped(len(first) + len(then))
        except BaseException:
            if self.journal is not None:
                self.journal.close()  # kept on disk: the results that finished before the failure
            raise
        finally:
            for w in self.warm:  # what the last execution's pool left running
                w.stop()
            self.warm = []
            if old_term is not None:
                signal.signal(signal.SIGTERM, old_term)
            if cache is not None:
                cache.close()
        progress.done()
        return self.finish(_joined(runs))

    def stopped(self, total: int) -> int:
        """Ctrl-C or ``-x``: the claims done so far update the report, marked incomplete."""
        import datetime as _dt

        from ..run.engine import RunResult, preamble_results

        where = f"after {len(self.done)} of {total} claims"
        why = f"interrupted {where}"
        if self.first_difference is not None:
            emit(mismatch_line(self.first_difference).strip())
            named = printable_line(self.first_difference.id)
            why = f"stopped at the first claim that differs (-x), {named}, {where}"

        preamble = preamble_results(
            self.args.keyword, self.index.failed_imports(), self.index.definition_errors()
        )
        started = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
        run = RunResult(
            self.profile.seed,
            self.profile.name,
            [*preamble, *self.done],
            [],
            started,
            sum(r.seconds for r in self.done),
            self.args.keyword or "",
        )
        code = ExitCode.TESTS_FAILED if self.stopped_at_failure else ExitCode.INTERRUPTED
        self.why = why
        return self.finish(run, incomplete=f"{why}; the remaining claims were not checked", code=code)

    def finish(self, run, *, incomplete: str = "", code: ExitCode | None = None) -> int:
        from ..report.full import merge

        data = run.to_dict()
        if incomplete:
            data["run"]["incomplete"] = incomplete
        data = merge(self.previous, data, self.index.claim_ids())
        from ..report.changes import diff

        if self.previous is not None:  # no previous report: nothing to compare with (not "no change")
            data["changes"] = [t.to_dict() for t in diff(self.previous, data)]
        self.checked = [r.id for r in run.results]
        written, write_error = self._write(data)
        if written is None:  # interrupted while writing
            return ExitCode.INTERRUPTED
        if code is not None:
            return self._stopped_message(incomplete, written, write_error, code)
        return self._summarise(run, data, written, write_error)

    def _write(self, data: dict):
        from ..errors import OutputError
        from ..report.folder import write_report

        written: list = []
        write_error = self.problem
        if self.prewarm is not None:  # what it drew is in the render cache; the report draws the rest
            self.prewarm.close()
            self.prewarm = None
        if not self.problem:
            try:
                t0 = time.perf_counter()  # write_report refuses what `render` would refuse
                html = not self.args.no_html
                written = write_report(self.out, data, html=html, plot_cache=self._plots(), history=html)
                if not self.args.no_html:
                    emit(f"report rendered in {time.perf_counter() - t0:.1f}s")
            except OutputError as exc:
                write_error = str(exc)
            except KeyboardInterrupt:
                kept = (
                    f"; every result is kept in {self.journal.path} (`lemmacheck render` it)"
                    if self.journal
                    else ""
                )
                if self.journal is not None:
                    self.journal.close()
                say(f"interrupted while writing the report; the previous report is untouched{kept}")
                return None, ""
        if written and not write_error:
            written += self._history(data)
        written += self._machine_outputs(data)
        if self.journal is not None:
            self.journal.discard() if written and not write_error else self.journal.close()
        return written, write_error

    def _history(self, data: dict) -> list[Path]:
        """The folder's history gains this report (one entry per commit); its page is re-rendered."""
        from ..project.index import write_atomic
        from ..report.history import HISTORY_HTML, history_html, record

        try:
            history = record(self.out, data, self.root)
            if self.args.no_html:
                return []
            write_atomic(self.out / HISTORY_HTML, history_html(history))
        except OSError as exc:
            say(f"the history could not be written ({exc}); the report is")
            return []
        return [self.out / HISTORY_HTML]

    def _machine_outputs(self, data: dict) -> list[Path]:
        from ..report.badge import write_badge
        from ..report.junit import write_junit

        paths = []
        try:
            if self.args.junitxml:
                paths.append(write_junit(self.args.junitxml, data, checked=self.checked))
            if self.args.badge:
                paths.append(write_badge(self.args.badge, data))
        except OSError as exc:  # the verdicts are computed and printed: a file we could not write is said
            say(f"warning: cannot write {exc.filename or 'an output file'}: {exc.strerror or exc}")
        return paths

    def _stopped_message(self, incomplete: str, written, write_error: str, code: ExitCode) -> int:
        if write_error or not written:
            kept = f"; every finished result is kept in {self.journal.path}" if self.journal else ""
            problem = write_error or "the report folder could not be written"
            say(f"{self.why}; {problem}, so no partial report was written{kept}")
        else:
            report = written[0] if self.args.no_html else written[1]
            say(f"{self.why}; partial report written to {report}, marked incomplete")
        return code

    def _summarise(self, run, data: dict, written, write_error: str) -> int:
        emit(summary(run))
        cached = sum(1 for r in run.results if r.cached)
        if cached:
            emit(
                f"\n{cached} of {len(run.results)} results answered from the cache "
                "(.lemmacheck-cache/; --no-cache checks again)"
            )
        carried = data["run"].get("carried", 0)
        if carried:
            emit(f"{carried} claims not selected are kept in the report as last checked")
        emit(format_changes(data.get("changes", []), self.previous))
        failed = bool(run.mismatches()) or any(s.get("error") for s in run.studies)
        if write_error:
            emit(f"\n{len(run.results)} claims in {run.seconds:.1f}s")
            kept = (
                f"; every result is kept in {self.journal.path}"
                if self.journal and not self.journal.failed and not self.problem
                else ""
            )
            say(f"{write_error}; no report written (the verdicts above are complete{kept})")
            return ExitCode.TESTS_FAILED if failed else ExitCode.USAGE_ERROR
        emit(
            f"\n{len(run.results)} claims in {run.seconds:.1f}s; wrote " + ", ".join(str(p) for p in written)
        )
        return ExitCode.TESTS_FAILED if failed else ExitCode.OK


def _joined(runs: list):
    """One run of ``--ff``'s two parts: the results once each (the preamble is in both)."""
    if len(runs) == 1:
        return runs[0]
    first, second = runs
    seen = {r.id for r in first.results}
    first.results += [r for r in second.results if r.id not in seen]
    first.studies += second.studies
    first.seconds += second.seconds
    return first
