"""A certificate's scope, said exactly and counted (issue 33 §2): every parameter value the dims table
declares is tried at the certified sizes and the certificate says which were proved; sizes up to 4 are
tried; a certificate whose sides coincide as computed is `trivial`; the run prints and writes the
counts by scope, and the report's badge for a certificate is not a sound proof's green."""

from __future__ import annotations

import dataclasses

import pytest

from conftest import planted_meta
from lemmacheck import identity, inequality
from lemmacheck.certify import certify_claim, scope_counts
from lemmacheck.cli.run_output import summary
from lemmacheck.model.inputs import Array
from lemmacheck.run.engine import RunResult, run_claim
from lemmacheck.schema import validate_results
from lemmacheck.search.profile import QUICK

CERTIFYING = dataclasses.replace(QUICK.with_seed(1), certify=True)


def _by_parameter(registry):
    # Σx² ≥ 0 certifies; Σ x tanh x ≥ 0 is transcendental on an unbounded domain: not certified.
    # Certification used to stop at the first certified combination, and the claim showed `certified`.
    @inequality(
        "planted.by_parameter",
        inputs={"x": Array("n")},
        dims={"n": [2, 3], "f": ["square", "tanh"]},
        relations=(">=",),
        **planted_meta(),
    )
    def nonnegative(xp, x, f):
        y = x if f == "square" else xp.tanh(x)
        return xp.sum(x * y, axis=-1), 0 * x[..., 0]

    return registry["planted.by_parameter"]


def test_every_declared_parameter_value_is_tried_and_the_scope_says_which_were_proved(registry):
    pytest.importorskip("z3")
    cert = certify_claim(_by_parameter(registry))
    assert cert["status"] == "certified"
    tried = {(t["dims"]["n"], t["dims"]["f"]): t["status"] for t in cert["tried"]}
    assert tried == {
        (2, "square"): "certified",
        (2, "tanh"): "not certified",
        (3, "square"): "certified",
        (3, "tanh"): "not certified",
    }
    scope = cert["scope"]
    assert scope["class"] == "some"
    assert scope["parameters"] == {"f": {"declared": ["square", "tanh"], "proved": ["square"]}}
    assert "f ∈ {'square'} of 2 declared" in scope["text"] and "n ≤ 3" in scope["text"]
    assert "not for every size the statement covers" in scope["text"]


def test_sizes_up_to_four_are_tried_and_said(registry):
    pytest.importorskip("z3")

    @inequality("planted.sizes", inputs={"x": Array("n")}, dims={"n": [1, 2, 3, 4, 5, 8]}, **planted_meta())
    def am_qm(xp, x):  # (Σx)² ≤ n Σx²
        n = x.shape[-1]
        return xp.sum(x, axis=-1) ** 2, n * xp.sum(x * x, axis=-1)

    cert = certify_claim(registry["planted.sizes"])
    assert [t["dims"]["n"] for t in cert["tried"]] == [1, 2, 3, 4]
    assert cert["scope"]["class"] == "all" and cert["scope"]["trivial"] == [{"n": 1}]  # x₀² ≤ 1·x₀²
    assert cert["scope"]["text"].startswith("certified for n ≤ 4 (n = 2, 3, 4)")


def test_sides_that_coincide_as_computed_are_trivial(registry):
    @identity("planted.same", inputs={"x": Array("n")}, dims={"n": [2]}, **planted_meta())
    def same(xp, x):
        s = xp.sum(x * x, axis=-1)
        return s, s

    cert = certify_claim(registry["planted.same"])
    assert cert["status"] == "certified"
    assert cert["scope"]["class"] == "trivial" and cert["tried"][0]["steps"][0]["trivial"]
    assert "trivial" in cert["scope"]["text"]


