"""No unsound certificate (issue 33 §1), each planted the way it was found: a where= hypothesis on an
unbounded input boxed as [0, 1], a positive input boxed smaller than it is drawn, a constant folded by
float64 before the symbolic run, an empty domain counted as certified, and a route's violation that the
claim's own check confirms left INCONCLUSIVE instead of refuting."""

from __future__ import annotations

import dataclasses

import pytest

from conftest import planted_meta
from lemmacheck import Verdict, inequality
from lemmacheck.certify import certificate_summary, certify_claim, replay_certificate, scope_counts
from lemmacheck.model.inputs import Array
from lemmacheck.run.engine import run_claim
from lemmacheck.search.profile import QUICK

CERTIFYING = dataclasses.replace(QUICK.with_seed(1), certify=True)


def test_a_where_hypothesis_on_an_unbounded_input_is_never_boxed_as_the_unit_interval(registry):
    pytest.importorskip("flint")

    # log(1 + x) ≤ 7 for x > 0 is false (x = e⁷): it was certified on the box [0, 1]
    @inequality(
        "planted.log_bound",
        inputs={"x": Array()},
        dims={},
        where=lambda xp, x, **_: x > 0,
        **planted_meta(),
    )
    def log_bound(xp, x):
        return xp.log(1 + x), 7 + 0 * x

    cert = certify_claim(registry["planted.log_bound"])
    assert cert["status"] == "not certified", cert
    assert "unbounded" in cert["reason"] and "no upper bound" in cert["reason"]


def test_a_where_hypothesis_that_bounds_an_input_is_the_box_root_exactly(registry):
    pytest.importorskip("flint")

    @inequality(
        "planted.log_bounded",
        inputs={"x": Array()},
        dims={},
        where=lambda xp, x, **_: (x > 0) & (x < 5),
        **planted_meta(),
    )
    def log_bounded(xp, x):
        return xp.log(1 + x), 2 + 0 * x  # log 6 < 2

    claim = registry["planted.log_bounded"]
    cert = certify_claim(claim)
    assert cert["status"] == "certified", cert
    (step,) = cert["tried"][0]["steps"]
    assert step["route"] == "arb" and step["root"] == [["0", "5"]]
    assert replay_certificate(cert, claim) == []


def test_a_positive_input_on_low_high_is_certified_on_what_it_is_drawn_from(registry):
    pytest.importorskip("z3")

    # |U[-2, 1]| draws [0, 2]: x ≤ 1 was certified on [0, 1] and is false at x = 2
    @inequality(
        "planted.abs_box",
        inputs={"x": Array(1, low=-2.0, high=1.0, positive=True)},
        dims={},
        **planted_meta(),
    )
    def abs_box(xp, x):
        return x[..., 0], 1 + 0 * x[..., 0]

    cert = certify_claim(registry["planted.abs_box"])
    assert cert["status"] == "violation", cert

    @inequality(
        "planted.abs_box_true",
        inputs={"x": Array(1, low=-2.0, high=1.0, positive=True)},
        dims={},
        **planted_meta(),
    )
    def abs_box_true(xp, x):
        return x[..., 0], 2 + 0 * x[..., 0]

    cert = certify_claim(registry["planted.abs_box_true"])
    assert cert["status"] == "certified" and cert["tried"][0]["domain"] == "x ∈ [0, 2]^1", cert


@pytest.mark.parametrize(
    "variant",
    ["inline", "named", "literal"],
)
def test_a_constant_float64_folds_is_refused_naming_it(registry, variant):
    # x²(1 + 1e-20) ≤ x² is false for every x ≠ 0; Python folds 1 + 1e-20 to 1.0 before SymPy sees it,
    # and the certificate said margin 0
    if variant == "inline":

        def sides(xp, x):
            return x[..., 0] ** 2 * (1 + 1e-20), x[..., 0] ** 2

    elif variant == "named":

        def sides(xp, x):
            eps = 1e-20
            c = 1 + eps
            return x[..., 0] ** 2 * c, x[..., 0] ** 2

    else:

        def sides(xp, x):
            return x[..., 0] ** 2 * 1.00000000000000000001, x[..., 0] ** 2

    inequality("planted.folded", inputs={"x": Array(1)}, dims={}, **planted_meta())(sides)
    cert = certify_claim(registry["planted.folded"])
    assert cert["status"] == "not certified", cert
    assert "float64" in cert["reason"] and (
        "1e-20" in cert["reason"] or "1.00000000000000000001" in cert["reason"]
    )


