"""Claims, and the chunks of their sweeps, on a dask.distributed cluster (``lemmacheck run --dask``).

Each claim is one task.  A claim whose sweep is large (a ``--deep`` sweep) sends the sweep's chunks
back to the cluster as tasks of their own (:func:`lemmacheck.search.violations.sweep_plan`), from inside its
task (``worker_client`` frees the claim's thread while it waits).  A chunk draws from a generator seeded by
the claim's seed and the chunk's place in the plan, and the parts are merged in plan order, so the
result is the same, bit for bit, however the chunks are spread: a serial run of the same seed agrees.

Dask runs tasks in threads, where no alarm can interrupt a claim, so the time limit is kept here, on
the client: each claim task announces its start (a worker event); a claim past its limit is reported as
an ERROR saying where its task was (Dask's call stack of the running task), its tasks are cancelled,
and the workers running them are restarted (the only way to stop a thread), and the run goes on.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import sys
import time
import uuid
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

from ..search.profile import Profile
from ..search.violations import CHUNK_INSTANCES, SweepChunk, SweepPart
from .claimrun import run_sweep_chunk, unknown_result
from .results import ClaimResult
from .timelimit import load_claims, run_one, timed_out_elsewhere

__all__ = ["run_on_dask", "SPLIT_INSTANCES"]

#: a sweep is split into tasks from this many instances (a deep sweep): below it, the round trips
#: through the scheduler cost more than the vectorised work they would spread
SPLIT_INSTANCES = 4 * CHUNK_INSTANCES
#: at most this long between two looks for claims past their limit (less when a limit is shorter or
#: nearer); finished claims wake the client at once, whatever this says
_DEADLINE_CHECK_SECONDS = 1.0
_START_TOPIC = "lemmacheck-claim-start"
# frames in these are the machinery around a claim, not the content it was stuck in
_NOT_CONTENT = (f"{os.sep}lemmacheck{os.sep}", "site-packages", f"{os.sep}lib{os.sep}python")
_RESTARTED = " (its Dask tasks were cancelled and the workers running them restarted)"


def _claim_key(claim_id: str, token: str) -> str:
    return f"lemmacheck-claim-{claim_id}-{token}"


def _chunk_task(claim_id: str, profile: Profile, root: str, modules: Sequence[str], chunk: SweepChunk):
    """On a worker: one chunk of a claim's sweep (its content imported there, once per process)."""
    from ..model.claim import REGISTRY
    from ..project.index import import_modules

    import_modules(Path(root), modules)
    return run_sweep_chunk(REGISTRY[claim_id], profile, chunk)


def _ready(claim_id: str, root: Path, modules: Sequence[str]) -> None:
    """On a worker: import what the claim's check needs, as a pool worker does before it reports a
    claim's start: the engine's lazily imported modules (once per process) and the content declaring
    the claim.  A claim's time limit counts from when its check starts: announced before these imports,
    the first claim of each worker paid for them, and at load 16 a 1.5 s limit fired on claims that
    take a tenth of it."""
    from ..model.claim import REGISTRY
    from ..project.index import import_modules
    from .worker import keep_out_of_collections, warm_up

    known = len(sys.modules)
    warm_up()
    import_modules(root, modules)
    if len(sys.modules) != known:  # as a pool worker does: what the worker keeps, no collection walks
        keep_out_of_collections()
    if claim_id not in REGISTRY:  # the index is stale: run_one looks further, before its clock too
        load_claims(root, [claim_id])


def _claim_task(
    claim_id: str, profile: Profile, root: str, modules: Sequence[str], token: str
) -> ClaimResult:
    """On a worker: import what the claim needs, announce its start (the client's clock for the time
    limit starts now, not when the task was queued nor while the worker imports), then run the claim,
    its large sweeps spread over the cluster."""
    from distributed import get_worker, worker_client

    # Dask's own threads touch the global `random` while Hypothesis draws here; Hypothesis reads that as
    # a strategy using `random` and warns once per claim (the suite's filter, pyproject.toml, says why it
    # does not affect the seeded draws).  The same filter, on the worker.
    warnings.filterwarnings("ignore", message="Do not use the `random` module inside strategies")
    _ready(claim_id, Path(root), modules)
    get_worker().log_event(_START_TOPIC, {"claim": claim_id, "token": token})

    def on_the_cluster(chunks: Sequence[SweepChunk]) -> Sequence[SweepPart]:
        if sum(c.instances for c in chunks) < SPLIT_INSTANCES:
            return [_chunk_task(claim_id, profile, root, modules, c) for c in chunks]
        n = len(chunks)
        with worker_client() as client:
            futures = client.map(
                _chunk_task,
                [claim_id] * n,
                [profile] * n,
                [root] * n,
                [modules] * n,
                chunks,
                key=[f"lemmacheck-sweep-{claim_id}-{token}-{i}" for i in range(n)],
                pure=False,
            )
            return client.gather(futures)

    return run_one(claim_id, profile, None, Path(root), modules, sweep_runner=on_the_cluster)


_FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+), in (?P<name>\S+)')


