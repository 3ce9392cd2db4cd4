"""Settling never crashes (issue 33 §5): a ball near e^(−2·10²⁰), as a bump function exp(−1/(1−x²)²)
makes near its edge, overflowed the decimal conversion of its margin (OverflowError, the claim ERROR);
it is written through mpmath, outward, and any overflow left is an undecided comparison."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from conftest import planted_meta
from lemmacheck import Verdict, inequality
from lemmacheck.model.inputs import Array
from lemmacheck.model.tolerance import tolerance_for
from lemmacheck.run.engine import run_claim
from lemmacheck.search.candidates import Instance
from lemmacheck.search.profile import QUICK
from lemmacheck.settling import highprec
from lemmacheck.settling.highprec import reverify


def _bump(registry):
    @inequality(
        "planted.bump",
        inputs={"x": Array(1, low=0.9999999999, high=0.99999999999)},
        dims={},
        relations=(">",),
        **planted_meta(),
    )
    def bump(xp, x):
        t = x[..., 0]
        return xp.exp(-1 / (1 - t * t) ** 2), 0 * t

    return registry["planted.bump"]


def test_a_margin_near_e_to_the_minus_10_to_the_20_is_settled_and_printed(registry):
    pytest.importorskip("flint")
    claim = _bump(registry)
    inst = Instance(dims={}, inputs={"x": np.array([[1 - 3e-11]])})  # 1/(1−x²)² ≈ 2.8·10²⁰
    conf = reverify(claim.id, claim.check, inst, None, ">", tolerance_for())
    assert conf.route == "enclosure" and not conf.confirmed and not conf.undecided
    lo, hi = (mpmath.mpf(v) for v in conf.margin)
    tiny = mpmath.mpf("1e-100000000000000000000")
    assert lo <= hi and abs(lo) < tiny and abs(hi) < tiny  # printed, as small as it is


def test_a_bump_function_claim_near_its_edge_is_never_an_error(registry):
    pytest.importorskip("flint")
    result = run_claim(_bump(registry), QUICK.with_seed(1))
    assert result.verdict is not Verdict.ERROR, result.message


def test_an_overflow_in_mpmath_too_is_an_undecided_comparison(registry, monkeypatch):
    claim = _bump(registry)

    def overflows(*args, **kwargs):
        raise OverflowError("int too large to convert to float")

    monkeypatch.setattr(highprec, "enclose", overflows)
    monkeypatch.setattr(highprec, "reverify_mpmath", overflows)
    inst = Instance(dims={}, inputs={"x": np.array([[1 - 3e-11]])})
    conf = reverify(claim.id, claim.check, inst, None, ">", tolerance_for())
    assert conf.undecided and not conf.confirmed
    assert "overflows" in conf.route_reason


def test_the_far_decimal_rounds_outward_as_the_decimal_one_does():
    from fractions import Fraction

    from lemmacheck.settling import enclosure

    for man, exp in [(3, -2), (-7, -5), (123456789, -40), (-987654321, 30), (1, 0), (5, -1)]:
        for up in (False, True):
            far = enclosure._decimal_far(man, exp, up=up, digits=6)
            near = enclosure._decimal(_arb(man, exp), up=up, digits=6)
            exact = Fraction(man) * Fraction(2) ** exp
            assert (Fraction(far) >= exact) if up else (Fraction(far) <= exact), (man, exp, up, far)
            assert abs(Fraction(far) - Fraction(near)) <= abs(exact) * Fraction(1, 10**5), (far, near)


def _arb(man: int, exp: int):
    from flint import arb

    return arb((man, exp))
