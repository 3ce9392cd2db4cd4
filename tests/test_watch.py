"""``lemmacheck watch``: a save re-checks the claims it reaches and reports the verdicts that changed."""

from __future__ import annotations

import json

import pytest

from lemmacheck.cli.watch import Watcher
from lemmacheck.report.changes import Transition
from lemmacheck.search.profile import QUICK
from planted_project import AM_GM, make_project, watching

SECOND = """
@inequality("{pkg}.second.am_gm", inputs={"a": Array(positive=True), "b": Array(positive=True)}, **META)
def am_gm(xp, a, b):
    return xp.sqrt(a * b), (a + b) / 2
"""


def test_a_save_rechecks_what_it_reaches_and_prints_the_transition(tmp_path):
    pkg = make_project(tmp_path, {"first": AM_GM, "second": SECOND})
    lines: list[str] = []
    watcher = Watcher(tmp_path, QUICK.with_seed(3), jobs=1, html=False, echo=lines.append)
    try:
        watcher.start()
        assert {r.verdict.value for r in watcher.results.values()} == {"HOLDS"}
        first = tmp_path / pkg / "first.py"
        first.write_text(first.read_text().replace("(a + b) / 2", "(a + b) / 4"))  # now false
        transitions = watcher.handle([first])
        assert transitions == [Transition(f"{pkg}.am_gm", "verdict", "HOLDS", "REFUTED")]
        at = next(i for i, line in enumerate(lines) if f"{pkg}.am_gm: HOLDS -> REFUTED" in line)
        assert "after the save" in lines[at]
        # the counterexample under it, as Hypothesis prints a falsifying example (it printed none before)
        shown = "\n".join(lines[at + 1 : -1])
        assert shown.lstrip().startswith("counterexample (") and "lhs/rhs = " in shown, shown
        assert all(f"  {name} = " in shown for name in ("a", "b", "lhs", "rhs")), shown
        assert "1 claim(s) re-checked, 1 change(s)" in lines[-1], "the other module's claim is not re-run"
        saved = json.loads((tmp_path / "reports" / "results.json").read_text())
        assert {c["id"]: c["verdict"] for c in saved["claims"]}[f"{pkg}.am_gm"] == "REFUTED"

        second = tmp_path / pkg / "second.py"
        second.write_text(second.read_text().replace("second.am_gm", "second.renamed"))
        kinds = {(t.claim_id, t.what) for t in watcher.handle([second])}
        assert kinds == {(f"{pkg}.second.renamed", "new"), (f"{pkg}.second.am_gm", "removed")}
    finally:
        watcher.close()


# a start-up long enough for a save to land in it: the sweep sleeps per batch
SLOW = """
@inequality("{pkg}.slow.sleepy", inputs={"x": Array()}, **META)
def sleepy(xp, x):
    time.sleep(0.3)
    return x, x + 1
"""


@pytest.mark.parametrize("with_report", [True, False], ids=["after-a-run", "first-watch"])
def test_a_save_during_the_start_up_is_reported_as_a_change(tmp_path, with_report):
    """Issue 37 §5: a save made just after `watch` started was folded into its start-up verdicts and never
    reported.  The save lands as soon as watch has printed its first line (it stamps the files before):
    the change is reported from the folder's report's verdict, or, without a report, said to be new
    since the start-up, with the time from the save."""
    import subprocess
    import sys
    import time

    pytest.importorskip("watchfiles")
    pkg = make_project(tmp_path, {"first": AM_GM, "slow": SLOW})
    cid = f"{pkg}.am_gm"
    if with_report:
        run = [
            sys.executable,
            "-m",
            "lemmacheck.cli",
            "run",
            "-j",
            "1",
            "--no-html",
            "--no-cache",
            "-k",
            "am_gm",
        ]
        subprocess.run(run, cwd=tmp_path, capture_output=True, check=False, timeout=300)
        assert (
            json.loads((tmp_path / "reports" / "results.json").read_text())["claims"][0]["verdict"] == "HOLDS"
        )
    expected = f"{cid}: HOLDS -> REFUTED" if with_report else f"? {cid}: REFUTED, saved during the start-up"
    with watching(tmp_path, "-j", "1", "--no-html") as (proc, lines):
        deadline = time.monotonic() + 240
        while not lines:
            assert time.monotonic() < deadline and proc.poll() is None, "watch printed nothing"
            time.sleep(0.01)
        first = tmp_path / pkg / "first.py"
        first.write_text(first.read_text().replace("(a + b) / 2", "(a + b) / 4"))  # now false
        while not any(expected in line for line in lines):
            assert time.monotonic() < deadline and proc.poll() is None, "".join(lines)
            time.sleep(0.05)
        shown = next(line for line in lines if expected in line)
        assert "s after the save" in shown
        assert not any(f"+ {pkg}.slow.sleepy" in line for line in lines), "".join(lines)  # not 'new'
