"""A check cannot end, hang or fake the run (issue 21 §1): every claim runs in a worker process, at every
``-j``, in ``show`` and in the replay command the run prints; what a check does costs that claim only."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

import hypothesis
import pytest
from hypothesis.errors import FlakyStrategyDefinition

from conftest import planted_meta
from lemmacheck import inequality
from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.model.inputs import Array
from lemmacheck.model.verdict import Verdict
from lemmacheck.run import timelimit, worker
from lemmacheck.run.execution import execute
from lemmacheck.run.timelimit import ClaimTimeout, run_one
from lemmacheck.search.profile import QUICK
from planted_project import AM_GM, CALLS_SYS_EXIT, INSTANT_VALUE, SWALLOWS_EVERYTHING, make_project

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
    replay = re.search(rf"replay: (lemmacheck run --seed 3 -k id:{re.escape(bad)})$", out, re.MULTILINE)
    assert replay, out
    code, out = _run(tmp_path, *shlex.split(replay.group(1))[1:], "--no-cache")
    assert code == ExitCode.TESTS_FAILED and said in out, out
    code, out = _run(tmp_path, "show", bad)
    assert code == ExitCode.TESTS_FAILED and said in out, out


def test_a_check_that_swallows_the_alarm_is_stopped_at_its_time_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(worker, "_GRACE", 0.5)
    # the claim after it computes a constant: only the stuck claim may reach the 3 s limit, at any load
    pkg = make_project(tmp_path, {"mod": SWALLOWS_EVERYTHING, "instant": INSTANT_VALUE})
    stuck, ok = execute(
        [f"{pkg}.swallows_everything", f"{pkg}.instant"], PROFILE, jobs=1, timeout=3, root=tmp_path
    )
    assert stuck.verdict is Verdict.ERROR and "timed out after 3 s" in stuck.message, stuck.message
    assert "killed" in stuck.message and stuck.title == "planted"
    assert ok.verdict is Verdict.PROVED, f"the run goes on with a fresh worker: {ok.message}"


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


def _reraise(exc: BaseException) -> None:
    raise exc


def _made_flaky(exc: BaseException) -> None:
    # what Hypothesis raised when the alarm landed in its draw bookkeeping (vanish.s002.chain_product)
    raise FlakyStrategyDefinition("Inconsistent data generation! Data generation behaved differently")


def _swallowed(exc: BaseException) -> None:
    pass  # as Hypothesis's gc callback did: Python prints it and goes on


# The claim's limit in the tests below, where it lands is the subject and not when: a claim's sweep runs
# before Hypothesis and took over 1.5 s at load 13, so a limit counted from the claim's start fired there.
# The limit is far off instead, and the planted check brings the claim's own alarm forward to the moment
# it sleeps (the alarm _time_limit set; its handler is the one that fires), whatever the load.
LIMIT = 600.0


def _limit_reached_now() -> None:
    signal.setitimer(signal.ITIMER_REAL, 0.01, 1.0)


def _plant_slow_draw(sleep) -> None:
    """Holds; its input's transform sleeps in Hypothesis's first draw (the sweep draws outside Hypothesis)."""

    def sleeps_in_hypothesis_draws(raw):
        if hypothesis.currently_in_test_context():
            sleep()
        return raw

    @inequality(
        "planted.slow", inputs={"x": Array(transform=sleeps_in_hypothesis_draws)}, **planted_meta(effort=0.01)
    )
    def slow(xp, x):
        return x, x + 1


def _plant_slow_shrink(sleep) -> None:
    """Violated inside Hypothesis only, where x > 0.5; sleeps at the first example after the first
    violation, which Hypothesis is shrinking by then (the evaluations that certify the violation use the
    violating x itself)."""
    first: list[float] = []

    @inequality("planted.slow", inputs={"x": Array()}, **planted_meta(effort=0.01))
    def slow(xp, x):
        if not hypothesis.currently_in_test_context():
            return x, x + 1
        value = float(x[0])
        if first and abs(value - first[0]) > 1e-9 * abs(first[0]):
            sleep()
        if value <= 0.5:
            return x, x + 1
        first[:] = first or [value]
        return x + 1, x


@pytest.mark.parametrize("plant", [_plant_slow_draw, _plant_slow_shrink], ids=["draw", "shrink"])
@pytest.mark.parametrize(
    "on_interrupt", [_reraise, _made_flaky, _swallowed], ids=["raised", "flaky", "swallowed"]
)
def test_a_time_limit_that_fires_inside_hypothesis_is_the_timeout_result(registry, plant, on_interrupt):
    """Whatever the code the alarm interrupts makes of it, the claim's result is its timeout."""
    interrupted: list[BaseException] = []

    def sleep() -> None:
        if interrupted:
            return
        try:
            _limit_reached_now()
            time.sleep(60)
        except BaseException as exc:
            interrupted.append(exc)
            on_interrupt(exc)

    plant(sleep)
    result = run_one("planted.slow", PROFILE, LIMIT, None)
    assert [type(exc) for exc in interrupted] == [ClaimTimeout], "the limit fired where the claim sleeps"
    assert result.verdict is Verdict.ERROR, result.message
    assert "timed out after 600 s; reached: in the Hypothesis search" in result.message, result.message
    assert result.evidence["timed_out_after"] == LIMIT


