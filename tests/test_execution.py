"""Worker processes and time limits: a parallel run is a serial run, bit for bit; a hung claim is an ERROR."""

from __future__ import annotations

import dataclasses
import gc
import json
import multiprocessing.connection
import os
import weakref

import pytest

from lemmacheck.model.claim import REGISTRY
from lemmacheck.model.verdict import Verdict
from lemmacheck.project.discovery import discover, find_root
from lemmacheck.run import execution, worker
from lemmacheck.run.engine import run_claim, run_sweep_chunk
from lemmacheck.run.execution import execute
from lemmacheck.run.results import TIMING_FIELDS
from lemmacheck.search.profile import QUICK
from planted_project import (
    AM_GM,
    IGNORES_ALARM,
    INSTANT_VALUE,
    INSTANT_VALUES,
    ITS_DERIVATION,
    KILLS_ITS_PROCESS,
    LAZY_ENGINE,
    RARELY_FALSE,
    SLEEPS_FOREVER,
    SLOW_SWEEP,
    TWO_CHECKS,
    make_project,
)

PROFILE = QUICK.with_seed(5)


def _varied_selection(limit: int = 10) -> list[str]:
    """One claim of each (kind, expected verdict, with/without derivation, chain or not), cheapest kinds
    first: every code path of the engine is crossed by the comparison."""
    discover()
    seen: dict[tuple, str] = {}
    for c in REGISTRY:
        path = (c.kind.value, c.expected.value, c.derivation is not None, c.expected_broken_step)
        seen.setdefault(path, c.id)
    return list(seen.values())[:limit]


def _comparable(result) -> str:
    data = {k: v for k, v in result.to_dict().items() if k not in TIMING_FIELDS}
    return json.dumps(data, sort_keys=True)


def test_two_workers_reproduce_a_serial_run_bit_for_bit():
    ids = _varied_selection()
    serial = execute(ids, PROFILE, jobs=1, root=find_root())
    parallel = execute(ids, PROFILE, jobs=2, root=find_root())
    assert [r.id for r in parallel] == ids, "results come back in the order asked"
    assert all(r.verdict is not Verdict.ERROR for r in serial), [r.message for r in serial]
    # the default run's sample of the catalogue's verdicts (every claim's is asserted by the slow
    # tests/test_claims.py::test_claim): one claim of each kind of path, as the catalogue expects
    differs = [(r.id, r.verdict.value, REGISTRY[r.id].expected.value) for r in serial]
    assert all(got == want for _, got, want in differs), f"(claim, computed, expected): {differs}"
    for a, b in zip(serial, parallel, strict=True):
        assert _comparable(a) == _comparable(b), f"{a.id}: -j 1 and -j 2 disagree"


# A value claim that sleeps: checked first, it loads the rest of the value path in its worker.
VALUE_SLEEPS_FOREVER = """
from lemmacheck import value

value("{pkg}.value_sleeps_forever", computed=lambda: time.sleep(10**6), stated=4, **META)
"""


def test_a_claim_that_sleeps_forever_times_out_and_the_run_goes_on(tmp_path):
    pkg = make_project(tmp_path, {"mod": SLEEPS_FOREVER + SLOW_SWEEP, "instant": INSTANT_VALUE})
    ids = [f"{pkg}.sleeps_forever", f"{pkg}.instant", f"{pkg}.slow_sweep"]
    seen = []
    results = execute(ids, PROFILE, jobs=2, timeout=1.5, root=tmp_path, on_result=seen.append)
    hung, ok, slow = results
    assert ok.verdict is Verdict.PROVED, ok.message
    for r in (hung, slow):
        assert r.verdict is Verdict.ERROR
        assert "timed out after 1.5 s" in r.message, r.message
        assert f"lemmacheck run --seed 5 -k id:{r.id}" in r.message
        assert r.title == "planted" and r.seed, "the ERROR result keeps the claim's metadata"
    assert "reached: in the " in slow.message and "instances checked" in slow.message, slow.message
    assert slow.evidence["reached"]["instances"] > 0, "the partial search is reported"
    assert sorted(r.id for r in seen) == sorted(ids), "on_result sees every claim"


