"""The workers of ``lemmacheck run --dask local`` are what the local pool's workers are (issue 35 §2).

On a loaded machine the LocalCluster took 1.5x the wall time of ``-j 2`` for 1.34x the CPU, and each run
ended with "Worker process still alive after 4.0 seconds, killing" twice.  The planted claims below run
inside a LocalCluster worker and report what it is: in a session of its own (as a pool worker, so that a
kernel sharing the CPU among sessions gives it its own share, and Ctrl-C reaches only the run), without
Dask's statistical profiler sampling its threads; and the module holds an object whose freeing is slower
than the 4 s the nanny waits, as the heap of SymPy, Hypothesis and the content was on a loaded machine.
"""

from __future__ import annotations

import logging
import os

import pytest

from lemmacheck.model.claim import REGISTRY
from lemmacheck.model.verdict import Verdict
from lemmacheck.run.execution import execute
from lemmacheck.search.profile import QUICK
from planted_project import make_project

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


def _no_profiler():
    from distributed import get_worker

    return int("profile" not in get_worker().periodic_callbacks)


value("{pkg}.own_session", computed=_own_session, stated=1, **VALUE)
value("{pkg}.no_profiler", computed=_no_profiler, stated=1, **VALUE)
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
    kept = _Kept()
    nanny = logging.getLogger("distributed.nanny")
    nanny.addHandler(kept)
    try:
        with REGISTRY.scratch():
            results = execute(
                [f"{pkg}.own_session", f"{pkg}.no_profiler"], QUICK, jobs=2, dask="local", root=tmp_path
            )
    finally:
        nanny.removeHandler(kept)
    for r in results:
        assert r.verdict is Verdict.PROVED, f"{r.id}: {r.verdict.value} ({r.message}; {r.evidence})"
    killed = [m for m in kept.messages if "killing" in m]
    assert not killed, f"the nanny killed workers that did not end on their own: {killed}"
