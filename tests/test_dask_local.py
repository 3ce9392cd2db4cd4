"""The workers of ``lemmacheck run --dask local`` are what the local pool's workers are (issue 35 §2).

On a loaded machine the LocalCluster took 1.5x the wall time of ``-j 2`` for 1.34x the CPU, and each run
ended with "Worker process still alive after 4.0 seconds, killing" twice.  The planted claims below run
inside a LocalCluster worker and report what it is: in a session of its own (as a pool worker, so that a
kernel sharing the CPU among sessions gives it its own share, and Ctrl-C reaches only the run), without
Dask's statistical profiler sampling its threads, given its next claim only when it is free (as a pool
worker is: a claim queued behind the one it ran could leave the other worker idle at the end); and the
module holds an object whose freeing is slower than the 4 s the nanny waits, as the heap of SymPy,
Hypothesis and the content was on a loaded machine.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import subprocess
import sys
import threading

import pytest

from lemmacheck.model.claim import REGISTRY
from lemmacheck.model.verdict import Verdict
from lemmacheck.run import cluster
from lemmacheck.run.cache import ResultCache
from lemmacheck.run.execution import execute
from lemmacheck.run.results import TIMING_FIELDS
from lemmacheck.search.profile import QUICK
from planted_project import INSTANT_VALUES, LAZY_ENGINE, make_project

INSIDE_A_WORKER = """
from lemmacheck import value

VALUE = dict(META, expected=Verdict.PROVED)


class _SlowToFree:
    # freed when the interpreter finalises this module: a heap slower to free than the nanny waits
    def __del__(self):
        time.sleep(8)


_KEEP = _SlowToFree()


def _own_session():
    return int(os.getsid(0) != int(os.environ["PLANTED_RUN_SID"]))


