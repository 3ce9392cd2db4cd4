"""``pytest -n 2``: one seed for every worker, printed once, and one report merging every worker's claims.

The sessions run in a planted project (four claims, two of them searched from the seed), so they cost a
few process starts; ``tests/test_report.py`` runs the plugin over the real catalogue's claims (slow)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lemmacheck.run.results import TIMING_FIELDS
from lemmacheck.search.profile import claim_seed
from planted_project import AM_GM, make_pytest_project

pytest.importorskip("xdist", reason="pytest-xdist is in the test extra: pip install -e '.[test]'")

# slow: each test starts a nested pytest session with two xdist workers, each collecting and searching
# (about 50-100 s of wall time under load); CI runs them (--run-slow)
pytestmark = pytest.mark.slow

TWO_SEARCHED = AM_GM + AM_GM.replace("am_gm", "am_gm_again")
TWO_VALUES = """
from lemmacheck import value

for _i in range(2):
    value(f"{pkg}.value_{_i}", computed=lambda: 4, stated=4, **dict(META, expected=Verdict.PROVED))
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("pytest-project")
    make_pytest_project(root, {"searched": TWO_SEARCHED, "values": TWO_VALUES})
    return root


def _pytest(root: Path, *args: str) -> str:
    cmd = [sys.executable, "-m", "pytest", "tests", "-p", "no:cacheprovider", *args]
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=False, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


def _claims(report: Path) -> dict[str, dict]:
    data = json.loads((report / "results.json").read_text())
    return {c["id"]: {k: v for k, v in c.items() if k not in TIMING_FIELDS} for c in data["claims"]}


def test_two_workers_share_one_seed_print_it_once_and_write_one_merged_report(project, tmp_path):
    out = _pytest(
        project,
        "-n",
        "2",
        "--lemmacheck-seed",
        "random",
        "--lemmacheck-report",
        str(tmp_path / "xdist"),
        "-v",
    )
    assert len(re.findall(r"lemmacheck: seed \d+", out)) == 1, out[:2000]
    workers = set(re.findall(r"\[(gw\d+)\]", out))
    assert len(workers) == 2, f"the claims were not shared by two workers:\n{out[-2000:]}"
    data = json.loads((tmp_path / "xdist" / "results.json").read_text())
    seed = data["run"]["seed"]
    assert f"lemmacheck: seed {seed}," in out, "the header's seed is the report's"
    merged = _claims(tmp_path / "xdist")
    assert len(merged) == int(re.search(r"(\d+) passed", out).group(1)) == 4, "every worker's claims"
    assert all(c["seed"] == claim_seed(seed, cid) for cid, c in merged.items()), "one seed for every worker"

    _pytest(project, "-q", "--lemmacheck-seed", str(seed), "--lemmacheck-report", str(tmp_path / "serial"))
    assert _claims(tmp_path / "serial") == merged, "a serial run of the same seed gives the same results"


def test_without_the_report_option_a_two_worker_session_writes_no_report(project):
    # as a plain session does; the README says why: a session checks what -k and the slow marker
    # selected, and reports/ is where `lemmacheck run` keeps the whole catalogue's report
    _pytest(project, "-q", "-n", "2")
    assert not (project / "reports").exists()
