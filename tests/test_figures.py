"""Figures from instances that mean something: tightness from resolved instances with its witness,
the counterexample's ratio for a refuted claim, and counterexamples shrunk however they were drawn.

Each case is planted the way it was found: a bound whose ratio stays ≤ ½ with tiny-magnitude instances,
a bound attained only at n = 1, the halved Hölder index, a chain whose second link fails for x > 3/2, and
a false eigenvalue inequality over symmetric matrices.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp

from conftest import planted_meta
from lemmacheck import Verdict, derivation, inequality
from lemmacheck.cli.show import format_claim
from lemmacheck.model.inputs import Array, Scalar
from lemmacheck.model.tolerance import REVERIFY_DPS
from lemmacheck.model.verdict import ProofStatus
from lemmacheck.report.notebook import cards_html
from lemmacheck.run.engine import run_claim
from lemmacheck.search.candidates import Instance
from lemmacheck.search.profile import QUICK
from lemmacheck.search.tightness import RatioRecord, resolve_batch


def _symmetric(raw):
    return 0.5 * (raw + np.swapaxes(raw, -1, -2))


# --------------------------------------------------------------------------- tightness


@pytest.mark.parametrize("seed", [1, 2])
def test_tightness_excludes_ratios_that_are_rounding(registry, seed):
    # lse(x + d) − lse(x) − ⟨p, d⟩ ≤ ‖d‖∞² holds with ratio ≤ ½ (the remainder is ½ Var_p(d) at some
    # point, and Var ≤ ‖d‖∞²), approached at p = (½, ½), d = (a, −a).  With d of size 1e-9 next to x of
    # size 1 the float64 remainder is rounding (~1e-17 against a bound of ~1e-18), so its ratio can be
    # anything: it must not be the figure.
    @inequality(
        "planted.lse_remainder",
        inputs={"x": Array("n", scale=(0.5, 2.0)), "d": Array("n", scale=(1e-9, 1e-1))},
        dims={"n": [2, 3]},
        **planted_meta(),
    )
    def lse_remainder(xp, x, d):
        p = xp.softmax(x, axis=-1)
        rem = xp.logsumexp(x + d, axis=-1) - xp.logsumexp(x, axis=-1) - xp.sum(p * d, axis=-1)
        return rem, xp.max(xp.abs(d), axis=-1) ** 2

    r = run_claim(registry["planted.lse_remainder"], QUICK.with_seed(seed))
    ev = r.evidence
    assert r.verdict is Verdict.HOLDS, r.reason
    assert ev["float64_max_ratio"] > 1  # float64 alone shows rounding far above the true figure
    assert 0.2 < ev["tightness"] <= 0.5  # settled in high precision: it never passes ½
    assert ev["tightness_excluded"] > 0  # the rounding instances above it are counted, not dropped
    w = ev["tightness_witness"]
    assert w["ratio"] == ev["tightness"] and w["dps"] >= REVERIFY_DPS
    assert set(w["inputs"]) == {"x", "d"} and w["dims"]["n"] in (2, 3)
    assert float(w["lhs"]) / float(w["rhs"]) == pytest.approx(w["ratio"], rel=1e-12)
    # settled on balls: the figure is the midpoint of an enclosure as narrow as float64 resolves
    assert w["route"] == "enclosure" and w["bits"] > 0, w
    lo, hi = (float(v) for v in w["ratio_enclosure"])
    assert lo <= w["ratio"] <= hi and hi - lo <= 1e-15 * w["ratio"]
    shown = format_claim(registry["planted.lse_remainder"], r)  # lemmacheck show says it too
    assert "on balls, ratio in [{}, {}]".format(*w["ratio_enclosure"]) in shown


def test_a_witness_balls_cannot_evaluate_is_settled_in_mpmath_and_says_why(registry):
    # x ≤ exp(x) − 1/2 (min of exp(x) − x is 1, at 0): the exponential taken through mpmath on each
    # entry, which has no ball form, so the attaining instance is settled in mpmath and says why
    @inequality("planted.exp_above_line", inputs={"x": Scalar(-1.0, 1.0)}, **planted_meta())
    def exp_above_line(xp, x):
        exp = np.exp if xp.backend == "numpy" else np.frompyfunc(lambda v: mpmath.exp(v), 1, 1)
        return x, exp(x) - 0.5

    r = run_claim(registry["planted.exp_above_line"], QUICK.with_seed(1))
    assert r.verdict is Verdict.HOLDS, r.reason
    w = r.evidence["tightness_witness"]
    assert w["route"] == "mpmath" and "ratio_enclosure" not in w
    assert "does not run on balls" in w["route_reason"], w
    assert w["dps"] >= REVERIFY_DPS and w["ratio"] == r.evidence["tightness"]
    card = cards_html([r.to_dict()])
    assert "digits in mpmath" in card
    assert "digits in mpmath (the check does not run on balls" in format_claim(
        registry["planted.exp_above_line"], r
    )


def test_a_bound_attained_only_at_size_one_says_so(registry):
    # ‖x‖₂ ≤ ‖x‖₁ on entries in [1, 2]: equality at n = 1 (both sides are |x|), and at n ≥ 2 at most
    # √5/3 (x = (2, 1)).  float64 may show 1.0000000000000002 at n = 1; the settled figure is 1.
    @inequality(
        "planted.l2_below_l1",
        inputs={"x": Array("n", low=1.0, high=2.0)},
        dims={"n": [1, 2, 4]},
        **planted_meta(),
    )
    def l2_below_l1(xp, x):
        return xp.vector_norm(x, 2), xp.vector_norm(x, 1)

    r = run_claim(registry["planted.l2_below_l1"], QUICK.with_seed(3))
    ev = r.evidence
    assert r.verdict is Verdict.HOLDS
    assert ev["tightness"] == 1.0
    w = ev["tightness_witness"]
    assert w["trivial"] and w["dims"] == {"n": 1}
    assert 0.7 < ev["nontrivial_tightness"] <= math.sqrt(5) / 3 + 1e-12
    assert ev["nontrivial_witness"]["dims"]["n"] >= 2
    card = cards_html([r.to_dict()])  # the report says where the figure is attained, and the one beside it
    assert "at a size below 2" in card and "every size ≥ 2" in card


# ------------------------------------------------------------- refuted: the counterexample's ratio


def test_a_refuted_claim_shows_its_counterexamples_ratio_not_a_tightness(registry):
    # Hölder's |⟨x, y⟩| ≤ ‖x‖_p ‖y‖_q with the index halved (q = p/2 instead of the conjugate): false.
    @inequality(
        "planted.holder_halved",
        inputs={"x": Array("n"), "y": Array("n")},
        dims={"n": [1, 2, 3, 5]},
        **planted_meta(Verdict.REFUTED),
    )
    def holder_halved(xp, x, y):
        return xp.abs(xp.sum(x * y, axis=-1)), xp.vector_norm(x, 4) * xp.vector_norm(y, 4)

    r = run_claim(registry["planted.holder_halved"], QUICK.with_seed(1))
    ev = r.evidence
    assert r.verdict is Verdict.REFUTED
    assert "tightness" not in ev and "tightness_witness" not in ev
    cx = ev["counterexample"]
    assert cx["ratio"] == pytest.approx(float(cx["lhs"]) / float(cx["rhs"]), rel=1e-12)
    assert cx["ratio"] > 1 + 1e-3  # a violation by a visible factor, not a float64 1.0000000019
    card = cards_html([r.to_dict()])
    assert "the counterexample's lhs/rhs" in card and "tightness max" not in card


# --------------------------------------------------------------------------- broken steps


def test_a_broken_symbolic_step_is_shrunk_and_stored_as_data(registry):
    x = sp.symbols("x", positive=True)
    derivation(
        "planted.second_link",
        chain=[x / 2, "<=", x, "<=", sp.Rational(3, 2)],
        domain={x: (0, 10)},
        **planted_meta(Verdict.REFUTED, expected_broken_step=2),
    )
    r = run_claim(registry["planted.second_link"], QUICK.with_seed(1))
    assert r.proof.status is ProofStatus.BROKEN and r.proof.step == 2
    cx = r.proof.counterexample
    assert cx is not None
    # the link fails for x > 3/2: 2 is the simplest witness (exact, or settled in high precision)
    assert {k: Fraction(v) for k, v in cx["inputs"].items()} == {"x": 2}
    assert Fraction(cx["lhs"]) == 2 and Fraction(cx["rhs"]) == Fraction(3, 2)
    assert cx.get("exact") or cx["dps"] >= REVERIFY_DPS


def test_a_broken_numeric_step_reports_its_shrunk_counterexample(registry):
    @inequality(
        "planted.second_link_numeric",
        inputs={"x": Scalar(0.0, 10.0)},
        relations=("<=", "<="),
        **planted_meta(Verdict.HOLDS, expected_broken_step=2),
    )
    def second_link(xp, x):
        return x / 2, x, 0 * x + 1.5

    r = run_claim(registry["planted.second_link_numeric"], QUICK.with_seed(1))
    cx = r.proof.counterexample
    assert r.proof.step == 2 and cx["inputs"] == {"x": 2.0}
    assert "lhs=2.0 " in r.proof.reason  # the text shows the shrunk instance, not the one first found


# --------------------------------------------------------------------------- transformed inputs


@pytest.mark.parametrize("seed", [1, 2])
def test_a_symmetric_counterexample_is_shrunk_in_its_untransformed_coordinates(registry, seed):
    # λ_max(A) ≤ max_i A_ii is false for symmetric A with an off-diagonal entry: [[0, ½], [½, 1]] has
    # λ_max = (1 + √2)/2.
    @inequality(
        "planted.eig_below_diagonal",
        inputs={"A": Array("n", "n", transform=_symmetric)},
        dims={"n": [2, 3]},
        **planted_meta(Verdict.REFUTED),
    )
    def eig_below_diagonal(xp, A):
        return xp.max(xp.eigvalsh(A), axis=-1), xp.max(xp.diagonal(A), axis=-1)

    r = run_claim(registry["planted.eig_below_diagonal"], QUICK.with_seed(seed))
    assert r.verdict is Verdict.REFUTED
    cx = r.evidence["counterexample"]
    A = np.array(cx["inputs"]["A"])
    assert np.array_equal(A, A.T)  # still symmetric
    assert all(float(4 * a).is_integer() for a in A.ravel()), A  # quarters at most: simple values
    assert float(cx["difference"]) > 0.1  # a violation by a visible amount, not a refined 4e-9


def test_the_tightness_record_is_the_same_however_the_sweep_is_split():
    # Ratios above 0.9 are unresolved (rounding); the figure and the excluded count must not depend on
    # whether the instances came in one batch or in chunks merged afterwards (a sweep split among workers).
    rng = np.random.default_rng(0)
    ratio = rng.uniform(0, 1, 2000)

    def offer(rec, part):
        r = ratio[part]
        resolved = lambda rows: r[rows] <= 0.9  # noqa: E731
        resolve_batch([rec], r, np.ones(r.size, bool), resolved, lambda j: Instance({}, {}))

    whole = RatioRecord()
    for part in np.array_split(np.arange(ratio.size), 4):
        offer(whole, part)
    merged = RatioRecord()
    for part in np.array_split(np.arange(ratio.size), 16):
        chunk = RatioRecord()
        offer(chunk, part)
        merged.merge(chunk)
    assert whole.value == merged.value == ratio[ratio <= 0.9].max()
    above = int(np.count_nonzero(ratio > 0.9))
    for rec in (whole, merged):
        assert sum(1 for r in rec.unresolved if r > rec.value) == above


def test_far_instances_whose_float64_ratio_is_rounding_do_not_crowd_out_the_others():
    # The float-range share draws instances at 1e200 whose sides cancel to the same rounding (a float64
    # ratio of 1 that high precision settles to 0): as many of them as there are witnesses must leave the
    # ordinary instances' highest ratio in the record, to be settled and climbed from.
    far = Instance({}, {"x": np.array([[3e200, 1.0]])})
    near = Instance({}, {"x": np.array([[0.5, 1.0]])})
    rec = RatioRecord()
    for _ in range(40):
        rec.offer(1.0, lambda: far)
    rec.offer(0.9, lambda: near)
    ranked = rec.ranked()
    assert ranked[0] == (0.9, near) and {r for r, _ in ranked[1:]} == {1.0}
    assert rec.value == 1.0  # the float64 figure still says what float64 saw
