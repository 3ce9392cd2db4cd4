"""Run claims on every core, each under a time limit, answering from the result cache where it can.

One entry point, :func:`execute`. Claims travel to workers by id (a claim holds lambdas, which do not
pickle); each worker imports the content it needs itself (through :mod:`lemmacheck.project.index`, so
only the modules declaring the claims it runs) and calls :func:`lemmacheck.run.timelimit.run_one`, which runs
:func:`lemmacheck.run.claimrun.run_claim` under the time limit. Each claim's seed is derived from the run
seed and its id, so how claims are split among workers never changes a verdict, a counterexample or a
piece of evidence: a serial run and a parallel run of the same seed agree bit for bit (only wall times
differ).

Every claim runs in a worker process, at every ``-j`` (``-j 1`` is one worker): whatever a check does,
``sys.exit()``, a hang, a bare ``except:`` that swallows the time limit or Ctrl-C, a crash of the
interpreter, it costs that claim an ERROR and never ends, hangs or fakes the run.  The price is one
interpreter importing the engine per worker and run (the import the run itself pays: 1.3-2.4 s at load
average 8 on this 2-core machine); a single claim waits for it, a long run does not notice it.

A claim past its time limit becomes an ERROR saying ``timed out after S s``, where the search had got
to, and its replay command.  Inside a worker the limit is a ``SIGALRM`` that interrupts the claim where
it is; a worker that does not answer even then (stuck in C code, or a check that swallows the alarm) is
killed and replaced, and the run goes on.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing.connection
import os
import pickle
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path

from ..search.profile import Profile
from .claimrun import blank_result, unknown_result
from .cluster import run_on_dask
from .results import ClaimResult
from .timelimit import run_one, timed_out

__all__ = ["execute", "start_worker", "default_jobs", "default_timeout", "RunInterrupted"]

# Seconds per claim before it is an ERROR, by profile, at the profile's base budget (LEMMACHECK_SCALE
# raises it in proportion).  Quick claims take 0.1-5 s on this machine; 120 s leaves room for a loaded
# CI runner and still stops a hung check in two minutes.  Deep searches are ~25x longer.
_BASE_TIMEOUT = {"quick": 120.0, "deep": 3600.0}
# After the in-process alarm, how long a worker may take to report before it is killed.
_GRACE = 5.0
# A worker's first claim may wait for its imports (engine, SymPy, the content modules).
_STARTUP_ALLOWANCE = 60.0


def default_jobs() -> int:
    """Every core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def default_timeout(profile: Profile) -> float:
    from ..search.profile import profile_named

    base = profile_named(profile.name) if profile.name in _BASE_TIMEOUT else None
    scale = max(1.0, profile.instance_budget / base.instance_budget) if base else 1.0
    return _BASE_TIMEOUT.get(profile.name, _BASE_TIMEOUT["deep"]) * scale


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`execute`: ``results`` holds every claim finished before it (catalogue order)."""

    def __init__(self, results: list[ClaimResult]):
        super().__init__(f"interrupted after {len(results)} claims")
        self.results = results


# --------------------------------------------------------------------------- worker processes


def _send(stream, message) -> None:
    payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    data = memoryview(struct.pack("!Q", len(payload)) + payload)
    while data:  # an unbuffered pipe may take fewer bytes per write
        written = stream.write(data)
        data = data[written if written is not None else len(data) :]
    stream.flush()


def _read_exact(stream, size: int) -> bytes:
    """Exactly ``size`` bytes (a pipe may deliver fewer per read); EOFError when the writer is gone."""
    chunks, missing = [], size
    while missing:
        chunk = stream.read(missing)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        missing -= len(chunk)
    return b"".join(chunks)


def _receive(stream):
    """One message.  The parent reads its workers' pipes unbuffered: a buffered reader could swallow
    the next message while ``wait`` watches the (then empty) pipe, and the worker would look hung."""
    (size,) = struct.unpack("!Q", _read_exact(stream, 8))
    return pickle.loads(_read_exact(stream, size))


def _worker_main() -> None:
    """A worker process: ``python -c '...; _worker_main()' ROOT``.  It reads ``(claim id, profile,
    timeout, modules)`` messages on stdin, imports ``modules`` (those the parent's index says declare
    the claim), and answers ``("start", id, blank result)`` then ``("done", id, result)`` on the stdout
    it was given; content that prints goes to stderr, never into the protocol."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C stops
    _exit_with_parent()
    protocol_out = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    requests = os.fdopen(os.dup(0), "rb")
    nothing = os.open(os.devnull, os.O_RDONLY)  # content reading stdin must not eat the requests
    os.dup2(nothing, 0)
    os.close(nothing)
    import lemmacheck.run.claimrun  # noqa: F401  (imported before any claim: a waiting worker is a warm one)

    from ..model.claim import REGISTRY
    from ..project.index import import_modules

    root = Path(sys.argv[1])
    while True:
        try:
            claim_id, profile, timeout, modules = _receive(requests)
        except EOFError:
            return
        try:
            import_modules(root, modules)  # every time: already imported ones cost a dict lookup
            if claim_id in REGISTRY:
                _send(protocol_out, ("start", claim_id, blank_result(REGISTRY[claim_id], profile)))
            result = run_one(claim_id, profile, timeout, root)
        except BaseException as exc:  # the worker's own machinery broke: report it, keep serving
            tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-3:])
            result = unknown_result(
                claim_id, profile, f"claim {claim_id!r}: worker failed: {type(exc).__name__}: {exc}\n{tb}"
            )
        _send(protocol_out, ("done", claim_id, result))


