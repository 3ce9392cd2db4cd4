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

import collections
import dataclasses
import math
import multiprocessing.connection
import os
import pickle
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from ..search.profile import Profile
from .claimrun import unknown_result
from .cluster import run_on_dask
from .results import ClaimResult
from .timelimit import timed_out
from .worker import Worker

__all__ = [
    "execute",
    "handing_on",
    "default_jobs",
    "default_timeout",
    "RunInterrupted",
]

# Seconds per claim before it is an ERROR, by profile, at the profile's base budget (LEMMACHECK_SCALE
# raises it in proportion).  Quick claims take 0.1-5 s on this machine; 120 s leaves room for a loaded
# CI runner and still stops a hung check in two minutes.  Deep searches are ~25x longer.
_BASE_TIMEOUT = {"quick": 120.0, "deep": 3600.0}
# Seconds ``run --certify`` adds: certification's safety net counts CPU seconds (30 per claim, its Z3
# queries' included; lemmacheck.certify.SAFETY_SECONDS), which a machine loaded ten times over stretches
# to 300 s of the wall clock; the claim's wall-clock limit must not fall first and turn a load into an ERROR.
_CERTIFY_ALLOWANCE = 600.0


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
    certify = _CERTIFY_ALLOWANCE if profile.certify else 0.0
    return _BASE_TIMEOUT.get(profile.name, _BASE_TIMEOUT["deep"]) * scale + certify


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`execute`: ``results`` holds every claim finished before it (catalogue order)."""

    def __init__(self, results: list[ClaimResult]):
        super().__init__(f"interrupted after {len(results)} claims")
        self.results = results


def _run_pool(
    todo: _Lanes,
    profile: Profile,
    *,
    jobs: int,
    timeout: float | None,
    root: Path,
    done: Callable[[ClaimResult], None],
    index=None,
    warm: Sequence[Worker] = (),
    keep: list[Worker] | None = None,
) -> None:
    from ..project.index import load_index

    index = index or load_index(root)
    pool = _Pool(todo, profile, timeout, root, done)
    pool.idle = list(warm)[: len(pool.todo)]
    for w in list(warm)[len(pool.todo) :]:
        w.stop()
    try:
        pool.idle += [Worker(root) for _ in range(min(jobs, len(pool.todo)) - len(pool.idle))]
        for lane, w in enumerate(pool.idle):
            w.lane = lane
        while pool.todo or pool.busy:
            while pool.todo and pool.idle:
                w = pool.idle.pop()
                claim_id = pool.todo.take(w.lane)
                pool.busy.append(w)  # before it is given work: an interrupt from here on kills it
                w.give(claim_id, profile, timeout, index.declaring_modules([claim_id]))
            wait_for = max(0.0, min(w.deadline for w in pool.busy) - time.monotonic())
            pipes: list = [w.stdout for w in pool.busy]  # file objects: wait() takes anything with fileno()
            ready = multiprocessing.connection.wait(pipes, timeout=None if wait_for == math.inf else wait_for)
            pool.take_answers([w for w in pool.busy if w.stdout in ready])
            pool.kill_overdue()
        if keep is not None:  # alive, idle, with the engine and content imported: the run's next pool
            keep += pool.idle
            pool.idle = []
    finally:
        for w in pool.idle:
            w.stop()
        for w in pool.busy:
            w.kill()


def _died(w: Worker) -> str:
    return f"the worker process running it died (exit code {w.proc.returncode}); replay it alone to see why"


class _Lanes:
    """The claims still to run, in catalogue order cut into one run per worker (``lanes``).  A worker
    imports the content modules of the claims it is given, and a module's claims sit together in the
    catalogue, so a worker keeping to its lane imports about its share of the modules rather than every
    one (0.3-0.7 s of CPU for some).  A worker whose lane is empty takes the last claim of the longest
    other lane, walking it backwards, module by module still, until the lanes are empty.  Which worker
    runs a claim never changes its result (each claim's seed is its own; a worker restores its pristine
    state before each claim)."""

    def __init__(self, ids: list[str], lanes: int):
        n = max(1, min(lanes, len(ids)))
        cuts = [round(k * len(ids) / n) for k in range(n + 1)]
        self.lanes = [collections.deque(ids[cuts[k] : cuts[k + 1]]) for k in range(n)]

    def __len__(self) -> int:
        return sum(len(lane) for lane in self.lanes)

    def take(self, lane: int) -> str:
        own = self.lanes[lane % len(self.lanes)]
        return own.popleft() if own else max(self.lanes, key=len).pop()


@dataclasses.dataclass
class _Pool:
    """The claims still to run and the workers idle or busy with one; a worker that dies or runs out of
    time is replaced while claims remain."""

    todo: _Lanes
    profile: Profile
    timeout: float | None
    root: Path
    done: Callable[[ClaimResult], None]
    idle: list[Worker] = dataclasses.field(default_factory=list)
    busy: list[Worker] = dataclasses.field(default_factory=list)

    def _retire(self, w: Worker, *, died: bool) -> None:
        """Kill a worker that died or ran out of time, report its claim's ERROR, and replace it."""
        self.busy.remove(w)
        w.kill()  # first: the message reads the exit code that the kill reaps
        self.done(_lost(w, self.profile, _died(w)) if died else _lost(w, self.profile, None, self.timeout))
        if self.todo:
            self.idle.append(Worker(self.root))
            self.idle[-1].lane = w.lane  # the replacement goes on where the dead worker was

    def take_answers(self, ready: list[Worker]) -> None:
        for w in ready:
            try:
                kind, payload = w.answered(self.timeout)
            except (EOFError, OSError, pickle.UnpicklingError):
                self._retire(w, died=True)
                continue
            if kind == "done":
                self.busy.remove(w)
                self.idle.append(w)
                self.done(payload)

    def kill_overdue(self) -> None:
        now = time.monotonic()
        for w in [w for w in self.busy if w.deadline <= now]:
            self._retire(w, died=False)


