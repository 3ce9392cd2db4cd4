"""The CPU time of a command's whole process tree (user + sys of every descendant), with the load
average before and after: on a shared machine the wall time says little, the CPU time more.

A descendant's CPU is counted when its parent waits for it.  A run's workers are reaped by a daemon
thread (``Worker.stop``), so when the run ends right after its last claim (``--no-html``) a worker can
outlive it unwaited, and its CPU was lost: this process makes itself the subreaper of the tree
(Linux's ``PR_SET_CHILD_SUBREAPER``), so such an orphan becomes its child and is waited for here.

    python benchmarks/cpu_of.py LABEL -- lemmacheck run --no-cache -j 2 --seed 7 --quiet

Prints one JSON line (label, exit code, wall, cpu, user, sys, load before and after, peak memory of the
largest child).  Interleave the trees compared (before, after, before, after) at the same seed, each
from a fresh cache (``rm -rf .lemmacheck-cache``): kept counterexamples are evaluated again.
"""

from __future__ import annotations

import ctypes
import json
import os
import resource
import subprocess
import sys
import time


def _load() -> str:
    with open("/proc/loadavg", encoding="ascii") as f:
        return f.read().split()[0]


_PR_SET_CHILD_SUBREAPER = 36


def _adopt_orphans() -> None:
    """Become the subreaper of every process this one starts (Linux; elsewhere a no-op)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _reap_orphans() -> None:
    """Wait for every descendant the command left behind, so their CPU is in RUSAGE_CHILDREN."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


def main(label: str, command: list[str]) -> int:
    load, t0 = _load(), time.time()
    _adopt_orphans()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
    wall = time.time() - t0  # the command's own time, not the orphans' last seconds
    _reap_orphans()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    record = {
        "label": label,
        "rc": done.returncode,
        "wall": round(wall, 1),
        "cpu": round(user + system, 1),
        "user": round(user, 1),
        "sys": round(system, 1),
        "load_before": load,
        "load_after": _load(),
        "maxrss_mb": after.ru_maxrss // 1024,
    }
    print(json.dumps(record), flush=True)
    return done.returncode


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) < 3 or args[1] != "--":
        sys.exit("usage: python benchmarks/cpu_of.py LABEL -- COMMAND ...")
    sys.exit(main(args[0], args[2:]))
