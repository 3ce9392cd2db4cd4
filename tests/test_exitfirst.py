"""``lemmacheck run -x`` stops at the first claim that differs from the catalogue, and only at one that a
full run reports too: a chain whose linked claim (``step_is=``) has not run yet is not a difference.

Found: ``lemmacheck run && lemmacheck run -x`` exited 1 "after 155 of 430 claims" without naming a claim,
because ``eig.s003.top_eig``'s proof was ``unsettled`` until its linked claim ran.
"""

from __future__ import annotations

import pytest

from lemmacheck.cli import main as cli
from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.model.claim import REGISTRY
from planted_project import make_project

# the chain is declared (and so run) before the claim its step 2 is: a link judged late
CHAIN_BEFORE_ITS_LINK = """
@inequality("{pkg}.chain", inputs={"x": Array("n")}, dims={"n": [1, 2]}, relations=("<=", "<="),
            step_is={2: "{pkg}.sibling"}, **META)
def chain(xp, x):
    a = xp.sum(xp.abs(x), axis=-1)
    return a / 2, a, 2 * a


@inequality("{pkg}.sibling", inputs={"x": Array("n")}, dims={"n": [1, 2]}, **META)
def sibling(xp, x):
    a = xp.sum(xp.abs(x), axis=-1)
    return a, 2 * a
"""

WRONG_EXPECTATION = """
@inequality("{pkg}.wrong", inputs={"x": Array("n")}, dims={"n": [1, 2]}, **META)
def wrong(xp, x):
    a = xp.sum(xp.abs(x), axis=-1)
    return a + 1, a  # false everywhere, declared HOLDS
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    def make(body: str) -> str:
        pkg = make_project(tmp_path, {"mod": body})
        monkeypatch.chdir(tmp_path)
        return pkg

    with REGISTRY.scratch():
        yield make


@pytest.mark.parametrize("selection", [[], ["-k", "chain"]])
def test_exitfirst_on_a_clean_catalogue_exits_0(project, capsys, selection):
    pkg = project(CHAIN_BEFORE_ITS_LINK)
    assert cli.main(["run", "-x", "-j", "1", "--quiet", "--no-cache", *selection]) == ExitCode.OK, (
        capsys.readouterr()
    )
    out = capsys.readouterr().out
    assert "every computed verdict matches" in out and f"{pkg}.chain" not in out


def test_the_stop_names_the_claim_and_what_differs(project, capsys):
    pkg = project(CHAIN_BEFORE_ITS_LINK + WRONG_EXPECTATION)
    assert cli.main(["run", "-x", "-j", "1", "--quiet", "--no-cache"]) == ExitCode.TESTS_FAILED
    captured = capsys.readouterr()
    assert f"stopped at the first claim that differs (-x), {pkg}.wrong, after " in captured.err
    assert f"{pkg}.wrong: computed REFUTED, expected HOLDS" in captured.out
