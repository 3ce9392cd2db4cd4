"""The result cache answers when nothing a claim depends on changed, and only then."""

from __future__ import annotations

import copy
import json
import os
import random
import sqlite3
import threading
import time

import pytest

from lemmacheck.cli import main as cli
from lemmacheck.model.claim import REGISTRY
from lemmacheck.run import cache as cache_module
from lemmacheck.run.cache import ResultCache, result_from_dict
from lemmacheck.run.execution import execute
from lemmacheck.search.profile import QUICK
from planted_project import make_project

PROFILE = QUICK.with_seed(11)

ALPHA = """
from {pkg}._shared import mean

@inequality("{pkg}.alpha.am_gm", inputs={"a": Array(positive=True), "b": Array(positive=True)}, **META)
def am_gm(xp, a, b):
    return xp.sqrt(a * b), mean(a, b)
"""

BETA = """
@inequality("{pkg}.beta.square", inputs={"x": Array()}, **META)
def square(xp, x):
    return 2 * xp.abs(x) - 1, x * x
"""

SHARED = """
def mean(a, b):
    return (a + b) / 2
"""


@pytest.fixture
def project(tmp_path):
    pkg = make_project(tmp_path, {"alpha": ALPHA, "beta": BETA}, helpers={"_shared": SHARED})
    with REGISTRY.scratch():
        yield tmp_path, pkg


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """A project and its two claims' results, checked once for the tests that only read or store them
    (each run starts worker and indexing interpreters)."""
    root = tmp_path_factory.mktemp("checked")
    pkg = make_project(root, {"alpha": ALPHA, "beta": BETA}, helpers={"_shared": SHARED})
    with REGISTRY.scratch():
        ids = [f"{pkg}.alpha.am_gm", f"{pkg}.beta.square"]
        am_gm, square = execute(ids, PROFILE, jobs=1, root=root)
    return root, am_gm, square


def _run(root, ids, profile=PROFILE):
    return {r.id: r for r in execute(ids, profile, jobs=1, cache=ResultCache(root), root=root)}


def _cached(results) -> dict[str, bool]:
    return {cid: getattr(r, "cached", False) for cid, r in results.items()}


def _append(path, text="\n# edited\n"):
    path.write_text(path.read_text() + text)


def test_no_change_answers_from_the_cache_and_an_edit_rechecks_only_what_it_reaches(project):
    root, pkg = project
    alpha, beta = f"{pkg}.alpha.am_gm", f"{pkg}.beta.square"
    first = _run(root, [alpha, beta])
    assert _cached(first) == {alpha: False, beta: False}
    assert first[alpha].verdict.value == "HOLDS" and first[beta].verdict.value == "HOLDS"

    again = _run(root, [alpha, beta])
    assert _cached(again) == {alpha: True, beta: True}
    for cid in (alpha, beta):
        # the same result, but for the flag that says where it came from
        a, b = first[cid].to_dict() | {"cached": None}, again[cid].to_dict() | {"cached": None}
        assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True), "a cached result is the result"

    _append(root / pkg / "beta.py")
    assert _cached(_run(root, [alpha, beta])) == {alpha: True, beta: False}

    _append(root / pkg / "_shared.py")  # a helper only alpha imports
    assert _cached(_run(root, [alpha, beta])) == {alpha: False, beta: True}


def test_the_seed_the_profile_and_the_engine_are_part_of_the_key(project, monkeypatch):
    root, pkg = project
    ids = [f"{pkg}.beta.square"]
    _run(root, ids)
    assert _cached(_run(root, ids, PROFILE.with_seed(12))) == {ids[0]: False}
    assert _cached(_run(root, ids, PROFILE.scaled(2))) == {ids[0]: False}
    monkeypatch.setattr(cache_module, "engine_fingerprint", lambda: "another engine")
    assert _cached(_run(root, ids)) == {ids[0]: False}


@pytest.mark.parametrize("library", ["z3-solver", "python-flint", "scipy", "lark", "latex2mathml"])
def test_a_library_installed_or_removed_changes_the_engine_fingerprint(monkeypatch, library):
    # found as a run --certify answered from results kept by a run whose environment had no Z3: 4 fewer
    # certificates, with nothing saying why; lark and latex2mathml parse the statement compared with the check
    from importlib import metadata

    from lemmacheck import libraries

    real = metadata.version
    libraries.library_versions.cache_clear()
    before = cache_module.engine_fingerprint.__wrapped__()

    def without(name):
        if name == library:
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(libraries.metadata, "version", without)
    libraries.library_versions.cache_clear()
    try:
        assert libraries.library_versions()[library] is None
        assert cache_module.engine_fingerprint.__wrapped__() != before
    finally:
        libraries.library_versions.cache_clear()


