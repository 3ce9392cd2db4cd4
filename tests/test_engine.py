"""Unit tests of the engine on planted claims: each verdict must be reachable, and errors contained."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp

from conftest import planted_meta
from lemmacheck import (
    Source,
    Verdict,
    approximation,
    complexity,
    derivation,
    identity,
    inequality,
    prop,
    value,
)
from lemmacheck.model.inputs import Array, ProbVector
from lemmacheck.run.engine import run_claim, run_claims
from lemmacheck.search.profile import QUICK
from lemmacheck.xp import mp_precision, mpmath_xp, numpy_xp, to_mp

SRC = Source("planted.txt", "test")
PROFILE = QUICK.with_seed(7)


# --------------------------------------------------------------------------- norms


@pytest.mark.parametrize("shape", [(1, 1), (3, 1), (1, 4), (3, 5), (6, 6)])
def test_schatten_norms_match_numpy_references(shape):
    rng = np.random.default_rng(0)
    M = rng.standard_normal((4, *shape))
    for p, ref in [(1, "nuc"), (2, "fro"), (math.inf, 2)]:
        got = numpy_xp.schatten_norm(M, p)
        want = np.array([np.linalg.norm(m, ref) for m in M])
        np.testing.assert_allclose(got, want, rtol=1e-12)


def test_vector_norms_match_numpy():
    x = np.random.default_rng(1).standard_normal((5, 7))
    for p in (1, 2, 3, math.inf):
        np.testing.assert_allclose(numpy_xp.vector_norm(x, p), np.linalg.norm(x, p, axis=-1), rtol=1e-13)


def test_mpmath_backend_agrees_with_numpy_to_float_precision():
    rng = np.random.default_rng(2)
    M = rng.standard_normal((1, 3, 4))
    x = rng.standard_normal((1, 5)) * 30
    with mp_precision(60):
        for p in (1, 2, math.inf):
            mp_val = mpmath_xp.schatten_norm(to_mp(M), p)[0]
            assert abs(float(mp_val) - numpy_xp.schatten_norm(M, p)[0]) < 1e-12 * float(mp_val)
        lse_mp = mpmath_xp.logsumexp(to_mp(x))[0]
        assert abs(float(lse_mp) - numpy_xp.logsumexp(x)[0]) < 1e-12 * abs(float(lse_mp))


def test_to_mp_is_exact():
    v = np.array([0.1, 1e-300, 3.0])
    with mp_precision(80):
        back = to_mp(v)
        assert all(mpmath.mpf(float(a)) == b for a, b in zip(v, back, strict=True))


# --------------------------------------------------------------------------- verdict logic


def test_planted_true_inequality_holds_with_tightness(registry):
    @inequality(
        "planted.am_gm", inputs={"a": Array(positive=True), "b": Array(positive=True)}, **planted_meta()
    )
    def am_gm(xp, a, b):
        return xp.sqrt(a * b), (a + b) / 2

    r = run_claim(registry["planted.am_gm"], PROFILE)
    assert r.verdict is Verdict.HOLDS, r.message
    assert r.evidence["instances"] > 1000
    assert 0.99 < r.evidence["tightness"] <= 1 + 1e-9  # attained at a = b


@pytest.mark.parametrize("sizes", [[1], [1, 2, 3], list(range(1, 17)), list(range(1, 769))])
def test_the_sweep_spends_the_profiles_instance_budget_whatever_the_dims(sizes):
    # A claim with one dims combination is searched as widely as one with many: the budget is not
    # capped at batches_per_dims × batch per combination (1,024 instances in the quick profile).
    from lemmacheck.model.claim import NumericCheck
    from lemmacheck.search.violations import sweep_plan

    check = NumericCheck(fn=None, inputs={"x": Array("n")}, dims={"n": sizes}, relations=("<=",))
    plan = sweep_plan(check, PROFILE)
    swept = sum(chunk.instances for chunk in plan)
    batch, per_combo = plan[0].batch, plan[0].per_combo
    assert swept == len(sizes) * per_combo * batch, "every combination gets the same number of batches"
    assert swept >= PROFILE.instance_budget, f"{swept} instances swept, budget {PROFILE.instance_budget}"
    assert per_combo == PROFILE.batches_per_dims or swept < PROFILE.instance_budget + len(sizes) * batch


def test_planted_false_inequality_is_refuted_and_reverified(registry):
    @inequality(
        "planted.square_le_self",
        inputs={"x": Array("n")},
        dims={"n": [1, 2, 3]},
        **planted_meta(Verdict.REFUTED),
    )
    def square_le_self(xp, x):
        return xp.sum(x * x, axis=-1), xp.sum(xp.abs(x), axis=-1)

    r = run_claim(registry["planted.square_le_self"], PROFILE)
    assert r.verdict is Verdict.REFUTED, r.message
    cex = r.evidence["counterexample"]
    assert cex["dims"] == {"n": 1}, "shrunk to the smallest dims"
    assert cex["dps"] >= 50
    x = np.array(cex["inputs"]["x"])
    with mp_precision(60):
        assert sum(mpmath.mpf(v) ** 2 for v in x) > sum(abs(mpmath.mpf(v)) for v in x)


def test_rounding_noise_never_refutes(registry):
    # (x + 1e8) - 1e8 == x exactly in real arithmetic; float64 keeps only ~8 digits of a small x.
    @identity("planted.cancellation", inputs={"x": Array(scale=(1e-3, 1e-2))}, **planted_meta())
    def cancellation(xp, x):
        return (x + 1e8) - 1e8, x

    r = run_claim(registry["planted.cancellation"], PROFILE)
    assert r.verdict is Verdict.HOLDS, r.evidence
    settled = r.evidence["settlement"]
    assert settled["candidates"] > 0 and settled["rejected"] > 0 and settled["unsettled"] == 0, settled


def test_chain_names_first_broken_step(registry):
    # sum|x| <= sqrt(n) ||x||_2 (true), then <= ||x||_2 (false for n > 1), then = ||x||_2
    @inequality(
        "planted.chain",
        inputs={"x": Array("n")},
        dims={"n": [1, 2, 4]},
        relations=("<=", "<=", "="),
        labels=("Cauchy-Schwarz", "drop sqrt(n)", "rename"),
        **planted_meta(Verdict.REFUTED, expected_broken_step=2),
    )
    def chain(xp, x, n):
        two = xp.vector_norm(x, 2)
        return xp.vector_norm(x, 1), math.sqrt(n) * two, two, two

    r = run_claim(registry["planted.chain"], PROFILE)
    assert r.first_broken_step == 2
    assert [s.status for s in r.steps] == ["holds", "broken", "holds"]
    assert r.verdict is Verdict.REFUTED
    assert r.matches_expectation


def test_property_claims(registry):
    @prop("planted.softmax_sums_to_one", inputs={"p": ProbVector("n")}, dims={"n": [2, 5]}, **planted_meta())
    def sums(xp, p):
        return np.abs(np.sum(p, axis=-1) - 1) < 1e-12

    @prop("planted.always_sorted", inputs={"x": Array(3)}, exact=True, **planted_meta(Verdict.REFUTED))
    def always_sorted(xp, x):
        return np.all(np.diff(x, axis=-1) >= 0, axis=-1)

    assert run_claim(registry["planted.softmax_sums_to_one"], PROFILE).verdict is Verdict.HOLDS
    r = run_claim(registry["planted.always_sorted"], PROFILE)
    assert r.verdict is Verdict.REFUTED and r.evidence["counterexample"]["exact"]


def test_approximation_order_measured_and_wrong_order_refuted(registry):
    @approximation(
        "planted.exp_first_order",
        inputs={"x": Array(low=-1.0, high=1.0)},
        order=2,
        **planted_meta(Verdict.APPROXIMATE),
    )
    def exp_first(xp, eps, x):
        return xp.exp(x + eps), xp.exp(x) * (1 + eps)

    @approximation(
        "planted.exp_claims_third_order",
        inputs={"x": Array(low=-1.0, high=1.0)},
        order=3,
        **planted_meta(Verdict.REFUTED),
    )
    def exp_third(xp, eps, x):
        return xp.exp(x + eps), xp.exp(x) * (1 + eps)

    good = run_claim(registry["planted.exp_first_order"], PROFILE)
    assert good.verdict is Verdict.APPROXIMATE, good.message
    assert abs(good.evidence["order_median"] - 2) < 0.1
    # exp(x+eps) >= exp(x)(1+eps): the written "<=" fails at every step size
    assert min(good.evidence["failure_rate"]) > 0.99
    bad = run_claim(registry["planted.exp_claims_third_order"], PROFILE)
    assert bad.verdict is Verdict.REFUTED
    assert abs(bad.evidence["mp_order"] - 2) < 0.1


def test_worked_values(registry):
    value(
        "planted.exact",
        computed=lambda: sp.Rational(1, 3) + sp.Rational(1, 6),
        stated=sp.Rational(1, 2),
        **planted_meta(Verdict.PROVED),
    )
    value(
        "planted.flags",
        computed=lambda: {"optimal": True, "unique": False},
        stated={"optimal": True, "unique": False},
        **planted_meta(Verdict.PROVED),
    )
    value("planted.rounded", computed=lambda: sp.Rational(2, 3), stated=0.667, places=3, **planted_meta())
    value(
        "planted.wrong",
        computed=lambda: {"mean": sp.Rational(5, 2), "var": sp.Rational(5, 4)},
        stated={"mean": 2.5, "var": 1.30},
        places=2,
        **planted_meta(Verdict.REFUTED),
    )
    assert run_claim(registry["planted.exact"], PROFILE).verdict is Verdict.PROVED
    assert run_claim(registry["planted.flags"], PROFILE).verdict is Verdict.PROVED
    assert run_claim(registry["planted.rounded"], PROFILE).verdict is Verdict.HOLDS
    wrong = run_claim(registry["planted.wrong"], PROFILE)
    assert wrong.verdict is Verdict.REFUTED
    assert [row["match"] for row in wrong.evidence["comparison"]] == [True, False]


def test_complexity_fit(registry):
    complexity(
        "planted.cubic",
        cost=lambda N, T: N**2 * T,
        grid={"N": [4, 8, 16, 32], "T": [5, 10, 20]},
        stated={"N": 2, "T": 1},
        **planted_meta(),
    )
    complexity(
        "planted.understated",
        cost=lambda N, T: N**2 * T,
        grid={"N": [4, 8, 16, 32], "T": [5, 10, 20]},
        stated={"N": 1, "T": 1},
        **planted_meta(Verdict.REFUTED),
    )
    assert run_claim(registry["planted.cubic"], PROFILE).verdict is Verdict.HOLDS
    assert run_claim(registry["planted.understated"], PROFILE).verdict is Verdict.REFUTED


def test_symbolic_derivation_proves_and_names_broken_step(registry):
    x, y = sp.symbols("x y", real=True)
    derivation(
        "planted.square",
        chain=[(x + y) ** 2, "=", x**2 + 2 * x * y + y**2],
        **planted_meta(Verdict.PROVED),
    )
    derivation(
        "planted.broken",
        chain=[(x + y) ** 2, "=", x**2 + y**2 + 2 * x * y, "<=", x**2 + y**2],
        labels=("expand", "drop the cross term"),
        **planted_meta(Verdict.REFUTED, expected_broken_step=2),
    )
    assert run_claim(registry["planted.square"], PROFILE).verdict is Verdict.PROVED
    r = run_claim(registry["planted.broken"], PROFILE)
    assert r.verdict is Verdict.REFUTED and r.first_broken_step == 2
    assert r.steps[0].status == "proved"


# --------------------------------------------------------------------------- errors and replay


def test_error_is_contained_and_the_run_goes_on(registry):
    @inequality("planted.raises", inputs={"x": Array()}, **planted_meta())
    def raises(xp, x):
        raise RuntimeError("boom")

    @inequality("planted.nan_sampler", inputs={"x": Array(transform=lambda a: a * np.nan)}, **planted_meta())
    def nan_sampler(xp, x):
        return x, x

    @inequality("planted.wrong_shape", inputs={"x": Array(3)}, **planted_meta())
    def wrong_shape(xp, x):
        return x, x

    @inequality("planted.fine", inputs={"x": Array()}, **planted_meta())
    def fine(xp, x):
        return x, x + 1

    run = run_claims(PROFILE, with_studies=False)
    by_id = {r.id: r for r in run.results}
    assert by_id["planted.fine"].verdict is Verdict.HOLDS
    assert by_id["planted.raises"].verdict is Verdict.ERROR
    assert "planted.raises" in by_id["planted.raises"].message and "boom" in by_id["planted.raises"].message
    assert "NaN" in by_id["planted.nan_sampler"].message
    assert "shape" in by_id["planted.wrong_shape"].message


def test_nan_output_never_passes(registry):
    @inequality("planted.nan_out", inputs={"x": Array()}, **planted_meta())
    def nan_out(xp, x):
        return xp.log(x), x  # log of a negative number

    r = run_claim(registry["planted.nan_out"], PROFILE)
    assert r.verdict is Verdict.ERROR and "not finite" in r.message


def test_malformed_claims_are_reported_not_raised(registry):
    @inequality("Bad Id", inputs={"x": Array()}, **planted_meta())
    def bad_id(xp, x):
        return x, x

    @inequality(
        "planted.no_source",
        inputs={"x": Array()},
        title="t",
        statement="s",
        expected=Verdict.HOLDS,
        source=None,
    )
    def no_source(xp, x):
        return x, x

    @inequality("planted.bad_relation", inputs={"x": Array()}, relations=("≤",), **planted_meta())
    def bad_rel(xp, x):
        return x, x

    messages = "\n".join(m for _, _, m in registry.definition_errors)
    assert "'Bad Id'" in messages and "dotted" in messages
    assert "planted.no_source" in messages and "source" in messages
    assert "planted.bad_relation" in messages and "unknown relation" in messages
    run = run_claims(PROFILE, with_studies=False)
    assert {r.verdict for r in run.results} == {Verdict.ERROR}


def test_replay_from_seed_is_exact(registry):
    @inequality(
        "planted.replay",
        inputs={"x": Array("n")},
        dims={"n": [2, 3]},
        **planted_meta(Verdict.REFUTED),
    )
    def replay(xp, x):
        return xp.max(x, axis=-1), xp.mean(x, axis=-1)

    a = run_claim(registry["planted.replay"], QUICK.with_seed(11))
    b = run_claim(registry["planted.replay"], QUICK.with_seed(11))
    c = run_claim(registry["planted.replay"], QUICK.with_seed(12))
    assert a.evidence == b.evidence
    # another seed draws other instances (the minimal counterexample may well be the same one)
    assert a.seed != c.seed and a.evidence != c.evidence
    assert a.replay == "lemmacheck run --seed 11 -k id:planted.replay"


def test_steps_claimed_makes_a_broken_link_refute(registry):
    # The chain "a = b = c" with a = c but a != b: as a proof of a = c it holds (step 1 named broken);
    # as a statement of every link it is refuted.
    def chain(xp, g, d):
        return g**2 * (d / g) ** 2, g**2 * (d / g), d**2

    kw = dict(inputs={"g": Array(low=0.1, high=2.0), "d": Array(low=0.1, high=1.0)}, relations=("=", "="))
    inequality("planted.proof", **kw, **planted_meta(Verdict.HOLDS, expected_broken_step=1))(chain)
    inequality(
        "planted.as_written",
        **kw,
        **planted_meta(Verdict.REFUTED, expected_broken_step=1, steps_claimed=True),
    )(chain)
    proof = run_claim(registry["planted.proof"], PROFILE)
    written = run_claim(registry["planted.as_written"], PROFILE)
    assert (proof.verdict, proof.first_broken_step) == (Verdict.HOLDS, 1)
    assert (written.verdict, written.first_broken_step) == (Verdict.REFUTED, 1)
    assert written.evidence["counterexample"]["step"] == 1


def test_cancellation_to_zero_never_confirms(registry):
    # Both sides are exactly 0; float64 leaves ~1e-14 of a 1e2-sized cancellation, times 1e6.
    @identity("planted.zero", inputs={"u": Array(3, scale=(1e2, 1e2))}, **planted_meta())
    def zero(xp, u):
        s = xp.sum(u, axis=-1)
        return (u[:, 0] + u[:, 1] + u[:, 2] - s) * 1e6, 0 * s

    r = run_claim(registry["planted.zero"], PROFILE)
    assert r.verdict is Verdict.HOLDS, r.evidence


def test_derivation_steps_with_integrals_sums_and_infinities(registry):
    t, g = sp.symbols("t g", real=True)
    n, i = sp.symbols("n i", integer=True, positive=True)
    derivation(
        "planted.integral_half",
        chain=[sp.Integral(g, (t, 0, 1)), "=", g / 2],
        domain={g: (-5, 5)},
        **planted_meta(Verdict.REFUTED),
    )
    derivation(
        "planted.integral_t",
        chain=[sp.Integral(g * t, (t, 0, 1)), "=", g / 2],
        **planted_meta(Verdict.PROVED),
    )
    derivation(
        "planted.gauss_sum",
        chain=[sp.Sum(i, (i, 1, n)), "=", n * (n + 1) / 2],
        **planted_meta(Verdict.PROVED),
    )
    value(
        "planted.limit",
        computed=lambda: [sp.limit(1 / t, t, 0, "+")],
        stated=[sp.oo],
        **planted_meta(Verdict.PROVED),
    )
    for cid, want in [
        ("planted.integral_half", Verdict.REFUTED),
        ("planted.integral_t", Verdict.PROVED),
        ("planted.gauss_sum", Verdict.PROVED),
        ("planted.limit", Verdict.PROVED),
    ]:
        r = run_claim(registry[cid], PROFILE)
        assert r.verdict is want, (cid, r.message, r.evidence)


def test_explicit_examples_always_replay_and_effort_scales_the_search(registry):
    # x**3 <= x fails only for x in (-1, 0) or x > 1; pin one witness so no seed can miss it.
    @inequality(
        "planted.witness",
        inputs={"x": Array(low=0.0, high=1.0)},
        examples=[{"dims": {}, "inputs": {"x": 1.5}}],
        **planted_meta(Verdict.REFUTED),
    )
    def witness(xp, x):
        return x**3, x

    r = run_claim(registry["planted.witness"], PROFILE)
    assert r.verdict is Verdict.REFUTED and r.evidence["counterexample"]["inputs"]["x"] == 1.5
    big = PROFILE.scaled(4)
    assert big.instance_budget == 4 * PROFILE.instance_budget
    assert big.hypothesis_examples == 4 * PROFILE.hypothesis_examples
