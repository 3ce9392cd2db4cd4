"""Certified HOLDS (lemmacheck.certify): proved at stated dims and domain, replayed from the shipped
certificate, refused for false statements that sampling misses, and never printed for less."""

from __future__ import annotations

import dataclasses

import pytest
import sympy

from conftest import planted_meta
from lemmacheck import Verdict, identity, inequality
from lemmacheck.certify import attach_certificate, certify_claim, replay_certificate
from lemmacheck.certify import certificate as certificate_module
from lemmacheck.model.inputs import Array, Orthogonal, ProbVector
from lemmacheck.run.engine import run_claim
from lemmacheck.search.profile import QUICK

CERTIFYING = dataclasses.replace(QUICK.with_seed(1), certify=True)


def _variance_bound(registry, constant):
    @inequality(
        "planted.variance_bound",
        inputs={"p": ProbVector("n"), "v": Array("n")},
        dims={"n": [1, 2, 3]},
        **planted_meta(),
    )
    def variance(xp, p, v):
        quad = xp.sum(p * v * v, axis=-1) - xp.sum(p * v, axis=-1) ** 2
        return quad, constant * xp.max(xp.abs(v), axis=-1) ** 2

    return registry["planted.variance_bound"]


def test_a_polynomial_bound_is_certified_by_z3_at_dims_of_size_two_and_replays(registry):
    pytest.importorskip("z3")
    cert = certify_claim(_variance_bound(registry, 1))
    assert cert["status"] == "certified", cert
    (done,) = [t for t in cert["tried"] if t["status"] == "certified"]
    assert done["dims"] == {"n": 2} and done["every_size_at_least_two"]
    assert "simplex" in done["domain"]
    assert [s["route"] for s in done["steps"]] == ["z3"]
    assert "(check-sat)" in done["steps"][0]["query"]
    assert replay_certificate(cert) == []


def test_a_false_constant_is_never_certified(registry):
    pytest.importorskip("z3")
    cert = certify_claim(_variance_bound(registry, 0.5))  # p = (½, ½), v = (1, −1): 1 > ½
    assert cert["status"] == "violation", cert
    assert "Z3 finds the statement false" in cert["reason"]


def test_a_false_bound_sampling_misses_at_n_1_is_refused(registry):
    pytest.importorskip("z3")

    # (3x − 1)² ≥ 10⁻⁴⁰ fails only within 10⁻²⁰ of x = ⅓, where no float64 lies: the sampled search
    # holds (its float64 candidate at x = fl(⅓) is rounding), certification finds x = ⅓.
    @inequality("planted.dip", inputs={"x": Array(1, low=-1.0, high=1.0)}, dims={}, **planted_meta())
    def dip(xp, x):
        return x[..., 0] * 0 + 1e-40, (3 * x[..., 0] - 1) ** 2

    sampled = run_claim(registry["planted.dip"], QUICK.with_seed(1))
    assert sampled.verdict is Verdict.HOLDS
    certified = run_claim(registry["planted.dip"], CERTIFYING)
    assert certified.certificate["status"] == "violation"
    assert certified.verdict is Verdict.INCONCLUSIVE
    assert "certification finds a violation" in certified.reason


def test_an_identity_is_certified_by_sympy_with_its_constants_read_exactly(registry):
    @identity(
        "planted.square", inputs={"x": Array("n"), "y": Array("n")}, dims={"n": [1, 2]}, **planted_meta()
    )
    def square(xp, x, y):
        return xp.sum((x + y) ** 2, axis=-1) * 0.1, 0.1 * xp.sum(x * x + 2 * x * y + y * y, axis=-1)

    cert = certify_claim(registry["planted.square"])
    (done,) = [t for t in cert["tried"] if t["status"] == "certified"]
    assert done["steps"][0]["route"] == "sympy" and done["steps"][0]["method"] == "expand"
    assert done["constants"]["0.100000000000000"] == "1/10"  # its decimal form, not the binary double
    assert replay_certificate(cert) == []


def test_a_certificate_that_does_not_replay_is_an_error(registry, monkeypatch):
    pytest.importorskip("z3")
    claim = _variance_bound(registry, 1)
    cert = certify_claim(claim)
    (done,) = [t for t in cert["tried"] if t["status"] == "certified"]
    done["steps"][0]["query"] = "(declare-const a Real)\n(assert (> a 0))\n(check-sat)\n"  # tampered
    assert replay_certificate(cert)
    monkeypatch.setattr(certificate_module, "certify_claim", lambda c: cert)
    result = run_claim(claim, QUICK.with_seed(1))
    attach_certificate(claim, result)
    assert result.verdict is Verdict.ERROR
    assert result.certificate["status"] == "replay failed"
    assert "does not replay" in result.message