def _dasks_spawn_variables():
    # set by Dask's nanny and by no pool worker (the test unsets them in the run)
    names = ("MALLOC_TRIM_THRESHOLD_", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")
    return len([n for n in names if n in os.environ])


def _no_profiler():
    from distributed import get_worker

    return int("profile" not in get_worker().periodic_callbacks)


def _nothing_queued_here():
    from distributed import get_worker

    return len([t for t in get_worker().state.tasks.values() if t.state == "ready"])


value("{pkg}.own_session", computed=_own_session, stated=1, **VALUE)
for _i in range(4):  # four claims on two one-thread workers: each worker's first had one queued behind
    value(f"{pkg}.one_at_a_time_{_i}", computed=_nothing_queued_here, stated=0, **VALUE)
value("{pkg}.no_profiler", computed=_no_profiler, stated=1, **VALUE)
value("{pkg}.pool_environment", computed=_dasks_spawn_variables, stated=0, **VALUE)
"""


class _Kept(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.mark.slow  # a LocalCluster of two worker processes (18-19 s), and its shutdown
def test_local_cluster_workers_run_like_pool_workers_and_end_without_being_killed(tmp_path, monkeypatch):
    pytest.importorskip("distributed", reason="dask is an optional extra: pip install -e '.[dask]'")
    pkg = make_project(tmp_path, {"mod": INSIDE_A_WORKER})
    monkeypatch.setenv("PLANTED_RUN_SID", str(os.getsid(0)))
    for name in ("MALLOC_TRIM_THRESHOLD_", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)  # the nanny writes them into this process too
    kept = _Kept()
    nanny = logging.getLogger("distributed.nanny")
    nanny.addHandler(kept)
    try:
        with REGISTRY.scratch():
            ids = [
                f"{pkg}.own_session",
                f"{pkg}.no_profiler",
                f"{pkg}.pool_environment",
                *(f"{pkg}.one_at_a_time_{i}" for i in range(4)),
            ]
            results = execute(ids, QUICK, jobs=2, dask="local", root=tmp_path)
    finally:
        nanny.removeHandler(kept)
    for r in results:
        assert r.verdict is Verdict.PROVED, f"{r.id}: {r.verdict.value} ({r.message}; {r.evidence})"
    killed = [m for m in kept.messages if "killing" in m]
    assert not killed, f"the nanny killed workers that did not end on their own: {killed}"


# Issue 33 §4: certification's counted budgets of work follow SymPy's set orders, which follow the hash
# seed; the pool's workers start with PYTHONHASHSEED=0 and Dask's nanny gave its workers 6640.  The first
# claim computes a string's hash where it runs (the same in every process of one hash seed, so it shows
# the seed the worker started with); the other two are certified (a SymPy route and a box tree).
CERTIFIED_HERE_AND_THERE = """
from lemmacheck import value
from lemmacheck.model.inputs import ProbVector


def _hash_here():
    return hash("lemmacheck hash seed") % 1_000_003


value("{pkg}.hash_seed", computed=_hash_here, stated=int(os.environ["PLANTED_POOL_HASH"]),
      **dict(META, expected=Verdict.PROVED))


@inequality("{pkg}.variance", inputs={"p": ProbVector("n"), "v": Array("n")}, dims={"n": [1, 2]}, **META)
def variance(xp, p, v):
    return xp.sum(p * v * v, axis=-1) - xp.sum(p * v, axis=-1) ** 2, xp.max(xp.abs(v), axis=-1) ** 2


@inequality("{pkg}.tanh", inputs={"x": Array("n", low=0.0, high=3.0)}, dims={"n": [2]}, **META)
def tanh_below(xp, x):
    return xp.sum(xp.tanh(x), axis=-1), xp.sum(x, axis=-1)
"""


def _without_times(value):
    if isinstance(value, dict):
        return {k: _without_times(v) for k, v in value.items() if k not in TIMING_FIELDS}
    if isinstance(value, list):
        return [_without_times(v) for v in value]
    return value


def _pool_hash() -> str:
    """The planted hash in a fresh interpreter started as a pool worker is (PYTHONHASHSEED=0)."""
    code = 'print(hash("lemmacheck hash seed") % 1_000_003)'
    env = dict(os.environ, PYTHONHASHSEED="0")
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True
    ).stdout.strip()


@pytest.mark.slow  # a LocalCluster of two worker processes, and certification of two claims on each side
def test_certify_on_a_local_cluster_gives_what_two_local_workers_give(tmp_path, monkeypatch):
    pytest.importorskip("distributed", reason="dask is an optional extra: pip install -e '.[dask]'")
    pytest.importorskip("z3")
    pytest.importorskip("flint")
    monkeypatch.delenv("PYTHONHASHSEED", raising=False)
    monkeypatch.setenv("PLANTED_POOL_HASH", _pool_hash())
    pkg = make_project(tmp_path, {"mod": CERTIFIED_HERE_AND_THERE})
    ids = [f"{pkg}.hash_seed", f"{pkg}.variance", f"{pkg}.tanh"]
    profile = dataclasses.replace(QUICK, certify=True)
    with REGISTRY.scratch():
        pool = execute(ids, profile, jobs=2, root=tmp_path)
        on_dask = execute(ids, profile, jobs=2, dask="local", root=tmp_path)
    for r in pool:
        assert r.verdict in (Verdict.PROVED, Verdict.HOLDS), (
            f"{r.id} in the pool: {r.verdict.value} ({r.message})"
        )
    for a, b in zip(pool, on_dask, strict=True):
        left, right = _without_times(a.to_dict()), _without_times(b.to_dict())
        assert left == right, (
            f"{a.id}: -j 2 and --dask local disagree:\n{json.dumps(left)}\n{json.dumps(right)}"
        )
    assert [r.certificate and r.certificate["status"] for r in on_dask[1:]] == ["certified", "certified"]
    assert os.environ.get("PYTHONHASHSEED") in (None, "0"), "the run left Dask's hash seed in this process"


# One gate per task of the test below, opened by the client as each result arrives: the tasks finish
# one after the other, one per look of the client, whatever the machine's load.
_GATES: dict[int, threading.Event] = {}


def _gated(i: int) -> int:
    _GATES[i].wait()
    return i


def _waits_to_collect(distributed, client, n: int, monkeypatch) -> int:
    """How many times the client waits on a future while :func:`cluster._collect` gathers ``n``
    results that arrive one at a time."""
    from lemmacheck.run import cluster

    _GATES.clear()
    _GATES.update({i: threading.Event() for i in range(n)})
    waits = []
    real_wait = distributed.client.FutureState.wait

    def counted(self, timeout=None):
        waits.append(1)
        return real_wait(self, timeout)

    got: list[int] = []

    def done(i: int) -> None:
        got.append(i)
        if i + 1 < n:
            _GATES[i + 1].set()

    with monkeypatch.context() as m:
        m.setattr(distributed.client.FutureState, "wait", counted)
        running = {client.submit(_gated, i, pure=False): (f"planted.{i}", str(i)) for i in range(n)}
        _GATES[0].set()
        cluster._collect(client, running, {}, QUICK, timeout=None, root=None, done=done)
    assert got == list(range(n))
    return len(waits)


def test_the_clients_work_grows_with_the_claims_not_their_square(monkeypatch):
    distributed = pytest.importorskip("distributed", reason="dask is an optional extra")
    # threads, not processes: the gates are this process's; one thread per task, each blocked on its gate
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=16, dashboard_address=":0") as c:
        few, twice = (_waits_to_collect(distributed, c, n, monkeypatch) for n in (8, 16))
    # each future is waited on a fixed number of times (its result, its done callback): twice the claims,
    # twice the waits.  distributed.wait on every future still running, once per result, made 52 and 168
    assert twice <= 2.5 * few, f"{few} waits for 8 claims, {twice} for 16: the client's work grows as n²"


# Content slower to import than the claim's limit, declaring a claim that counts the engine modules not yet
# imported when its check runs.  The claim task announced its start (the client's clock for the limit)
# before it imported the content and the engine's lazy modules, so at load 16 a 1.5 s limit fired on
# claims that take a tenth of it; here the import alone outlasts the limit, whatever the load.
SLOW_TO_IMPORT = """
time.sleep(8)  # twice the limit below: a heavy content module on a loaded machine
"""


@pytest.mark.slow  # a LocalCluster of one worker process, and its 8 s import
def test_on_dask_a_claims_time_limit_starts_with_its_check_not_with_the_workers_imports(tmp_path):
    pytest.importorskip("distributed", reason="dask is an optional extra: pip install -e '.[dask]'")
    pkg = make_project(tmp_path, {"mod": SLOW_TO_IMPORT + LAZY_ENGINE})
    with REGISTRY.scratch():
        (result,) = execute([f"{pkg}.engine_warm"], QUICK, jobs=1, timeout=4.0, dask="local", root=tmp_path)
    assert result.verdict is Verdict.PROVED, (
        f"the 8 s import counted against the 4 s limit, or engine modules were imported inside the check: "
        f"{result.verdict.value} ({result.message}; {result.evidence})"
    )


def test_a_dask_run_answered_wholly_from_the_cache_starts_no_cluster(tmp_path, monkeypatch):
    # a repeated `run --dask local` started a LocalCluster (three interpreters importing distributed, about
    # 2 s of CPU) to run no claim; the local pool starts no worker then.  No Dask needed to show it.
    pkg = make_project(tmp_path, {"mod": INSTANT_VALUES})
    ids = [f"{pkg}.instant_{i}" for i in range(3)]
    with REGISTRY.scratch():
        first = execute(ids, QUICK, jobs=1, cache=ResultCache(tmp_path), root=tmp_path)

        def no_cluster(*args):
            raise AssertionError(f"a cluster was started with every claim in the cache: {args[1:]}")

        monkeypatch.setattr(cluster, "_connect", no_cluster)
        again = execute(ids, QUICK, jobs=2, cache=ResultCache(tmp_path), dask="local", root=tmp_path)
    assert [r.cached for r in again] == [True] * 3, [(r.id, r.cached) for r in again]
    assert [r.verdict for r in again] == [r.verdict for r in first]