def test_the_run_prints_and_writes_the_counts_by_scope(registry):
    pytest.importorskip("z3")
    _by_parameter(registry)

    @identity("planted.same", inputs={"x": Array("n")}, dims={"n": [2]}, **planted_meta())
    def same(xp, x):
        return xp.sum(x, axis=-1), xp.sum(x, axis=-1)

    results = [run_claim(registry[i], CERTIFYING) for i in ("planted.by_parameter", "planted.same")]
    run = RunResult(1, "quick", results, [], "2026-11-27T00:00:00", 1.0)
    counts = run.certificate_counts()
    assert counts == {"all": 0, "some": 1, "trivial": 1, "certified": 2, "safety_net_fired": 0}
    assert counts == scope_counts(r.certificate for r in results)
    text = summary(run)
    assert "certificates (for the stated sizes only): 2 certified — 0 for every declared value" in text
    assert "1 for some, 1 trivial" in text
    assert "no safety net fired" in text
    data = run.to_dict()
    assert data["certificate_counts"] == counts
    validate_results(data)


def test_the_report_badge_for_a_certificate_is_not_a_sound_proofs(registry):
    from lemmacheck.report.html import render_html

    @identity("planted.same", inputs={"x": Array("n")}, dims={"n": [2]}, **planted_meta())
    def same(xp, x):
        return xp.sum(x, axis=-1), xp.sum(x, axis=-1)

    run = RunResult(
        1, "quick", [run_claim(registry["planted.same"], CERTIFYING)], [], "2026-11-27T00:00:00", 1.0
    )
    html = render_html(run.to_dict())
    assert 'class="pbadge p-certified"' in html and "certified: trivial" in html
    assert 'id="certificate-counts"' in html
    assert 'class="pbadge p-sound" title="proved at the dims' not in html


def test_a_parameter_whole_in_one_combination_and_not_in_another_is_no_size(registry):
    # schatten.holder's dims: p in (1, 2, inf) is a whole number in two combinations and a float in the
    # third, so a combination's sizes were tuples of different lengths and certification crashed
    # ("zip() argument 2 is shorter than argument 1"), the claim an ERROR under --certify
    @inequality(
        "planted.mixed_parameter",
        inputs={"x": Array("n")},
        dims={"n": [2, 3], "p": [1, 2, float("inf")]},
        **planted_meta(),
    )
    def mixed_parameter(xp, x, p):
        # transcendental on an unbounded domain: not certified, so a failed size is remembered and the
        # next combination (p a float) is compared with it
        return 0 * x[..., 0], xp.sum(x * xp.tanh(x), axis=-1)

    cert = certify_claim(registry["planted.mixed_parameter"])
    assert cert["status"] in ("certified", "not certified"), cert
    assert {"2", "inf"} <= {str(t["dims"]["p"]) for t in cert["tried"]}


def test_a_check_that_discretises_is_not_certified_and_says_why(registry):
    # a finite difference certified on symbols would prove the difference quotient, not the derivative
    @inequality("planted.discretises", inputs={"x": Array(1)}, dims={}, **planted_meta())
    def discretises(xp, x):
        xp.discretised("a derivative by a 2-point difference")
        return 0 * x[..., 0], x[..., 0] ** 2

    cert = certify_claim(registry["planted.discretises"])
    assert cert["status"] == "not certified"
    assert "xp.discretised" in cert["reason"] and "approximation" in cert["reason"], cert["reason"]


def test_the_run_names_the_claims_a_safety_net_stopped(registry, monkeypatch):
    # issue 33 §4: a net that fires is visible in the run's summary, not only in the certificate
    from lemmacheck.certify import work

    @identity("planted.same", inputs={"x": Array("n")}, dims={"n": [2]}, **planted_meta())
    def same(xp, x):
        return xp.sum(x, axis=-1), xp.sum(x, axis=-1)

    readings = iter(range(0, 10**9, 100))  # 100 CPU seconds per reading: the 30 s net falls at once
    monkeypatch.setattr(work, "cpu_seconds", lambda: next(readings))
    run = RunResult(
        1, "quick", [run_claim(registry["planted.same"], CERTIFYING)], [], "2026-11-27T00:00:00", 1.0
    )
    assert run.certificate_counts()["safety_net_fired"] == 1
    text = summary(run)
    assert "a CPU-time safety net fired for 1" in text
    assert "the safety net fired for: planted.same" in text
