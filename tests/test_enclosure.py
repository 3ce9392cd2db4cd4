"""Refutations proved by interval enclosure: the check on balls at the candidate's exact inputs, decided by
the sign of the margin's ball; rounding that fakes a violation is rejected because the enclosure lies on
the holding side; a check balls cannot evaluate goes to mpmath and says why."""

from __future__ import annotations

from decimal import Decimal

import mpmath
import numpy as np

from conftest import planted_meta
from lemmacheck import Verdict, inequality
from lemmacheck.model.claim import NumericCheck
from lemmacheck.model.inputs import Array
from lemmacheck.model.tolerance import Tolerance
from lemmacheck.report.notebook import cards_html
from lemmacheck.run.engine import run_claim
from lemmacheck.search.candidates import Instance
from lemmacheck.search.profile import QUICK
from lemmacheck.settling.highprec import certified_by, reverify

# Tighter than the policy on purpose: the planted near-tie and the 1e-9 violation must be decided by the
# enclosure itself, not by a slack that would already call them holding.
TIGHT = Tolerance(rtol=1e-12, reason="test")


def _instance(**inputs) -> Instance:
    return Instance(dims={}, inputs={k: np.array([v], dtype=float) for k, v in inputs.items()})


def _check(fn, *names) -> NumericCheck:
    return NumericCheck(fn=fn, inputs={n: Array() for n in names}, dims={}, relations=("<=",))


def test_a_false_claim_is_refuted_by_enclosure_with_a_margin_that_excludes_zero(registry):
    @inequality(
        "planted.am_gm_reversed",
        inputs={"a": Array(positive=True), "b": Array(positive=True)},
        **planted_meta(Verdict.REFUTED),
    )
    def am_gm_reversed(xp, a, b):
        return (a + b) / 2, xp.sqrt(a * b)  # AM ≤ GM: false unless a = b

    r = run_claim(registry["planted.am_gm_reversed"], QUICK.with_seed(1))
    assert r.verdict is Verdict.REFUTED, r.reason
    cex = r.evidence["counterexample"]
    assert cex["route"] == "enclosure", cex
    assert cex["certified_by"].startswith("proved by interval enclosure, margin [")
    lo, hi = (float(x) for x in cex["margin"])
    assert 0 < lo <= hi  # the whole enclosure is on the violating side
    float(cex["lhs"]), float(cex["rhs"])  # the sides stay numbers (midpoints); the margin is the enclosure
    card = cards_html([r.to_dict()])  # and the report says how it was proved, not "certified at 61 digits"
    assert "proved by interval enclosure, margin [" in card and "certified at" not in card


def test_a_near_tie_that_rounding_fakes_is_rejected_by_its_enclosure():
    # (x + 1e8) − 1e8 = x exactly; float64 rounds x + 1e8 up by half an ulp of 1e8 (1.49e-8 for x = 1e-8)
    check = _check(lambda xp, x: ((x + 1e8) - 1e8, x), "x")
    x = 1e-8
    assert (x + 1e8) - 1e8 > x * (1 + 1e-3)  # float64 shows a violation far above the tolerance
    conf = reverify("planted.absorbed", check, _instance(x=x), None, "<=", TIGHT)
    assert conf.route == "enclosure"
    assert not conf.confirmed and not conf.undecided
    lo, hi = (float(v) for v in conf.margin)
    assert lo <= hi < 0  # on the holding side: the slack, since the sides are equal


def test_a_genuine_violation_is_confirmed_at_any_magnitude():
    check = _check(lambda xp, x: (x * (1 + 1e-9), x), "x")
    for x in (1e-250, 1.0, 1e250):
        conf = reverify("planted.scaled", check, _instance(x=x), None, "<=", TIGHT)
        assert conf.confirmed and conf.route == "enclosure", (x, conf)
        assert float(conf.margin[0]) > 0


def test_a_check_balls_cannot_evaluate_goes_to_mpmath_and_says_why():
    def via_mpmath(xp, x):
        # an mpmath function applied to each element: runs on mpf, not on balls
        return np.frompyfunc(lambda v: mpmath.exp(v), 1, 1)(x) if xp.backend != "numpy" else np.exp(x), 0 * x

    conf = reverify("planted.mpmath_only", _check(via_mpmath, "x"), _instance(x=0.5), None, "<=", TIGHT)
    assert conf.confirmed
    assert conf.route == "mpmath"
    assert "balls cannot evaluate the check" in conf.route_reason


def _property(fn, *names) -> NumericCheck:
    return NumericCheck(fn=fn, inputs={n: Array() for n in names}, dims={}, relations=(), is_property=True)