def test_a_claim_timing_out_in_process_is_an_error_too(tmp_path):
    pkg = make_project(tmp_path, {"mod": INSTANT_VALUE + VALUE_SLEEPS_FOREVER})
    with REGISTRY.scratch():
        ids = [f"{pkg}.value_sleeps_forever", f"{pkg}.instant"]
        hung, ok = execute(ids, PROFILE, jobs=1, timeout=1, root=tmp_path)
    assert hung.verdict is Verdict.ERROR and "timed out after 1 s" in hung.message, hung.message
    assert "killed" not in hung.message, "the alarm stopped it inside its worker"
    assert ok.verdict is Verdict.PROVED, ok.message


def test_a_worker_that_ignores_the_alarm_is_killed_and_replaced(tmp_path, monkeypatch):
    monkeypatch.setattr(worker, "_GRACE", 0.5)
    pkg = make_project(tmp_path, {"mod": IGNORES_ALARM + KILLS_ITS_PROCESS, "instant": INSTANT_VALUE})
    ids = [f"{pkg}.ignores_alarm", f"{pkg}.kills_its_process", f"{pkg}.instant"]
    stuck, died, ok = execute(ids, PROFILE, jobs=2, timeout=1, root=tmp_path)
    assert stuck.verdict is Verdict.ERROR and "timed out after 1 s" in stuck.message
    assert "killed" in stuck.message
    assert died.verdict is Verdict.ERROR and "exit code 3" in died.message, died.message
    assert ok.verdict is Verdict.PROVED, f"the run goes on with a fresh worker: {ok.message}"


def test_an_unknown_claim_id_is_an_error_naming_it(tmp_path):
    make_project(tmp_path, {"mod": AM_GM})
    with REGISTRY.scratch():
        (r,) = execute(["nothing.here"], PROFILE, jobs=1, root=tmp_path)
    assert r.verdict is Verdict.ERROR and "'nothing.here'" in r.message


def test_default_timeout_is_longer_for_deep_searches():
    from lemmacheck.search.profile import DEEP

    assert execution.default_timeout(QUICK) < execution.default_timeout(DEEP)


def test_a_certifying_run_gives_a_claim_the_time_its_cpu_net_takes_on_a_loaded_machine():
    # certification's net is 30 CPU seconds (issue 33 §4), ten times that of the wall clock at load 20 on
    # two cores: the claim's wall-clock limit must not fall first and make the load an ERROR
    from lemmacheck.certify import SAFETY_SECONDS

    certifying = dataclasses.replace(QUICK, certify=True)
    assert execution.default_timeout(certifying) >= execution.default_timeout(QUICK) + 10 * SAFETY_SECONDS


def _batch_by_batch(claim, profile):
    """A sweep runner that gives every batch a chunk of its own: one call of the check per batch."""

    def run(chunks):
        one_each = [
            dataclasses.replace(c, first=i, batches=1)
            for c in chunks
            for i in range(c.first, c.first + c.batches)
        ]
        return [run_sweep_chunk(claim, profile, c) for c in one_each]

    return run


@pytest.mark.slow  # 600 chunks of one batch, and schatten.holder twice (1-3 min at load 20)
def test_a_sweep_gives_the_same_result_whether_a_combinations_batches_share_a_call_or_not(tmp_path):
    # issue 35: a chunk evaluates its batches of one dims combination in one call; each batch keeps its
    # own draws and its own rounding estimate, so the figures are those of one call per batch
    pkg = make_project(tmp_path, {"mod": AM_GM + RARELY_FALSE})
    discover()
    holder = REGISTRY["schatten.holder"]  # 768 combinations of 2 batches of 64 sharing a call, wide share
    serial = run_claim(holder, PROFILE)
    assert _comparable(serial) == _comparable(
        run_claim(holder, PROFILE, sweep_runner=_batch_by_batch(holder, PROFILE))
    )
    with REGISTRY.scratch():
        discover(tmp_path)
        for name in ("am_gm", "rarely_false"):
            claim = REGISTRY[f"{pkg}.{name}"]
            serial = run_claim(claim, SPLIT)
            apart = run_claim(claim, SPLIT, sweep_runner=_batch_by_batch(claim, SPLIT))
            assert _comparable(serial) == _comparable(apart), f"{name}: sharing a call changed the result"
    assert serial.verdict is Verdict.REFUTED, "the needle is found and certified"