def test_clear_forgets_everything(project):
    root, pkg = project
    ids = [f"{pkg}.beta.square"]
    _run(root, ids)
    assert ResultCache(root).clear() == 1
    assert _cached(_run(root, ids)) == {ids[0]: False}


def test_errors_are_never_cached(checked):
    root, _, square = checked
    cache = ResultCache(root)
    r = copy.deepcopy(square)
    r.verdict = type(r.verdict)("ERROR")
    assert not cache.store(r, PROFILE)
    assert cache.lookup(r.id, PROFILE) is None


def test_concurrent_writers_never_corrupt_the_store(checked):
    root, _, result = checked
    failures = []

    def writer(seed):
        try:
            cache, profile = ResultCache(root), PROFILE.with_seed(seed)
            for _ in range(10):
                cache.store(result, profile)
                assert cache.lookup(result.id, profile) is not None
        except Exception as exc:  # collected: an assertion in a thread would be lost
            failures.append(exc)

    threads = [threading.Thread(target=writer, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_result_round_trips_through_its_dict(checked):
    _, r, _ = checked
    assert r.verdict.value == "HOLDS", r.message
    assert result_from_dict(r.to_dict()).to_dict() == r.to_dict()


STUDY = """
from lemmacheck import StudyResult, study

@study("{pkg}.study.table", title="a planted study")
def table(profile):
    return StudyResult(conclusion=f"drew {profile.rng.standard_normal():.6f}")
"""


def test_a_study_is_cached_like_a_claim(tmp_path):
    pkg = make_project(tmp_path, {"study": STUDY})
    from lemmacheck.project.index import import_modules, load_index
    from lemmacheck.run.engine import run_study

    with REGISTRY.scratch():
        import_modules(tmp_path, load_index(tmp_path).declaring_modules([f"{pkg}.study.table"]))
        s = REGISTRY.studies[f"{pkg}.study.table"]
        calls = []

        def compute():
            calls.append(1)
            return run_study(s, PROFILE)

        first = ResultCache(tmp_path).study(s, PROFILE, compute)
        again = ResultCache(tmp_path).study(s, PROFILE, compute)
    assert len(calls) == 1 and again.pop("cached") is True and again == first and not first["error"]


def _damage(path, how: str) -> None:
    if how == "random bytes":
        path.write_bytes(random.Random(0).randbytes(path.stat().st_size or 4096))
    elif how == "truncated":
        path.write_bytes(path.read_bytes()[:1000])
    else:
        path.unlink()
        path.mkdir()


@pytest.mark.parametrize(
    "how",
    [
        "random bytes",
        # the other damages: three runs each, as the first (worker interpreters); CI runs them
        pytest.param("truncated", marks=pytest.mark.slow),
        pytest.param("a folder", marks=pytest.mark.slow),
    ],
)
def test_a_damaged_store_is_set_aside_with_a_warning_and_rebuilt(project, how, capsys, monkeypatch):
    root, pkg = project
    ids = [f"{pkg}.beta.square"]
    _run(root, ids)
    path = root / ".lemmacheck-cache" / "results.sqlite"
    _damage(path, how)
    assert _cached(_run(root, ids)) == {ids[0]: False}, "checked again"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "lemmacheck: warning:" in err, err
    assert "set aside as results.sqlite.damaged" in err, err
    assert _cached(_run(root, ids)) == {ids[0]: True}, "the new store keeps results"
    _damage(path, how)
    monkeypatch.chdir(root)
    assert cli.main(["cache", "clear"]) == cli.ExitCode.OK
    assert "forgot 0 cached results" in capsys.readouterr().out


def test_a_full_disk_turns_the_cache_off_for_the_run_with_a_warning(project, monkeypatch, capsys):
    root, pkg = project
    cache = ResultCache(root)
    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = 13  # SQLITE_FULL
    real = cache._db

    def failing():
        raise full

    monkeypatch.setattr(cache, "_db", failing)
    (r,) = execute([f"{pkg}.beta.square"], PROFILE, jobs=1, root=root, cache=cache)
    assert r.verdict.value == "HOLDS" and not cache.store(r, PROFILE)
    assert capsys.readouterr().err.count("database or disk is full") == 1, "one warning"
    monkeypatch.setattr(cache, "_db", real)
    assert cache.lookup(r.id, PROFILE) is None, "off for the rest of the run"


def test_the_code_that_runs_is_the_code_whose_hash_keys_the_result(project, monkeypatch):
    """Issue 20 §5: with bytecode on, a same-size edit of a check (2|x| - 1 <= x², true, to 3|x| - 1, false)
    that keeps the file's modification time must run the new code, not the old .pyc, and be stored under
    the new key."""
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
    root, pkg = project
    square = f"{pkg}.beta.square"
    first = _run(root, [square])[square]
    assert first.verdict.value == "HOLDS" and list((root / pkg / "__pycache__").glob("beta.*"))
    path = root / pkg / "beta.py"
    before, text = path.stat(), path.read_text()
    edited = text.replace("return 2 * xp.abs(x) - 1", "return 3 * xp.abs(x) - 1", 1)
    assert edited != text and len(edited) == len(text)
    path.write_text(edited)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert path.stat().st_size == before.st_size and path.stat().st_mtime_ns == before.st_mtime_ns
    again = _run(root, [square])[square]
    assert not again.cached and again.verdict.value == "REFUTED", again.message
    assert _run(root, [square])[square].verdict.value == "REFUTED", "stored under its key"


# the check says it is running (a marker file), then waits for the test to release it: the test saves an
# edit of the module in between, as a user saves while a run (or watch's start-up) checks the claim
SAVED_WHILE_IT_RUNS = """
from pathlib import Path

HERE = Path(__file__).resolve().parent


@inequality("{pkg}.gated.am_gm", inputs={"a": Array(positive=True), "b": Array(positive=True)}, **META)
def am_gm(xp, a, b):
    (HERE / "running").touch()
    deadline = time.monotonic() + 60
    while not (HERE / "release").exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    return xp.sqrt(a * b), (a + b) / 2
"""


def test_a_save_while_a_claim_runs_never_keys_its_result_under_the_new_text(tmp_path):
    """The result of the text a worker imported was stored under the key of the text on disk when it
    finished: a save during the run made the old verdict answer for the new text, so re-checking it
    (watch's next change, the next run) repeated the stale verdict."""
    pkg = make_project(tmp_path, {"gated": SAVED_WHILE_IT_RUNS})
    module = tmp_path / pkg / "gated.py"
    cid = f"{pkg}.gated.am_gm"

    def save_when_running():
        deadline = time.monotonic() + 120
        while not (tmp_path / pkg / "running").exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        module.write_text(module.read_text().replace("(a + b) / 2", "(a + b) / 4"))  # now false
        (tmp_path / pkg / "release").touch()

    saver = threading.Thread(target=save_when_running)
    with REGISTRY.scratch():
        saver.start()
        (during,) = _run(tmp_path, [cid]).values()
        saver.join()
        assert during.verdict.value == "HOLDS"  # the text the worker imported
        (after,) = _run(tmp_path, [cid]).values()
    assert not getattr(after, "cached", False), "the result of the old text answered for the new one"
    assert after.verdict.value == "REFUTED"


REFUTED_AS_DECLARED = """
@inequality("{pkg}.off_by_one", inputs={"x": Array()}, title="planted", source=SRC, statement="x + 1 <= x",
            expected=Verdict.REFUTED)
def off_by_one(xp, x):
    return x + 1, x
"""


def test_a_refuted_claim_whose_run_keeps_its_counterexample_is_cached(tmp_path, monkeypatch, capsys):
    """The counterexample a run keeps changes the claim's key during its run: the check that no file was
    saved meanwhile compares the files' text only (comparing whole keys left every refuted claim uncached:
    330 of 430 answered from the cache on a rerun of the catalogue)."""
    make_project(tmp_path, {"mod": REFUTED_AS_DECLARED})
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LEMMACHECK_EXAMPLES", str(tmp_path / "kept"))
    with REGISTRY.scratch():
        assert cli.main(["run", "-j", "1", "--quiet", "--no-html"]) == 0
        assert any((tmp_path / "kept").iterdir()), "the run kept its counterexample"
        capsys.readouterr()
        assert cli.main(["run", "-j", "1", "--quiet", "--no-html"]) == 0
    assert "1 of 1 results answered from the cache" in capsys.readouterr().out
