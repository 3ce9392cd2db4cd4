"""Claims and derivation chains written in LaTeX alone: the statement compiles into the check."""

from __future__ import annotations

from lemmacheck import REGISTRY, Array, Input, Source, SymbolTable, Verdict, from_statement, inequality
from lemmacheck.latex.declare import COMPILED_ATTR
from lemmacheck.model.verdict import ProofStatus
from lemmacheck.run.claimrun import run_claim
from lemmacheck.search.profile import profile_named

symbols = SymbolTable("tests/test_latex_chains.py", {"x": Input("x"), "y": Input("y")})
_SOURCE = Source.project("a derivation written in LaTeX")
_INPUTS = {"inputs": {"x": Array("n"), "y": Array("n")}, "dims": {"n": [1, 2, 3, 5]}}

# |x^T y| <= ||x||_2 ||y||_2 <= ... ; the middle step is planted wrong (||x||_1 ||y||_1 / 4 is too small)
CHAIN = r"""\begin{align*}
x^\top y &\le \|x\|_2\|y\|_2 \text{Cauchy--Schwarz} \\
&\le \tfrac14\|x\|_1\|y\|_1 \text{a planted slip} \\
&\le n\|x\|_\infty\|y\|_\infty \text{each 1-norm below n times the sup norm}
\end{align*}"""


def _run(claim_id):
    return run_claim(REGISTRY[claim_id], profile_named("quick").with_seed(5))


def test_a_claim_declared_by_its_statement_alone_is_checked(registry):
    from_statement(
        inequality,
        "tex.hadamard",
        title="t",
        source=_SOURCE,
        expected=Verdict.HOLDS,
        statement=r"\|x\odot y\|_1 \le \|x\|_2\|y\|_2",
        **_INPUTS,
    )
    from_statement(
        inequality,
        "tex.wrong",
        title="t",
        source=_SOURCE,
        expected=Verdict.REFUTED,
        statement=r"\|x\odot y\|_1 \le \tfrac12\|x\|_2\|y\|_2",
        **_INPUTS,
    )
    assert getattr(REGISTRY["tex.hadamard"].check.fn, COMPILED_ATTR) is not None
    assert _run("tex.hadamard").verdict is Verdict.HOLDS
    wrong = _run("tex.wrong")
    assert wrong.verdict is Verdict.REFUTED and wrong.evidence["counterexample"]
    assert wrong.statement_check["compared"].startswith("by construction")


def test_an_align_chain_is_checked_step_by_step_and_names_the_broken_row(registry):
    from_statement(
        inequality,
        "tex.chain",
        title="t",
        source=_SOURCE,
        expected=Verdict.HOLDS,
        expected_broken_step=2,
        statement=CHAIN,
        symbols=symbols.extend("t", {"n": Input("n")}),
        **_INPUTS,
    )
    claim = REGISTRY["tex.chain"]
    assert claim.check.relations == ("<=", "<=", "<=")
    assert claim.check.labels == (
        "Cauchy--Schwarz",
        "a planted slip",
        "each 1-norm below n times the sup norm",
    )
    result = _run("tex.chain")
    assert result.proof.status is ProofStatus.BROKEN and result.proof.step == 2, result.proof
    assert result.proof.label == "a planted slip"
    assert result.verdict is Verdict.HOLDS  # end to end x^T y <= n ||x||_inf ||y||_inf holds


def test_a_statement_that_does_not_compile_is_that_claims_error(registry):
    from_statement(
        inequality,
        "tex.bad",
        title="t",
        source=_SOURCE,
        expected=Verdict.HOLDS,
        statement=r"x^\top y \le \|x\|_2\|w\|_2",
        **_INPUTS,
    )
    assert "tex.bad" not in REGISTRY.ids()
    ((claim_id, _, message),) = REGISTRY.definition_errors
    assert claim_id == "tex.bad"
    assert "'w' at column" in message and "tests/test_latex_chains.py" in message, message


def test_the_three_document_chains_are_latex_only_and_expect_the_hand_written_statuses():
    from lemmacheck.api import _discover

    _discover(None)
    for tex, hand in [
        ("lemma1.proof_chain.tex", "lemma1.proof_chain"),
        ("lemma2.proof_chain_as_written.tex", "lemma2.proof_chain_as_written"),
        ("sens.w_trace_elem_000.tex", "sens.w_trace_elem_000"),
    ]:
        a, b = REGISTRY[tex], REGISTRY[hand]
        assert getattr(a.check.fn, COMPILED_ATTR) is not None, tex
        assert (a.expected, a.expected_broken_step, a.step_is) == (
            b.expected,
            b.expected_broken_step,
            b.step_is,
        )
        assert a.check.relations == b.check.relations, tex
        assert "align*" in a.statement


def test_lemma2s_chain_from_its_latex_breaks_where_the_hand_written_one_does():
    from lemmacheck.api import _discover

    _discover(None)
    tex, hand = _run("lemma2.proof_chain_as_written.tex"), _run("lemma2.proof_chain_as_written")
    assert tex.verdict is hand.verdict is Verdict.REFUTED
    assert tex.proof.step == hand.proof.step == 3
