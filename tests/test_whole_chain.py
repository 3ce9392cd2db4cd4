"""Every part of a statement judged (issue 32 §3): a two-sided statement is its whole chain, and a second
false link in a chain already broken is reported, not hidden behind the first."""

from __future__ import annotations

import math
import re

from conftest import planted_meta
from lemmacheck import REGISTRY, Array, Verdict, identity, inequality
from lemmacheck.api import _discover
from lemmacheck.cli.show import format_claim
from lemmacheck.model.claim import NumericCheck
from lemmacheck.mutate.classify import kill_reason
from lemmacheck.report.notebook import cards_html
from lemmacheck.run.engine import run_claim, run_with_links
from lemmacheck.search.profile import QUICK

PROFILE = QUICK.with_seed(7)

_ONE_MATRIX = dict(inputs={"X": Array("m", "n")}, dims={"m": [1, 2, 3], "n": [1, 2, 3]})


def _l1(xp, X):
    return xp.sum(xp.sum(xp.abs(X), axis=-1), axis=-1)


def _equivalence_false_from_2x3(xp, X):
    """‖X‖_{ℓ1}/√(mn) ≤ ‖X‖_{S¹} ≤ c‖X‖_{ℓ1}, the upper constant made 1/2 from 2 × 3 matrices on: the
    upper half is false only there (a diagonal 2 × 3 matrix has ‖X‖_{S¹} = ‖X‖_{ℓ1})."""
    m, n = X.shape[-2], X.shape[-1]
    c = 0.5 if m * n >= 6 else 1.0
    return _l1(xp, X) / math.sqrt(m * n), xp.schatten_norm(X, 1), c * _l1(xp, X)


def test_a_false_half_of_a_norm_equivalence_refutes_the_claim_that_states_both(registry):
    # As the issue found it: the chain is the statement (both halves), read with a route the catalogue
    # chose (not asserted). Without steps_claimed the false half is only a step of a proof nobody judges.
    kw = dict(
        relations=("<=", "<="),
        proof_not_asserted="the chain is the two halves of the statement",
        **_ONE_MATRIX,
    )
    inequality("planted.equiv_claimed", **kw, **planted_meta(Verdict.REFUTED, steps_claimed=True))(
        _equivalence_false_from_2x3
    )
    inequality("planted.equiv_unclaimed", **kw, **planted_meta(Verdict.HOLDS))(_equivalence_false_from_2x3)
    claimed = run_claim(registry["planted.equiv_claimed"], PROFILE)
    unclaimed = run_claim(registry["planted.equiv_unclaimed"], PROFILE)
    cx = claimed.evidence.get("counterexample") or {}
    assert claimed.verdict is Verdict.REFUTED, (claimed.verdict, claimed.steps)
    assert cx.get("step") == 2 and cx["dims"]["m"] * cx["dims"]["n"] >= 6, cx
    assert claimed.broken_steps == [2]
    # the class the audit below closes: the same chain, not declared whole, reads HOLDS
    assert unclaimed.verdict is Verdict.HOLDS and unclaimed.broken_steps == [2]


_TOKENS = re.compile(
    r"\\(?:langle|rangle)|\\(?:leq|le|geq|ge|lt|gt|Rightarrow|implies|iff|quad|qquad|text|mathrm)\b"
    r"|\\[a-zA-Z]+|[{}()\[\]=<>]"
)
_OPEN, _CLOSE = ("{", "(", "[", r"\langle"), ("}", ")", "]", r"\rangle")
_RELATIONS = (r"\le", r"\leq", "<", r"\lt", r"\ge", r"\geq", ">", r"\gt", "=")


def _written_relations(statement: str) -> int:
    """How many relations the statement writes at its top level, after its last implication or clause of
    words (``A \\Rightarrow a \\le b \\le c`` writes 2) and before a ``\\quad`` aside."""
    depth, found = 0, 0
    for m in _TOKENS.finditer(statement):
        t = m.group(0)
        if t in _OPEN:
            depth += 1
        elif t in _CLOSE:
            depth -= 1
        elif depth == 0 and t in (r"\Rightarrow", r"\implies", r"\text"):
            found = 0
        elif depth == 0 and t in (r"\quad", r"\qquad"):
            break
        elif depth == 0 and t in _RELATIONS:
            found += 1
    return found


def _chain_length(claim) -> int:
    check = claim.check
    if isinstance(check, NumericCheck) and not check.is_property and len(check.relations) > 1:
        return len(check.relations)
    return len(claim.derivation.relations) if claim.derivation is not None else 0


def test_a_chain_of_the_catalogues_own_that_the_statement_writes_out_is_judged_whole():
    # A chain marked proof_not_asserted is shown but not judged; when the statement itself writes every
    # link of that chain (a two-sided bound, a norm equivalence, a list of equal forms), nothing would
    # judge its middle links, so a false half would read HOLDS. Such a chain must be steps_claimed.
    _discover(None)
    unjudged = [
        f"{c.id}: statement writes {_written_relations(c.statement)} relations, chain has {_chain_length(c)}"
        for c in REGISTRY
        if c.proof_not_asserted
        and not c.steps_claimed
        and _chain_length(c) > 1
        and _written_relations(c.statement) >= _chain_length(c)
    ]
    fix = "declare steps_claimed=True (the statement is the whole chain):\n"
    assert not unjudged, fix + "\n".join(unjudged)


