"""Chains written in LaTeX: checked on instances like every chain, and by SymPy where all are scalars.

A statement compiled from LaTeX whose inputs are all real numbers is also evaluated on SymPy symbols and
backs the claim as a hand-written ``derivation(...)`` does: a step SymPy proves is *proved*, a step it
refutes is broken under the document's own ``\\text{...}`` label.  The three document chains quoted in LaTeX
(seed 001's Lemma 1 and Lemma 2, a chain of seed 000) end with the statuses of their hand-written twins.
"""

from __future__ import annotations

import pytest

from lemmacheck import (
    REGISTRY,
    Array,
    Input,
    Scalar,
    Source,
    SymbolTable,
    Verdict,
    from_statement,
    inequality,
)
from lemmacheck.model.verdict import ProofStatus
from lemmacheck.run.claimrun import run_claim
from lemmacheck.search.profile import profile_named

symbols = SymbolTable("tests/test_latex_scalar_chains.py", {"x": Input("x"), "y": Input("y")})
_META = {"title": "t", "source": Source.project("a derivation written in LaTeX"), "symbols": symbols}
_XY = {"inputs": {"x": Scalar(-3, 3), "y": Scalar(-3, 3)}, "dims": {}}


def _run(claim_id):
    return run_claim(REGISTRY[claim_id], profile_named("quick").with_seed(5))


def test_a_scalar_identity_from_latex_is_proved_by_sympy(registry):
    from_statement(
        inequality,
        "tex.square",
        expected=Verdict.HOLDS,
        statement=r"(x+y)^2 = x^2 + 2xy + y^2",
        **_META,
        **_XY,
    )
    result = _run("tex.square")
    assert result.verdict is Verdict.PROVED, (result.verdict, result.message)
    assert result.evidence["derivation"]["end_status"] == "proved"


def test_each_step_of_a_scalar_align_chain_says_whether_sympy_proved_it(registry):
    from_statement(
        inequality,
        "tex.scalar_chain",
        expected=Verdict.HOLDS,
        expected_broken_step=2,
        statement=r"""\begin{align*}
(x+y)^2 &= x^2 + 2xy + y^2 \text{the square expanded} \\
&\le \tfrac12(x^2 + 2xy + y^2) \text{a planted slip} \\
&= \tfrac12(x+y)^2 \text{the square refactored}
\end{align*}""",
        **_META,
        **_XY,
    )
    result = _run("tex.scalar_chain")
    by_index = {s.index: s for s in result.steps}
    assert by_index[1].status == "proved" and by_index[3].status == "proved", result.steps
    assert by_index[2].status == "broken"
    assert result.proof.status is ProofStatus.BROKEN and result.proof.step == 2
    assert result.proof.label == "a planted slip"  # the document's own words for the step


def test_sympy_reasons_only_inside_the_inputs_intervals(registry):
    # x <= x^2 holds on [1, 3] and fails on (0, 1): a SymPy pass sampling outside the interval would
    # break the step (and contradict the instances)
    from_statement(
        inequality,
        "tex.on_interval",
        expected=Verdict.HOLDS,
        statement=r"x \le x^2",
        inputs={"x": Scalar(1, 3)},
        dims={},
        **_META,
    )
    result = _run("tex.on_interval")
    assert result.verdict in (Verdict.HOLDS, Verdict.PROVED), (result.verdict, result.message)
    assert result.proof.status is ProofStatus.NONE and not result.message


def test_a_chain_with_a_vector_is_left_to_the_instances(registry):
    from_statement(
        inequality,
        "tex.vector",
        expected=Verdict.HOLDS,
        statement=r"\|x\odot y\|_1 \le \|x\|_2\|y\|_2",
        inputs={"x": Array("n"), "y": Array("n")},
        dims={"n": [1, 2, 3]},
        **_META,
    )
    result = _run("tex.vector")
    assert result.verdict is Verdict.HOLDS and "derivation" not in result.evidence


DOCUMENT_CHAINS = [
    ("lemma1.proof_chain.tex", "lemma1.proof_chain"),
    ("lemma2.proof_chain_as_written.tex", "lemma2.proof_chain_as_written"),
    ("sens.w_trace_elem_000.tex", "sens.w_trace_elem_000"),
]


@pytest.mark.parametrize(("tex", "hand"), DOCUMENT_CHAINS)
def test_a_document_chain_from_its_latex_ends_as_its_hand_written_twin(tex, hand):
    """Verdict, proof status and every broken step, from the chain's own run (a step linked to another
    claim by ``step_is=`` is judged when the whole catalogue runs; both twins declare the same links)."""
    from lemmacheck.api import _discover

    _discover(None)
    a, b = _run(tex), _run(hand)
    assert not a.message and not b.message, (a.message, b.message)
    assert (a.verdict, a.proof.status, a.proof.step, a.broken_steps) == (
        b.verdict,
        b.proof.status,
        b.proof.step,
        b.broken_steps,
    )
    assert REGISTRY[tex].step_is == REGISTRY[hand].step_is


def test_a_step_only_sympy_refutes_is_broken_with_its_counterexample():
    """The instances found nothing wrong with step 2 but SymPy's exact points did: the step is broken,
    under its label, with SymPy's counterexample, and is the proof's first broken step."""
    from lemmacheck.kinds.base import Outcome
    from lemmacheck.kinds.derivation import _fold_steps
    from lemmacheck.kinds.symbolic import DerivationOutcome
    from lemmacheck.run.results import StepResult

    def steps(*statuses):
        return [StepResult(i, f"row {i}", "<=", s) for i, s in enumerate(statuses, 1)]

    outcome = Outcome(Verdict.HOLDS, None, steps("holds", "holds", "holds"))
    witness = {"inputs": {"x": "1/3"}, "exact": True}
    sympy_said = DerivationOutcome(steps("proved", "broken", "holds"), "<=", "broken", None, 2, {2: witness})
    _fold_steps("tex.folded", outcome, sympy_said)
    assert [s.status for s in outcome.steps] == ["proved", "broken", "holds"]
    assert outcome.first_broken == 2 and outcome.step_counterexamples[2] == witness
    assert outcome.steps[1].label == "row 2"