def _exit_with_parent() -> None:
    """End this process when its parent is gone (the run was killed outright): a claim busy in a loop
    that swallows every exception would otherwise run on forever in its own session."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="lemmacheck-orphan-watch").start()


class _Worker:
    """One worker process.  A plain ``subprocess`` (not multiprocessing): it never re-imports the
    caller's ``__main__``, and it runs in its own session so Ctrl-C reaches only the parent."""

    def __init__(self, root: Path):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in [str(root), *sys.path] if p))
        cmd = [
            sys.executable,
            "-c",
            "from lemmacheck.run.execution import _worker_main; _worker_main()",
            str(root),
        ]
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=root,
            start_new_session=True,
            bufsize=0,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None  # both are pipes
        self.stdin, self.stdout = self.proc.stdin, self.proc.stdout
        self.claim_id: str | None = None
        self.template: ClaimResult | None = None
        self.started = 0.0
        self.deadline = math.inf

    def give(self, claim_id: str, profile: Profile, limit: float | None, modules: list[str]) -> None:
        self.claim_id, self.template, self.started = claim_id, None, time.monotonic()
        self.deadline = self.started + (limit + _GRACE + _STARTUP_ALLOWANCE if limit else math.inf)
        _send(self.stdin, (claim_id, profile, limit, modules))

    def answered(self, limit: float | None):
        """The worker's next message; a "start" moves the deadline to the claim's own clock."""
        kind, claim_id, payload = _receive(self.stdout)
        if kind == "start":
            self.template, self.started = payload, time.monotonic()
            self.deadline = self.started + limit + _GRACE if limit else math.inf
        return kind, payload

    def kill(self) -> None:
        with contextlib.suppress(OSError):
            self.proc.kill()
        self.proc.wait()
        self._close()

    def stop(self) -> None:
        """Let the worker exit (EOF on its stdin) without waiting for its interpreter to shut down: a
        thread reaps it, and kills it if it has not gone within a few seconds."""
        with contextlib.suppress(OSError):
            self.stdin.close()
        threading.Thread(target=self._reap, daemon=True, name="lemmacheck-reaper").start()

    def _reap(self) -> None:
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.kill()
        self._close()

    def _close(self) -> None:
        for stream in (self.stdin, self.stdout):
            with contextlib.suppress(OSError):
                stream.close()


def _run_pool(
    ids: Sequence[str],
    profile: Profile,
    *,
    jobs: int,
    timeout: float | None,
    root: Path,
    done: Callable[[ClaimResult], None],
    index=None,
    warm: Sequence[_Worker] = (),
) -> None:
    from ..project.index import load_index

    index = index or load_index(root)
    todo = list(ids)
    idle: list[_Worker] = list(warm)[: len(todo)]
    busy: list[_Worker] = []
    for w in list(warm)[len(todo) :]:
        w.stop()
    try:
        idle += [_Worker(root) for _ in range(min(jobs, len(todo)) - len(idle))]
        while todo or busy:
            while todo and idle:
                w = idle.pop()
                claim_id = todo.pop(0)
                w.give(claim_id, profile, timeout, index.declaring_modules([claim_id]))
                busy.append(w)
            wait_for = max(0.0, min(w.deadline for w in busy) - time.monotonic())
            pipes: list = [w.stdout for w in busy]  # file objects: wait() takes anything with fileno()
            ready = multiprocessing.connection.wait(pipes, timeout=None if wait_for == math.inf else wait_for)
            for w in [w for w in busy if w.stdout in ready]:
                try:
                    kind, payload = w.answered(timeout)
                except (EOFError, OSError, pickle.UnpicklingError):
                    busy.remove(w)
                    w.kill()
                    done(
                        _lost(
                            w,
                            profile,
                            f"the worker process running it died (exit code "
                            f"{w.proc.returncode}); replay it alone to see why",
                        )
                    )
                    if todo:
                        idle.append(_Worker(root))
                    continue
                if kind == "done":
                    busy.remove(w)
                    idle.append(w)
                    done(payload)
            now = time.monotonic()
            for w in [w for w in busy if w.deadline <= now]:
                busy.remove(w)
                w.kill()
                done(_lost(w, profile, None, timeout))
                if todo:
                    idle.append(_Worker(root))
    finally:
        for w in idle:
            w.stop()
        for w in busy:
            w.kill()


