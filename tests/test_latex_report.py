"""statement_check where a reader sees it: the card, `lemmacheck show`, the tally and results.json."""

from __future__ import annotations

from lemmacheck import REGISTRY, Array, Input, Source, SymbolTable, Verdict, inequality
from lemmacheck.cli.show import format_claim
from lemmacheck.report.notebook import cards_html
from lemmacheck.run.claimrun import run_claim
from lemmacheck.run.results import statement_counts
from lemmacheck.schema import validate_results
from lemmacheck.search.profile import profile_named

symbols = SymbolTable("tests/test_latex_report.py", {r"\mathbf{x}": Input("x"), r"\mathbf{y}": Input("y")})

# The statement says 1/4 where the check has 1/2: both hold, and they are not the same statement.
STATEMENT = r"\mathbf{x}^\top\mathbf{y} \le \tfrac14\|\mathbf{x}\|_2^2 + \|\mathbf{y}\|_2^2"


def _result():
    with REGISTRY.scratch():

        @inequality(
            "planted.young",
            title="Young's inequality",
            source=Source.project("a drift planted in the LaTeX"),
            statement=STATEMENT,
            expected=Verdict.HOLDS,
            inputs={"x": Array("n"), "y": Array("n")},
            dims={"n": [1, 2, 3]},
        )
        def young(xp, x, y):
            return xp.sum(x * y, axis=-1), xp.sum(x * x, axis=-1) / 2 + xp.sum(y * y, axis=-1) / 2

        claim = REGISTRY["planted.young"]
        return claim, run_claim(claim, profile_named("quick").with_seed(3))


def test_a_difference_is_on_the_card_in_show_and_in_results_json():
    claim, result = _result()
    assert result.verdict is Verdict.HOLDS  # the check holds; the statement it shows is another one
    sc = result.statement_check
    assert sc["status"] == "differs" and sc["digits"] >= 50, sc
    card = cards_html([result.to_dict()])
    assert "statement as compiled:</strong> differs" in card and "60 digits" in card
    shown = format_claim(claim, result)
    assert "statement as compiled" in shown and "differs" in shown
    from lemmacheck.run.engine import RunResult

    data = RunResult(seed=3, profile="quick", results=[result], studies=[], started="", seconds=0.0).to_dict()
    assert data["statement_counts"]["differs"] == 1
    validate_results(data)


def test_the_tally_counts_each_status_and_explained_differences_apart():
    counts = statement_counts(
        [
            {"status": "agrees", "instances": 3},
            {"status": "differs"},
            {"status": "differs", "explained": "the check reads the corrected form"},
            {"status": "not compiled", "reason": "x"},
            None,  # a result from before the compiler: not compiled
        ]
    )
    assert counts == {"agrees": 1, "differs": 1, "differs (explained)": 1, "not compiled": 2}
