"""An author's files keep working: old import paths warn and work, frozen claim files and results load.

Authors' claim files are the project's most valuable data.  Three guards:

* every import path the documentation once showed works, with a DeprecationWarning naming the new import;
* the claim files in ``tests/frozen_api/`` (written against each earlier public API, frozen as written)
  import, declare their claims and check one each, to the verdict they expected;
* the ``results.json`` files of each earlier schema version (written by the lemmacheck of that version,
  in ``tests/frozen_api/results/``) are read by ``render``, ``diff`` and ``history``;
* every name of the façade is listed as public API in docs/authoring.md, and nothing else is.
"""

from __future__ import annotations

import importlib.util
import json
import re
import warnings
from pathlib import Path

import pytest

import lemmacheck
from lemmacheck import REGISTRY
from lemmacheck.cli.main import main
from lemmacheck.report import history
from lemmacheck.report.diff import diff_files
from lemmacheck.run.engine import run_claim
from lemmacheck.schema import load_results, readable_versions
from lemmacheck.search.profile import QUICK

ROOT = Path(__file__).resolve().parents[1]
FROZEN = ROOT / "tests" / "frozen_api"
RESULTS = sorted((FROZEN / "results").glob("v*.json"))

MOVED = [  # (old import, what to write now): every path that README.md or docs/ printed and that moved
    ("from lemmacheck.inputs import Array", "from lemmacheck import Array"),
    ("from lemmacheck.inputs import OneHot", "from lemmacheck import OneHot"),
    ("from lemmacheck.tolerance import REVERIFY_DPS", "from lemmacheck import REVERIFY_DPS"),
    ("from lemmacheck.tolerance import Tolerance", "from lemmacheck import Tolerance"),
    (
        "from lemmacheck.tolerance import DEFAULT_TOLERANCES",
        "from lemmacheck.model.tolerance import DEFAULT_TOLERANCES",
    ),
]


@pytest.mark.parametrize(("old", "new"), MOVED, ids=[m[0] for m in MOVED])
def test_an_old_import_path_works_and_names_the_new_import(old, new):
    before, after = {}, {}
    with pytest.warns(DeprecationWarning, match=re.escape(f"write `{new}`")) as caught:
        exec(old, before)
    exec(new, after)
    name = old.rsplit(" ", 1)[1]
    assert before[name] is after[name]
    assert caught[0].filename == "<string>", "the warning should point at the author's line"


def test_a_name_the_new_module_lacks_is_an_attribute_error_not_a_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ImportError, match="no_such_input"):
            exec("from lemmacheck.inputs import no_such_input", {})


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(f"frozen_{path.parent.name}_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


FOLDERS = sorted(p for p in FROZEN.glob("api_*") if p.is_dir())


def test_there_is_a_frozen_folder_per_earlier_api():
    assert len(FOLDERS) >= 2


@pytest.mark.parametrize("folder", FOLDERS, ids=[p.name for p in FOLDERS])
def test_claim_files_of_an_earlier_api_load_and_check(folder):
    # derivations first, as discovery imports them: a derivation may attach to a check's claim
    files = sorted(folder.glob("*.py"), key=lambda p: ("derivation" not in p.stem, p.name))
    with REGISTRY.scratch() as reg, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for path in files:
            _load(path)
        assert not reg.definition_errors, reg.definition_errors
        assert reg.ids(), f"{folder.name} declared no claim"
        results = {cid: run_claim(reg[cid], QUICK.with_seed(1)) for cid in reg.ids()}
        expected = {cid: reg[cid].expected.value for cid in reg.ids()}
    computed = {cid: r.verdict.value for cid, r in results.items()}
    assert computed == expected, {cid: (r.verdict.value, r.reason) for cid, r in results.items()}
    foreign = [w for w in caught if not issubclass(w.category, DeprecationWarning)]
    assert not foreign, [str(w.message) for w in foreign]
    for w in caught:  # each deprecation names the import to write, at the author's line
        assert "has moved: write `from lemmacheck" in str(w.message), str(w.message)
        assert Path(w.filename).parent == folder, w.filename


def test_frozen_results_cover_every_readable_schema_version():
    versions = {json.loads(p.read_text())["schema_version"] for p in RESULTS}
    assert versions == set(readable_versions())


@pytest.mark.parametrize("path", RESULTS, ids=[p.name for p in RESULTS])
def test_render_reads_a_results_file_of_each_schema_version(path, tmp_path):
    assert main(["render", str(path), "--out", str(tmp_path / "index.html")]) == 0
    html = (tmp_path / "index.html").read_text()
    for claim in load_results(path)["claims"]:
        assert claim["id"] in html


@pytest.mark.parametrize("path", RESULTS, ids=[p.name for p in RESULTS])
def test_history_reads_a_results_file_of_each_schema_version(path):
    data = load_results(path)
    entry = history.entry(data, "abc1234")
    assert set(entry["claims"]) == {c["id"] for c in data["claims"]}
    page = history.history_html([entry])
    assert all(cid in page for cid in entry["claims"])


def test_diff_across_schema_versions_reads_absent_fields_as_not_recorded():
    """A v1 report records no proof status; "None → sound" is not a change of the proof."""
    v1, v2 = (next(p for p in RESULTS if p.name.startswith(f"v{v}_")) for v in (1, 2))
    text, _changed = diff_files(v1, v2)
    assert "schema version 1, which records no proof status" in text
    assert "proof status: None" not in text
    same, changed = diff_files(v2, v2)
    assert not changed and "schema version" not in same


def _public_api_section() -> str:
    text = (ROOT / "docs" / "authoring.md").read_text()
    start = text.index("## The public API")
    return text[start : text.index("\n## ", start + 1)]


def test_every_facade_name_is_documented_as_public_api_and_nothing_else():
    rows = [line.split("|")[2] for line in _public_api_section().splitlines() if line.count("|") == 3]
    listed = {name for row in rows for name in re.findall(r"`([A-Za-z_][A-Za-z_0-9]*)`", row)}
    exported = set(lemmacheck.__all__)
    assert exported - listed == set(), f"exported by lemmacheck, missing from docs: {exported - listed}"
    assert listed - exported == set(), f"listed as public API, not exported: {listed - exported}"


def test_every_shim_is_a_deprecation_the_changelog_announces():
    """A module of src/lemmacheck that only forwards to a new home is listed under *Deprecated*."""
    src = ROOT / "src" / "lemmacheck"
    shims = sorted(
        f"lemmacheck.{p.stem}" for p in src.glob("*.py") if "__getattr__ = moved_module(" in p.read_text()
    )
    assert shims, "no shim module found: did lemmacheck.moved's pattern change?"
    changelog = (ROOT / "CHANGELOG.md").read_text()
    deprecated = changelog[
        changelog.index("### Deprecated") : changelog.index("\n## ", changelog.index("### Deprecated"))
    ]
    for shim in shims:
        assert f"`{shim}`" in deprecated, (
            f"{shim} forwards to a new home but CHANGELOG.md does not deprecate it"
        )
        assert any(old.startswith(f"from {shim} import") for old, _ in MOVED), f"no test imports {shim}"
