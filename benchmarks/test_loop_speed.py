"""Speed of the edit-check loop (issue 12), each figure a ratio of two timings taken in the same run.

Run with ``python -m pytest benchmarks/test_loop_speed.py --benchmark-enable --benchmark-only -s``.
Nothing here asserts a time (the machine may be shared); the figures go to each benchmark's
``extra_info`` and are printed.  What is asserted is that the faster way gives the same verdicts.

``LEMMACHECK_BENCH_EVERY=k`` runs every k-th claim of the catalogue (default 4; 1 = the full catalogue,
the issue's "full run" figure).  ``LEMMACHECK_BENCH_INSTANCES`` sets the Dask sweep's size (default
10**6; the issue's figure is 10**7).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lemmacheck.project.discovery import find_root
from lemmacheck.project.index import load_index
from lemmacheck.search.profile import QUICK

ROOT = find_root(Path(__file__).resolve().parent)
RUNNER = Path(__file__).resolve().parent / "_runner.py"


def _selection() -> list[str]:
    every = int(os.environ.get("LEMMACHECK_BENCH_EVERY", "4"))
    return load_index(ROOT).claim_ids()[::every]


def _cold_run(
    tmp_path: Path, ids: list[str], *, jobs: int, cache: Path | None = None, loading: str = "index"
) -> dict:
    """A fresh interpreter running ``ids``: its wall time from process start and its verdicts."""
    ids_file = tmp_path / "ids.json"
    ids_file.write_text(json.dumps(ids))
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, str(RUNNER), str(ids_file), str(jobs), str(cache or "-"), loading],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["wall"] = time.perf_counter() - t0
    return out


def _record(benchmark, name: str, slow: float, fast: float, **extra) -> None:
    benchmark.extra_info.update(
        {f"{name}_slow_s": slow, f"{name}_fast_s": fast, f"{name}_ratio": slow / fast} | extra
    )
    print(f"\n{name}: {slow:.2f} s vs {fast:.2f} s = {slow / fast:.2f}x {extra or ''}")


def test_two_workers_vs_one(benchmark, tmp_path):
    ids = _selection()
    serial = _cold_run(tmp_path, ids, jobs=1)
    parallel = benchmark.pedantic(_cold_run, args=(tmp_path, ids), kwargs={"jobs": 2}, rounds=1, iterations=1)
    assert parallel["verdicts"] == serial["verdicts"]
    _record(benchmark, "jobs1_vs_jobs2", serial["wall"], parallel["wall"], claims=len(ids))


def test_cached_rerun_vs_cold(benchmark, tmp_path):
    ids = _selection()
    store = tmp_path / "cache.sqlite"
    cold = _cold_run(tmp_path, ids, jobs=2, cache=store)
    cached = benchmark.pedantic(
        _cold_run, args=(tmp_path, ids), kwargs={"jobs": 2, "cache": store}, rounds=1, iterations=1
    )
    assert cached["verdicts"] == cold["verdicts"]
    errors = sum(v == "ERROR" for v in cold["verdicts"].values())
    assert cached["cached"] == len(ids) - errors, "every result but the ERRORs is answered from the cache"
    _record(benchmark, "cold_vs_cached", cold["wall"], cached["wall"], claims=len(ids))


@pytest.mark.parametrize("claim_id", ["lse.bound"])
def test_single_claim_cold_start(benchmark, tmp_path, claim_id):
    load_index(ROOT)  # the index is kept current by every run; its refresh is not what this measures
    whole = _cold_run(tmp_path, [claim_id], jobs=1, loading="discover")
    indexed = benchmark.pedantic(
        _cold_run, args=(tmp_path, [claim_id]), kwargs={"jobs": 1}, rounds=3, iterations=1
    )
    assert indexed["verdicts"] == whole["verdicts"]
    _record(benchmark, "whole_catalogue_vs_index", whole["wall"], indexed["wall"], claim=claim_id)


def test_watch_latency(benchmark, tmp_path):
    """From a save of the module declaring lse.bound (in a copy of the project's content) to its verdict."""
    from lemmacheck.cli.watch import Watcher
    from lemmacheck.project.discovery import content_dirs

    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    for folder in content_dirs(ROOT):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    index = load_index(tmp_path)  # built before the clock starts
    module = tmp_path / index.modules[index.declaring_modules(["lse.bound"])[-1]].file
    lines: list[str] = []
    # exactly one claim (a -k of "lse.bound" also selects the 8-second lse.bound_eq3)
    watcher = Watcher(
        tmp_path, QUICK.with_seed(1), select="lse.bound".__eq__, jobs=1, html=False, echo=lines.append
    )
    latencies: list[float] = []

    def save_and_recheck():
        module.write_text(module.read_text() + f"\n# edit {len(latencies)}\n")
        watcher.handle([module])
        latencies.append(watcher.last_latency)

    try:
        watcher.start()
        benchmark.pedantic(save_and_recheck, rounds=3, iterations=1)
    finally:
        watcher.close()
    benchmark.extra_info["save_to_verdict_s"] = latencies
    print(f"\nwatch: save to printed verdict {', '.join(f'{s:.2f}' for s in latencies)} s")


# ---------------------------------------------------------------- Dask: a deep sweep split in chunks

HOLDER = "schatten.holder"


def _holder_profile(instances: int):
    """The deep profile with a sweep of about ``instances`` instances of schatten.holder and no
    adversarial search or refinement (serial phases that would hide the sweep's scaling)."""
    import dataclasses

    from lemmacheck.model.claim import REGISTRY
    from lemmacheck.search.profile import DEEP
    from lemmacheck.search.violations import dims_combinations

    _load_holder()
    combos = len(dims_combinations(REGISTRY[HOLDER].check.dims))
    return dataclasses.replace(
        DEEP,
        instance_budget=instances,
        batches_per_dims=math.ceil(instances / (combos * DEEP.batch)),
        hypothesis_examples=0,
        refine_rounds=0,
    ).with_seed(7)


def _load_holder() -> None:
    """Import the modules declaring schatten.holder (once per process)."""
    from lemmacheck.project.index import import_modules

    import_modules(ROOT, load_index(ROOT).declaring_modules([HOLDER]))


def _sweep_on(workers: int, profile) -> tuple[float, dict]:
    """The engine's own run of the claim on a LocalCluster of ``workers``: the sweep's chunks are
    spread over the workers by lemmacheck.run.cluster."""
    from distributed import Client, LocalCluster

    from lemmacheck.run.execution import execute

    with (
        LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        client.run(_load_holder)  # imports are not part of the sweep's time
        t0 = time.perf_counter()
        (result,) = execute([HOLDER], profile, jobs=workers, dask=cluster.scheduler_address, root=ROOT)
        seconds = time.perf_counter() - t0
    data = result.to_dict()
    data.pop("seconds")
    return seconds, data


def test_dask_holder_sweep_one_vs_two_workers(benchmark):
    pytest.importorskip("distributed", reason="dask is an optional extra: pip install -e '.[dask]'")
    profile = _holder_profile(int(float(os.environ.get("LEMMACHECK_BENCH_INSTANCES", "1e6"))))
    one, result_one = _sweep_on(1, profile)
    two, result_two = benchmark.pedantic(_sweep_on, args=(2, profile), rounds=1, iterations=1)
    assert result_one == result_two, "the result does not depend on how the sweep is split"
    assert result_two["verdict"] == "HOLDS", result_two["message"]
    instances = result_two["evidence"]["instances"]
    _record(
        benchmark,
        "dask_1_vs_2_workers",
        one,
        two,
        instances=instances,
        per_worker_per_s_one=instances / one,
        per_worker_per_s_two=instances / two / 2,
    )
