"""Every replay line a run writes replays the same search: the seed, the profile and LEMMACHECK_SCALE.

Issue 35 §3: each claim's replay kept ``LEMMACHECK_SCALE=s`` while the run's own line (printed, and in
``results.json``) dropped it, so replaying the run drew other instances and examples than it had.
"""

from __future__ import annotations

import argparse
import json
import re
import uuid

import pytest

from lemmacheck.cli.main import main as cli
from lemmacheck.model.claim import REGISTRY
from lemmacheck.mutate.command import _replay as mutate_replay

ONE_CLAIM = """
from lemmacheck import Source, Verdict, value
value("scaled.one", computed=lambda: 1, stated=1, title="one", source=Source("p.txt", "1"),
      statement="1 = 1", expected=Verdict.PROVED)
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    package = f"planted_replay_{uuid.uuid4().hex[:8]}"  # Python caches modules by name
    root = tmp_path / "project"
    (root / "checks").mkdir(parents=True)
    (root / "pyproject.toml").write_text(f'[tool.lemmacheck]\ncontent = ["{package}"]\n')
    (root / package).mkdir()
    (root / package / "__init__.py").write_text("")
    (root / package / "planted.py").write_text(ONE_CLAIM)
    monkeypatch.chdir(root)
    monkeypatch.delenv("LEMMACHECK_SEED", raising=False)
    monkeypatch.setenv("LEMMACHECK_EXAMPLES", str(tmp_path / "examples"))
    with REGISTRY.scratch():
        yield root


def _replay_lines(root, out: str) -> dict[str, str]:
    data = json.loads((root / "reports" / "results.json").read_text())
    printed = re.search(r"replay with: (.*?); --seed random", out)
    assert printed, f"no replay line printed in:\n{out}"
    return {
        "the printed run line": printed[1],
        "results.json's run line": data["run"]["replay"],
        **{f"claim {c['id']}": c["replay"] for c in data["claims"]},
    }


@pytest.mark.parametrize("scale", ["0.5", None])
def test_every_replay_line_of_a_run_carries_its_scale(project, monkeypatch, capsys, scale):
    if scale is None:
        monkeypatch.delenv("LEMMACHECK_SCALE", raising=False)
    else:
        monkeypatch.setenv("LEMMACHECK_SCALE", scale)
    cli(["run", "--seed", "3", "-j", "1", "--no-cache", "--no-html", "--no-studies", "--quiet"])
    prefix = f"LEMMACHECK_SCALE={scale} " if scale else ""
    lines = _replay_lines(project, capsys.readouterr().out)
    wrong = {
        where: line
        for where, line in lines.items()
        if not line.startswith(f"{prefix}lemmacheck run --seed 3")
    }
    assert not wrong, f"these replay lines do not start with {prefix!r}'lemmacheck run --seed 3': {wrong}"


def test_mutations_replay_line_carries_the_scale(monkeypatch):
    monkeypatch.setenv("LEMMACHECK_SCALE", "2")
    args = argparse.Namespace(
        keyword="lse", sample=None, fraction=None, max_per_claim=None, operators=None, effort=0.25
    )
    assert mutate_replay(args, 9) == "LEMMACHECK_SCALE=2 lemmacheck mutate --seed 9 -k 'lse'"
