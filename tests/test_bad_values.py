"""Every bad value the command line reads is a usage error of one line (exit 4) naming the option or the
environment variable and what it may be; damaged state of the wrong shape is set aside and rebuilt."""

from __future__ import annotations

import json

import pytest

from lemmacheck.cli import main as cli
from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.report import render_cache
from lemmacheck.report.mathml import latex_to_mathml
from lemmacheck.report.plots import histogram_svg

BAD_VARIABLES = [
    ("LEMMACHECK_SEED", "garbage", "'random'"),
    ("LEMMACHECK_SEED", "-1", "[0, 2**63)"),
    ("LEMMACHECK_SCALE", "-1", "(0, 1000]"),
    ("LEMMACHECK_SCALE", "nan", "(0, 1000]"),
    ("LEMMACHECK_SCALE", "1e308", "(0, 1000]"),
    ("LEMMACHECK_SCALE", "four", "(0, 1000]"),
    ("LEMMACHECK_ROOT", "/no/such/folder", "an existing folder"),
]


def _one_usage_line(capsys, *names: str) -> str:
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert all(n in lines[0] for n in names), f"{names} not named in {lines[0]!r}"
    return lines[0]


@pytest.mark.parametrize("command", [["run", "-k", "lse.bound"], ["list"], ["show", "lse.bound"]])
@pytest.mark.parametrize(("name", "value", "allowed"), BAD_VARIABLES)
def test_a_bad_environment_variable_is_one_usage_line_before_any_work(
    tmp_path, monkeypatch, capsys, command, name, value, allowed
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(name, value)
    assert cli.main(command) == ExitCode.USAGE_ERROR
    _one_usage_line(capsys, f"{name}={value!r}", allowed)
    assert not (tmp_path / "reports").exists()


def test_a_file_where_the_kept_examples_folder_goes_is_a_usage_error(tmp_path, monkeypatch, capsys):
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("LEMMACHECK_EXAMPLES", str(tmp_path / "a-file"))
    assert cli.main(["list"]) == ExitCode.USAGE_ERROR
    _one_usage_line(capsys, "LEMMACHECK_EXAMPLES", "a folder")


BAD_OPTIONS = [
    (["run", "--timeout", "1e308"], "--timeout", "(0, 1e+06]"),
    (["run", "--timeout", "nan"], "--timeout", "'none'"),
    (["run", "--timeout", "-1"], "--timeout", "(0, 1e+06]"),
    (["watch", "--timeout", "0"], "--timeout", "(0, 1e+06]"),
    (["run", "-j", "0"], "-j", "≥ 1"),
    (["run", "--junitxml", "/"], "--junitxml", "not the folder"),
    (["run", "--badge", "/etc/passwd/badge.svg"], "--badge", "a parent of"),
    (["run", "--seed", "1.5"], "--seed", "'random'"),
    (["mutate", "--effort", "nan"], "--effort", "(0, 1000]"),
    (["mutate", "--effort", "1e308"], "--effort", "(0, 1000]"),
    (["mutate", "--time-cap", "1e308"], "--time-cap", "(0, 1e+06]"),
    (["mutate", "--min-score", "2"], "--min-score", "[0, 1]"),
    (["mutate", "--fraction", "inf"], "--fraction", "(0, 1]"),
    (["mutate", "--seed", "-3"], "--seed", "[0, 2**63)"),
    (["mutate", "--sample", "x"], "--sample", "≥ 1"),
]


@pytest.mark.parametrize(("argv", "option", "allowed"), BAD_OPTIONS)
def test_a_bad_option_value_is_one_usage_line_naming_it(tmp_path, monkeypatch, capsys, argv, option, allowed):
    monkeypatch.chdir(tmp_path)
    assert cli.main(argv) == ExitCode.USAGE_ERROR
    _one_usage_line(capsys, f"argument {option}", allowed)


@pytest.mark.parametrize(
    "nesting", ["(" * 3000 + "lse" + ")" * 3000, "not " * 3000 + "lse", "(not " * 1500 + "x" + ")" * 1500]
)
def test_a_k_expression_nested_thousands_deep_is_a_usage_error_not_a_recursion_error(
    tmp_path, monkeypatch, capsys, nesting
):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["list", "-k", nesting]) == ExitCode.USAGE_ERROR
    line = _one_usage_line(capsys, "nested deeper than 100 levels")
    assert len(line) < 300, "the expression is shortened, not echoed 6000 characters long"