def test_the_constants_the_source_writes_are_listed_as_read(registry):
    @inequality("planted.tenth", inputs={"x": Array(1)}, dims={}, **planted_meta())
    def tenth(xp, x):
        return 0.1 * x[..., 0] ** 2, x[..., 0] ** 2 / 10 + 0 * x[..., 0]

    cert = certify_claim(registry["planted.tenth"])
    assert cert["status"] == "certified", cert
    assert cert["source_constants"] == {"0.1": "1/10"}


def test_an_empty_domain_is_reported_as_such_and_never_counted(registry):
    pytest.importorskip("z3")

    @inequality(
        "planted.empty",
        inputs={"x": Array("n")},
        dims={"n": [2]},
        # x₀ > 0 and x₀x₁ > 1 make x₁ > 0, so x₀ + x₁ < 0 leaves nothing
        where=lambda xp, x, **_: (x[..., 0] > 0) & (x[..., 0] * x[..., 1] > 1) & (xp.sum(x, axis=-1) < 0),
        **planted_meta(),
    )
    def anything(xp, x):
        return xp.sum(x, axis=-1), xp.sum(x, axis=-1) - 1  # false everywhere: only vacuously true

    cert = certify_claim(registry["planted.empty"])
    assert cert["status"] == "empty domain", cert
    assert "Z3 shows no point" in cert["reason"]
    counts = scope_counts([cert])
    assert counts == {
        "all": 0,
        "some": 0,
        "trivial": 0,
        "certified": 0,
        "empty_domain": 1,
        "safety_net_fired": 0,
    }


def test_a_where_that_is_false_on_symbols_is_an_empty_domain(registry):
    @inequality(
        "planted.where_false",
        inputs={"x": Array("n")},
        dims={"n": [2]},
        where=lambda xp, x, **_: x[..., 0] != x[..., 0],
        **planted_meta(),
    )
    def anything(xp, x):
        return xp.sum(x, axis=-1), xp.sum(x, axis=-1) - 1

    cert = certify_claim(registry["planted.where_false"])
    assert cert["status"] == "empty domain", cert
    assert "False" in cert["reason"]


def test_a_certificate_carries_a_witness_point_of_its_domain(registry):
    @inequality("planted.square_ok", inputs={"x": Array("n")}, dims={"n": [2]}, **planted_meta())
    def square(xp, x):
        return 0 * x[..., 0], xp.sum(x * x, axis=-1)

    cert = certify_claim(registry["planted.square_ok"])
    (done,) = [t for t in cert["tried"] if t["status"] == "certified"]
    assert set(done["witness"]) == {"x_0", "x_1"}


def test_a_bound_false_only_far_out_is_refuted_by_the_z3_point(registry):
    pytest.importorskip("z3")

    # x² ≤ 10⁶ + x fails only for x < −999.5… or x > 1000.5…: the scaled sampler (|x| ≲ 300) never goes
    # there (the search's float-range share now does, so the route is asked directly first)
    @inequality("planted.far", inputs={"x": Array(1)}, dims={}, **planted_meta())
    def far(xp, x):
        return x[..., 0] ** 2, 1000000 + x[..., 0]

    claim = registry["planted.far"]
    assert certify_claim(claim)["status"] == "violation"
    result = run_claim(claim, CERTIFYING)
    assert result.verdict is Verdict.REFUTED, result.certificate
    cx = result.evidence["counterexample"]
    (x,) = cx["inputs"]["x"]
    assert abs(float(x)) > 1000 and cx["route"] in ("enclosure", "exact")