def test_a_time_limit_lost_in_a_gc_callback_is_the_timeout_result_and_not_printed(registry, capfd):
    """The alarm that lands in a gc callback (Hypothesis keeps one) is lost: Python can only print it."""
    calls: list[str] = []

    def slow_gc_callback(phase, info):
        if not calls:
            calls.append(phase)
            _limit_reached_now()
            time.sleep(60)

    @inequality("planted.slow_gc", inputs={"x": Array()}, **planted_meta(effort=0.01))
    def slow_gc(xp, x):
        if hypothesis.currently_in_test_context() and not calls:
            gc.callbacks.append(slow_gc_callback)
            try:
                gc.collect()
            finally:
                gc.callbacks.remove(slow_gc_callback)
            calls.append("collected")  # the interrupted callback's exception did not reach the check
        return x, x + 1

    result = run_one("planted.slow_gc", PROFILE, LIMIT, None)
    assert calls == ["start", "collected"]
    assert result.verdict is Verdict.ERROR, result.message
    assert "timed out after 600 s" in result.message, result.message
    assert "ClaimTimeout" not in capfd.readouterr().err


def test_a_timeout_says_where_the_time_ran_out_not_where_a_later_alarm_found_the_claim():
    """The limit fires again every second after the first; code that lost the first goes on meanwhile
    (the engine's next phase, after Hypothesis made the timeout an error of its own) and is not where the
    claim's time ran out."""
    limit = timelimit._Limit()

    def ran_out_here() -> None:
        _limit_reached_now()
        time.sleep(60)

    def went_on_here() -> None:
        time.sleep(60)

    with timelimit._time_limit(LIMIT, limit):
        for step in (ran_out_here, went_on_here):
            with contextlib.suppress(ClaimTimeout):
                step()
    assert limit.fired and "in ran_out_here" in limit.reached["where"], limit.reached


STARTS_CHILDREN = """
import subprocess
import sys

from lemmacheck import value

_STARTED = []


def _start_children():
    if not _STARTED:  # a value may be computed more than once
        mark = "{mark}"
        subprocess.Popen(["sleep", mark])  # a child of the worker
        subprocess.Popen(["sh", "-c", f"sleep {mark} &"])  # an orphan once its shell exits
        subprocess.Popen(["sleep", mark], start_new_session=True)  # in a session of its own
        _STARTED.append(True)
    return 4


value("{pkg}.starts_children", computed=_start_children, stated=4, **(META | {"expected": Verdict.PROVED}))
"""


def _processes_sleeping(mark: str) -> list[int]:
    found = []
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{name}/cmdline", "rb") as fh:
                if mark.encode() in fh.read() and _running(int(name)):
                    found.append(int(name))
        except OSError:
            continue
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_what_a_claim_starts_ends_with_it_and_never_holds_a_caller_reading_the_output(tmp_path):
    mark = f"600.{os.getpid()}{time.time_ns() % 10**6}"  # a duration no other process sleeps
    pkg = make_project(tmp_path, {"mod": STARTS_CHILDREN.replace("{mark}", mark)})
    try:
        # captured output: before, the orphans held the pipes and communicate() waited 600 s for them
        code, out = _run(tmp_path, "run", "-j", "1", "--quiet", "--no-studies", "--no-cache", "-k", pkg)
        assert code == ExitCode.OK, out
        assert _processes_sleeping(mark) == [], "a process the claim started outlived it"
    finally:
        for pid in _processes_sleeping(mark):
            os.kill(pid, signal.SIGKILL)