WRONG_SHAPES = [5, "ab", None, {"a": 1}, [], ["value"], ["markup", 5], ["value", 5], ["other", "x"]]


@pytest.mark.parametrize("entry", WRONG_SHAPES, ids=json.dumps)
def test_a_render_cache_entry_of_the_wrong_shape_is_removed_and_drawn_again(tmp_path, entry):
    folder = tmp_path / "plots"

    def render():
        with render_cache.kept_in(folder):
            return latex_to_mathml(r"a \le b"), histogram_svg("t", "x", [1.0, 2.0], [0.0, 1.0, 2.0])

    first = render()
    kept = sorted(folder.glob("*.json"))
    assert len(kept) == 2
    for path in kept:
        path.write_text(json.dumps(entry))
    assert render() == first
    assert all(json.loads(p.read_text()) != entry for p in kept), "rewritten with the drawn value"


@pytest.mark.parametrize(("name", "value"), [("LEMMACHECK_SCALE", "nan"), ("LEMMACHECK_SEED", "garbage")])
def test_the_pytest_plugin_refuses_a_bad_variable_as_pytest_refuses_a_bad_option(tmp_path, name, value):
    import os
    import subprocess
    import sys

    (tmp_path / "test_nothing.py").write_text("def test_nothing():\n    pass\n")
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        env=dict(os.environ, **{name: value}),
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == ExitCode.USAGE_ERROR, proc.stdout + proc.stderr
    assert name in proc.stderr and repr(value) in proc.stderr and "Traceback" not in proc.stderr, proc.stderr


REPORT = {
    "schema_version": 2,
    "tool": {},
    "run": {"seed": 1, "profile": "quick", "started": "x", "seconds": 1.0},
    "counts": {},
    "mismatches": [],
    "claims": [],
    "studies": [],
}


@pytest.mark.parametrize("mutation", [5, {"claims": 5}, "text"], ids=json.dumps)
def test_a_mutation_report_of_the_wrong_shape_is_set_aside_and_the_page_written(tmp_path, capsys, mutation):
    from lemmacheck.report.folder import write_report

    (tmp_path / "mutation.json").write_text(json.dumps(mutation))
    write_report(tmp_path, REPORT)
    assert (tmp_path / "index.html").is_file() and (tmp_path / "mutation.json.damaged").is_file()
    line = _one_usage_line(capsys, "mutation.json", "set aside as mutation.json.damaged")
    assert "lemmacheck mutate" in line


def test_history_lines_of_the_wrong_shape_are_dropped_as_torn_ones_are(tmp_path):
    from lemmacheck.report import history

    good = {"claims": {"a": ["HOLDS", None]}, "counts": {"HOLDS": 1}, "commit": "abc", "seed": 1}
    wrong = [
        {"claims": {"a": 5}},
        {"claims": {"a": ["HOLDS"]}},
        {"claims": {}, "counts": [1]},
        {"claims": {}, "counts": {"HOLDS": "x"}},
        {"claims": {}, "seed": [1]},
    ]
    (tmp_path / history.HISTORY_NAME).write_text("".join(json.dumps(h) + "\n" for h in [*wrong, good]))
    assert history.read(tmp_path) == [good]
    assert "abc" in history.history_html(history.read(tmp_path))


@pytest.mark.parametrize("command", ["render", "diff"])
def test_a_fifo_given_as_a_results_file_is_a_usage_error_not_a_hang(tmp_path, monkeypatch, capsys, command):
    import os

    fifo = tmp_path / "results.json"
    os.mkfifo(fifo)  # before, reading it waited for a writer forever
    argv = [command, str(fifo)] + ([str(fifo)] if command == "diff" else [])
    assert cli.main(argv) == ExitCode.USAGE_ERROR
    _one_usage_line(capsys, str(fifo), "not a regular file")