def _lost(w: _Worker, profile: Profile, message: str | None, timeout: float | None = None) -> ClaimResult:
    """The ERROR result of a claim whose worker was killed (timeout) or died."""
    result = w.template or unknown_result(w.claim_id or "?", profile, "")
    result.seconds = time.monotonic() - w.started
    if message is None:
        timed_out(result, timeout, {}, " (the worker did not answer the alarm and was killed)")
    else:
        result.message = f"claim {w.claim_id!r}: {message}"
    return result


# --------------------------------------------------------------------------- the entry point


def execute(
    claim_ids: Sequence[str],
    profile: Profile,
    *,
    jobs: int | None = None,
    timeout: float | None = None,
    on_result: Callable[[ClaimResult], None] | None = None,
    cache=None,
    dask: str | None = None,
    root: Path | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    index=None,
    warm: Sequence[_Worker] = (),
) -> list[ClaimResult]:
    """Check ``claim_ids`` under ``profile``; return their results in the order given.

    ``jobs``: worker processes (default every core; never fewer than one: no claim runs in this
    process).  ``timeout``: seconds per
    claim (default :func:`default_timeout`; ``math.inf`` for none).  ``cache``: a
    :class:`lemmacheck.run.cache.ResultCache` answered first and filled after.  ``dask``: ``"local"`` or a
    scheduler address.  ``on_result`` and ``progress`` see each result as it finishes (cached ones first).
    ``root``: the project whose content workers import (default: found from the working directory).
    ``index``: the content index to read (default: :func:`lemmacheck.project.index.load_index`, refreshed);
    ``warm``: workers started ahead (:func:`start_worker`) to use first; every worker stops at the end.
    """
    from ..project.discovery import find_root
    from ..project.index import load_index

    ids = list(dict.fromkeys(claim_ids))
    root = Path(root or find_root()).resolve()
    jobs = default_jobs() if jobs is None else max(1, int(jobs))
    timeout = default_timeout(profile) if timeout is None else timeout
    limit = None if timeout is None or not math.isfinite(timeout) else float(timeout)
    results: dict[str, ClaimResult] = {}

    def done(result: ClaimResult) -> None:
        results[result.id] = result
        if cache is not None and not getattr(result, "cached", False):
            cache.store(result, profile)
        if progress:
            progress(result.id, len(results) - 1, len(ids))
        if on_result:
            on_result(result)

    try:
        todo = []
        for cid in ids:
            hit = cache.lookup(cid, profile) if cache is not None else None
            if hit is not None:
                done(hit)
            else:
                todo.append(cid)
        todo = _longest_first(todo, cache, profile)
        if dask:
            for w in warm:
                w.stop()
            index = index or load_index(root)
            run_on_dask(
                todo, profile, address=dask, jobs=jobs, timeout=limit, root=root, done=done, index=index
            )
        elif todo:
            _run_pool(todo, profile, jobs=jobs, timeout=limit, root=root, done=done, index=index, warm=warm)
        else:
            for w in warm:
                w.stop()
    except KeyboardInterrupt:
        raise RunInterrupted([results[c] for c in ids if c in results]) from None
    return [results[c] for c in ids]


def start_worker(root: Path) -> _Worker:
    """A worker process started now, importing the engine while nothing is asked of it; hand it to
    :func:`execute` as ``warm=[...]`` to save its start-up later (``watch`` keeps one ready)."""
    return _Worker(Path(root).resolve())


def _longest_first(ids: list[str], cache, profile: Profile) -> list[str]:
    """Longest expected first (the last claims to finish are then short ones); unknown claims count as
    the mean; ties keep catalogue order."""
    timings = cache.timings(profile.name) if cache is not None else {}
    known = [timings[c] for c in ids if c in timings]
    if not known:
        return ids
    mean = sum(known) / len(known)
    return sorted(ids, key=lambda c: -timings.get(c, mean))
