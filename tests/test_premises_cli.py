"""The command line and premises (issue 36 §2): ``run --with-premises`` checks a claim with everything it
rests on, and ``show`` prints premises, dependents and standing."""

from __future__ import annotations

import itertools
import json

import pytest

from lemmacheck.cli import main as cli
from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.model.claim import REGISTRY
from lemmacheck.schema import validate_results
from test_cli import _project

CHAIN = """
from lemmacheck import Source, Verdict, value
def S(where):
    return Source("p.txt", where)
value("chain.lemma", computed=lambda: 1, stated=2, title="a lemma that is wrong", source=S("Lemma 1"),
      statement="1 = 2", expected=Verdict.REFUTED)
value("chain.eq7", computed=lambda: 7, stated=7, title="eq. 7", source=S("eq. (7)"),
      statement="7 = 7", expected=Verdict.PROVED, uses=("chain.lemma",))
value("chain.lip", computed=lambda: 3, stated=3, title="the constant", source=S("eq. (22)"),
      statement="3 = 3", expected=Verdict.PROVED, uses=("chain.eq7",))
value("chain.other", computed=lambda: 4, stated=4, title="unrelated", source=S("eq. (9)"),
      statement="4 = 4", expected=Verdict.PROVED)
"""
_NUMBERS = itertools.count()


@pytest.fixture
def chain_project(tmp_path, monkeypatch):
    root = _project(tmp_path / "project", f"planted_chain_{next(_NUMBERS)}", CHAIN)
    monkeypatch.chdir(root)
    with REGISTRY.scratch():
        yield root


def test_run_with_premises_checks_everything_a_claim_rests_on(chain_project, capsys):
    assert (
        cli.main(["run", "-k", "lip", "--with-premises", "--quiet", "-j", "1", "--no-studies"]) == ExitCode.OK
    )
    data = json.loads((chain_project / "reports" / "results.json").read_text())
    validate_results(data)
    assert sorted(c["id"] for c in data["claims"]) == ["chain.eq7", "chain.lemma", "chain.lip"]
    lip = next(c for c in data["claims"] if c["id"] == "chain.lip")
    assert lip["verdict"] == "PROVED" and lip["standing"]["status"] == "rests on refuted"
    assert lip["standing"]["path"] == ["chain.lip", "chain.eq7", "chain.lemma"]


def test_run_without_it_leaves_the_premise_unchecked(chain_project, capsys):
    assert cli.main(["run", "-k", "lip", "--quiet", "-j", "1", "--no-studies"]) == ExitCode.OK
    data = json.loads((chain_project / "reports" / "results.json").read_text())
    (lip,) = data["claims"]
    assert lip["standing"]["status"] == "rests on unchecked"


def test_show_prints_premises_dependents_and_standing(chain_project, capsys):
    assert cli.main(["show", "chain.eq7"]) == ExitCode.OK
    out = capsys.readouterr().out
    premises = out.split("premises (uses= and step_is=):", 1)[1]
    assert premises.lstrip().startswith("chain.lemma (REFUTED")
    assert "dependents (claims that use it):\n  chain.lip" in out
    assert "standing:\n  rests on refuted: PROVED as stated, but not established by the document" in out
