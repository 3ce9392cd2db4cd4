"""A verdict must never be contradicted by its own evidence: planted claims for every way it could be.

Crowded re-verification, violations at tiny and huge magnitudes, identities at the noise floor, evidence
that cannot decide (INCONCLUSIVE), proofs judged as written, and minimal counterexamples.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import sympy as sp

from conftest import planted_meta
from lemmacheck import Source, Verdict, derivation, identity, inequality
from lemmacheck.model.inputs import Array, ProbVector
from lemmacheck.model.verdict import ProofStatus
from lemmacheck.run.engine import run_claim, run_claims, run_with_links
from lemmacheck.search.profile import QUICK

SRC = Source("planted.txt", "test")
EXPONENTS = [1, 2, 4, math.inf]


def holder_exponent(p, q):
    inv = 1.0 / p + 1.0 / q
    return math.inf if inv == 0 else 1.0 / inv


# --------------------------------------------------------------------------- crowding


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rounding_artefacts_at_small_dims_cannot_crowd_out_a_genuine_violation(registry, seed):
    # k = 1 makes AB rank one: every Schatten norm of it is σ₁, the claim is attained with equality, and
    # float64's σ₂ ≈ 1e-17 σ₁ raised to 1/r poses as a violation.  The halved exponent is false only for
    # k >= 2, where the genuine violations live.
    @inequality(
        "planted.holder_half_exponent",
        inputs={"A": Array("m", "k", scale=(1e-3, 1e1)), "B": Array("k", "n", scale=(1e-3, 1e1))},
        dims={"m": [1, 2, 3, 5], "k": [1, 2, 4], "n": [1, 2, 3, 5], "p": EXPONENTS, "q": EXPONENTS},
        **planted_meta(Verdict.REFUTED),
    )
    def holder_half(xp, A, B, p, q):
        r = holder_exponent(p, q) / 2
        return xp.schatten_norm(A @ B, r), xp.schatten_norm(A, q) * xp.schatten_norm(B, p)

    r = run_claim(registry["planted.holder_half_exponent"], QUICK.with_seed(seed))
    assert r.verdict is Verdict.REFUTED, (r.reason, r.evidence.get("settlement"))
    assert r.evidence["counterexample"]["dims"]["k"] >= 2


def test_a_holds_verdict_rests_on_settled_candidates_only(registry):
    @inequality(
        "planted.holder",
        inputs={"A": Array("m", "k"), "B": Array("k", "n")},
        dims={"m": [1, 3], "k": [1, 2], "n": [1, 3], "p": [1, 2], "q": [1, 2]},
        **planted_meta(),
    )
    def holder(xp, A, B, p, q):
        return xp.schatten_norm(A @ B, holder_exponent(p, q)), xp.schatten_norm(A, q) * xp.schatten_norm(B, p)

    r = run_claim(registry["planted.holder"], QUICK.with_seed(5))
    assert r.verdict is Verdict.HOLDS, r.reason
    settled = r.evidence.get("settlement", {"unsettled": 0})
    assert settled["unsettled"] == 0
    assert r.evidence["tightness"] <= 1 + 1e-8  # the settled tightness, not a rounding artefact above 1


# --------------------------------------------------------------------------- magnitudes

FALSE_AND_TRUE = [(0.5, Verdict.REFUTED), (1.0, Verdict.HOLDS)]


@pytest.mark.parametrize("scale", [1e-60, 1e60], ids=["tiny", "huge"])
@pytest.mark.parametrize(("constant", "expected"), FALSE_AND_TRUE, ids=["false", "true"])
def test_a_homogeneous_inequality_is_judged_the_same_at_every_magnitude(registry, scale, constant, expected):
    @inequality(
        "planted.submultiplicative",
        inputs={
            "A": Array("m", "k", scale=(scale / 10, scale * 10)),
            "B": Array("k", "n", scale=(scale / 10, scale * 10)),
        },
        dims={"m": [1, 2, 3], "k": [1, 2], "n": [1, 2, 3]},
        **planted_meta(expected),
    )
    def submultiplicative(xp, A, B):
        return xp.schatten_norm(A @ B, 2), constant * xp.schatten_norm(A, 2) * xp.schatten_norm(B, 2)

    r = run_claim(registry["planted.submultiplicative"], QUICK.with_seed(3))
    assert r.verdict is expected, (r.reason, r.message, r.evidence.get("settlement"))


def test_an_identity_at_the_noise_floor_is_never_refuted(registry):
    # Both sides are exactly zero; the summation order leaves float64 noise in the left one.
    @identity(
        "planted.noise_floor",
        inputs={"x": Array("n", scale=(1e-3, 1e3))},
        dims={"n": [3, 8, 16]},
        **planted_meta(),
    )
    def noise_floor(xp, x):
        return xp.sum(x, axis=-1) - xp.sum(x[..., ::-1], axis=-1), 0 * xp.sum(x, axis=-1)

    r = run_claim(registry["planted.noise_floor"], QUICK.with_seed(2))
    assert r.verdict is Verdict.HOLDS, (r.reason, r.evidence.get("settlement"))


def test_an_exact_zero_computed_through_a_square_root_is_settled_as_rounding(registry):
    # vᵀ(a − v vᵀa) = 0 for a unit v; v = u/‖u‖ is unit only to the working precision, at every precision,
    # so the left side is noise that shrinks as the precision grows: rounding, never a violation.
    @identity(
        "planted.projection",
        inputs={"u": Array("n", low=0.5, high=2.0), "a": Array("n")},
        dims={"n": [2, 3, 5]},
        **planted_meta(),
    )
    def projection(xp, u, a):
        v = u / xp.vector_norm(u, 2)[..., None]
        proj = a - v * xp.sum(v * a, axis=-1)[..., None]
        return xp.sum(v * proj, axis=-1), 0 * xp.sum(a, axis=-1)

    r = run_claim(registry["planted.projection"], QUICK.with_seed(3))
    assert r.verdict is Verdict.HOLDS, (r.reason, r.evidence.get("settlement"))


def test_a_probability_vector_sums_to_one_exactly_in_high_precision(registry):
    # E_p[s − E_p[s]] = 0 needs Σp = 1; float64 holds it only to 1e-16, and with no absolute floor the
    # exactly converted inputs would "refute" it.  The spec's structure is made exact in high precision.
    @identity(
        "planted.centred_mean",
        inputs={"p": ProbVector("n"), "s": Array("n")},
        dims={"n": [2, 3, 9]},
        **planted_meta(),
    )
    def centred_mean(xp, p, s):
        mean = xp.sum(p * s, axis=-1)
        return xp.sum(p * (s - mean[..., None]), axis=-1), 0 * mean

    for seed in (1, 2, 3):
        r = run_claim(registry["planted.centred_mean"], QUICK.with_seed(seed))
        assert r.verdict is Verdict.HOLDS, (seed, r.reason, r.evidence.get("counterexample"))


def test_noise_that_lands_on_exact_zero_at_some_precisions_is_still_rounding(registry):
    # An exact-zero difference whose noise is exactly 0 at one precision and ~10^-digits at the next: no
    # single pair of precisions shows it shrinking, the levels together do (seen on bn.mean_003).
    import mpmath

    calls: list[int] = []

    @identity("planted.flickering_zero", inputs={"x": Array("n")}, dims={"n": [2]}, **planted_meta())
    def flickering_zero(xp, x):
        s = xp.sum(x, axis=-1)
        if xp.backend == "numpy":  # float64 rounding noise of an exact zero
            return (s + 1.0) - 1.0 - s, 0 * s
        calls.append(
            mpmath.mp.dps
        )  # settling evaluates at two precisions a level: 0 at the first, noise next
        noise = mpmath.mpf(10) ** (-mpmath.mp.dps) if len(calls) % 2 == 0 else mpmath.mpf(0)
        return 0 * s + noise, 0 * s

    r = run_claim(registry["planted.flickering_zero"], QUICK.with_seed(1))
    assert r.verdict is Verdict.HOLDS, (r.reason, r.evidence.get("settlement"))


# --------------------------------------------------------------------------- INCONCLUSIVE


def test_candidates_high_precision_cannot_evaluate_make_the_verdict_inconclusive(registry):
    @inequality("planted.no_high_precision", inputs={"x": Array("n")}, dims={"n": [2]}, **planted_meta())
    def no_high_precision(xp, x):
        if xp.backend == "mpmath":
            raise RuntimeError("this formula has no high-precision form")
        return xp.sum(x * x, axis=-1), 0.5 * xp.sum(x * x, axis=-1)

    r = run_claim(registry["planted.no_high_precision"], QUICK.with_seed(1))
    assert r.verdict is Verdict.INCONCLUSIVE
    assert "could not evaluate" in r.reason


def test_a_spent_settling_budget_makes_the_verdict_inconclusive(registry):
    @identity("planted.cancellation", inputs={"x": Array(scale=(1e-3, 1e-2))}, **planted_meta())
    def cancellation(xp, x):
        return (x + 1e8) - 1e8, x

    stingy = dataclasses.replace(QUICK, settle_count=1).with_seed(7)
    r = run_claim(registry["planted.cancellation"], stingy)
    assert r.verdict is Verdict.INCONCLUSIVE
    assert "budget" in r.reason
    assert r.evidence["settlement"]["tried"] == 1


def test_inconclusive_can_be_expected_only_with_a_reason(registry):
    @inequality(
        "planted.expect_inconclusive",
        inputs={"x": Array("n")},
        dims={"n": [2]},
        **planted_meta(Verdict.INCONCLUSIVE),
    )
    def f(xp, x):
        return xp.sum(x, axis=-1), xp.sum(x, axis=-1)

    assert "planted.expect_inconclusive" not in registry
    assert any("inconclusive_because" in msg for _, _, msg in registry.definition_errors)


# --------------------------------------------------------------------------- proofs as written


def test_a_wrong_link_breaks_the_proof_while_the_statement_holds(registry):
    # |x| <= |x|/2 is false; |x|/2 <= 2|x| is true; end to end |x| <= 2|x| holds.
    @inequality(
        "planted.wrong_link",
        inputs={"x": Array("n")},
        dims={"n": [1, 2]},
        relations=("<=", "<="),
        labels=("halve", "double"),
        **planted_meta(expected_broken_step=1),
    )
    def wrong_link(xp, x):
        a = xp.sum(xp.abs(x), axis=-1)
        return a, a / 2, 2 * a

    r = run_claim(registry["planted.wrong_link"], QUICK.with_seed(1))
    assert r.verdict is Verdict.HOLDS
    assert r.proof.status is ProofStatus.BROKEN and r.proof.step == 1
    assert r.proof.counterexample is not None and r.proof.counterexample["dps"] >= 60
    assert r.matches_expectation


def test_a_proved_statement_with_a_wrong_intermediate_expression_has_a_broken_proof(registry):
    x = sp.symbols("x", real=True)
    derivation(
        "planted.wrong_middle",
        chain=[(x + 1) ** 2, "=", x**2 + x + 1, "=", x**2 + 2 * x + 1],
        labels=("expand (wrong)", "fix"),
        **planted_meta(Verdict.PROVED, expected_broken_step=1),
    )
    r = run_claim(registry["planted.wrong_middle"], QUICK.with_seed(1))
    assert r.verdict is Verdict.PROVED
    assert r.proof.status is ProofStatus.BROKEN and r.proof.step == 1


def test_a_chain_that_is_not_the_documents_is_shown_but_not_judged(registry):
    @inequality(
        "planted.own_chain",
        inputs={"x": Array("n")},
        dims={"n": [1, 2]},
        relations=("<=", "<="),
        proof_not_asserted="our own route to the bound, not the document's",
        **planted_meta(expected_broken_step=1),
    )
    def own_chain(xp, x):
        a = xp.sum(xp.abs(x), axis=-1)
        return a, a / 2, 2 * a

    r = run_claim(registry["planted.own_chain"], QUICK.with_seed(1))
    assert r.proof.status is ProofStatus.NOT_ASSERTED
    assert r.first_broken_step == 1 and r.matches_expectation


def test_a_sound_chain_and_a_claim_without_one(registry):
    @inequality(
        "planted.sound_chain",
        inputs={"x": Array("n")},
        dims={"n": [1, 3]},
        relations=("<=", "<="),
        **planted_meta(),
    )
    def sound(xp, x):
        a = xp.sum(xp.abs(x), axis=-1)
        return a / 2, a, 2 * a

    @inequality("planted.no_chain", inputs={"x": Array("n")}, dims={"n": [1, 3]}, **planted_meta())
    def single(xp, x):
        a = xp.sum(xp.abs(x), axis=-1)
        return a, 2 * a

    assert run_claim(registry["planted.sound_chain"], QUICK.with_seed(1)).proof.status is ProofStatus.SOUND
    assert run_claim(registry["planted.no_chain"], QUICK.with_seed(1)).proof.status is ProofStatus.NONE


def _chain_and_sibling(sibling_constant: float, *, expected_broken_step: int | None):
    """A sound chain |x|/2 <= |x| <= 2|x| whose step 2 is declared to be the statement of a sibling,
    |x| <= c|x|: REFUTED for c < 1, HOLDS for c >= 1."""

    @inequality(
        "planted.sibling",
        inputs={"x": Array("n")},
        dims={"n": [1, 2]},
        **planted_meta(Verdict.REFUTED if sibling_constant < 1 else Verdict.HOLDS),
    )
    def sibling(xp, x):
        a = xp.sum(xp.abs(x), axis=-1)
        return a, sibling_constant * a

    @inequality(
        "planted.linked_chain",
        inputs={"x": Array("n")},
        dims={"n": [1, 2]},
        relations=("<=", "<="),
        step_is={2: "planted.sibling"},
        **planted_meta(expected_broken_step=expected_broken_step),
    )
    def linked_chain(xp, x):
        a = xp.sum(xp.abs(x), axis=-1)
        return a / 2, a, 2 * a


def test_a_chain_whose_step_is_a_refuted_claim_is_broken_there_naming_it(registry):
    _chain_and_sibling(0.5, expected_broken_step=2)
    alone = run_claim(registry["planted.linked_chain"], QUICK.with_seed(1))
    assert alone.proof.status is ProofStatus.UNSETTLED  # never sound over a link nobody checked
    assert alone.proof.linked_claim == "planted.sibling"
    r = run_with_links(registry["planted.linked_chain"], QUICK.with_seed(1))
    assert r.verdict is Verdict.HOLDS and all(s.status == "holds" for s in r.steps)
    assert r.proof.status is ProofStatus.BROKEN and r.proof.step == 2 == r.first_broken_step
    assert r.proof.linked_claim == "planted.sibling" and "planted.sibling" in r.proof.reason
    assert r.proof.counterexample is not None and r.proof.counterexample["dps"] >= 60
    assert r.matches_expectation
    run = run_claims(QUICK.with_seed(1), keyword="linked_chain", with_studies=False)
    (chain,) = run.results  # the sibling ran to judge the link, and is not added to the selection
    assert chain.proof.status is ProofStatus.BROKEN and chain.proof.linked_claim == "planted.sibling"


def test_a_chain_whose_linked_claim_holds_stays_sound(registry):
    _chain_and_sibling(1.0, expected_broken_step=None)
    r = run_with_links(registry["planted.linked_chain"], QUICK.with_seed(1))
    assert r.proof.status is ProofStatus.SOUND and r.first_broken_step is None
    assert r.matches_expectation


@pytest.mark.parametrize(
    ("step_is", "problem"),
    [
        ({3: "planted.sibling"}, "the chain has 2 step(s)"),
        ({0: "planted.sibling"}, "not a 1-based step number"),
        ({1: "Not An Id"}, "not the id of another claim"),
        ({1: "planted.bad_link"}, "not the id of another claim"),
    ],
)
def test_a_malformed_step_link_is_a_declaration_error(registry, step_is, problem):
    @inequality(
        "planted.bad_link",
        inputs={"x": Array("n")},
        dims={"n": [1]},
        relations=("<=", "<="),
        step_is=step_is,
        **planted_meta(),
    )
    def bad(xp, x):
        return x[..., 0], x[..., 0], x[..., 0]

    assert "planted.bad_link" not in registry
    assert any(problem in msg for cid, _, msg in registry.definition_errors if cid == "planted.bad_link")


def test_a_link_to_an_undeclared_claim_is_an_error_naming_both(registry):
    @inequality(
        "planted.dangling_link",
        inputs={"x": Array("n")},
        dims={"n": [1]},
        relations=("<=", "<="),
        step_is={1: "planted.nowhere"},
        **planted_meta(),
    )
    def dangling(xp, x):
        return x[..., 0], x[..., 0], x[..., 0]

    ((cid, _, msg),) = registry.link_problems()
    assert cid == "planted.dangling_link" and "planted.nowhere" in msg
    r = run_with_links(registry["planted.dangling_link"], QUICK.with_seed(1))
    assert r.proof.status is ProofStatus.UNSETTLED and "did not check" in r.proof.reason


# --------------------------------------------------------------------------- minimal counterexamples


@pytest.mark.parametrize("seed", [1, 4])
def test_the_lse_bound_with_a_quarter_reports_its_smallest_witness(registry, seed):
    # The true constant is ½, attained along d = (a, −a) with p = (½, ½); ¼ fails there first.
    @inequality(
        "planted.lse_quarter",
        inputs={"x": Array("n"), "dx": Array("n", scale=(1e-3, 3e1))},
        dims={"n": [1, 2, 3, 5, 8, 16]},
        **planted_meta(Verdict.REFUTED),
    )
    def lse_quarter(xp, x, dx):
        rem = (
            xp.logsumexp(x + dx, axis=-1)
            - xp.logsumexp(x, axis=-1)
            - xp.sum(xp.softmax(x, axis=-1) * dx, axis=-1)
        )
        return rem, 0.25 * xp.max(xp.abs(dx), axis=-1) ** 2

    r = run_claim(registry["planted.lse_quarter"], QUICK.with_seed(seed))
    assert r.verdict is Verdict.REFUTED
    cex = r.evidence["counterexample"]
    assert cex["dims"] == {"n": 2}
    # smallest dims (n = 1 has no remainder) and simplest values: dx of opposite signs (the direction
    # the bound is tight along), each a small power of two; x integers (0 at both seeds today)
    d = np.array(cex["inputs"]["dx"])
    assert d[0] * d[1] < 0, cex
    assert all(np.log2(abs(v)).is_integer() and abs(v) <= 8 for v in d), cex
    assert all(float(v).is_integer() for v in cex["inputs"]["x"]), cex
