"""``pytest -n 2``: one seed for every worker, printed once, and one report merging every worker's claims."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lemmacheck.search.profile import claim_seed

pytest.importorskip("xdist", reason="pytest-xdist is in the test extra: pip install -e '.[test]'")

ROOT = Path(__file__).resolve().parents[1]


def _quick_claim_tests(count: int = 4) -> list[str]:
    """Test ids of a few claims of the quickest kinds (worked values, complexity fits): enough for
    two workers to share, chosen from the catalogue as it is."""
    from lemmacheck.model.claim import REGISTRY
    from lemmacheck.project.discovery import discover

    discover()
    ids = [c.id for c in REGISTRY if c.kind.value in ("worked example", "complexity")][:count]
    assert len(ids) == count, "the catalogue has too few worked values for this test"
    return [f"tests/test_claims.py::test_claim[{cid}]" for cid in ids]


def _pytest(*args: str) -> str:
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        *_quick_claim_tests(),
        "-p",
        "no:cacheprovider",
        "--no-header",
        *args,
    ]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc.stdout


def _claims(report: Path) -> dict[str, dict]:
    data = json.loads((report / "results.json").read_text())
    return {c["id"]: {k: v for k, v in c.items() if k != "seconds"} for c in data["claims"]}


def test_two_workers_share_one_seed_and_write_one_merged_report(tmp_path):
    out = _pytest(
        "-n", "2", "--lemmacheck-seed", "random", "--lemmacheck-report", str(tmp_path / "xdist"), "-v"
    )
    workers = set(re.findall(r"\[(gw\d+)\]", out))
    assert len(workers) == 2, f"the claims were not shared by two workers:\n{out[-2000:]}"
    data = json.loads((tmp_path / "xdist" / "results.json").read_text())
    seed = data["run"]["seed"]
    merged = _claims(tmp_path / "xdist")
    assert len(merged) == int(re.search(r"(\d+) passed", out).group(1)), "every worker's claims are reported"
    assert all(c["seed"] == claim_seed(seed, cid) for cid, c in merged.items()), "one seed for every worker"

    _pytest("-q", "--lemmacheck-seed", str(seed), "--lemmacheck-report", str(tmp_path / "serial"))
    assert _claims(tmp_path / "serial") == merged, "a serial run of the same seed gives the same results"


def test_the_seed_is_printed_once():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/test_changes.py",
            "-n",
            "2",
            "-p",
            "no:cacheprovider",
            "--lemmacheck-seed",
            "random",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert len(re.findall(r"lemmacheck: seed \d+", proc.stdout)) == 1, proc.stdout[:2000]