def _chain_false_at_1_and_3(xp, x):
    """x ≤ 2x ≤ 3x ≤ 4x for x > 0, with steps 1 and 3 made false (the middle ones swapped)."""
    return 2 * x[..., 0], x[..., 0], 4 * x[..., 0], 3 * x[..., 0]


def test_a_second_false_link_is_listed_on_the_card_in_show_and_in_the_results(registry):
    inputs = dict(inputs={"x": Array(1, positive=True)}, relations=("<=", "<=", "<="))
    inequality("planted.two_false", **inputs, **planted_meta(Verdict.REFUTED, expected_broken_step=1))(
        _chain_false_at_1_and_3
    )
    r = run_claim(registry["planted.two_false"], PROFILE)
    assert r.first_broken_step == 1 and r.broken_steps == [1, 3], (r.first_broken_step, r.broken_steps)
    assert r.to_dict()["broken_steps"] == [1, 3]
    assert "also broken: step 3" in format_claim(registry["planted.two_false"], r)
    assert "also broken at step 3" in cards_html([r.to_dict()])
    # what the mutation run compares: the second false link is a change of outcome
    one = r.to_dict() | {"broken_steps": [1]}
    assert kill_reason(one, r.to_dict()) == "broken_steps [1] → [1, 3]"


def test_a_linked_step_refuted_after_the_chains_own_break_is_listed(registry):
    # step 1 broken by the chain's own check; step 2 is the statement of a REFUTED claim (step_is=)
    identity("planted.false_link", inputs={"x": Array(1)}, **planted_meta(Verdict.REFUTED))(
        lambda xp, x: (x[..., 0] + 1, x[..., 0])
    )
    inequality(
        "planted.linked_chain",
        inputs={"x": Array(1, positive=True)},
        relations=("<=", "<="),
        step_is={2: "planted.false_link"},
        **planted_meta(Verdict.REFUTED, expected_broken_step=1),
    )(lambda xp, x: (2 * x[..., 0], x[..., 0], 3 * x[..., 0]))
    r = run_with_links(registry["planted.linked_chain"], PROFILE)
    assert r.proof.step == 1 and r.broken_steps == [1, 2], (r.proof, r.broken_steps)


def _typeset_readings():
    """The claims that record a passage read as typeset (their source says so), with their verdict."""
    _discover(None)
    return [c for c in REGISTRY if "read as typeset" in c.source.location]


def test_a_refuted_reading_as_typeset_breaks_every_chain_it_is_a_step_of():
    # sens.eq26_grad was 'sound' while sens.eq26_grad.inner refuted its step 2 as typeset, and
    # sens.eq17/eq28 were broken only at step 3 while their step 1 as typeset is the refuted .inner claim:
    # a chain that a refuted typeset reading is a step of links it (step_is), so its proof as written
    # breaks there.
    unlinked = [
        f"{other.id} (a chain of {other.chain_length}) does not link {reading.id} (step_is=)"
        for reading in _typeset_readings()
        if reading.expected is Verdict.REFUTED
        for other in (REGISTRY[i] for i in reading.same_as if i in REGISTRY)
        if other.chain_length > 1 and reading.id not in dict(other.step_is).values()
    ]
    assert _typeset_readings() and not unlinked, "\n".join(unlinked)


def test_a_claim_read_with_a_lost_transpose_has_its_reading_as_typeset():
    # the gradient before eq. (16) of seed 001 was read with V_pᵀx_tᵀ (a transpose lost in the conversion)
    # and had no claim for the formula as typeset, as eq. (26) and eq. (17)/(28) have
    _discover(None)
    readings = {c.id for c in _typeset_readings()}
    missing = [
        c.id
        for c in REGISTRY
        if re.search(r"transpose (?:on \S+ )?is lost|transpose lost", c.notes)
        and c.id not in readings
        and not readings & set(c.same_as)
    ]
    assert not missing, f"no claim records the passage as typeset beside: {missing}"


def test_a_statement_in_words_whose_argument_the_document_gives_has_its_proof_judged():
    # vanish.s003.not_met_no_explosion: seed 003 says "we showed in (25) that if this condition is not met
    # … the gradients won't explode", yet its chain ‖∂h_T/∂h_0‖ ≤ δ^T ≤ 1 was `not asserted` (issue 32 §5):
    # the card told a reader that the document argued nothing, and neither link was judged
    from lemmacheck.model.verdict import ProofStatus

    _discover(None)
    claim = REGISTRY["vanish.s003.not_met_no_explosion"]
    assert not claim.proof_not_asserted and "vanish.s003.eq25" in claim.uses
    r = run_claim(claim, PROFILE)
    assert (r.verdict, r.proof.status) == (Verdict.HOLDS, ProofStatus.SOUND), (r.verdict, r.proof)
    assert [s.status for s in r.steps] == ["holds", "holds"], r.steps


def test_no_chain_is_called_the_catalogues_own_where_its_reason_says_the_document_argued_it():
    # the class of the claim above: a `proof_not_asserted` reason that itself says the document showed
    # the statement ("showed in (25)", "pointing to (25)") contradicts the status it sets
    _discover(None)
    said = re.compile(r"\b(?:show(?:ed|n)|proved|pointing) (?:in|to|by) \(?(?:eq\.? ?)?\(?\d", re.I)
    contradicted = [c.id for c in REGISTRY if c.proof_not_asserted and said.search(c.proof_not_asserted)]
    assert not contradicted, f"not asserted, yet the reason says the document argued it: {contradicted}"
