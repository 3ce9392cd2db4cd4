"""A claim that differs from the catalogue prints its counterexample where the difference is read (dims,
inputs, both sides, the ratio), as Hypothesis prints its falsifying example: in ``lemmacheck run``'s
summary and in the JUnit failure text (``watch``: tests/test_watch.py).  Found: they printed only
"computed REFUTED, expected HOLDS" and a replay command."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from lemmacheck.cli import main as cli
from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.model.claim import REGISTRY
from planted_project import make_project

# false as declared: the square of a sum against the sum of squares
EXPECTED_TO_HOLD = """
@inequality("{pkg}.square_of_sum", inputs={"x": Array("n")}, dims={"n": [2, 3]}, **META)
def square_of_sum(xp, x):
    return xp.sum(x, axis=-1) ** 2, xp.sum(x * x, axis=-1)
"""


def _shows_the_instance(text: str) -> None:
    assert "counterexample (proved by" in text, text
    for part in ("dims n = ", "  x = [", "  lhs = ", "  rhs = ", "  lhs/rhs = "):
        assert part in text, f"{part!r} missing from:\n{text}"


@pytest.fixture
def differing(tmp_path, monkeypatch):
    pkg = make_project(tmp_path, {"mod": EXPECTED_TO_HOLD})
    monkeypatch.chdir(tmp_path)
    with REGISTRY.scratch():
        yield tmp_path, f"{pkg}.square_of_sum"


def test_run_prints_the_counterexample_under_the_claim_that_differs(differing, capsys):
    root, cid = differing
    junit = root / "junit.xml"
    argv = ["run", "-j", "1", "--quiet", "--no-cache", "--junitxml", str(junit)]
    assert cli.main(argv) == ExitCode.TESTS_FAILED
    out = capsys.readouterr().out
    block = out[out.index(f"{cid}: computed REFUTED, expected HOLDS") :]
    _shows_the_instance(block)
    (failure,) = ET.parse(junit).getroot().iter("failure")
    _shows_the_instance(failure.text)
