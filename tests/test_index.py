"""The content index: which module declares each claim, re-learned only for the files that changed."""

from __future__ import annotations

import json

import pytest

from lemmacheck.model.claim import REGISTRY
from lemmacheck.project import index as index_module
from lemmacheck.project.discovery import discover
from lemmacheck.project.index import load_index
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

    def recording(root, stale, records, old):
        imported.append(sorted(stale))
        return real(root, stale, records, old)

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


# Modules that take their indexing interpreter down at import, each in its own way.
EXITS_AT_IMPORT = "import sys\nsys.exit(0)\n"
DIES_AT_IMPORT = "import os\nos._exit(7)\n"
HANGS_AT_IMPORT = "import time\ntime.sleep(10**6)\n"
# killed (as by the OOM killer or a user) the first time only: the module is innocent
KILLED_ONCE = """\
import os, pathlib, signal
_mark = pathlib.Path(__file__).with_suffix(".killed")
if not _mark.exists():
    _mark.touch()
    os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.parametrize(
    "body, words",
    [(EXITS_AT_IMPORT, "SystemExit: sys.exit(0) called at import"), (DIES_AT_IMPORT, "(exit 7)")],
    ids=["sys.exit", "os._exit"],
)
def test_a_module_that_ends_its_interpreter_fails_alone_and_is_forgotten_when_removed(project, body, words):
    root, pkg, _ = project
    (root / pkg / "ends.py").write_text(body)
    idx = load_index(root)
    assert list(dict(idx.failed_imports())) == [f"{pkg}.ends"]
    assert words in dict(idx.failed_imports())[f"{pkg}.ends"]
    assert idx.claim_ids() == [f"{pkg}.am_gm", f"{pkg}.nested.am_gm"], "every other module is indexed"
    (root / pkg / "ends.py").unlink()
    assert load_index(root).failed_imports() == []


def test_a_module_that_hangs_at_import_is_named_and_list_does_not_hang(project, monkeypatch, capsys):
    from lemmacheck.cli import main as cli
    from lemmacheck.project import declarations

    root, pkg, _ = project
    monkeypatch.setattr(declarations, "_IMPORT_SECONDS", 2.0)
    (root / pkg / "hangs.py").write_text(HANGS_AT_IMPORT)
    idx = load_index(root)
    assert "hung at import" in dict(idx.failed_imports())[f"{pkg}.hangs"]
    assert idx.claim_ids() == [f"{pkg}.am_gm", f"{pkg}.nested.am_gm"]
    monkeypatch.chdir(root)
    with REGISTRY.scratch():
        # a module that fails to import is a broken catalogue: exit 1, as `run` (test_list_exit_code.py)
        assert cli.main(["list"]) == cli.ExitCode.TESTS_FAILED
    out = capsys.readouterr().out
    assert f"IMPORT ERROR {pkg}.hangs: hung at import" in out and f"{pkg}.nested.am_gm" in out


def test_an_interpreter_killed_from_outside_blames_no_module(project):
    root, pkg, _ = project
    (root / pkg / "killed_once.py").write_text(KILLED_ONCE)
    idx = load_index(root)
    assert (root / pkg / "killed_once.killed").exists(), "the indexing interpreter was killed"
    assert idx.failed_imports() == [] and len(idx.claim_ids()) == 2


def test_a_failure_no_module_is_to_blame_for_is_not_kept(project, monkeypatch):
    from lemmacheck.project import declarations

    root, pkg, _ = project
    monkeypatch.setattr(declarations, "_index_in_child", lambda root, modules: (None, None, "killed"))
    assert "indexing failed: killed" in dict(load_index(root).failed_imports())[f"{pkg}.flat"]
    with REGISTRY.scratch():
        assert discover(root) == [] and f"{pkg}.am_gm" in REGISTRY, "list and show import it here"
    monkeypatch.undo()
    idx = load_index(root)
    assert idx.failed_imports() == [] and len(idx.claim_ids()) == 2, "indexed again, not read back"


DUPLICATE = """
@inequality("{pkg}.am_gm", inputs={"x": Array()}, **META)
def the_same_id(xp, x):
    return x, x