def test_a_declared_bound_is_the_domain_certified_never_more(registry):
    pytest.importorskip("z3")

    # the same bound, declared for |x| <= 30 only: false beyond it, where the statement claims nothing, so
    # neither the search nor a route may judge it there
    @inequality("planted.far_bounded", inputs={"x": Array(1, bound=30)}, dims={}, **planted_meta())
    def far_bounded(xp, x):
        return x[..., 0] ** 2, 1000000 + x[..., 0]

    claim = registry["planted.far_bounded"]
    cert = certify_claim(claim)
    assert cert["status"] == "certified", cert
    assert "[-30, 30]" in cert["tried"][0]["domain"], cert["tried"][0]["domain"]
    assert replay_certificate(cert, claim) == []
    assert run_claim(claim, CERTIFYING).verdict is Verdict.HOLDS


def test_the_motzkin_polynomial_plus_a_square_is_refuted_at_its_one_zero(registry):
    pytest.importorskip("z3")

    # M(x, y) + (x − 1)² + (y − 1)² > 0 fails at (1, 1) only (M ≥ 0 is not a sum of squares)
    @inequality(
        "planted.motzkin",
        inputs={"x": Array(1), "y": Array(1)},
        dims={},
        relations=("<",),
        **planted_meta(),
    )
    def motzkin(xp, x, y):
        a, b = x[..., 0], y[..., 0]
        m = a**4 * b**2 + a**2 * b**4 - 3 * a**2 * b**2 + 1
        return 0 * a, m + (a - 1) ** 2 + (b - 1) ** 2

    claim = registry["planted.motzkin"]
    cert = certify_claim(claim)
    assert cert["status"] == "violation", cert
    result = run_claim(claim, CERTIFYING)
    assert result.verdict is Verdict.REFUTED
    assert result.evidence["counterexample"]["inputs"] == {"x": [1.0], "y": [1.0]}


def test_a_constant_folded_in_a_where_lambda_is_refused_too(registry):
    @inequality(
        "planted.folded_where",
        inputs={"x": Array(1)},
        dims={},
        where=lambda xp, x, **_: x[..., 0] * (1 + 1e-20) > x[..., 0],
        **planted_meta(),
    )
    def anything(xp, x):
        return 0 * x[..., 0], x[..., 0] ** 2

    cert = certify_claim(registry["planted.folded_where"])
    assert cert["status"] == "not certified" and "1e-20" in cert["reason"], cert


@pytest.mark.parametrize("positive", [False, True])
def test_a_statement_true_only_on_its_declared_box_is_certified_there_and_never_when_unbounded(
    registry, positive
):
    pytest.importorskip("z3")

    # Audit of issue 32 §2 (aud4): ‖x‖₂² ≤ 1000n + Σx holds for ‖x‖∞ ≤ 30 (900 ≤ 970) and fails once an
    # entry passes 32.1; declared with bound=30 the certificate is over that box at every dims and says
    # so, and the same statement over all of ℝⁿ is never certified
    def both_sides(xp, x):
        return xp.sum(x * x, axis=-1), 1000 * x.shape[-1] + xp.sum(x, axis=-1)

    box = "[0, 30]" if positive else "[-30, 30]"
    for claim_id, spec in (
        ("planted.box30", Array("n", bound=30, positive=positive)),
        ("planted.all", Array("n")),
    ):
        inequality(claim_id, inputs={"x": spec}, dims={"n": [1, 2]}, **planted_meta())(both_sides)
    bounded, unbounded = registry["planted.box30"], registry["planted.all"]
    cert = certify_claim(bounded)
    assert cert["status"] == "certified", cert
    assert [t["domain"] for t in cert["tried"]] == [f"x ∈ {box}^1", f"x ∈ {box}^2"], cert["tried"]
    assert f"domain x ∈ {box}^2" in certificate_summary(cert), certificate_summary(cert)
    assert replay_certificate(cert, bounded) == []
    assert certify_claim(unbounded)["status"] == "violation"
    result = run_claim(unbounded, CERTIFYING)
    assert result.verdict is Verdict.REFUTED and (result.certificate or {}).get("status") != "certified"
    assert max(abs(float(v)) for v in result.evidence["counterexample"]["inputs"]["x"]) > 32
