"""The CPU time of a command's whole process tree (user + sys of every child it waited for), with the
load average before and after: on a shared machine the wall time says little, the CPU time more.

    python benchmarks/cpu_of.py LABEL -- lemmacheck run --no-cache -j 2 --seed 7 --quiet

Prints one JSON line (label, exit code, wall, cpu, user, sys, load before and after, peak memory of the
largest child).  Interleave the trees compared (before, after, before, after) at the same seed, each
from a fresh cache (``rm -rf .lemmacheck-cache``): kept counterexamples are evaluated again.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time


def _load() -> str:
    with open("/proc/loadavg", encoding="ascii") as f:
        return f.read().split()[0]


def main(label: str, command: list[str]) -> int:
    load, t0 = _load(), time.time()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, stdout=subprocess.DEVNULL, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
    record = {
        "label": label,
        "rc": done.returncode,
        "wall": round(time.time() - t0, 1),
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
