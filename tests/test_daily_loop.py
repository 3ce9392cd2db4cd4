"""The daily loop (issue 24) and the CLI as a pytest user expects it (issue 21 §4).

A rerun with nothing changed is answered from the cache; a counterexample once found is replayed at
every seed; --lf, --ff, -x; a selection updates its claims inside the full report; diff, JUnit XML, the
badge; usage errors are one line with pytest's exit code 4; claim text never drives the terminal.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import planted_meta
from lemmacheck import Verdict, inequality
from lemmacheck.cli import main as cli
from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.model.claim import REGISTRY
from lemmacheck.model.inputs import Array
from lemmacheck.run.engine import run_claim
from lemmacheck.schema import validate_results
from lemmacheck.search.examples import keeping
from lemmacheck.search.profile import QUICK
from lemmacheck.search.seed import DEFAULT_SEED

_NUMBERS = itertools.count()

THREE_CLAIMS = """
from lemmacheck import Source, Verdict, value
value("loop.a_good", computed=lambda: 1, stated=1, title="good a", source=Source("p.txt", "1"),
      statement="1 = 1", expected=Verdict.PROVED)
value("loop.b_bad", computed=lambda: 2, stated=1, title="bad b", source=Source("p.txt", "2"),
      statement="2 = 1", expected=Verdict.PROVED)
value("loop.c_good", computed=lambda: 3, stated=3, title="good c", source=Source("p.txt", "3"),
      statement="3 = 3", expected=Verdict.PROVED)