def test_a_chunk_calls_the_check_once_per_dims_combination(monkeypatch):
    from lemmacheck.search import sweep

    discover()
    claim = REGISTRY["schatten.holder"]  # 768 combinations of 2 batches of 64
    calls = []
    real = sweep.evaluate_chain
    monkeypatch.setattr(sweep, "evaluate_chain", lambda *a: calls.append(a[4]) or real(*a))
    chunk = sweep.sweep_plan(claim.check, PROFILE)[0]
    run_sweep_chunk(claim, PROFILE, chunk)
    combos = len({i // chunk.per_combo for i in range(chunk.first, chunk.first + chunk.batches)})
    assert 1 < chunk.per_combo <= sweep.GROUP_INSTANCES // chunk.batch, chunk  # one call a combination
    assert len(calls) == combos, (chunk, combos, len(calls))


@pytest.mark.slow  # a LocalCluster of two worker processes (18-19 s each)
def test_dask_local_cluster_reproduces_a_serial_run():
    pytest.importorskip("distributed", reason="dask is an optional extra: pip install -e '.[dask]'")
    ids = _varied_selection(4)
    serial = execute(ids, PROFILE, jobs=1, root=find_root())
    on_dask = execute(ids, PROFILE, jobs=2, dask="local", root=find_root())
    for a, b in zip(serial, on_dask, strict=True):
        assert _comparable(a) == _comparable(b), f"{a.id}: serial and Dask disagree"


def test_ctrl_c_keeps_the_results_already_finished(tmp_path):
    pkg = make_project(tmp_path, {"mod": AM_GM + SLEEPS_FOREVER})

    def interrupt_after_first(result):
        raise KeyboardInterrupt

    with pytest.raises(execution.RunInterrupted) as info:
        execute(
            [f"{pkg}.am_gm", f"{pkg}.sleeps_forever"],
            PROFILE,
            jobs=2,
            root=tmp_path,
            on_result=interrupt_after_first,
        )
    assert [r.id for r in info.value.results] == [f"{pkg}.am_gm"]


def test_claims_finishing_instantly_are_never_mistaken_for_hung_workers(tmp_path):
    # a worker's "start" and "done" arrive together; read through a buffer, "done" would sit unseen
    # while the parent waits on the empty pipe, until the time limit killed a worker that had finished
    reading, writing = os.pipe()
    with os.fdopen(reading, "rb", buffering=0) as stream, os.fdopen(writing, "wb") as out:
        worker._send(out, ("start", "c", None))
        worker._send(out, ("done", "c", None))
        assert worker._receive(stream)[0] == "start"
        # no waiting: the second message is still in the pipe, where wait() sees it
        assert multiprocessing.connection.wait([stream], timeout=0) == [stream], "'done' was read ahead"
        assert worker._receive(stream)[0] == "done"
    pkg = make_project(tmp_path, {"mod": INSTANT_VALUES})
    ids = [f"{pkg}.instant_{i}" for i in range(8)]
    results = execute(ids, PROFILE, jobs=2, root=tmp_path)  # the default limit: no test times the machine
    assert [r.verdict for r in results if r.verdict is Verdict.ERROR] == [], [r.message for r in results]


# Each claim computes how many of the project's content modules its worker has imported (1: only its own).
IMPORTED_HERE = """
import sys

from lemmacheck import value

def _imported():
    return sum(m.startswith("{{pkg}}.") for m in sys.modules)

for _i in range(2):
    value(f"{{pkg}}.{mod}.c{{_i}}", computed=_imported, stated=1, **META)
"""


def test_each_worker_keeps_to_its_own_run_of_the_catalogue_and_imports_its_modules_only():
    """Claims went to whichever worker was free, first come first served, so with two workers both
    imported every content module (issue 35: the whole content, 2 s of CPU, once per worker).  The
    catalogue is cut into one run per worker; a worker takes from another's run only once its own is
    done, from the end."""
    lanes = execution._Lanes([f"a{i}" for i in range(5)] + [f"b{i}" for i in range(5)], 2)
    assert [lanes.take(0), lanes.take(1), lanes.take(1)] == ["a0", "b0", "b1"]
    assert [lanes.take(0) for _ in range(4)] == ["a1", "a2", "a3", "a4"]
    assert [lanes.take(0), lanes.take(1), lanes.take(0)] == ["b4", "b2", "b3"] and len(lanes) == 0
    one = execution._Lanes(["x", "y", "z"], 1)
    assert [one.take(3), one.take(0), one.take(1)] == ["x", "y", "z"], "one lane: catalogue order"
    assert len(execution._Lanes(["x"], 4).lanes) == 1


def test_claims_run_longest_first_in_one_queue_only_when_the_cache_knows_timings():
    class Timings:
        def __init__(self, seconds):
            self.seconds = seconds

        def timings(self, profile_name):
            return self.seconds

    ids = ["a", "b", "c", "d"]
    known = execution._scheduled(ids, Timings({"b": 2.0, "d": 5.0, "elsewhere": 9.0}), PROFILE, 2)
    # a and c are unknown and count as the mean of the known (3.5); ties keep catalogue order
    assert [list(lane) for lane in known.lanes] == [["d", "a", "c", "b"]]
    for unknown in (Timings({"elsewhere": 9.0}), None):
        lanes = execution._scheduled(ids, unknown, PROFILE, 2)
        assert [list(lane) for lane in lanes.lanes] == [["a", "b"], ["c", "d"]]


def test_two_workers_each_import_only_the_module_of_their_first_claim(tmp_path):
    pkg = make_project(tmp_path, {m: IMPORTED_HERE.format(mod=m) for m in ("first", "second")})
    ids = [f"{pkg}.{m}.c{i}" for m in ("first", "second") for i in range(2)]
    results = {r.id: r for r in execute(ids, PROFILE, jobs=2, root=tmp_path)}
    for first in (f"{pkg}.first.c0", f"{pkg}.second.c0"):
        assert results[first].verdict is Verdict.PROVED, (first, results[first].evidence)


# 1 when the claim's own module-level objects are out of the cyclic collector's generations (frozen).
FROZEN_HERE = """
import gc

from lemmacheck import value

_MINE = [[]]

def _frozen():
    return int(gc.get_freeze_count() > 0 and not any(o is _MINE for o in gc.get_objects()))

value("{pkg}.mod.frozen", computed=_frozen, stated=1, **META)
"""


def test_a_worker_keeps_what_it_imported_out_of_every_later_collection(tmp_path):
    """Every full collection a claim triggered walked the engine, the libraries and the content's
    modules again (150,000 objects, 5 % of a worker's CPU over the catalogue, issue 35)."""
    pkg = make_project(tmp_path, {"mod": FROZEN_HERE})
    (result,) = execute([f"{pkg}.mod.frozen"], PROFILE, jobs=1, root=tmp_path)
    assert result.verdict is Verdict.PROVED, (result.evidence, result.message)


def test_only_live_objects_are_kept_out_of_collections():
    class Node:
        pass

    garbage = Node()
    garbage.self = garbage  # a cycle: only the collector frees it
    gone = weakref.ref(garbage)
    del garbage
    before = gc.get_freeze_count()
    try:
        worker.keep_out_of_collections()
        assert gone() is None, "a leftover cycle was frozen: it would never be freed"
        assert gc.get_freeze_count() > before
    finally:
        gc.unfreeze()


def test_a_claims_time_limit_starts_with_its_check_not_with_the_worker_importing_the_engine(tmp_path):
    # a 2 s limit on an instant claim fired on a loaded machine: the first claim of a worker paid for the
    # engine modules imported lazily inside its check (and their bytecode); a worker imports them first
    pkg = make_project(tmp_path, {"mod": LAZY_ENGINE})
    (result,) = execute([f"{pkg}.engine_warm"], PROFILE, jobs=1, root=tmp_path)
    assert result.verdict is Verdict.PROVED, (result.evidence, result.message)


def test_a_worker_imports_a_claims_derivation_even_after_its_check_module(tmp_path):
    pkg = make_project(tmp_path, {"checks": TWO_CHECKS, "derivs": ITS_DERIVATION})
    plain, derived = execute([f"{pkg}.checks.plain", f"{pkg}.checks.derived"], PROFILE, jobs=1, root=tmp_path)
    assert plain.verdict is Verdict.HOLDS, plain.message
    assert derived.verdict is Verdict.PROVED, "the derivation module was imported for the second claim"


# A sweep of 600 batches of 512, 5 chunks (CHUNK_INSTANCES // 512 batches each), large enough that a
# cluster spreads it (cluster.SPLIT_INSTANCES) and cheap enough for CI: a planted scalar check costs
# microseconds.
SPLIT = dataclasses.replace(QUICK, instance_budget=600 * 512).with_seed(5)


def test_a_sweep_whose_chunks_run_in_any_order_gives_the_serial_result(tmp_path):
    pkg = make_project(tmp_path, {"mod": AM_GM + RARELY_FALSE})
    with REGISTRY.scratch():
        discover(tmp_path)
        seen = []

        def backwards(chunks):
            seen.append(len(chunks))
            parts = [run_sweep_chunk(claim, SPLIT, c) for c in reversed(chunks)]
            return parts[::-1]

        for name in ("am_gm", "rarely_false"):
            claim = REGISTRY[f"{pkg}.{name}"]
            serial = run_claim(claim, SPLIT)
            spread = run_claim(claim, SPLIT, sweep_runner=backwards)
            assert _comparable(serial) == _comparable(spread), f"{name}: chunk order changed the result"
    assert seen and all(n > 1 for n in seen), "the sweep was split"
    assert spread.verdict is Verdict.REFUTED, "the needle is found and certified"


@pytest.mark.slow  # a LocalCluster of two worker processes (18-19 s each)
def test_dask_spreads_a_deep_sweep_over_the_workers_and_agrees_with_a_serial_run(tmp_path):
    distributed = pytest.importorskip("distributed", reason="dask is an optional extra")
    pkg = make_project(tmp_path, {"mod": AM_GM + RARELY_FALSE})
    ids = [f"{pkg}.am_gm", f"{pkg}.rarely_false"]
    with REGISTRY.scratch():  # the serial run imports the planted claims here
        serial = execute(ids, SPLIT, jobs=1, root=tmp_path)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=":0") as cluster,
        distributed.Client(cluster) as client,
        distributed.get_task_stream(client) as tasks,
    ):
        on_dask = execute(ids, SPLIT, jobs=2, dask=cluster.scheduler_address, root=tmp_path)
    for a, b in zip(serial, on_dask, strict=True):
        assert _comparable(a) == _comparable(b), f"{a.id}: serial and Dask disagree"
    chunk_workers = {t["worker"] for t in tasks.data if str(t["key"]).startswith("lemmacheck-sweep-")}
    assert len(chunk_workers) == 2, "the chunks of one sweep ran on both workers"


@pytest.mark.slow  # a LocalCluster of two worker processes (18-19 s each)
def test_a_claim_that_sleeps_forever_on_dask_times_out_and_the_run_goes_on(tmp_path):
    pytest.importorskip("distributed", reason="dask is an optional extra")
    # an instant claim beside the hung one (INSTANT_VALUE says why), under a limit that also leaves room
    # for its result's trip through the scheduler: AM-GM's search under 1.5 s timed out at load 16
    pkg = make_project(tmp_path, {"mod": SLEEPS_FOREVER, "instant": INSTANT_VALUE})
    ids = [f"{pkg}.sleeps_forever", f"{pkg}.instant"]
    with REGISTRY.scratch():
        hung, ok = execute(ids, PROFILE, jobs=2, timeout=5.0, dask="local", root=tmp_path)
    assert ok.verdict is Verdict.PROVED, ok.message
    assert hung.verdict is Verdict.ERROR and "timed out after 5 s" in hung.message, hung.message
    assert "restarted" in hung.message and hung.title == "planted", "the ERROR keeps the claim's metadata"
    assert "sleeps_forever" in hung.evidence["reached"].get("where", ""), "where the task was stuck"