"""


def test_a_duplicate_id_across_modules_is_reported_whichever_is_edited(project):
    root, pkg, _ = project
    (root / pkg / "dup.py").write_text(
        (root / pkg / "flat.py").read_text().split("\n@")[0] + DUPLICATE.replace("{pkg}", pkg)
    )

    def reported() -> bool:
        return any("declared twice" in m for _, _, m in load_index(root).definition_errors())

    assert reported(), "a new module declaring an id another declares"
    for name in ("dup", "flat", "dup"):
        _append = root / pkg / f"{name}.py"
        _append.write_text(_append.read_text() + f"\n# edited {name}\n")
        assert reported(), f"after an edit of {name}.py"


# valid JSON of another shape than the index writes: each one read as is made every later command fail
WRONG_SHAPES = {
    "claims a number": lambda rec: rec | {"claims": 5},
    "imports a string": lambda rec: rec | {"imports": "abc"},
    "fingerprint of two": lambda rec: rec | {"fingerprint": [1, 2]},
    "corrects a list": lambda rec: rec | {"corrects": ["x"]},
    "errors without messages": lambda rec: rec | {"errors": ["x"], "error_messages": []},
    "a record a list": lambda rec: [rec],
}


@pytest.mark.parametrize("damage", ["random bytes", "truncated", "a folder", *WRONG_SHAPES])
def test_a_damaged_index_is_set_aside_with_a_warning_and_rebuilt(project, damage, capsys):
    root, pkg, _ = project
    load_index(root)
    path = root / index_module.CACHE_DIR / "index.json"
    if damage in WRONG_SHAPES:
        data = json.loads(path.read_text())
        first = next(iter(data["modules"]))
        data["modules"][first] = WRONG_SHAPES[damage](data["modules"][first])
        path.write_text(json.dumps(data))
    elif damage == "random bytes":
        path.write_bytes(bytes(range(256)) * 8)
    elif damage == "truncated":
        path.write_text(path.read_text()[:100])
    else:
        path.unlink()
        path.mkdir()
    assert load_index(root).claim_ids() == [f"{pkg}.am_gm", f"{pkg}.nested.am_gm"]
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "lemmacheck: warning:" in err and "set aside as index.json.damaged" in err
    assert path.is_file() and load_index(root).claim_ids(), "rebuilt, and read back next time"
    assert capsys.readouterr().err == ""


UNRENDERABLE = """
@inequality("{pkg}.unrenderable", inputs={"x": Array()}, **{**META, "statement": r"\\left( x \\le x"})
def unrenderable(xp, x):
    return x, x
"""


def test_the_statements_the_index_saw_convert_are_not_converted_again_and_no_other_is(project, monkeypatch):
    """A worker of a run declares every claim the index's interpreter declared; it converted each
    statement with latex2mathml already (issue 35: 0.3 s a process).  Only those that converted are
    recorded, so a statement that does not is converted, and refused, wherever it is declared."""
    import latex2mathml.converter

    from lemmacheck.model import fields

    root, pkg, imported = project
    header = (root / pkg / "flat.py").read_text().split("\n@")[0]
    (root / pkg / "unrenderable.py").write_text(header + UNRENDERABLE.replace("{pkg}", pkg))
    idx = load_index(root)
    ((cid, _, message),) = idx.definition_errors()
    assert cid == f"{pkg}.unrenderable" and "latex2mathml cannot convert it" in message, message
    assert idx.statements() == {r"a \le b"}, "the refused statement is not recorded as converting"
    assert index_module.known_statements(root) == idx.statements()

    converted: list[str] = []
    real = latex2mathml.converter.convert
    counted = lambda t, **kw: converted.append(t) or real(t, **kw)  # noqa: E731
    monkeypatch.setattr(latex2mathml.converter, "convert", counted)
    monkeypatch.setattr(fields, "_CONVERTED", set())
    fields.known_to_convert(index_module.known_statements(root))
    assert fields.statement_problem(r"a \le b") == "" and converted == []
    refused = fields.statement_problem(r"\left( x \le x")
    assert refused.startswith("latex2mathml cannot convert it") and converted == [r"\left( x \le x"]
    assert fields.statement_problem(r"\frac{a}{b") != "", "braces are counted whatever is known"

    # another converter may refuse what this one took: its index is rebuilt and trusts nothing before
    monkeypatch.setattr(index_module, "library_versions", lambda: {"latex2mathml": "another"})
    assert index_module.known_statements(root) == set()
    load_index(root)
    assert len(imported) == 2