"""


def _project(root: Path, body: str) -> Path:
    package = f"planted_loop_{next(_NUMBERS)}_{os.getpid()}"  # Python caches modules by name
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text(f'[tool.lemmacheck]\ncontent = ["{package}"]\n')
    (root / "checks").mkdir(exist_ok=True)
    (root / package).mkdir()
    (root / package / "__init__.py").write_text("")
    (root / package / "planted.py").write_text(textwrap.dedent(body))
    return root


@pytest.fixture
def three(tmp_path, monkeypatch):
    """A project of three claims, one of which differs from its expectation, run in-process."""
    root = _project(tmp_path / "project", THREE_CLAIMS)
    monkeypatch.chdir(root)
    monkeypatch.delenv("LEMMACHECK_SEED", raising=False)
    monkeypatch.setenv("LEMMACHECK_EXAMPLES", str(tmp_path / "examples"))
    with REGISTRY.scratch():
        yield root


def _results(root: Path) -> dict:
    return validate_results(json.loads((root / "reports" / "results.json").read_text()))


# --------------------------------------------------------------------------- 24.1 the seed and the cache


def test_a_rerun_with_nothing_changed_uses_the_same_seed_and_the_cache(three, capsys):
    assert cli.main(["run", "--quiet", "--no-html", "-j", "1"]) == ExitCode.TESTS_FAILED
    first = capsys.readouterr().out
    assert f"seed {DEFAULT_SEED} " in first and "--seed random explores" in first
    assert cli.main(["run", "--quiet", "--no-html", "-j", "1"]) == ExitCode.TESTS_FAILED
    again = capsys.readouterr().out
    assert f"seed {DEFAULT_SEED} " in again
    assert "3 of 3 results answered from the cache" in again
    assert "no verdict or proof status changed since the previous run" in again


def test_seed_random_draws_a_new_seed_and_prints_it(three, capsys):
    assert cli.main(["run", "--quiet", "--no-html", "-j", "1", "--seed", "random"]) == ExitCode.TESTS_FAILED
    seed = int(re.search(r"lemmacheck: seed (\d+)", capsys.readouterr().out).group(1))
    assert seed != DEFAULT_SEED
    assert _results(three)["run"]["seed"] == seed


def test_a_counterexample_once_found_is_replayed_at_every_seed(tmp_path, monkeypatch):
    monkeypatch.setenv("LEMMACHECK_EXAMPLES", str(tmp_path / "examples"))

    def declare(examples):
        # x**3 <= x holds on the sampled domain [0, 1]; it fails at x = 1.5, which no seed draws
        @inequality(
            "planted.kept", inputs={"x": Array(low=0.0, high=1.0)}, examples=examples, **planted_meta()
        )
        def kept(xp, x):
            return x**3, x

    with REGISTRY.scratch() as never_found:
        declare([])
        assert run_claim(never_found["planted.kept"], QUICK.with_seed(1)).verdict is Verdict.HOLDS
    assert not (tmp_path / "examples").exists()
    with REGISTRY.scratch() as found_once:
        declare([{"dims": {}, "inputs": {"x": 1.5}}])  # the one run that saw the counterexample
        claim = found_once["planted.kept"]
        assert run_claim(claim, QUICK.with_seed(2)).verdict is Verdict.REFUTED
        assert not (tmp_path / "examples").exists(), "kept only by run, watch and show (not a mutant's)"
        with keeping():
            assert run_claim(claim, QUICK.with_seed(2)).verdict is Verdict.REFUTED
    assert len(list((tmp_path / "examples").glob("*.json"))) == 1
    with REGISTRY.scratch() as other_domain:
        # the same id over another domain (x in [2, 3]) never replays an instance outside it
        @inequality("planted.kept", inputs={"x": Array(low=2.0, high=3.0)}, **planted_meta(Verdict.REFUTED))
        def kept_elsewhere(xp, x):
            return 0 * x + 2.0, x  # 2 <= x: true on [2, 3], false at the kept x = 1.5

        r = run_claim(other_domain["planted.kept"], QUICK.with_seed(3))
        assert r.verdict is Verdict.HOLDS and r.evidence.get("counterexample") is None
    with REGISTRY.scratch() as later:
        declare([])  # the witness is gone from the declaration: the kept example still refutes it
        for seed in (3, 4):
            r = run_claim(later["planted.kept"], QUICK.with_seed(seed))
            assert r.verdict is Verdict.REFUTED, (seed, r.evidence)
            assert r.evidence["counterexample"]["inputs"]["x"] == 1.5


# --------------------------------------------------------------------------- 24.1 --lf, --ff, -x


def test_last_failed_checks_only_the_claims_that_differed(three, capsys):
    cli.main(["run", "--quiet", "--no-html", "-j", "1"])
    capsys.readouterr()
    assert cli.main(["run", "--quiet", "--no-html", "-j", "1", "--lf", "--no-cache"]) == ExitCode.TESTS_FAILED
    captured = capsys.readouterr()
    assert "--lf: checking the 1 claim(s) that differed last time" in captured.err
    assert "2 claims not selected are kept in the report as last checked" in captured.out
    data = _results(three)
    assert [c["id"] for c in data["claims"]] == ["loop.a_good", "loop.b_bad", "loop.c_good"]
    assert data["run"]["checked"] == 1 and data["run"]["carried"] == 2


def test_failed_first_checks_the_failures_first(three, capsys):
    cli.main(["run", "--quiet", "--no-html", "-j", "1"])
    capsys.readouterr()
    assert cli.main(["run", "--no-html", "-j", "1", "--ff", "-x", "--no-cache"]) == ExitCode.TESTS_FAILED
    err = capsys.readouterr().err
    assert "--ff: the 1 claim(s) that differed last time first" in err
    # -x stops at the first claim that differs, which --ff put first: nothing else was checked
    assert "stopped at the first claim that differs (-x), loop.b_bad, after 1 of 3 claims" in err


def test_exitfirst_stops_at_the_first_difference_and_keeps_the_rest_of_the_report(three, capsys):
    assert cli.main(["run", "--quiet", "--no-html", "-j", "1"]) == ExitCode.TESTS_FAILED
    assert cli.main(["run", "--quiet", "--no-html", "-j", "1", "-x", "--no-cache"]) == ExitCode.TESTS_FAILED
    err = capsys.readouterr().err
    m = re.search(r"stopped at the first claim that differs \(-x\), loop.b_bad, after (\d) of 3 claims", err)
    assert m and 1 <= int(m.group(1)) <= 3, err
    data = _results(three)
    assert len(data["claims"]) == 3 and "(-x)" in data["run"]["incomplete"]


# --------------------------------------------------------------------------- 24.2 the full report


def test_a_selection_updates_its_claims_inside_the_full_report(three, capsys):
    cli.main(["run", "--quiet", "--no-html", "-j", "1", "--seed", "5"])
    full = _results(three)
    assert cli.main(["run", "--quiet", "--no-html", "-j", "1", "-k", "a_good", "--seed", "6"]) == ExitCode.OK
    after = _results(three)
    assert [c["id"] for c in after["claims"]] == [c["id"] for c in full["claims"]]
    by_id = {c["id"]: c for c in after["claims"]}
    assert by_id["loop.a_good"]["checked"]["seed"] == 6 and by_id["loop.b_bad"]["checked"]["seed"] == 5
    assert after["counts"]["PROVED"] == 2 and after["mismatches"] == ["loop.b_bad"]
    capsys.readouterr()
    cli.main(["run", "--quiet", "--no-html", "-j", "1", "--seed", "6"])
    out = capsys.readouterr().out
    assert "no verdict or proof status changed since the previous run" in out, out
    assert _results(three)["changes"] == []


def test_a_claim_gone_from_the_catalogue_is_reported_removed(three, capsys):
    cli.main(["run", "--quiet", "--no-html", "-j", "1"])
    data = _results(three)
    data["claims"].append(dict(data["claims"][0], id="loop.gone"))
    (three / "reports" / "results.json").write_text(json.dumps(data))
    capsys.readouterr()
    cli.main(["run", "--quiet", "--no-html", "-j", "1"])
    assert "loop.gone: removed" in capsys.readouterr().out
    assert "loop.gone" not in {c["id"] for c in _results(three)["claims"]}


# --------------------------------------------------------------------------- 24.3 / 24.5 machine output


def test_junit_xml_and_badge(three, tmp_path):
    junit, badge = tmp_path / "out" / "junit.xml", tmp_path / "badge.svg"
    argv = ["run", "--quiet", "--no-html", "-j", "1", "--junitxml", str(junit), "--badge", str(badge)]
    assert cli.main(argv) == ExitCode.TESTS_FAILED
    suite = ET.parse(junit).getroot().find("testsuite")
    assert (suite.get("tests"), suite.get("failures"), suite.get("errors")) == ("3", "1", "0")
    failed = [c.get("name") for c in suite.iter("testcase") if c.find("failure") is not None]
    assert failed == ["loop.b_bad"]
    svg = badge.read_text()
    assert "3 claims" in svg and "1 refuted" in svg and "2 proved" in svg and "<script" not in svg


def test_diff_lists_what_changed_between_two_reports(three, tmp_path, capsys):
    cli.main(["run", "--quiet", "--no-html", "-j", "1"])
    before = tmp_path / "before.json"
    before.write_text((three / "reports" / "results.json").read_text())
    assert cli.main(["diff", str(before), str(before)]) == ExitCode.OK
    assert "no claim changed (3 claims" in capsys.readouterr().out
    data = json.loads(before.read_text())
    data["claims"][0]["verdict"] = "REFUTED"
    data["claims"][0]["evidence"]["counterexample"] = {"dims": {}, "inputs": {"x": 2.0}}
    after = tmp_path / "after.json"
    after.write_text(json.dumps(data))
    assert cli.main(["diff", str(before), str(after)]) == ExitCode.TESTS_FAILED
    out = capsys.readouterr().out
    assert "loop.a_good: verdict: PROVED → REFUTED" in out and "loop.a_good: counterexample: none →" in out


# --------------------------------------------------------------------------- 21 §4 usage errors


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--timeout", "-1"],
        ["run", "--timeout", "0"],
        ["run", "--timeout", "nan"],
        ["run", "-j", "0"],
        ["run", "--seed", "x"],
        ["run", "--seed", "-3"],
        ["show"],
        ["nonsense"],
    ],
)
def test_usage_errors_are_one_line_and_exit_4(three, argv, capsys):
    assert cli.main(argv) == ExitCode.USAGE_ERROR
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "error" in err and "Traceback" not in err, err


def test_an_unreachable_dask_scheduler_is_a_usage_error(three, capsys):
    dask = pytest.importorskip("dask")
    pytest.importorskip("distributed")
    argv = ["run", "--quiet", "--no-html", "--dask", "tcp://127.0.0.1:1", "--timeout", "30"]
    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}):  # refused at once; 30 s by default
        assert cli.main(argv) == ExitCode.USAGE_ERROR
    err = capsys.readouterr().err
    assert "--dask tcp://127.0.0.1:1: cannot use the Dask scheduler" in err and "Traceback" not in err


def test_rendering_a_deeply_nested_file_is_a_usage_error(tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert cli.main(["render", str(path)]) == ExitCode.USAGE_ERROR
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


def test_list_into_a_closed_pipe_is_not_an_error(tmp_path):
    body = THREE_CLAIMS + textwrap.dedent("""
        # 40 lines of 2,000+ characters: more than a pipe's 64 KiB buffer (few claims: each declaration
        # costs a walk of the caller's stack)
        for i in range(40):
            value(f"loop.many_{i:04d}", computed=lambda: 1, stated=1, title="t",
                  source=Source("p.txt", "x" * 2000), statement="1 = 1", expected=Verdict.PROVED)
    """)
    root = _project(tmp_path / "p", body)
    proc = subprocess.Popen(
        [sys.executable, "-m", "lemmacheck.cli", "list"],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout.readline().startswith(b"loop.")
    proc.stdout.close()  # `| head -1`
    with proc.stderr:
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == ExitCode.OK, err
    assert "internal error" not in err and "BrokenPipe" not in err, err


# --------------------------------------------------------------------------- 21 §4 claim text


def test_control_characters_from_claims_are_escaped_on_the_terminal(tmp_path, monkeypatch, capsys):
    root = _project(
        tmp_path / "p",
        """
        from lemmacheck import Source, Verdict, value
        def clears_the_screen():
            raise ValueError("\\x1b[2J\\x1b]8;;http://x\\x07link\\x1b]8;;\\x07 \\u202eevil")
        value("loop.escape", computed=clears_the_screen, stated=1, title="t\\x1b[31m",
              source=Source("p.txt", "1"), statement="s", expected=Verdict.PROVED)
        """,
    )
    monkeypatch.chdir(root)
    with REGISTRY.scratch():
        assert cli.main(["run", "--no-html", "-j", "1"]) == ExitCode.TESTS_FAILED
        assert cli.main(["list"]) == ExitCode.OK
        assert cli.main(["show", "loop.escape"]) == ExitCode.TESTS_FAILED
    captured = capsys.readouterr()
    text = captured.out + captured.err
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    assert "\\x1b[2J" in text and "\\u202e" in text


# --------------------------------------------------------------------------- 24.5 watch sees every save


@pytest.mark.parametrize("delay", [0.0, 1.0], ids=["at-once", "one-second-later"])
def test_watch_sees_a_save_made_right_after_it_says_watching(tmp_path, delay):
    import time

    pytest.importorskip("watchfiles")
    from planted_project import AM_GM, make_project, watching

    pkg = make_project(tmp_path, {"first": AM_GM})
    with watching(tmp_path, "-j", "1", "--no-html", "--seed", "3") as (proc, lines):
        deadline = time.monotonic() + 180
        while not any(line.startswith("watching") for line in lines):
            assert time.monotonic() < deadline and proc.poll() is None, "".join(lines)
            time.sleep(0.02)
        time.sleep(delay)
        first = tmp_path / pkg / "first.py"
        first.write_text(first.read_text().replace("(a + b) / 2", "(a + b) / 4"))  # now false
        while not any("HOLDS -> REFUTED" in line for line in lines):
            assert time.monotonic() < deadline, "the save was not seen:\n" + "".join(lines)
            time.sleep(0.05)


# --------------------------------------------------------------------------- 24.3 history


def test_history_keeps_one_entry_per_commit_and_renders_a_static_page(three, capsys):
    from lemmacheck.report.history import read

    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q", str(three)], check=True)
    subprocess.run([*git, "-C", str(three), "add", "."], check=True)
    subprocess.run([*git, "-C", str(three), "commit", "-qm", "one"], check=True)
    cli.main(["run", "--quiet", "-j", "1"])
    cli.main(["run", "--quiet", "-j", "1", "--seed", "9"])  # the same commit: its entry is replaced
    history = read(three / "reports")
    assert len(history) == 1 and history[0]["seed"] == 9 and not history[0]["commit"].endswith("+dirty")
    planted = next(three.glob("planted_loop_*/planted.py"))
    planted.write_text(planted.read_text().replace("computed=lambda: 2", "computed=lambda: 1"))
    subprocess.run([*git, "-C", str(three), "commit", "-qam", "two: b fixed"], check=True)
    cli.main(["run", "--quiet", "-j", "2"])  # in worker processes, which import the edited module
    history = read(three / "reports")
    assert [h["claims"]["loop.b_bad"][0] for h in history] == ["REFUTED", "PROVED"]
    assert [h["counts"]["PROVED"] for h in history] == [2, 3]
    page = (three / "reports" / "history.html").read_text()
    assert "Claims whose verdict or proof changed (1)" in page and "<script" not in page
    assert page.index("loop.b_bad") < page.index("Claims that never changed")
    capsys.readouterr()
    assert cli.main(["history"]) == ExitCode.OK
    assert capsys.readouterr().out.strip().endswith("history.html")
    # issue 37: every run of a modified tree is an entry of its own (they collapsed into one +dirty row),
    # the counts are drawn over time, and the report's header links the page
    planted.write_text(planted.read_text().replace("computed=lambda: 1", "computed=lambda: 2"))  # uncommitted
    cli.main(["run", "--quiet", "-j", "1"])
    cli.main(["run", "--quiet", "-j", "1", "--seed", "3"])
    history = read(three / "reports")
    assert [h["commit"].endswith("+dirty") for h in history] == [False, False, True, True]
    assert [h["seed"] for h in history[2:]] == [20261125, 3]
    page = (three / "reports" / "history.html").read_text()
    assert page.count("<svg") == 1 and page.index("<svg") < page.index("<table")  # the trend, then the rows
    assert 'href="history.html"' in (three / "reports" / "index.html").read_text()


@pytest.mark.slow  # a LocalCluster of two workers
def test_dask_local_prints_no_hypothesis_warnings(tmp_path):
    pytest.importorskip("distributed")
    from planted_project import AM_GM, make_project

    make_project(tmp_path, {"first": AM_GM, "second": AM_GM.replace("am_gm", "am_gm_again")})
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "lemmacheck.cli.main",
            "run",
            "--dask",
            "local",
            "-j",
            "2",
            "--quiet",
            "--no-html",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == ExitCode.OK, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "HypothesisDeprecationWarning" not in proc.stderr, proc.stderr[-2000:]