def _lost(w: Worker, profile: Profile, message: str | None, timeout: float | None = None) -> ClaimResult:
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
    warm: Sequence[Worker] = (),
    keep: list[Worker] | None = None,
) -> list[ClaimResult]:
    """Check ``claim_ids`` under ``profile``; return their results in the order given.

    ``jobs``: worker processes (default every core; never fewer than one: no claim runs in this process).
    ``timeout``: seconds per claim (default :func:`default_timeout`; ``math.inf`` for none).  ``cache``:
    a :class:`lemmacheck.run.cache.ResultCache` answered first and filled after.  ``dask``: ``"local"`` or
    a scheduler address.  ``on_result`` and ``progress`` see each result as it finishes (cached first).
    ``root``: the project whose content workers import (default: found from the working directory).
    ``index``: the content index to read (default: :func:`lemmacheck.project.index.load_index`, refreshed);
    ``warm``: workers started ahead (:func:`lemmacheck.run.worker.start_worker`), used first; all stop, but
    those alive at the end go into ``keep`` if given (for a next ``execute``'s ``warm``).
    """
    from ..project.discovery import find_root
    from ..project.index import load_index

    ids = list(dict.fromkeys(claim_ids))
    root = Path(root or find_root()).resolve()
    jobs = default_jobs() if jobs is None else max(1, int(jobs))
    timeout = default_timeout(profile) if timeout is None else timeout
    limit = None if timeout is None or not math.isfinite(timeout) else float(timeout)
    results: dict[str, ClaimResult] = {}
    texts: dict[str, str | None] = {}  # the text a claim depends on, before its check (ResultCache.store)

    def done(result: ClaimResult) -> None:
        results[result.id] = result
        if cache is not None and not getattr(result, "cached", False):
            cache.store(result, profile, texts_before=texts.get(result.id))
        if progress:
            progress(result.id, len(results) - 1, len(ids))
        if on_result:
            on_result(result)

    try:
        todo = _answer_from_cache(ids, cache, profile, done, texts)
        if dask or not todo:  # warm workers serve only the local pool
            for w in warm:
                w.stop()
        pool = dict(jobs=jobs, timeout=limit, root=root, done=done, index=index)
        if dask:
            pool["index"] = index or load_index(root)
            run_on_dask(_longest_first(todo, _timings(todo, cache, profile)), profile, address=dask, **pool)
        elif todo:
            _run_pool(_scheduled(todo, cache, profile, jobs), profile, **pool, warm=warm, keep=keep)
    except KeyboardInterrupt:
        raise RunInterrupted([results[c] for c in ids if c in results]) from None
    return [results[c] for c in ids]


def handing_on(workers: list[Worker]) -> dict:
    """``execute``'s ``warm`` and ``keep`` for one of several executions on the same workers: those the
    last one left alive (taken out of ``workers``), and ``workers`` to receive those this one leaves.  A
    new pool would import the engine again in each worker; the caller stops what is left at the end."""
    ready, workers[:] = list(workers), []
    return {"warm": ready, "keep": workers}


def _answer_from_cache(ids: list[str], cache, profile: Profile, done, texts: dict) -> list[str]:
    """Report the claims the cache answers; return the others, to run, their texts as of now in ``texts``."""
    todo = []
    for cid in ids:
        hit = cache.lookup(cid, profile) if cache is not None else None
        if hit is not None:
            done(hit)
        else:
            todo.append(cid)
            texts[cid] = cache.texts(cid) if cache is not None else None
    return todo


def _scheduled(ids: list[str], cache, profile: Profile, jobs: int) -> _Lanes:
    """Longest expected first, one queue, when the cache knows the claims' timings; else (``--no-cache``,
    a fresh checkout) catalogue order, one lane per worker."""
    timings = _timings(ids, cache, profile)
    return _Lanes(_longest_first(ids, timings), 1) if timings else _Lanes(ids, jobs)


def _timings(ids: list[str], cache, profile: Profile) -> dict[str, float]:
    """The seconds the cache remembers each of ``ids`` taking (those it knows)."""
    timings = cache.timings(profile.name) if cache is not None else {}
    return {c: timings[c] for c in ids if c in timings}


def _longest_first(ids: list[str], timings: dict[str, float]) -> list[str]:
    """Longest expected first (the last claims to finish are then short ones); unknown claims count as
    the mean; ties keep catalogue order."""
    if not timings:
        return ids
    mean = sum(timings.values()) / len(timings)
    return sorted(ids, key=lambda c: -timings.get(c, mean))
