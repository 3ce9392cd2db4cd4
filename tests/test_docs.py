"""The docs quote the code's constants; they never retype a number that has changed."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from lemmacheck.model import tolerance
from lemmacheck.search import candidates

ROOT = Path(__file__).resolve().parents[1]
ROW = re.compile(r"^\| `([A-Za-z_\[\]0-9.]+)` \| ([^|]+) \|", re.MULTILINE)


def _code_value(name: str):
    if name.startswith("DEFAULT_TOLERANCES[float64]."):
        return getattr(tolerance.DEFAULT_TOLERANCES[np.dtype(np.float64)], name.rsplit(".", 1)[1])
    for module in (tolerance, candidates):
        if hasattr(module, name):
            return getattr(module, name)
    raise AssertionError(f"docs/tolerance.md names {name!r}, which the code does not define")


ROWS = ROW.findall((ROOT / "docs" / "tolerance.md").read_text())


def test_the_tolerance_page_has_its_table():
    assert len(ROWS) >= 10


@pytest.mark.parametrize(("name", "documented"), ROWS, ids=[r[0] for r in ROWS])
def test_documented_constant_matches_the_code(name, documented):
    assert float(documented) == float(_code_value(name)), (
        f"docs say {name} = {documented}, code has {_code_value(name)}"
    )


@pytest.mark.parametrize(
    "path", ["README.md", "docs/tolerance.md", "docs/authoring.md", "src/lemmacheck/model/tolerance.py"]
)
def test_no_stale_precision_is_quoted(path):
    text = (ROOT / path).read_text()
    stale = [
        m.group(0)
        for m in re.finditer(r"\b(\d+) digits\b", text)
        if int(m.group(1)) != tolerance.REVERIFY_DPS
    ]
    assert not stale, f"{path} quotes {stale}; the setting is REVERIFY_DPS = {tolerance.REVERIFY_DPS}"


def _readme_example() -> str:
    text = (ROOT / "README.md").read_text()
    section = text[text.index("## Adding a claim") :]
    return section[
        section.index("```python") + len("```python") : section.index("```\n", section.index("```python") + 9)
    ]


def test_the_readme_example_runs_as_written_and_adds_a_new_claim():
    import math

    from lemmacheck import REGISTRY, Source, Verdict, inequality
    from lemmacheck.model.inputs import Array
    from lemmacheck.project.discovery import discover
    from lemmacheck.run.engine import run_claim
    from lemmacheck.search.profile import QUICK

    discover()
    catalogue = set(REGISTRY.ids())
    with REGISTRY.scratch() as reg:
        exec(
            _readme_example(),
            {"math": math, "Source": Source, "Verdict": Verdict, "inequality": inequality, "Array": Array},
        )
        assert not reg.definition_errors, reg.definition_errors
        (claim_id,) = reg.ids()
        assert claim_id not in catalogue, "pasting the README's example would declare an id twice"
        r = run_claim(reg[claim_id], QUICK.with_seed(1))
        assert r.verdict.value == reg[claim_id].expected.value, r.reason