def _where(client, keys: list[str]) -> str:
    """The innermost line of content code the claim's running tasks are at (Dask's call stacks, one
    ``File "…", line N, in name`` text per frame, outermost first)."""
    with contextlib.suppress(Exception):  # a diagnosis only: the claim is stopped either way
        for stacks in client.call_stack(keys=keys).values():
            for frames in stacks.values():
                for frame in reversed(frames):
                    m = _FRAME.search(frame)
                    if m and all(part not in m["file"] for part in _NOT_CONTENT):
                        return f"{m['file']}:{m['line']} in {m['name']}"
    return ""


def _stop(client, claim_id: str, token: str, future) -> str:
    """Cancel a claim's tasks and restart the workers running any of them; return where it was."""
    mine = f"-{claim_id}-{token}"
    running = {w: [k for k in keys if mine in str(k)] for w, keys in client.processing().items()}
    running = {w: keys for w, keys in running.items() if keys}
    where = _where(client, [k for keys in running.values() for k in keys])
    client.cancel([future], force=True)
    if running:
        client.restart_workers(list(running), raise_for_error=False)
    return where


def run_on_dask(
    ids: Sequence[str],
    profile: Profile,
    *,
    address: str,
    jobs: int,
    timeout: float | None,
    root: Path,
    done: Callable[[ClaimResult], None],
    index,
) -> None:
    """Run ``ids`` on the scheduler at ``address`` (``"local"``: a LocalCluster of ``jobs`` worker
    processes here), each result passed to ``done`` as it arrives.  Nothing to run (every claim answered
    from the cache) starts no cluster, as the local pool then starts no worker: a LocalCluster cost
    about 2 s of CPU for nothing.  (Fewer claims than ``jobs`` still get ``jobs`` workers: a deep
    sweep spreads its chunks over all of them.)"""
    if not ids:
        return
    with contextlib.ExitStack() as stack:
        client = _connect(stack, address, jobs)
        started: dict[str, float] = {}  # token -> when its claim task last started (a restart reruns it)

        def on_start(event) -> None:
            _, msg = event
            started[msg["token"]] = time.monotonic()

        client.subscribe_topic(_START_TOPIC, on_start)
        running = {}
        for cid in ids:
            token = uuid.uuid4().hex
            fut = client.submit(
                _claim_task,
                cid,
                profile,
                str(root),
                index.declaring_modules([cid]),
                token,
                key=_claim_key(cid, token),
                pure=False,
            )
            running[fut] = (cid, token)
        _collect(client, running, started, profile, timeout=timeout, root=root, done=done)


def _connect(stack: contextlib.ExitStack, address: str, jobs: int):
    """A client of the scheduler at ``address`` (``"local"``: a LocalCluster started here), closed with
    ``stack``."""
    from ..extras import require

    require("dask")
    from distributed import Client, LocalCluster

    if address != "local":
        return stack.enter_context(Client(address))
    import dask.config

    from .localcluster import LOCAL_CLUSTER_CONFIG, LikeAPoolWorker, PoolHashSeedNanny

    with dask.config.set(LOCAL_CLUSTER_CONFIG):  # the nannies hand it to the worker processes
        cluster = stack.enter_context(
            LocalCluster(
                n_workers=jobs,
                threads_per_worker=1,
                processes=True,
                worker_class=PoolHashSeedNanny,
                dashboard_address=":0",
                plugins={LikeAPoolWorker()},
            )
        )
    return stack.enter_context(Client(cluster))


def _collect(
    client, running: dict, started: dict[str, float], profile: Profile, *, timeout, root, done
) -> None:
    """Pass each claim's result to ``done`` as it arrives, and stop a claim past its time limit (its
    start announced in ``started``) with an ERROR saying where it was.  The client sleeps until a claim
    finishes or the nearest limit is due (polling 20 times a second cost the client's process more CPU
    than the scheduler did).  Each future tells a queue once when it finishes: ``distributed.wait`` on
    the futures still running, called once per result, made a waiting task for every one of them each
    time, so the client's work grew with the square of the claims (a fifth of its samples, py-spy)."""
    finished: queue.SimpleQueue = queue.SimpleQueue()
    for fut in running:
        fut.add_done_callback(finished.put)
    while running:
        try:
            fut = finished.get(timeout=_next_look(running, started, timeout))
        except queue.Empty:  # a limit is due
            fut = None
        if fut in running:  # else a limit was due, or a claim already stopped past it
            cid, _ = running.pop(fut)
            try:
                done(fut.result())
            except Exception as exc:  # the task's worker was lost too often (Dask's KilledWorker)
                done(unknown_result(cid, profile, f"claim {cid!r}: lost on the cluster: {exc!r}"))
        now = time.monotonic()
        for fut, (cid, token) in list(running.items()):
            if timeout is not None and token in started and now - started[token] > timeout:
                where = _stop(client, cid, token, fut)
                del running[fut]
                reached = {"where": where} if where else {}
                done(timed_out_elsewhere(cid, profile, timeout, reached, root, _RESTARTED))


def _next_look(running: dict, started: dict[str, float], timeout: float | None) -> float | None:
    """Seconds until the client must look at the limits again (None: no limit, wait for a result)."""
    if timeout is None:
        return None
    now = time.monotonic()
    due = [started[t] + timeout - now for _, t in running.values() if t in started]
    # a claim not yet started is not due before a whole limit from now
    return max(0.01, min([*due, timeout, _DEADLINE_CHECK_SECONDS]))
