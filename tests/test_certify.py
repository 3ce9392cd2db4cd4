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
from lemmacheck.model.inputs import SPD, Array, OneHot, Orthogonal, ProbVector
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
    claim = _variance_bound(registry, 1)
    cert = certify_claim(claim)
    assert cert["status"] == "certified", cert
    done = {t["dims"]["n"]: t for t in cert["tried"] if t["status"] == "certified"}
    assert sorted(done) == [1, 2, 3]  # every declared size up to 4, not only the first that closes
    assert done[2]["every_size_at_least_two"] and "simplex" in done[2]["domain"]
    assert [s["route"] for s in done[2]["steps"]] == ["z3"]
    query = done[2]["steps"][0]["query"]
    assert "(check-sat)" in query and "(set-option :rlimit" in query
    assert cert["scope"]["class"] == "all" and cert["scope"]["text"].startswith("certified for n ≤ 3")
    assert replay_certificate(cert, claim) == []


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
    # a violation the claim's own check confirms at the route's exact point refutes the claim
    assert certified.certificate["status"] == "violation"
    assert certified.verdict is Verdict.REFUTED
    cx = certified.evidence["counterexample"]
    assert cx["route"] == "enclosure" and "found by certification's route z3" in cx["minimised"]


def test_an_identity_is_certified_by_sympy_with_its_constants_read_exactly(registry):
    @identity(
        "planted.square", inputs={"x": Array("n"), "y": Array("n")}, dims={"n": [1, 2]}, **planted_meta()
    )
    def square(xp, x, y):
        return xp.sum((x + y) ** 2, axis=-1) * 0.1, 0.1 * xp.sum(x * x + 2 * x * y + y * y, axis=-1)

    cert = certify_claim(registry["planted.square"])
    done = [t for t in cert["tried"] if t["status"] == "certified"][-1]
    assert done["dims"] == {"n": 2}
    assert done["steps"][0]["route"] == "sympy" and done["steps"][0]["method"] == "expand"
    assert done["constants"]["0.100000000000000"] == "1/10"  # its decimal form, not the binary double
    assert replay_certificate(cert, registry["planted.square"]) == []


def test_a_certificate_that_does_not_replay_is_an_error(registry, monkeypatch):
    pytest.importorskip("z3")
    claim = _variance_bound(registry, 1)
    cert = certify_claim(claim)
    done = [t for t in cert["tried"] if t["status"] == "certified"][-1]
    done["steps"][0]["query"] = "(declare-const a Real)\n(assert (> a 0))\n(check-sat)\n"  # tampered
    assert replay_certificate(cert, claim)
    monkeypatch.setattr(certificate_module, "certify_claim", lambda c: cert)
    result = run_claim(claim, QUICK.with_seed(1))
    attach_certificate(claim, result)
    assert result.verdict is Verdict.ERROR
    assert result.certificate["status"] == "replay failed"
    assert "does not replay" in result.message


def test_an_input_made_by_a_numpy_transform_says_why_it_is_not_certifiable(registry):
    @inequality("planted.spd", inputs={"A": SPD("n")}, dims={"n": [2]}, **planted_meta())
    def spd(xp, A):
        return xp.sum(A * A, axis=(-1, -2)) * 0, xp.sum(A * A, axis=(-1, -2))

    cert = certify_claim(registry["planted.spd"])
    assert cert["status"] == "not certified"
    assert "'_spd'" in cert["reason"] and "NumPy-only transform" in cert["reason"]


def _orthogonal_claim(registry, name, dims, sides, relation="<="):
    @inequality(
        name,
        inputs={"Q": Orthogonal("n"), "x": Array("n")},
        dims=dims,
        relations=(relation,),
        **planted_meta(),
    )
    def orth(xp, Q, x):
        return sides(xp, Q, x)

    return registry[name]


def _norm_kept(xp, Q, x):  # ‖Qx‖² ≤ ‖x‖² (equal, for every orthogonal Q)
    Qx = xp.einsum("bij,bj->bi", Q, x)
    return xp.sum(Qx * Qx, axis=-1), xp.sum(x * x, axis=-1)


