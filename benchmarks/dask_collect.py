"""The CPU the ``--dask`` client spends gathering N results that arrive one at a time (issue 35 §2).

    PYTHONPATH=src python benchmarks/dask_collect.py 434

An in-process cluster runs N tasks, each blocked on a gate that the client opens as the previous result
arrives, so :func:`lemmacheck.run.cluster._collect` looks once per result, as in a run of N claims.
Prints one JSON line: N, the CPU of this process (the client, the scheduler and the worker's threads)
while it gathered, the wall time and the load.  Compare two trees by PYTHONPATH, interleaved.
"""

from __future__ import annotations

import json
import sys
import threading
import time

#: one gate per task, opened by the client as the previous result arrives
GATES: dict[int, threading.Event] = {}


def gated(i: int) -> int:
    GATES[i].wait()
    return i


def _load() -> str:
    with open("/proc/loadavg", encoding="ascii") as f:
        return f.read().split()[0]


def main(n: int) -> None:
    import dask_collect as me  # by name, so the tasks pickle by reference and find these gates
    import distributed

    from lemmacheck.run import cluster
    from lemmacheck.search.profile import QUICK

    me.GATES.update({i: threading.Event() for i in range(n)})

    def done(i: int) -> None:
        if i + 1 < n:
            me.GATES[i + 1].set()

    with distributed.Client(processes=False, n_workers=1, threads_per_worker=n, dashboard_address=":0") as c:
        running = {c.submit(me.gated, i, pure=False): (f"planted.{i}", str(i)) for i in range(n)}
        load, cpu, wall = _load(), time.process_time(), time.time()
        me.GATES[0].set()
        cluster._collect(c, running, {}, QUICK, timeout=120.0, root=None, done=done)
        cpu, wall = time.process_time() - cpu, time.time() - wall
    print(json.dumps({"n": n, "cpu": round(cpu, 2), "wall": round(wall, 2), "load": [load, _load()]}))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 434)
