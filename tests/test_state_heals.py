"""State that heals (issue 21 §3): a torn journal gives back its complete results, a full disk while
the journal is written prints the verdicts and exits as a full disk on the report does, and a render
finishing after a run into the same folder never replaces the run's newer index.html."""

from __future__ import annotations

import json
import resource
import subprocess
import sys

import pytest

from lemmacheck.cli import main as cli
from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.model.claim import REGISTRY
from lemmacheck.report import folder as output
from lemmacheck.report.folder import write_html_only, write_report
from lemmacheck.report.journal import read_journal
from planted_project import make_project

FOURTEEN = """
from lemmacheck import value

for _i in range(14):
    value(f"{pkg}.v{_i:02d}", computed=lambda: 4, stated=4, **(META | {"expected": Verdict.PROVED}))
"""
RUN = ("run", "--seed", "111111", "--quiet", "--no-studies", "--no-cache", "--no-html", "-j", "1")


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project of 14 instant claims, run once: its reports/results.json."""
    root = tmp_path / "p"
    root.mkdir()
    pkg = make_project(root, {"values": FOURTEEN})
    monkeypatch.chdir(root)
    with REGISTRY.scratch():
        assert cli.main(list(RUN)) == cli.ExitCode.OK
    return root, pkg


def test_a_journal_with_a_torn_last_line_gives_back_every_complete_result(project, capsys):
    root, pkg = project
    data = json.loads((root / "reports" / "results.json").read_text())
    claims = data.pop("claims")
    header = {"journal": 1, "total": len(claims), "data": data | {"claims": []}}
    lines = [json.dumps(header, ensure_ascii=False)] + [json.dumps(c, ensure_ascii=False) for c in claims]
    last = lines[14].encode()
    torn = "\n".join(lines[:14]).encode() + b"\n" + last[: len(last) // 2] + "≤".encode()[:2]
    journal = root / "reports" / ".journal-12345.jsonl"
    journal.write_bytes(torn)
    recovered = read_journal(journal)
    assert [c["id"] for c in recovered["claims"]] == [f"{pkg}.v{i:02d}" for i in range(13)]
    assert "13 of 14 results (1 torn line skipped)" in recovered["run"]["incomplete"]
    assert cli.main(["render", str(journal), "--out", str(root / "recovered.html")]) == cli.ExitCode.OK
    assert f"{pkg}.v12" in (root / "recovered.html").read_text()


def _sizes(results: dict) -> tuple[int, int]:
    """The length of a journal's header line and of its longest result line for ``results``."""
    claims = results["claims"]
    header = {"journal": 1, "total": len(claims), "data": results | {"claims": []}}
    return len(json.dumps(header, ensure_ascii=False)) + 1, max(len(json.dumps(c)) + 1 for c in claims)


def test_a_full_disk_while_the_journal_is_written_prints_the_verdicts_and_exits_as_for_the_report(project):
    root, pkg = project
    header, line = _sizes(json.loads((root / "reports" / "results.json").read_text()))
    limit = header + 2 * line + line // 2  # the journal fills up at its third result; results.json is larger

    def small_disk():  # every file this run (and its workers) write stops growing at `limit` bytes
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    (root / "reports" / "results.json").unlink()
    proc = subprocess.run(
        [sys.executable, "-m", "lemmacheck.cli", *RUN],
        cwd=root,
        preexec_fn=small_disk,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == ExitCode.USAGE_ERROR, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    assert f"cannot write the journal {root / 'reports'}" in proc.stderr
    assert "no report written (the verdicts above are complete)" in proc.stderr, proc.stderr
    assert "PROVED              14" in proc.stdout and "every computed verdict matches" in proc.stdout
    assert not (root / "reports" / "results.json").exists()


def test_a_render_finishing_after_a_run_keeps_the_runs_newer_pair(project, monkeypatch, capsys):
    root, _ = project
    folder = root / "reports"
    older = json.loads((folder / "results.json").read_text())
    newer = json.loads(json.dumps(older).replace("111111", "222222"))
    write_report(folder, older)
    from lemmacheck.report import html

    real = html.render_html
    calls = []

    def a_run_finishes_meanwhile(data, **kw):
        calls.append(1)
        if len(calls) == 1:  # the render's: the run writes its pair while this one is rendered
            write_report(folder, newer)
        return real(data, **kw)

    monkeypatch.setattr(html, "render_html", a_run_finishes_meanwhile)
    assert write_html_only(folder / output.HTML_NAME, older) == folder / output.HTML_NAME
    page = (folder / output.HTML_NAME).read_text()
    assert "222222" in page and "111111" not in page, "the newest run's pair wins"
    assert json.loads((folder / "results.json").read_text())["run"]["seed"] == 222222
    assert "while this was rendered; its index.html is kept" in capsys.readouterr().err


KILLED_BETWEEN_THE_MOVES = """
import json, os, signal, sys
from lemmacheck.report import folder

real, moves = os.replace, []


def replace(src, dst):
    moves.append(dst)
    if len(moves) == 2:  # results.json is in place, index.html not yet
        os.kill(os.getpid(), signal.SIGKILL)
    real(src, dst)


folder.os.replace = replace
folder.write_report(sys.argv[1], json.loads(open(sys.argv[2]).read()))
"""


def test_a_run_killed_between_the_two_moves_leaves_a_pair_that_says_so_and_the_next_report_heals(
    project, capsys
):
    root, _ = project
    folder = root / "reports"
    older = json.loads((folder / "results.json").read_text())
    write_report(folder, older)  # a whole pair, then a run writing the next one is killed halfway
    newer = json.loads(json.dumps(older).replace("111111", "222222"))
    (root / "newer.json").write_text(json.dumps(newer))
    journal = folder / ".journal-999999999.jsonl"  # a pid no process has: a killed run's
    journal.write_text('{"journal": 1}\n')
    proc = subprocess.run(
        [sys.executable, "-c", KILLED_BETWEEN_THE_MOVES, str(folder), str(root / "newer.json")], check=False
    )
    assert proc.returncode == -9, "killed between the moves"
    assert json.loads((folder / "results.json").read_text())["run"]["seed"] == 222222
    assert "111111" in (folder / "index.html").read_text(), "the old page beside the new results"
    assert [p.name for p in folder.glob(".index.html.*.tmp")], "the killed writer's temporary page"
    problem = output.pair_problem(folder)
    assert (
        "index.html is not the page of results.json beside it" in problem and "lemmacheck render" in problem
    )

    with REGISTRY.scratch():  # the next run says so before it starts, and writes a pair that agrees
        assert cli.main(list(RUN)[:-3] + ["-j", "1"]) == cli.ExitCode.OK
    err = capsys.readouterr().err
    assert f"warning: {problem}" in err
    assert output.pair_problem(folder) == ""
    in_json = json.loads((folder / "results.json").read_text())["run"]["generation"]
    assert f'<meta name="lemmacheck-generation" content="{in_json}">' in (folder / "index.html").read_text()
    assert not list(folder.glob(".*.tmp")), "the stray temporary file is removed"
    assert not journal.exists() and "the journal of a run that was killed" in err


def test_a_pair_written_whole_agrees(project):
    root, _ = project
    folder = root / "reports"
    assert output.pair_problem(folder) == ""
    write_report(folder, json.loads((folder / "results.json").read_text()))
    assert output.pair_problem(folder) == "" and "generation" in (folder / "index.html").read_text()