def test_a_2x2_orthogonal_input_is_certified_in_its_four_exact_cases(registry):
    pytest.importorskip("z3")
    cert = certify_claim(_orthogonal_claim(registry, "planted.orth", {"n": [2]}, _norm_kept))
    assert cert["status"] == "certified", cert
    (done,) = cert["tried"]
    assert done["every_size_at_least_two"] and len(done["cases"]) == 4
    assert "every 2×2 orthogonal matrix" in done["domain"] and "t = ∞" in done["domain"]
    assert sorted({s["case"] for s in done["steps"]}) == [0, 1, 2, 3]
    assert replay_certificate(cert, registry["planted.orth"]) == []


def test_a_false_statement_on_orthogonal_inputs_is_never_certified(registry):
    pytest.importorskip("z3")

    def det_one(xp, Q, x):  # 1 ≤ det Q fails for every reflection
        return 1 + 0 * x[..., 0], xp.det(Q) + 0 * x[..., 0]

    def corner_nonnegative(xp, Q, x):  # 0 ≤ Q₀₀ fails where |t| > 1 and at t = ∞
        return 0 * x[..., 0], Q[..., 0, 0]

    def trace_above_minus_two(xp, Q, x):  # -2 < tr Q fails only at t = ∞ of the rotations: Q = -I
        return -2 + 0 * x[..., 0], Q[..., 0, 0] + Q[..., 1, 1]

    for i, (sides, rel) in enumerate(
        [(det_one, "<="), (corner_nonnegative, "<="), (trace_above_minus_two, "<")]
    ):
        cert = certify_claim(_orthogonal_claim(registry, f"planted.orth_false{i}", {"n": [2]}, sides, rel))
        assert cert["status"] == "violation", cert


def test_a_larger_orthogonal_input_is_not_certifiable_and_says_so(registry):
    cert = certify_claim(_orthogonal_claim(registry, "planted.orth3", {"n": [3]}, _norm_kept))
    assert cert["status"] == "not certified"
    assert "3×3 orthogonal" in cert["reason"] and "up to 2×2" in cert["reason"]


def _one_hot_claim(registry, name, pick):
    @inequality(
        name, inputs={"Y": OneHot("T", "K"), "x": Array("K")}, dims={"T": [2], "K": [2]}, **planted_meta()
    )
    def picked(xp, Y, x):
        return xp.sum(Y * x[:, None, :], axis=(-1, -2)), pick(xp, x)

    return registry[name]


def test_a_one_hot_input_is_certified_case_by_case(registry):
    pytest.importorskip("z3")
    cert = certify_claim(_one_hot_claim(registry, "planted.hot", lambda xp, x: 2 * xp.max(x, axis=-1)))
    assert cert["status"] == "certified", cert
    (done,) = cert["tried"]
    assert done["every_size_at_least_two"] and len(done["cases"]) == 4  # K^T = 2²
    assert done["cases"][1]["case"] == "Y = [[1, 0], [0, 1]]"
    assert "each of the 4 one-hot 2×2 arrays" in done["domain"]
    assert replay_certificate(cert, registry["planted.hot"]) == []
    assert "each of the 4 one-hot 2×2 arrays" in certificate_module.certificate_summary(cert)


def test_a_false_statement_on_one_hot_inputs_is_never_certified(registry):
    pytest.importorskip("z3")
    # Σ_t x[y_t] ≤ 2 x₀ fails when a label picks x₁ > x₀: one case of four
    cert = certify_claim(_one_hot_claim(registry, "planted.hot_false", lambda xp, x: 2 * x[..., 0]))
    assert cert["status"] == "violation", cert
    assert "(in case 2 of 4: Y = [[1, 0], [0, 1]])" in cert["reason"]


def test_too_many_one_hot_values_are_not_certifiable_and_say_so(registry, monkeypatch):
    from lemmacheck.certify import domain

    monkeypatch.setattr(domain, "MAX_CASES", 3)
    cert = certify_claim(_one_hot_claim(registry, "planted.hot_many", lambda xp, x: 2 * xp.max(x, axis=-1)))
    assert cert["status"] == "not certified"
    assert "2^2 = 4 values, above the 3 cases" in cert["reason"]


