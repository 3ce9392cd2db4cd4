"""``lemmacheck show <id>``: one claim in the terminal, with where it is defined."""

from __future__ import annotations

from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.cli.main import main


def test_show_prints_statement_verdicts_counterexample_replay_and_location(capsys):
    code = main(["show", "lse.bound_eq3", "--seed", "1"])
    out = capsys.readouterr().out
    assert code == ExitCode.OK
    for expected in (
        "statement:",
        r"\frac12",
        "§A, eq. (3)",
        "verdict of the statement:\n  REFUTED",
        "proof as written:\n  none given",
        "counterexample (certified)",
        '"dps"',
        "replay:\n  lemmacheck run --seed 1 -k id:lse.bound_eq3",
        "declaration: ",
        "lse.py:",
    ):
        assert expected in out, expected


def test_show_names_the_broken_step_of_a_proof(capsys):
    main(["show", "lemma3.eq20", "--seed", "1"])
    out = capsys.readouterr().out
    assert "proof as written:\n  broken at step 2" in out


def test_show_an_unknown_id_is_a_usage_error(capsys):
    assert main(["show", "lse.boun"]) == ExitCode.USAGE_ERROR
    assert "lse.bound" in capsys.readouterr().err
