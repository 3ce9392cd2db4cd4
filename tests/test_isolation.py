"""A check cannot end, hang or fake the run (issue 21 §1): every claim runs in a worker process, at every
``-j``, in ``show`` and in the replay command the run prints; what a check does costs that claim only."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

import pytest

from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.model.verdict import Verdict
from lemmacheck.run import worker
from lemmacheck.run.execution import execute
from lemmacheck.search.profile import QUICK
from planted_project import AM_GM, CALLS_SYS_EXIT, SWALLOWS_EVERYTHING, make_project

PROFILE = QUICK.with_seed(5)


def _lemmacheck(root, *args: str, **env: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "lemmacheck.cli", *args],
        cwd=root,
        env=dict(os.environ, PYTHONUNBUFFERED="1", **env),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _run(root, *args: str) -> tuple[int, str]:
    proc = _lemmacheck(root, *args)
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out + err


def test_sys_exit_in_a_check_is_an_error_at_every_jobs_in_show_and_in_the_replay(tmp_path):
    pkg = make_project(tmp_path, {"mod": AM_GM + CALLS_SYS_EXIT})
    bad = f"{pkg}.calls_sys_exit"
    said = f"claim '{bad}': the check called sys.exit(0)"
    for jobs in ("1", "2"):
        code, out = _run(tmp_path, "run", "--seed", "3", "--quiet", "--no-studies", "--no-cache", "-j", jobs)
        assert code == ExitCode.TESTS_FAILED, out
        assert said in out, out
        claims = json.loads((tmp_path / "reports" / "results.json").read_text())["claims"]
        assert {c["id"]: c["verdict"] for c in claims} == {f"{pkg}.am_gm": "HOLDS", bad: "ERROR"}
    replay = re.search(rf"replay: (lemmacheck run --seed 3 -k {re.escape(bad)})$", out, re.MULTILINE)
    assert replay, out
    code, out = _run(tmp_path, *shlex.split(replay.group(1))[1:], "--no-cache")
    assert code == ExitCode.TESTS_FAILED and said in out, out
    code, out = _run(tmp_path, "show", bad)
    assert code == ExitCode.TESTS_FAILED and said in out, out


def test_a_check_that_swallows_the_alarm_is_stopped_at_its_time_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(worker, "_GRACE", 0.5)
    pkg = make_project(tmp_path, {"mod": AM_GM + SWALLOWS_EVERYTHING})
    stuck, ok = execute(
        [f"{pkg}.swallows_everything", f"{pkg}.am_gm"], PROFILE, jobs=1, timeout=3, root=tmp_path
    )
    assert stuck.verdict is Verdict.ERROR and "timed out after 3 s" in stuck.message, stuck.message
    assert "killed" in stuck.message and stuck.title == "planted"
    assert ok.verdict is Verdict.HOLDS, ok.message


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_check_that_swallows_signals_does_not_keep_the_run(tmp_path, signum):
    pkg = make_project(tmp_path, {"mod": AM_GM + SWALLOWS_EVERYTHING})
    marker = tmp_path / "inside-the-loop"
    proc = _lemmacheck(tmp_path, "run", "-j", "1", "--quiet", "--no-studies", PLANTED_MARKER=str(marker))
    deadline = time.monotonic() + 120
    while not marker.exists():  # the check writes its pid once it is inside its loop
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)
    worker = int(marker.read_text())
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == ExitCode.INTERRUPTED, out + err
    assert "interrupted after" in err and "Traceback" not in err, err
    assert not _running(worker), "the worker went with the run"
    assert f"{pkg}" in (tmp_path / "reports" / "results.json").read_text(), "the partial report is written"


def test_a_module_that_exits_at_import_costs_that_module_only(tmp_path):
    pkg = make_project(tmp_path, {"mod": AM_GM})
    (tmp_path / pkg / "exits.py").write_text("import sys\nsys.exit(0)\n")
    for _ in range(2):  # the second run reads the index the first one wrote
        code, out = _run(tmp_path, "run", "--seed", "3", "--quiet", "--no-studies", "--no-cache", "-j", "1")
        assert code == ExitCode.TESTS_FAILED, out
        claims = json.loads((tmp_path / "reports" / "results.json").read_text())["claims"]
        verdicts = {c["id"]: c["verdict"] for c in claims}
        assert verdicts == {f"module:{pkg}.exits": "ERROR", f"{pkg}.am_gm": "HOLDS"}, out
        assert f"module:{pkg}.exits: SystemExit: sys.exit(0) called at import" in out
    (tmp_path / pkg / "exits.py").unlink()
    code, out = _run(tmp_path, "run", "--seed", "3", "--quiet", "--no-studies", "-j", "1")
    assert code == ExitCode.OK, out


def test_a_run_killed_outright_takes_its_busy_worker_with_it(tmp_path):
    make_project(tmp_path, {"mod": SWALLOWS_EVERYTHING})
    marker = tmp_path / "inside-the-loop"
    proc = _lemmacheck(tmp_path, "run", "-j", "1", "--quiet", "--no-studies", PLANTED_MARKER=str(marker))
    deadline = time.monotonic() + 120
    while not marker.exists():
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.02)
    worker = int(marker.read_text())
    proc.kill()
    proc.communicate()
    deadline = time.monotonic() + 30
    while _running(worker):  # the worker notices within a second that its parent is gone
        if time.monotonic() > deadline:
            os.kill(worker, signal.SIGKILL)
            pytest.fail("the worker outlived the run killed outright")
        time.sleep(0.05)


def _running(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for a reaper that may never come has ended)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