def test_one_hot_rows_draw_what_the_argmax_of_the_uniform_draw_gave():
    # OneHot("T", "K") replaced a content transform (argmax of Array("T", "K", low=0, high=1)): the same
    # RNG calls and the same values, so sampled search results do not change
    import numpy as np

    def argmax_rows(raw):
        out = np.zeros_like(raw)
        np.put_along_axis(out, np.argmax(raw, axis=-1)[..., None], 1.0, axis=-1)
        return out

    old, new = Array("T", "K", low=0.0, high=1.0, transform=argmax_rows), OneHot("T", "K")
    for seed in range(5):
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        drawn = new.draw(b, 64, {"T": 3, "K": 4})
        assert np.array_equal(old.draw(a, 64, {"T": 3, "K": 4}), drawn) and drawn.dtype == np.float64
        assert a.random() == b.random()  # the generators are left in the same state


def test_without_z3_the_status_says_the_route_was_unavailable(registry, monkeypatch):
    from lemmacheck.certify import prove

    monkeypatch.setattr(certificate_module, "z3_available", lambda: False)
    monkeypatch.setattr(prove, "z3_available", lambda: False)
    cert = certify_claim(_variance_bound(registry, 1))
    assert cert["unavailable"] == ["z3"]
    at_one, at_two, at_three = cert["tried"]
    assert at_two["dims"] == {"n": 2} and "route z3 unavailable" in at_two.get("reason", ""), at_two
    assert at_three["status"] == "not tried" and "smaller size was not certified" in at_three["reason"]
    # n = 1 (the variance of one point is 0) is all SymPy proves, and the certificate says so
    assert at_one["dims"] == {"n": 1} and at_one["status"] == "certified"
    assert not at_one["every_size_at_least_two"] and cert["scope"]["class"] == "some"
    assert "certified at dims n = 1," in certificate_module.certificate_summary(cert)


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
    claim = _tanh_bound(registry, 1)
    cert = certify_claim(claim)  # tight at x = 0: closed at the corner (monotone)
    assert cert["status"] == "certified", cert
    (step,) = cert["tried"][0]["steps"]
    assert step["route"] == "arb" and step["variables"] == ["x_0", "x_1"]
    assert set(step["tree"]) <= set("SLCT")
    assert replay_certificate(cert, claim) == []
    step["tree"] = "L"  # a tree claiming the whole box closes by enclosure alone does not replay
    assert replay_certificate(cert, claim)


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
    assert "certificate:\n  certified for n ≤ 3 (n = 1, 2, 3) (every declared value, at sizes ≥ 2)" in text
    assert "certified at dims n = 2, domain p in the open probability simplex" in text
    assert "by route z3" in text and "Z3 answers unsat to" in text and "(check-sat)" in text


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

    # the refusal, not the time limit, ends it: a limit reached would give its own reason instead (60 s, a
    # wide margin for a loaded machine: the refusal takes well under a second of CPU)
    cert = certify_claim(registry["planted.branches"], seconds=60.0)
    assert cert["status"] == "not certified", cert
    assert "the check branches in Python" in cert["reason"]  # named, never the 64-term relational printed


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


def _relu_bound(registry, slope):
    # relu(x) ≤ slope·|x| written as the checks write it: a comparison, xp.where and a where= filter
    @inequality(
        "planted.relu",
        inputs={"x": Array("n"), "c": Array("n")},
        dims={"n": [1, 2]},
        where=lambda xp, c, **_: (xp.sum(c * c, axis=-1) > 1e-100) & (xp.sum(c, axis=-1) >= 0),
        **planted_meta(),
    )
    def relu_below(xp, x, c):
        relu = xp.where(x > 0, x, 0 * x)
        return xp.sum(relu, axis=-1), slope * xp.sum(xp.maximum(x, -x), axis=-1)

    return registry["planted.relu"]


def test_an_elementwise_branch_runs_on_symbols_as_a_piecewise_and_is_certified(registry):
    pytest.importorskip("z3")
    cert = certify_claim(_relu_bound(registry, 1))
    assert cert["status"] == "certified", cert
    done = [t for t in cert["tried"] if t["status"] == "certified"][-1]
    assert done["dims"] == {"n": 2} and done["every_size_at_least_two"]
    assert len(done["hypotheses"]) == 2  # the where= conjunction, one hypothesis per conjunct
    assert "(ite " in done["steps"][0]["query"]
    assert replay_certificate(cert, registry["planted.relu"]) == []