def test_a_property_is_decided_on_balls_where_every_comparison_decides():
    # x + 1e-300 > x fails in float64 at x = 1 (absorbed) and holds exactly: the balls say which
    holds = reverify(
        "planted.absorbed_prop",
        _property(lambda xp, x: x + 1e-300 > x, "x"),
        _instance(x=1.0),
        None,
        "=",
        TIGHT,
    )
    assert holds.route == "enclosure" and not holds.confirmed and not holds.undecided
    fails = reverify(
        "planted.false_prop", _property(lambda xp, x: x * x < x, "x"), _instance(x=2.0), None, "=", TIGHT
    )
    assert fails.route == "enclosure" and fails.confirmed and fails.bits
    assert certified_by(fails)["certified_by"].startswith("proved by interval enclosure: every comparison")


def test_a_property_with_an_undecidable_comparison_goes_to_mpmath_and_says_why():
    # an exact tie through a transcendental: exp(log x) = x, whose ball has a radius at every precision
    # (a tie in exact arithmetic, (x + 1)² = x² + 2x + 1 on dyadic x, is decided: radius 0 on both sides)
    tie = _property(lambda xp, x: xp.exp(xp.log(x)) >= x, "x")
    conf = reverify("planted.tie", tie, _instance(x=0.1), None, "=", TIGHT)
    assert conf.route == "mpmath" and "balls cannot decide the property" in conf.route_reason
    assert "stays undecided" in conf.route_reason


def test_each_step_and_the_chain_end_to_end_read_one_evaluation_of_the_instance():
    # Settling a candidate judges every step and the chain end to end on the same instance at the same
    # precisions: the check runs on balls once per precision, and a refusal is remembered the same way.
    calls: list[str] = []

    def counted(xp, x):
        calls.append(xp.backend)
        return x * (1 + 1e-9), x, x  # step 1 is violated (proved), step 2 holds with equality

    check = NumericCheck(fn=counted, inputs={"x": Array()}, dims={}, relations=("<=", "<="))
    inst = _instance(x=0.75)
    confs = [reverify("planted.counted", check, inst, step, "<=", TIGHT) for step in (1, 2, None)]
    assert [c.confirmed for c in confs] == [True, False, True]
    assert calls == ["ball"], calls  # one evaluation for the three judgements
    reverify("planted.counted", check, _instance(x=0.5), 1, "<=", TIGHT)
    assert calls == ["ball", "ball"]  # another instance is evaluated anew

    mp_calls: list[str] = []

    def mp_only(xp, x):
        mp_calls.append(xp.backend)
        exp = np.frompyfunc(mpmath.exp, 1, 1) if xp.backend != "numpy" else np.exp
        return exp(x) * (1 + 1e-9), exp(x), exp(x)

    mp_check = NumericCheck(fn=mp_only, inputs={"x": Array()}, dims={}, relations=("<=", "<="))
    confs = [reverify("planted.mp_only", mp_check, _instance(x=0.5), s, "<=", TIGHT) for s in (1, 2, None)]
    assert [c.route for c in confs] == ["mpmath"] * 3 and [c.confirmed for c in confs] == [True, False, True]
    assert mp_calls.count("ball") == 1, mp_calls  # balls refused it once, and are not asked again
    # each precision mpmath needed (a confirmation: two levels and their doubling) evaluated once
    assert mp_calls.count("mpmath") == len({c.dps for c in confs}) * 3, mp_calls


def test_a_side_only_a_wide_ball_encloses_is_printed_with_its_certain_digits_alone():
    """exp(x) − exp(x) is 0, but balls do not know the two terms are one: at x = 100 their difference is a
    ball of radius ~1e-22 about 0, so the right side 0.1 + (exp(x) − exp(x)) is certain to about 22
    digits. The margin (1 against 0.1) is proved all the same; the side must not be printed to 40 digits
    of its midpoint, and every digit printed must be right."""
    check = _check(lambda xp, x: (x * 0 + 1, (x * 0 + 0.1) + (xp.exp(x) - xp.exp(x))), "x")
    conf = reverify("planted.wide_side", check, _instance(x=100.0), None, "<=", TIGHT)
    assert conf.route == "enclosure" and conf.confirmed
    exact = Decimal(0.1)  # the float64 0.1 the check adds, exactly
    printed = Decimal(conf.rhs)
    digits = len(printed.as_tuple().digits)
    assert 10 <= digits < 40, conf.rhs
    assert abs(printed - exact) <= Decimal(10) ** printed.adjusted() * Decimal(10) ** (1 - digits), conf.rhs
    assert conf.lhs == "1.0"  # an exact side as mpmath prints it, not padded with certain zeros


