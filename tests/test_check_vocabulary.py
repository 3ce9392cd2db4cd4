"""What a newcomer writes in a check and is entitled to expect (issue 37 §3).

* ``xp.all`` / ``xp.any`` exist on every namespace (float64, mpmath, balls, and SymPy for --certify).
* A constant side (``return lhs, 1.0``) is broadcast to the batch, on every path: the search, the
  settling of a refutation in high precision, and certification.
* A side that is one value for a whole batch and is not a Python number (``xp.sum(x)``, which summed over
  the batch axis too) is an ERROR whose message names both fixes, never broadcast in silence.
* ``xp.full_like(lhs, c)`` is the array form of a constant side.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from conftest import planted_meta
from lemmacheck import Array, Verdict, inequality, mpmath_xp, numpy_xp, prop
from lemmacheck.certify.symbolic import sympy_xp
from lemmacheck.run.engine import run_claim
from lemmacheck.search.profile import QUICK
from lemmacheck.xp import ball_xp

NAMESPACES = {"numpy": numpy_xp, "mpmath": mpmath_xp, "ball": ball_xp, "sympy": sympy_xp}


@pytest.mark.parametrize("name", sorted(NAMESPACES))
def test_all_any_and_full_like_are_on_every_namespace(name):
    xp = NAMESPACES[name]
    for fn in ("all", "any", "full_like"):
        assert callable(getattr(xp, fn, None)), f"xp.{fn} is missing on the {name} namespace"


@pytest.mark.parametrize("name", ["numpy", "mpmath", "ball"])
def test_all_and_any_reduce_truth_values_along_an_axis(name):
    xp = NAMESPACES[name]
    x = xp.asarray(np.array([[1.0, 2.0], [-1.0, 3.0]]))
    assert [bool(v) for v in xp.all(x > 0, axis=-1)] == [True, False]
    assert [bool(v) for v in xp.any(x < 0, axis=-1)] == [False, True]
    assert np.shape(xp.full_like(x, 1)) == (2, 2)


def _run(claim_id, *, certify=False):
    from lemmacheck import REGISTRY

    return run_claim(REGISTRY[claim_id], dataclasses.replace(QUICK.with_seed(1), certify=certify))


def test_a_constant_side_is_broadcast_and_a_true_bound_holds(registry):
    @inequality("t.const_holds", inputs={"x": Array("n")}, dims={"n": [1, 2, 3]}, **planted_meta())
    def const_holds(xp, x):
        s = xp.vector_norm(x, 2) ** 2
        return s / (1 + s), 1.0

    r = _run("t.const_holds")
    assert r.verdict is Verdict.HOLDS, r.reason


def test_a_constant_side_is_refuted_with_a_certified_counterexample(registry):
    @inequality(
        "t.const_refuted",
        inputs={"x": Array("n")},
        dims={"n": [1, 2]},
        **planted_meta(expected=Verdict.REFUTED),
    )
    def const_refuted(xp, x):
        return xp.vector_norm(x, 2) ** 2, 1  # an int constant too

    r = _run("t.const_refuted")
    assert r.verdict is Verdict.REFUTED, r.reason
    cx = r.evidence["counterexample"]
    assert cx["route"] == "enclosure", cx  # settled on balls, the constant side included
    assert float(cx["rhs"]) == 1.0 and float(cx["lhs"]) > 1.0, cx


def test_a_constant_side_and_xp_all_are_certified(registry):
    @inequality("t.const_cert", inputs={"x": Array("n")}, dims={"n": [1, 2]}, **planted_meta())
    def const_cert(xp, x):
        s = xp.vector_norm(x, 2) ** 2
        return s / (1 + s), 1.0

    @prop("t.all_cert", inputs={"x": Array("n", positive=True)}, dims={"n": [1, 2]}, **planted_meta())
    def all_cert(xp, x):
        return xp.all(x >= 0, axis=-1) & ~xp.any(x < 0, axis=-1)

    for claim_id in ("t.const_cert", "t.all_cert"):
        r = _run(claim_id, certify=True)
        assert r.verdict is Verdict.HOLDS, r.reason
        assert r.certificate["status"] == "certified", r.certificate


def test_a_refuted_property_through_xp_all_is_settled_in_high_precision(registry):
    @prop(
        "t.all_refuted",
        inputs={"x": Array("n", low=0.0, high=1.0)},
        dims={"n": [1, 2]},
        **planted_meta(expected=Verdict.REFUTED),
    )
    def all_refuted(xp, x):
        return xp.all(x > xp.asarray(0.5), axis=-1)

    r = _run("t.all_refuted")
    assert r.verdict is Verdict.REFUTED, r.reason


def test_one_value_for_a_whole_batch_names_both_fixes(registry):
    @inequality("t.batch_sum", inputs={"x": Array("n")}, dims={"n": [1, 2]}, **planted_meta())
    def batch_sum(xp, x):
        return xp.sum(x * 0), xp.vector_norm(x, 2)  # summed over the batch axis too: a bug, not a constant

    r = _run("t.batch_sum")
    assert r.verdict is Verdict.ERROR
    for fix in ("Python number (return lhs, 1.0)", "xp.full_like(lhs, c)", "xp.sum(x, axis=-1)"):
        assert fix in r.message, r.message


def test_a_counterexample_of_a_transformed_input_carries_the_untransformed_values(registry):
    """An SPD matrix shrunk in its factor reads as [[0.001, 0], [0, 0.251]]; the factor it came from,
    [[0, 0], [0, -0.5]], is what the author can reason about: both are printed."""
    from lemmacheck import SPD
    from lemmacheck.model.inputs import _spd
    from lemmacheck.report.html import render_cards

    @inequality(
        "t.spd_refuted",
        inputs={"H": SPD("n")},
        dims={"n": [2, 3]},
        **planted_meta(expected=Verdict.REFUTED),
    )
    def spd_refuted(xp, H):
        return xp.eigvalsh(H)[..., -1], xp.trace(H) / 2  # false: λ_max ≤ tr/2 fails off the diagonal's mean

    r = _run("t.spd_refuted")
    assert r.verdict is Verdict.REFUTED, r.reason
    cx = r.evidence["counterexample"]
    raw = np.asarray(cx["untransformed"]["H"])
    np.testing.assert_allclose(_spd(raw[None])[0], cx["inputs"]["H"], rtol=0, atol=0)
    html = str(render_cards([r.to_dict()])[0])
    assert "drawn as" in html and "through its transform" in html


def test_a_counterexample_of_plain_inputs_has_no_untransformed_field(registry):
    @inequality(
        "t.plain_refuted", inputs={"x": Array("n")}, dims={"n": [1]}, **planted_meta(expected=Verdict.REFUTED)
    )
    def plain_refuted(xp, x):
        return xp.vector_norm(x, 2), 1.0

    r = _run("t.plain_refuted")
    assert r.verdict is Verdict.REFUTED and "untransformed" not in r.evidence["counterexample"]


def _tanh_by_hand(xp, x):
    """A helper as a newcomer writes it: NumPy for the search, mpmath by hand for high precision."""
    import mpmath

    if xp.backend == "numpy":
        return np.tanh(x)
    return np.vectorize(mpmath.tanh, otypes=[object])(x)


def test_a_helper_calling_mpmath_is_not_certified_and_the_reason_names_the_xp_function(registry):
    @inequality("t.mp_helper", inputs={"x": Array("n")}, dims={"n": [1, 2]}, **planted_meta())
    def mp_helper(xp, x):
        return xp.sum(xp.abs(_tanh_by_hand(xp, x)), axis=-1), xp.sum(xp.abs(x), axis=-1)

    r = _run("t.mp_helper", certify=True)
    assert r.verdict is Verdict.HOLDS, r.reason
    reason = r.certificate["reason"]
    assert r.certificate["status"] == "not certified", r.certificate
    assert "calls mpmath.tanh" in reason and "write xp.tanh(...)" in reason, reason
    assert "test_check_vocabulary.py:" in reason and "_tanh_by_hand" in reason, reason
    assert "cannot create mpf" not in reason, reason


def test_the_same_helper_written_with_xp_is_certified(registry):
    @inequality("t.xp_helper", inputs={"x": Array("n")}, dims={"n": [1, 2]}, **planted_meta())
    def xp_helper(xp, x):
        return xp.sum(xp.abs(xp.tanh(x)), axis=-1), xp.sum(xp.abs(x), axis=-1)

    r = _run("t.xp_helper", certify=True)
    assert r.verdict is Verdict.HOLDS, r.reason
    assert r.certificate["status"] != "not certified" or "mpmath" not in r.certificate.get("reason", "")


def test_a_refused_certification_is_said_per_claim_in_the_terminal_with_the_fix(registry):
    """An SPD input blocks --certify; the run's terminal summary names the claim, the input and the fix
    (before, it printed nothing about certificates)."""
    from lemmacheck import SPD
    from lemmacheck.cli.run_output import summary
    from lemmacheck.run.engine import run_claims

    @inequality("t.spd_holds", inputs={"H": SPD("n")}, dims={"n": [1, 2]}, **planted_meta())
    def spd_holds(xp, H):
        return xp.eigvalsh(H)[..., 0], xp.trace(H)  # the least eigenvalue of an SPD matrix ≤ its trace

    @inequality("t.plain_holds", inputs={"x": Array("n")}, dims={"n": [1, 2]}, **planted_meta())
    def plain_holds(xp, x):
        s = xp.vector_norm(x, 2) ** 2
        return s / (1 + s), 1.0

    run = run_claims(dataclasses.replace(QUICK.with_seed(1), certify=True), with_studies=False)
    text = summary(run)
    assert "certificates (for the stated sizes only): 1 certified" in text, text
    line = next(ln for ln in text.splitlines() if ln.strip().startswith("t.spd_holds:"))
    assert "input 'H' (SPD)" in line and "A @ xp.transpose(A)" in line, line
    assert "t.plain_holds:" not in text, text


def test_a_run_without_certify_prints_nothing_about_certificates(registry):
    from lemmacheck.cli.run_output import summary
    from lemmacheck.run.engine import run_claims

    @inequality("t.plain", inputs={"x": Array("n")}, dims={"n": [1]}, **planted_meta())
    def plain(xp, x):
        return xp.vector_norm(x, 2), xp.vector_norm(x, 1)

    assert "certificates" not in summary(run_claims(QUICK.with_seed(1), with_studies=False))