def test_a_false_elementwise_branch_is_never_certified(registry):
    pytest.importorskip("z3")
    cert = certify_claim(_relu_bound(registry, 0.5))  # x = (1, 0): relu sums to 1 > ½
    assert cert["status"] == "violation", cert


def test_a_python_branch_on_a_symbolic_truth_value_is_refused_naming_its_line(registry):
    @inequality("planted.if", inputs={"x": Array("n")}, dims={"n": [2]}, **planted_meta())
    def python_if(xp, x):
        s = xp.sum(x, axis=-1)
        return (s, s) if s > 0 else (s, -s)  # picks a branch: must never run on symbols

    @inequality("planted.if_array", inputs={"x": Array("n")}, dims={"n": [2]}, **planted_meta())
    def python_if_array(xp, x):
        return (x[..., 0], x[..., 0]) if x[..., 0] > 0 else (x[..., 0], -x[..., 0])

    @inequality("planted.if_any", inputs={"x": Array("n")}, dims={"n": [2]}, **planted_meta())
    def python_if_any(xp, x):  # an Or of relationals, which bool() would read as True
        return (x[..., 0], x[..., 0]) if (x > 0).any() else (x[..., 0], -x[..., 0])

    for name in ("planted.if", "planted.if_array", "planted.if_any"):
        cert = certify_claim(registry[name])
        assert cert["status"] == "not certified", cert
        assert "branches in Python" in cert["reason"] and "truth value" in cert["reason"]
    assert "test_certify.py:" in certify_claim(registry["planted.if"])["reason"]


def test_a_relation_between_symbols_is_a_relational_never_structural_equality():
    from lemmacheck.certify.symbolic import symbolic, sympy_xp

    x, y = sympy.symbols("x y", real=True)
    arr = symbolic(sympy_xp.asarray([x, y]))
    assert (arr == y)[0] == sympy.Eq(x, y)  # not False, which SymPy's == on forms would give
    assert (~(arr > 0))[1] == sympy.Not(y > 0)
    assert sympy_xp.where(arr >= 0, arr, -arr)[0] == sympy.Piecewise((x, x >= 0), (-x, True))


def _tanh_of_relu(registry, factor):
    @inequality(
        "planted.tanh_relu", inputs={"x": Array("n", low=-3.0, high=3.0)}, dims={"n": [1]}, **planted_meta()
    )
    def tanh_relu(xp, x):
        relu = xp.where(x > 0, x, 0 * x)
        return xp.sum(xp.tanh(relu), axis=-1), xp.sum(factor * relu + 0.01, axis=-1)

    return registry["planted.tanh_relu"]


def test_a_transcendental_bound_with_a_branch_is_certified_by_boxes_on_its_branches(registry):
    pytest.importorskip("flint")
    # tanh(relu x) ≤ relu x + 1/100: a margin ≥ 1/100 that enclosure closes (a touching point would need
    # the derivative, which a branch does not have)
    cert = certify_claim(_tanh_of_relu(registry, 1))
    assert cert["status"] == "certified", cert
    (step,) = cert["tried"][0]["steps"]
    assert step["route"] == "arb" and "Piecewise" in step["margin"]
    assert replay_certificate(cert, registry["planted.tanh_relu"]) == []


def test_a_false_transcendental_bound_with_a_branch_is_never_certified(registry):
    pytest.importorskip("flint")
    cert = certify_claim(_tanh_of_relu(registry, 0.5))  # tanh ½ > ¼ + 1/100
    assert cert["status"] == "violation", cert


def test_a_transcendental_identity_sympy_leaves_says_why_the_interval_route_is_not_tried(registry):
    # issue 33 §2: the interval route certified no catalogue claim, and a claim must say why it was not
    # used; tanh(log t) = (t² − 1)/(t² + 1) is true, SymPy does not decide it, and enclosures cannot
    # prove an equality
    @identity("planted.tanh_log", inputs={"x": Array(1, low=0.1, high=1.0)}, dims={}, **planted_meta())
    def tanh_log(xp, x):
        t = x[..., 0]
        return xp.tanh(xp.log(t)), (t * t - 1) / (t * t + 1)

    cert = certify_claim(registry["planted.tanh_log"])
    assert cert["status"] == "not certified", cert
    assert "the interval route is not tried" in cert["reason"] and "never an equality" in cert["reason"]