def test_a_side_settled_in_mpmath_is_printed_to_the_digits_two_precisions_share():
    """Where balls cannot evaluate the check, two mpmath precisions settle the candidate, and no ball
    bounds a side's error: a side is printed with the leading digits the two precisions agree on, not 40
    digits of the higher one. Here the right side moves by 10^-(d/2) with the precision, as an unconverged
    quantity would, so 61 and 81 digits agree to about 29."""
    drift = np.frompyfunc(lambda v: mpmath.sqrt(v * v) + mpmath.mpf(10) ** -(mpmath.mp.dps // 2), 1, 1)
    check = _check(lambda xp, x: (x * 0 + 1, drift(x * 0 + 0.1)), "x")  # mpmath.sqrt: balls refuse it
    conf = reverify("planted.drifting_side", check, _instance(x=1.0), None, "<=", TIGHT)
    assert conf.route == "mpmath" and conf.confirmed, conf
    digits = len(Decimal(conf.rhs).as_tuple().digits)
    assert 25 <= digits <= 31, conf.rhs
    assert conf.lhs == "1.0"


def test_a_proof_of_a_check_that_discretises_says_it_covers_the_check_as_computed():
    """A side computed by a difference or a quadrature rule approximates the quantity the claim is about;
    the balls enclose the difference quotient, not the derivative, so the certificate must say the proof is
    of the check as computed (and name the approximation), while a check that approximates nothing says
    nothing of the kind."""

    def by_difference(xp, x):
        xp.discretised("a derivative by a planted difference")
        return x * 0 + 1, x * 0 + 0.1

    for fn, said in (
        (by_difference, ["a derivative by a planted difference"]),
        (lambda xp, x: (x * 0 + 1, x * 0 + 0.1), None),
    ):
        conf = reverify("planted.discretised", _check(fn, "x"), _instance(x=1.0), None, "<=", TIGHT)
        words = certified_by(conf)
        assert conf.route == "enclosure" and conf.confirmed
        assert words.get("discretisations") == said
        assert (
            "for the check as computed: a derivative by a planted difference" in words["certified_by"]
        ) == bool(said)


def _outward_reference(man: int, exp: int, *, up: bool, digits: int) -> str:
    """The endpoint written from its exact Decimal (the quotient at a precision that holds it whole)."""
    import decimal

    if exp >= 0:
        value = decimal.Decimal(man << exp)
    else:
        with decimal.localcontext() as c:
            c.prec = len(str(abs(man))) - exp + 8
            value = decimal.Decimal(man) / decimal.Decimal(2) ** -exp
    with decimal.localcontext() as c:
        c.prec, c.rounding = digits, (decimal.ROUND_CEILING if up else decimal.ROUND_FLOOR)
        return str(+value)


def test_an_integer_endpoint_of_more_than_28_digits_is_written_outward():
    from fractions import Fraction

    from flint import arb

    from lemmacheck.settling.enclosure import interval_of
    from lemmacheck.xp import Ball, ball_precision

    exact = 10**40 * 2**20 + 1  # its 13th to 47th digits are 0 but the last: to nearest at 28 digits drops it
    with ball_precision(400):
        lo, hi = interval_of(Ball(arb(exact)))
    assert Fraction(lo) <= exact <= Fraction(hi), (lo, hi, exact)
    assert hi == "1.04857600001E+46", hi


def test_an_endpoint_is_written_as_its_exact_decimal_rounds_outward():
    """The endpoints are cut to a few digits before the outward rounding: the same strings as rounding
    the exact quotient, at every size of mantissa and exponent, with exact ties and trailing zeros."""
    import random

    from flint import arb

    from lemmacheck.settling.enclosure import _decimal

    rng = random.Random(7)
    pairs = [(0, 0), (1, 0), (-1, 0), (5, -3), (10, -1), (-6, -1), (2**93, 0), (2**94 + 1, 0)]
    for _ in range(3000):
        bits = rng.choice([1, 3, 20, 53, 64, 200, 1200, 3000])
        man = rng.getrandbits(bits) * rng.choice([1, -1]) * 2 ** rng.choice([0, 1, 5])
        pairs.append((man, rng.randint(-4000, 90)))
    for man, exp in pairs:
        x = arb((man, exp))
        m, e = (int(v) for v in x.mid().man_exp())
        for up in (False, True):
            for digits in (12, 20):
                want = _outward_reference(m, e, up=up, digits=digits)
                assert _decimal(x, up=up, digits=digits) == want, (man, exp, up, digits)
