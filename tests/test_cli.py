"""The command line as pytest users expect it (issue 13): exit codes, -k, --version, render validation,
reports that are never torn, lost or half-written.

Exit codes: 0 all match, 1 a verdict differs, 2 usage error, 3 internal error, 4 interrupted,
5 nothing selected.

Runs pass ``-j 1`` where how many workers check the claims is not what a test is about: each worker is
an interpreter that imports the engine (about a second of CPU).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from lemmacheck import __version__
from lemmacheck.cli import main as cli
from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.model.claim import REGISTRY
from lemmacheck.schema import validate_results

SLOW_CLAIMS = """
import time
from pathlib import Path
from lemmacheck import Source, Verdict, value

RELEASE = Path(__file__).resolve().parents[1] / "release"

def slow(v):
    def computed():
        time.sleep({delay})
        if v >= {gate}:  # held until the test releases it: the run cannot end before the test's signal
            start = time.monotonic()
            while not RELEASE.exists() and time.monotonic() - start < 60:
                time.sleep(0.05)
        return v
    return computed

for i in range({n}):
    value(f"slow.claim_{{i:02d}}", computed=slow(i), stated=i, title=f"slow {{i}}",
          source=Source("planted.txt", f"item {{i}}"), statement="x", expected=Verdict.PROVED)
"""


def _project(root: Path, package: str, body: str) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(f'[tool.lemmacheck]\ncontent = ["{package}"]\n')
    (root / "checks").mkdir(exist_ok=True)
    pkg = root / package
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "planted.py").write_text(textwrap.dedent(body))
    return root


def _slow_project(root: Path, *, n: int, delay: float, gate: int | None = None) -> Path:
    """``n`` claims of ``delay`` seconds each; those from ``gate`` on wait for ``root/release``."""
    gate = n if gate is None else gate
    return _project(root, "planted_slow", SLOW_CLAIMS.format(n=n, delay=delay, gate=gate))


def _lemmacheck(root: Path, *args: str, **kw) -> subprocess.Popen:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return subprocess.Popen(
        [sys.executable, "-m", "lemmacheck.cli", *args],
        cwd=root,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **kw,
    )


_PACKAGE_NUMBERS = itertools.count()


TWO_QUICK_CLAIMS = """
from lemmacheck import Source, Verdict, value, study, StudyResult
value("quick.one", computed=lambda: 1, stated=1, title="one", source=Source("p.txt", "1"),
      statement="1 = 1", expected=Verdict.PROVED)
value("quick.two", computed=lambda: 2, stated=2, title="two", source=Source("p.txt", "2"),
      statement="2 = 2", expected=Verdict.PROVED)
