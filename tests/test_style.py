"""Lint, format and types, as part of the suite: `.ci/run` runs the README's test command and nothing else,
so a style or type error fails the build the way a wrong verdict does."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> list[str]:
    if shutil.which(name) is None and not (Path(sys.executable).parent / name).exists():
        pytest.skip(f"{name} is not installed (it is in the test extra: pip install -e '.[test]')")
    return [
        str(Path(sys.executable).parent / name) if (Path(sys.executable).parent / name).exists() else name
    ]


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "."],
        ["ruff", "format", "--check", "."],
        # slow: mypy type-checks the whole tree from cold (about 50 s of one core); CI runs it (--run-slow)
        pytest.param(["mypy"], marks=pytest.mark.slow),
    ],
    ids=["ruff-check", "ruff-format", "mypy"],
)
def test_the_tree_is_clean(command):
    proc = subprocess.run(
        _tool(command[0]) + command[1:], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, (
        f"`{' '.join(command)}` found problems:\n{proc.stdout[-4000:]}{proc.stderr[-2000:]}"
    )