def test_an_input_made_by_a_numpy_transform_says_why_it_is_not_certifiable(registry):
    @inequality("planted.orth", inputs={"Q": Orthogonal("n")}, dims={"n": [2]}, **planted_meta())
    def orth(xp, Q):
        return xp.sum(Q * Q, axis=(-1, -2)) * 0, xp.sum(Q * Q, axis=(-1, -2))

    cert = certify_claim(registry["planted.orth"])
    assert cert["status"] == "not certified"
    assert "'_orthogonal'" in cert["reason"] and "NumPy-only transform" in cert["reason"]


def test_without_z3_the_status_says_the_route_was_unavailable(registry, monkeypatch):
    monkeypatch.setattr(certificate_module, "z3_available", lambda: False)
    cert = certify_claim(_variance_bound(registry, 1))
    assert cert["unavailable"] == ["z3"]
    at_two, at_one = cert["tried"]
    assert at_two["dims"] == {"n": 2} and "route z3 unavailable" in at_two["reason"]
    # n = 1 (the variance of one point is 0) is all SymPy proves, and the certificate says so
    assert at_one["dims"] == {"n": 1} and at_one["status"] == "certified"
    assert not at_one["every_size_at_least_two"]
    assert certificate_module.certificate_summary(cert).startswith("certified at dims n = 1,")


def test_a_chain_is_certified_end_to_end_whatever_its_broken_link(registry):
    # The statement of a chain (without steps_claimed) is e0 R ek; its links are the proof, which the run
    # judges: a false middle link is neither certified nor a violation of the statement.
    @identity(
        "planted.chain",
        inputs={"x": Array("n")},
        dims={"n": [2]},
        relations=("=", "="),
        **planted_meta(expected_broken_step=1),
    )
    def chain(xp, x):
        s = xp.sum(x * x, axis=-1)
        return s, 2 * s, s

    cert = certify_claim(registry["planted.chain"])
    assert cert["status"] == "certified", cert
    (done,) = cert["tried"]
    assert [s["index"] for s in done["steps"]] == [0]


def _tanh_bound(registry, factor):
    @inequality(
        "planted.tanh", inputs={"x": Array("n", low=0.0, high=3.0)}, dims={"n": [2]}, **planted_meta()
    )
    def tanh_below(xp, x):
        return xp.sum(xp.tanh(x), axis=-1), factor * xp.sum(x, axis=-1)

    return registry["planted.tanh"]


def test_a_transcendental_bound_is_certified_by_an_arb_box_tree_that_replays(registry):
    pytest.importorskip("flint")
    cert = certify_claim(_tanh_bound(registry, 1))  # tight at x = 0: closed at the corner (monotone)
    assert cert["status"] == "certified", cert
    (step,) = cert["tried"][0]["steps"]
    assert step["route"] == "arb" and step["variables"] == ["x_0", "x_1"]
    assert set(step["tree"]) <= set("SLCT")
    assert replay_certificate(cert) == []
    step["tree"] = "L"  # a tree claiming the whole box closes by enclosure alone does not replay
    assert replay_certificate(cert)


def test_a_false_transcendental_bound_is_never_certified(registry):
    pytest.importorskip("flint")
    cert = certify_claim(_tanh_bound(registry, 0.9))  # tanh x ≤ 0.9 x fails near 0
    assert cert["status"] == "violation", cert
    assert "arb enclosure finds the statement false" in cert["reason"]


def test_show_prints_the_certificate_with_its_route_dims_and_time(registry):
    pytest.importorskip("z3")
    from lemmacheck.cli.show import format_claim

    claim = _variance_bound(registry, 1)
    result = run_claim(claim, CERTIFYING)
    assert result.verdict is Verdict.HOLDS
    text = format_claim(claim, result)
    assert "certificate:\n  certified at dims n = 2, domain p in the open probability simplex" in text
    assert "by route z3 in" in text and "Z3 answers unsat to" in text and "(check-sat)" in text


def test_a_fixed_axis_of_one_is_a_size_below_two_whatever_the_dims(registry):
    @identity("planted.fixed_one", inputs={"x": Array(1, "n")}, dims={"n": [2]}, **planted_meta())
    def fixed_one(xp, x):
        return xp.sum(x * 2, axis=(-1, -2)), xp.sum(x + x, axis=(-1, -2))

    cert = certify_claim(registry["planted.fixed_one"])
    assert cert["status"] == "certified"
    assert cert["tried"][0]["every_size_at_least_two"] is False


