"""The content index: which module declares each claim, re-learned only for the files that changed."""

from __future__ import annotations

import pytest

from lemmacheck import index as index_module
from lemmacheck.index import load_index
from planted_project import AM_GM, make_project

NESTED = """
@inequality("{pkg}.nested.am_gm", inputs={"a": Array(positive=True), "b": Array(positive=True)}, **META)
def am_gm(xp, a, b):
    from {pkg}.topic._helper import half
    return xp.sqrt(a * b), half(a + b)
"""

HELPER = "def half(x):\n    return x / 2\n"

BROKEN = "raise RuntimeError('this module is broken on purpose')\n"


@pytest.fixture
def project(tmp_path, monkeypatch):
    pkg = make_project(tmp_path, {"flat": AM_GM, "topic/sub": NESTED})
    (tmp_path / pkg / "topic" / "_helper.py").write_text(HELPER)
    imported: list[list[str]] = []
    real = index_module._declarations_into

    def recording(root, stale, records):
        imported.append(sorted(stale))
        return real(root, stale, records)

    monkeypatch.setattr(index_module, "_declarations_into", recording)
    return tmp_path, pkg, imported


def test_nested_packages_are_indexed_and_lazy_imports_count(project):
    root, pkg, _ = project
    idx = load_index(root)
    assert idx.claim_ids() == [f"{pkg}.am_gm", f"{pkg}.nested.am_gm"]
    assert idx.declaring_modules([f"{pkg}.nested.am_gm"]) == [f"{pkg}.topic.sub"]
    files = {p.relative_to(root).as_posix() for p in idx.files_of(f"{pkg}.nested.am_gm")}
    assert files == {
        f"{pkg}/__init__.py",
        f"{pkg}/topic/__init__.py",
        f"{pkg}/topic/sub.py",
        f"{pkg}/topic/_helper.py",
    }
    assert idx.reached_by([root / pkg / "topic" / "_helper.py"]) == {f"{pkg}.nested.am_gm"}


def test_only_changed_files_are_imported_again(project):
    root, pkg, imported = project
    load_index(root)
    assert len(imported[0]) == 5  # the package, the topic package, flat, sub, the helper
    load_index(root)
    assert len(imported) == 1, "nothing changed: nothing imported"
    path = root / pkg / "flat.py"
    path.write_text(path.read_text().replace("am_gm", "renamed"))
    idx = load_index(root)
    assert imported[1] == [f"{pkg}.flat"]
    assert f"{pkg}.renamed" in idx.claim_ids() and f"{pkg}.am_gm" not in idx.claim_ids()


def test_a_module_that_fails_to_import_is_named_and_the_rest_indexed(project):
    root, pkg, _ = project
    (root / pkg / "broken.py").write_text(BROKEN)
    idx = load_index(root)
    failed = dict(idx.failed_imports())
    assert "broken on purpose" in failed[f"{pkg}.broken"]
    assert f"{pkg}.am_gm" in idx.claim_ids()


def test_a_corrupt_index_file_is_rebuilt(project):
    root, pkg, imported = project
    load_index(root)
    (root / index_module.CACHE_DIR / "index.json").write_text("{not json")
    assert f"{pkg}.am_gm" in load_index(root).claim_ids()
    assert len(imported) == 2


LINKS = """
@inequality("{pkg}.links.corrected", inputs={"x": Array()}, corrects="{pkg}.am_gm", **META)
def corrected(xp, x):
    return x, x

@inequality("Not A Valid Id", inputs={"x": Array()}, **META)
def malformed(xp, x):
    return x, x
"""


def test_links_and_malformed_declarations_are_known_without_importing(project):
    root, pkg, _ = project
    (root / pkg / "links.py").write_text(
        (root / pkg / "flat.py").read_text().split("\n@")[0] + LINKS.replace("{pkg}", pkg)
    )
    idx = load_index(root)
    assert idx.corrected_by() == {f"{pkg}.am_gm": [f"{pkg}.links.corrected"]}
    ((cid, module, message),) = idx.definition_errors()
    assert cid == "Not A Valid Id" and module == f"{pkg}.links" and "dotted lower-case" in message
    assert idx.declaring_modules(["Not A Valid Id"]) == [f"{pkg}.links"]
