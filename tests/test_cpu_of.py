"""benchmarks/cpu_of.py counts the CPU of the whole process tree, a descendant its parent never waited for
included (a run's workers are reaped by a daemon thread, so a run that ends at its last claim left a worker
unwaited and its CPU uncounted: 4.7 s of CPU reported for a `-k schatten --no-html` run that used 9.6 s)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CPU_OF = Path(__file__).parents[1] / "benchmarks" / "cpu_of.py"

#: a child that starts a grandchild in its own session and exits without waiting for it; the grandchild
#: burns BURN seconds of its own CPU (process time, whatever the machine's load)
BURN = 0.6
ORPHANING = f"""
import subprocess, sys
subprocess.Popen([sys.executable, "-c", '''
import time
while time.process_time() < {BURN}:
    pass
'''], start_new_session=True)
"""


# cpu_of.py adopts orphans with prctl(PR_SET_CHILD_SUBREAPER), a Linux call; elsewhere it cannot see them
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the subreaper is Linux's")
def test_an_orphaned_descendants_cpu_is_counted():
    done = subprocess.run(
        [sys.executable, str(CPU_OF), "orphan", "--", sys.executable, "-c", ORPHANING],
        capture_output=True,
        text=True,
        check=True,
    )
    record = json.loads(done.stdout.strip().splitlines()[-1])
    assert record["cpu"] >= 0.8 * BURN, f"{record['cpu']} s counted of the grandchild's {BURN} s: {record}"
