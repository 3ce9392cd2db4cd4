"""What sound verdicts cost: the same catalogue run by the engine before the settling work and by this one,
side by side in one benchmark run.

The "before" engine is the git revision ``LEMMACHECK_BASELINE_REV`` (default: the last commit before
candidates were settled by significance), checked out into a temporary worktree and run in a subprocess
with the same seed; ``LEMMACHECK_BENCH_SELECT`` restricts both runs to claims whose id contains it (default:
the whole catalogue, a few minutes each).  Figures are wall times of ``lemmacheck run --no-html
--no-studies``; compare them as a ratio, never against a fixed number.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BASELINE_REV = os.environ.get("LEMMACHECK_BASELINE_REV", "226c74f")
SELECT = os.environ.get("LEMMACHECK_BENCH_SELECT", "")
SEED = "1"


@pytest.fixture(scope="module")
def baseline_tree():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs the project's git history to check out the baseline engine")
    tmp = Path(tempfile.mkdtemp(prefix="lemmacheck-baseline-"))
    tree = tmp / "tree"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), BASELINE_REV],
        check=True,
        capture_output=True,
    )
    yield tree
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], capture_output=True)
    shutil.rmtree(tmp, ignore_errors=True)


def _run(tree: Path, out: Path) -> dict:
    args = ["run", "--seed", SEED, "--no-html", "--no-studies", "--quiet", "--out", str(out)]
    if SELECT:
        args += ["-k", SELECT]
    code = f"import sys; from lemmacheck.cli.main import main; sys.exit(main({args!r}))"
    env = os.environ | {"PYTHONPATH": str(tree / "src")}
    subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True)
    return json.loads((out / "results.json").read_text())


@pytest.mark.parametrize("engine", ["before", "after"])
def test_full_run_time(benchmark, engine, baseline_tree, tmp_path):
    tree = baseline_tree if engine == "before" else ROOT
    data = benchmark.pedantic(_run, args=(tree, tmp_path), rounds=1, iterations=1)
    benchmark.extra_info["claims"] = len(data["claims"])
    benchmark.extra_info["counts"] = data["counts"]
    print(f"\n{engine}: {len(data['claims'])} claims in {benchmark.stats.stats.mean:.1f} s; {data['counts']}")