def test_singular_values_of_a_thin_matrix_are_certified_in_closed_form(registry):
    pytest.importorskip("z3")

    @inequality("planted.spectral", inputs={"X": Array("n", 1)}, dims={"n": [2]}, **planted_meta())
    def spectral_below_l1(xp, X):
        return xp.max(xp.svdvals(X), axis=-1), xp.sum(xp.abs(X), axis=(-1, -2))

    cert = certify_claim(registry["planted.spectral"])
    (done,) = [t for t in cert["tried"] if t["status"] == "certified"]
    assert done["steps"][0]["route"] == "z3"


def test_a_3_by_3_spectrum_is_not_certifiable_and_says_so(registry):
    @inequality("planted.spectral3", inputs={"X": Array("n", "n")}, dims={"n": [3]}, **planted_meta())
    def spectral3(xp, X):
        return xp.max(xp.svdvals(X), axis=-1), xp.schatten_norm(X, 1)

    cert = certify_claim(registry["planted.spectral3"])
    assert cert["status"] == "not certified"
    assert "xp.svdvals on 3×3 matrices" in cert["reason"]


def test_a_shipped_margin_that_is_not_srepr_is_refused_and_never_evaluated(tmp_path):
    from lemmacheck.certify.srepr import from_srepr

    marker = tmp_path / "ran"
    x = sympy.Symbol("x", real=True)
    assert from_srepr(sympy.srepr(sympy.Rational(1, 3) * x**2 - sympy.sqrt(2))) == x**2 / 3 - sympy.sqrt(2)
    planted = f"__import__('pathlib').Path({str(marker)!r}).touch()"
    with pytest.raises(ValueError, match="not a SymPy srepr expression"):
        from_srepr(planted)
    with pytest.raises(ValueError, match="not a SymPy srepr expression"):
        from_srepr(f"Add(Integer(1), {planted})")  # hidden inside a SymPy call
    with pytest.raises(ValueError, match="not a SymPy srepr expression"):
        from_srepr("Add(Integer(1), sympify)")  # a bare name that is not a singleton
    assert not marker.exists()


def test_a_shipped_margin_with_singletons_reads_back():
    # srepr writes SymPy's singletons as bare names: a Piecewise ends in `true`, a bound may hold pi or -oo
    from lemmacheck.certify.srepr import from_srepr

    x = sympy.Symbol("x", real=True)
    for expr in (
        sympy.Piecewise((x**2, x > 0), (sympy.Integer(0), True)),
        sympy.pi * x - sympy.E,
        sympy.Max(x, -sympy.oo),
        sympy.Interval(-sympy.oo, sympy.oo).contains(x),
    ):
        assert from_srepr(sympy.srepr(expr)) == expr, sympy.srepr(expr)


def test_a_check_branching_on_a_long_symbolic_comparison_is_refused_within_the_cap(registry):
    # SymPy's "cannot determine truth value" message prints the whole relational lazily: for the Adam
    # claims' 64-term means that took minutes, past the claim's limit
    @inequality("planted.branches", inputs={"x": Array("n")}, dims={"n": [2]}, **planted_meta())
    def branches(xp, x):
        s = sum((x[..., 0] + k * x[..., 1]) ** 3 / (k + 1) for k in range(64))
        return (s if bool(s > 0) else -s), xp.sum(x * x, axis=-1) + 1e9

    cert = certify_claim(registry["planted.branches"], seconds=5.0)
    assert cert["status"] == "not certified" and cert["seconds"] < 5.0
    assert "cannot determine truth value of Relational (the check branches on a comparison)" in cert["reason"]


def test_a_solver_violation_the_check_does_not_have_certifies_nothing_and_keeps_the_verdict(registry):
    pytest.importorskip("z3")

    # a difference of 3e-10 relative is inside the float64 tolerance (rtol 1e-9), so the run holds; the
    # statement read exactly is false at any x ≠ 0, and Z3 says so, but the check there does not violate
    # it beyond the tolerance: the solver overrules nothing
    @identity("planted.float_constant", inputs={"x": Array(1)}, dims={}, **planted_meta(Verdict.HOLDS))
    def float_constant(xp, x):
        return x[..., 0] * 1.0000000003, x[..., 0]

    claim = registry["planted.float_constant"]
    cert = certify_claim(claim)
    assert cert["status"] == "not certified", cert
    assert "Z3 finds the statement false" in cert["reason"]
    assert "not violated there beyond its tolerance" in cert["reason"]
    result = run_claim(claim, CERTIFYING)
    assert result.verdict is Verdict.HOLDS and result.certificate["status"] == "not certified"


def test_a_solver_violation_is_confirmed_on_the_check_before_it_changes_the_verdict(registry):
    pytest.importorskip("z3")
    cert = certify_claim(_variance_bound(registry, 0.5))
    assert cert["status"] == "violation"
    assert "confirmed on the check itself (enclosure" in cert["reason"]