"""


@pytest.fixture
def in_project(tmp_path, monkeypatch):
    """A planted project with two quick claims (one study), run in-process in a scratch registry."""
    package = f"planted_cli_{next(_PACKAGE_NUMBERS)}"  # Python caches modules by name: one per test
    root = _project(tmp_path / "project", package, TWO_QUICK_CLAIMS)
    monkeypatch.chdir(root)
    with REGISTRY.scratch():
        yield root


# --------------------------------------------------------------------------- exit codes


def test_version(capsys):
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"lemmacheck {__version__}"


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--seed", "x"],
        ["nonsense"],
        ["run", "-k", "lse hessian"],
        ["list", "-k", "(lse"],
        ["run", "-k", "lse and"],
    ],
)
def test_usage_errors_exit_2(in_project, argv, capsys):
    assert cli.main(argv) == ExitCode.USAGE_ERROR
    err = capsys.readouterr().err
    assert "error" in err and "Traceback" not in err


def test_all_match_exits_0_and_writes_a_valid_pair(in_project, capsys):
    assert cli.main(["run", "--seed", "2", "--quiet", "-j", "1"]) == ExitCode.OK
    data = json.loads((in_project / "reports" / "results.json").read_text())
    validate_results(data)
    # a seed replays a run only with the same libraries: the file says which ones it was made with
    from importlib import metadata

    assert data["tool"]["libraries"]["hypothesis"] == metadata.version("hypothesis")
    assert data["tool"]["libraries"]["lark"] == metadata.version("lark")
    assert "seed 2 ·" in (in_project / "reports" / "index.html").read_text()
    assert not list((in_project / "reports").glob(".journal-*")), "the journal is removed once written"
    assert not list((in_project / "reports").glob("*.tmp"))


@pytest.mark.parametrize("expression", ["nomatch", "quick and not quick", "not (one or two)"])
def test_nothing_selected_exits_5_and_leaves_the_report_alone(in_project, expression, capsys):
    reports = in_project / "reports"
    reports.mkdir()
    (reports / "results.json").write_text("previous run")
    (reports / "index.html").write_text("previous page")
    assert cli.main(["run", "-k", expression, "--quiet"]) == ExitCode.NO_TESTS_COLLECTED
    assert "no claim selected" in capsys.readouterr().err
    assert (reports / "results.json").read_text() == "previous run"
    assert (reports / "index.html").read_text() == "previous page"
    assert cli.main(["list", "-k", expression]) == ExitCode.NO_TESTS_COLLECTED


@pytest.mark.parametrize("argv", [["run", "--quiet"], ["show", "lse.bound"], ["list"]])
def test_outside_a_project_is_a_usage_error_saying_where_it_looked(tmp_path, monkeypatch, capsys, argv):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LEMMACHECK_ROOT", raising=False)
    assert cli.main(argv) == ExitCode.USAGE_ERROR
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert f"no lemmacheck project at or above {tmp_path}" in err
    assert "--root DIR" in err and "LEMMACHECK_ROOT" in err and "Traceback" not in err
    assert not (tmp_path / "reports").exists()


def test_root_option_points_at_a_project_from_elsewhere(in_project, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["list", "--root", str(in_project)]) == ExitCode.OK
    assert "quick.one" in capsys.readouterr().out
    assert "LEMMACHECK_ROOT" not in os.environ  # the option does not leak past the command


def test_the_api_outside_a_project_says_how_to_point_at_one(tmp_path, monkeypatch):
    import lemmacheck

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LEMMACHECK_ROOT", raising=False)
    with pytest.raises(FileNotFoundError, match="no lemmacheck project.*LEMMACHECK_ROOT"):
        lemmacheck.check("lse.bound")


def test_list_follows_pytest_grammar(in_project, capsys):
    assert cli.main(["list", "-k", "QUICK and not (two or three)"]) == ExitCode.OK
    out = capsys.readouterr().out
    assert "quick.one" in out and "quick.two" not in out


def test_run_follows_pytest_grammar(in_project, capsys):
    assert cli.main(["run", "-k", "quick and not two", "--quiet", "--no-html", "-j", "1"]) == ExitCode.OK
    data = json.loads((in_project / "reports" / "results.json").read_text())
    assert [c["id"] for c in data["claims"]] == ["quick.one"]


def test_internal_error_exits_3(in_project, monkeypatch, capsys):
    import lemmacheck.run.engine

    def broken(*args, **kwargs):
        raise RuntimeError("planted bug")

    monkeypatch.setattr(lemmacheck.run.engine, "run_claims", broken)
    assert cli.main(["run", "--quiet"]) == ExitCode.INTERNAL_ERROR
    assert "internal error: RuntimeError: planted bug" in capsys.readouterr().err


def test_a_failing_study_is_shown_and_exits_1(tmp_path, monkeypatch, capsys):
    root = _project(
        tmp_path / "p",
        "planted_cli_study",
        """
        from lemmacheck import Source, Verdict, value, study
        value("st.ok", computed=lambda: 1, stated=1, title="ok", source=Source("p.txt", "1"),
              statement="1", expected=Verdict.PROVED)

        @study("st.broken", title="a study that fails")
        def broken(profile):
            raise ValueError("planted study failure")
    """,
    )
    monkeypatch.chdir(root)
    with REGISTRY.scratch():
        assert cli.main(["run", "--quiet", "--no-html", "-j", "1"]) == ExitCode.TESTS_FAILED
    out = capsys.readouterr().out
    assert "st.broken: study 'st.broken': ValueError: planted study failure" in out
    assert "every computed verdict matches" not in out


def test_unwritable_report_folder_is_one_line_after_the_summary(in_project, capsys):
    blocker = in_project / "not-a-folder"
    blocker.write_text("a file where the report folder should be")
    assert cli.main(["run", "--quiet", "-j", "1", "--out", str(blocker / "reports")]) == ExitCode.USAGE_ERROR
    captured = capsys.readouterr()
    assert "every computed verdict matches" in captured.out  # the verdicts were computed and printed
    last = captured.err.strip().splitlines()[-1]
    assert re.fullmatch(
        r"lemmacheck: cannot write the report to .*not-a-folder/reports: Not a directory; "
        r"no report written \(the verdicts above are complete\)",
        last,
    ), last
    assert "Traceback" not in captured.err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_read_only_report_folder(in_project, capsys):
    reports = in_project / "reports"
    reports.mkdir()
    reports.chmod(0o500)
    try:
        assert cli.main(["run", "--quiet", "-j", "1"]) == ExitCode.USAGE_ERROR
    finally:
        reports.chmod(0o700)
    assert "Permission denied" in capsys.readouterr().err.strip().splitlines()[-1]


def test_a_folder_that_refuses_the_write_keeps_the_previous_pair(in_project, monkeypatch, capsys):
    """The folder accepts the probe but refuses the final move (permissions changed mid-run; what root's
    immunity to chmod keeps the test above from showing): one line, the old pair intact, no temp files."""
    import lemmacheck.report.folder

    reports = in_project / "reports"
    reports.mkdir()
    (reports / "results.json").write_text("previous run")
    (reports / "index.html").write_text("previous page")

    def refuse(src, dst):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(lemmacheck.report.folder.os, "replace", refuse)
    assert cli.main(["run", "--quiet", "-j", "1"]) == ExitCode.USAGE_ERROR
    captured = capsys.readouterr()
    assert "every computed verdict matches" in captured.out
    last = captured.err.strip().splitlines()[-1]
    assert re.search(
        r"Permission denied; no report written \(the verdicts above are complete; every result "
        r"is kept in .*\.journal-\d+\.jsonl\)$",
        last,
    ), last
    assert (reports / "results.json").read_text() == "previous run"
    assert (reports / "index.html").read_text() == "previous page"
    assert not list(reports.glob("*.tmp"))


def test_a_move_that_fails_half_way_leaves_no_pair_of_two_runs(in_project, monkeypatch, capsys):
    import lemmacheck.report.folder

    reports = in_project / "reports"
    reports.mkdir()
    (reports / "results.json").write_text("previous run")
    (reports / "index.html").write_text("previous page")
    real_replace = os.replace

    def second_fails(src, dst):
        if str(dst).endswith("index.html"):
            raise OSError(28, "No space left on device")
        real_replace(src, dst)

    monkeypatch.setattr(lemmacheck.report.folder.os, "replace", second_fails)
    assert cli.main(["run", "--quiet", "-j", "1"]) == ExitCode.USAGE_ERROR
    assert "No space left on device" in capsys.readouterr().err
    assert not (reports / "results.json").exists() and not (reports / "index.html").exists()
    assert not list(reports.glob("*.tmp"))


# --------------------------------------------------------------------------- render validation


@pytest.fixture(scope="module")
def valid_results(tmp_path_factory) -> str:
    """The results.json of a run of the two quick claims, made once for the render tests (a run costs
    worker processes; the render tests only read its output)."""
    package = f"planted_cli_{next(_PACKAGE_NUMBERS)}"
    root = _project(tmp_path_factory.mktemp("valid") / "project", package, TWO_QUICK_CLAIMS)
    with pytest.MonkeyPatch.context() as mp, REGISTRY.scratch():
        mp.chdir(root)
        assert cli.main(["run", "--quiet", "--seed", "4", "-j", "1"]) == ExitCode.OK
    return (root / "reports" / "results.json").read_text()


def _valid_results(in_project, text: str) -> Path:
    good = in_project / "good.json"
    good.write_text(text)
    return good


@pytest.mark.parametrize(
    ("name", "content", "words"),
    [
        ("missing", None, "no such file"),
        ("empty", b"", "the file is empty"),
        ("truncated", "HALF", "not valid JSON at line"),
        ("binary", bytes(range(256)) * 4, "not a text file"),
        ("empty-object", b"{}", "'schema_version' is a required property"),
        ("a-list", b"[1, 2]", "not a lemmacheck results file (a JSON list"),
        ("bogus-verdict", "BOGUS", "'BOGUS' is not one of"),
        ("schema-99", "V99", "schema_version 99 is not one this lemmacheck reads"),
    ],
)
def test_render_says_in_one_line_what_is_wrong(in_project, valid_results, capsys, name, content, words):
    good = _valid_results(in_project, valid_results)
    text = good.read_text()
    path = in_project / f"{name}.json"
    if content == "HALF":
        content = text[: len(text) // 2].encode()
    elif content == "BOGUS":
        data = json.loads(text)
        data["claims"][0]["verdict"] = "BOGUS"
        content = json.dumps(data).encode()
    elif content == "V99":
        content = json.dumps(json.loads(text) | {"schema_version": 99}).encode()
    if content is not None:
        path.write_bytes(content)
    capsys.readouterr()
    assert cli.main(["render", str(path), "--out", str(in_project / "out.html")]) == ExitCode.USAGE_ERROR
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err, err
    assert not (in_project / "out.html").exists()


def test_render_of_a_valid_file(in_project, valid_results, capsys):
    good = _valid_results(in_project, valid_results)
    assert cli.main(["render", str(good), "--out", str(in_project / "again.html")]) == ExitCode.OK
    assert "quick.one" in (in_project / "again.html").read_text()


# --------------------------------------------------------------------------- nothing lost, nothing torn


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupt_keeps_the_work_done_in_a_partial_report(tmp_path, signum):
    # claims 4.. wait for a release that comes only after the signal: the interrupt always arrives
    # while the run is going, once the journal says three claims are done
    root = _slow_project(tmp_path / "p", n=12, delay=0.2, gate=4)
    proc = _lemmacheck(root, "run", "--seed", "1", "--quiet", "-j", "1")
    reports = root / "reports"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:  # wait until a few claims have finished (journal lines)
        journals = list(reports.glob(".journal-*.jsonl")) if reports.exists() else []
        if journals and len(journals[0].read_text().splitlines()) >= 4:
            break
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail("the run did not start in time")
    proc.send_signal(signum)
    try:
        out, err = proc.communicate(timeout=120)
    finally:
        (root / "release").touch()
    assert proc.returncode == ExitCode.INTERRUPTED, out + err
    assert "Traceback" not in err
    m = re.search(
        r"lemmacheck: interrupted after (\d+) of 12 claims; partial report written to (\S+), "
        r"marked incomplete",
        err,
    )
    assert m, err
    done = int(m.group(1))
    assert 3 <= done <= 4
    data = validate_results(json.loads((reports / "results.json").read_text()))
    assert len(data["claims"]) == done and "interrupted after" in data["run"]["incomplete"]
    assert all(c["verdict"] == "PROVED" for c in data["claims"])
    assert "Incomplete run" in Path(m.group(2)).read_text()
    assert not list(reports.glob(".journal-*")) and not list(reports.glob("*.tmp"))


def test_a_killed_run_leaves_a_journal_that_renders(tmp_path):
    root = _slow_project(tmp_path / "p", n=12, delay=0.2, gate=4)
    proc = _lemmacheck(root, "run", "--seed", "1", "--quiet", "-j", "1")
    reports = root / "reports"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        journals = list(reports.glob(".journal-*.jsonl")) if reports.exists() else []
        if journals and len(journals[0].read_text().splitlines()) >= 3:
            break
        time.sleep(0.05)
    proc.kill()
    proc.communicate()
    (root / "release").touch()  # the killed run's workers, left running, finish and exit
    journal = journals[0]
    assert not (reports / "results.json").exists()  # killed outright: nothing half-written either
    assert cli.main(["render", str(journal), "--out", str(tmp_path / "recovered.html")]) == ExitCode.OK
    html = (tmp_path / "recovered.html").read_text()
    # Workers finish in any order: the claims recovered are the ones the journal holds.
    journaled = [json.loads(line)["id"] for line in journal.read_text().splitlines()[1:] if line.strip()]
    assert journaled and all(f"{cid}" in html for cid in journaled)
    assert "Incomplete run: recovered from the journal" in html


@pytest.mark.slow  # two rounds of two `lemmacheck run` processes racing for one folder (12 interpreters)
def test_concurrent_runs_into_one_folder_never_tear_the_pair(tmp_path):
    root = _slow_project(tmp_path / "p", n=6, delay=0.05)
    reports = root / "reports"
    seen_bad: list[str] = []
    stop = threading.Event()

    def reader():
        while not stop.is_set():
            for name in ("results.json", "index.html"):
                try:
                    text = (reports / name).read_text()
                except FileNotFoundError:
                    continue
                if not text:
                    seen_bad.append(f"0-byte {name}")
                elif name == "results.json":
                    try:
                        json.loads(text)
                    except ValueError:
                        seen_bad.append("half-written results.json")
                elif not text.rstrip().endswith("</html>"):
                    seen_bad.append("half-written index.html")

    t = threading.Thread(target=reader)
    t.start()
    try:
        for _ in range(2):
            procs = [_lemmacheck(root, "run", "--seed", str(seed), "--quiet", "-j", "1") for seed in (11, 22)]
            for p in procs:
                out, err = p.communicate(timeout=300)
                assert p.returncode == ExitCode.OK, out + err
            data = json.loads((reports / "results.json").read_text())
            assert f"seed {data['run']['seed']} ·" in (reports / "index.html").read_text()
    finally:
        stop.set()
        t.join()
    assert seen_bad == []
    assert not list(reports.glob("*.tmp")) and not list(reports.glob(".journal-*"))


# --------------------------------------------------------------------------- the schema


def test_schema_knows_every_verdict_and_the_current_version():
    from lemmacheck.model.verdict import Verdict
    from lemmacheck.run.results import SCHEMA_VERSION
    from lemmacheck.schema import readable_versions, schema

    assert SCHEMA_VERSION in readable_versions()
    assert {v.value for v in Verdict} <= set(schema()["$defs"]["verdict"]["enum"])


def test_schema_accepts_real_output_of_every_kind():
    import sympy as sp

    from lemmacheck import (
        Source,
        StudyResult,
        Table,
        Verdict,
        approximation,
        complexity,
        derivation,
        inequality,
        study,
        value,
    )
    from lemmacheck.model.inputs import Array
    from lemmacheck.run.engine import run_claims
    from lemmacheck.search.profile import QUICK

    meta = dict(title="t", source=Source("planted.txt", "here"), statement="x")
    with REGISTRY.scratch():
        x = sp.Symbol("x", positive=True)
        value("s.value", computed=lambda: 3, stated=3, expected=Verdict.PROVED, **meta)
        complexity(
            "s.cost",
            cost=lambda n: n**2,
            grid={"n": [8, 16, 32, 64]},
            stated={"n": 2},
            expected=Verdict.HOLDS,
            **meta,
        )
        derivation("s.derivation", chain=[x**2 + 1, ">=", 2 * x], expected=Verdict.PROVED, **meta)

        @inequality(
            "s.refuted",
            inputs={"x": Array("n")},
            dims={"n": [1, 2]},
            relations=["<=", "<="],
            expected=Verdict.REFUTED,
            **meta,
        )
        def refuted(xp, x):
            return xp.vector_norm(x, 1), xp.vector_norm(x, 2), xp.vector_norm(x, 1) / 2

        @approximation("s.approx", inputs={"x": Array()}, order=2, expected=Verdict.APPROXIMATE, **meta)
        def approx(xp, eps, x):
            return xp.exp(eps * x), 1 + eps * x

        @study("s.study", title="a study")
        def a_study(profile):
            return StudyResult(tables=[Table("t", ["a", "b"], [[1, 2.5]])], conclusion="c")

        value("Bad Id", computed=lambda: 1, stated=1, expected=Verdict.PROVED, **meta)
        data = run_claims(QUICK.with_seed(3)).to_dict()
    kinds = {c["kind"] for c in data["claims"]}
    assert kinds >= {"worked example", "complexity", "inequality", "approximation"}
    assert "ERROR" in {c["verdict"] for c in data["claims"]}
    validate_results(data)
    json.loads(json.dumps(data))


# --------------------------------------------------------------------------- optional extras


def test_every_optional_extra_of_pyproject_is_named_with_its_feature():
    """An extra added to pyproject.toml without its entry would fail as a bug when missing."""
    import tomllib

    from lemmacheck.extras import EXTRAS

    root = Path(__file__).resolve().parents[1]
    declared = tomllib.loads((root / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert set(declared) - {"test"} == set(EXTRAS)


@pytest.mark.parametrize(
    ("argv", "module", "extra"),
    [
        (["run", "--dask", "local", "-j", "1", "--quiet"], "distributed", "dask"),
        (["watch", "-j", "1"], "watchfiles", "watch"),
    ],
)
def test_a_missing_extra_is_a_usage_error_naming_it(in_project, monkeypatch, capsys, argv, module, extra):
    """Found: `--dask local` in a plain install exited 3 with a traceback and 'this is a bug'."""
    monkeypatch.setitem(sys.modules, module, None)  # import of it raises ImportError, as when absent
    assert cli.main(argv) == ExitCode.USAGE_ERROR
    err = capsys.readouterr().err
    assert f"pip install 'lemmacheck[{extra}]'" in err
    assert "Traceback" not in err and "bug" not in err
    assert not (in_project / "reports").exists()  # refused before anything ran


def test_certify_without_z3_says_which_route_is_off_and_runs(in_project, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "z3", None)
    assert cli.main(["run", "--certify", "-j", "1", "--quiet", "--no-cache"]) == ExitCode.OK
    assert "the Z3 route is off" in capsys.readouterr().err


def test_a_dataframe_without_pandas_names_the_notebook_extra(monkeypatch):
    from lemmacheck.api import Catalogue
    from lemmacheck.errors import MissingExtraError

    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'lemmacheck\[notebook\]'"):
        Catalogue([]).to_dataframe()
