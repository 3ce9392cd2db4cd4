"""The ball namespace: every result encloses the exact value, comparisons never guess, and what balls cannot
enclose is refused by name (never a silent fallback)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from flint import arb

from lemmacheck.xp import (
    Ball,
    NotEnclosable,
    Undecided,
    ball_precision,
    ball_xp,
    bits_for,
    mp_precision,
    mpmath_xp,
    numpy_xp,
    to_ball,
    to_mp,
)

BITS = 200
RNG = np.random.default_rng(7)


def _contains(ball, exact) -> bool:
    """Whether the ball meets the mpmath value known to 110 digits (a ball of radius 1e-100 relative around
    it): the ball's own radius is about 1e-58, so meeting it is containing it up to 1e-100."""
    with mp_precision(120), ball_precision(400):
        ref = arb(mpmath.nstr(exact, 110, strip_zeros=False), mpmath.nstr(abs(exact) * 1e-100 + 1e-110, 5))
        return bool(ball.a.overlaps(ref))


def _all_contain(balls, exacts) -> bool:
    return all(_contains(b, e) for b, e in zip(np.ravel(balls), np.ravel(exacts), strict=True))


def _both(fn_name: str, x: np.ndarray, *args):
    """The function on balls at BITS and on mpmath at 120 digits, from the same float64 inputs."""
    with ball_precision(BITS):
        got = getattr(ball_xp, fn_name)(to_ball(x), *args)
    with mp_precision(120):
        want = getattr(mpmath_xp, fn_name)(to_mp(x), *args)
    return got, want


@pytest.mark.parametrize("name", ["exp", "tanh", "sigmoid", "softplus", "erf", "log1p"])
def test_elementwise_functions_enclose_the_exact_value(name):
    x = RNG.uniform(-30, 30, size=(3, 4)) if name != "log1p" else RNG.uniform(0, 30, size=(3, 4))
    got, want = _both(name, x)
    assert _all_contain(got, want)


@pytest.mark.parametrize("name", ["logsumexp", "softmax"])
def test_log_sum_exp_and_softmax_enclose(name):
    x = RNG.normal(0, 50, size=(2, 5))
    got, want = _both(name, x)
    assert _all_contain(got, want)


@pytest.mark.parametrize("p", [1, 2, 3, math.inf])
def test_vector_and_schatten_norms_enclose(p):
    v = RNG.normal(size=(2, 4))
    got, want = _both("vector_norm", v, p)
    assert _all_contain(got, want)
    m = RNG.normal(size=(2, 3, 2))
    got, want = _both("schatten_norm", m, p)
    assert _all_contain(got, want)


def test_rank_deficient_singular_values_are_enclosed():
    """An exactly rank-one matrix (products of small dyadics are exact in float64): the double zero singular
    value is a cluster Arb encloses, not a failure."""
    m = np.outer([1.0, -2.0, 3.0], [0.5, 4.0, -1.25])[None]
    got, want = _both("svdvals", m)
    assert _all_contain(got, want)
    assert _contains(got[0][2], mpmath.mpf(0))


def test_a_quasi_norm_of_a_rank_deficient_matrix_is_enclosed_and_narrows_with_precision():
    """Schatten-½ of a rank-one product (schatten.holder at p = q = 1): the zero singular values' balls
    reach below 0 when sorted, and their square root was NaN at every precision, so the quasi-norm could
    never be enclosed; a singular value, like an absolute value, is never below 0."""
    a, b = np.array([[-0.0597859], [0.00055064]]), np.array([[-0.00138281, 0.00051326, -0.00113858]])
    m = (a @ b)[None]
    widths = []
    for bits in (200, 800):
        with ball_precision(bits):
            (q,) = ball_xp.schatten_norm(to_ball(m), 0.5)
            assert q.is_finite() and q.lower() >= 0
            widths.append(float(q.a.rad()) / float(q.a.mid()))
    with mp_precision(120):
        want = mpmath_xp.schatten_norm(to_mp(m), 0.5)
    assert _contains(q, want[0])
    assert widths[1] < widths[0] * 1e-40  # it narrows by a quarter of the added bits: 2^-150
    with ball_precision(BITS):
        about_zero = abs(Ball(arb(1e-30, 2e-30)))
        assert about_zero.lower() >= 0 and not (about_zero**0.5).a.is_nan()


@pytest.mark.parametrize("name", ["eigvalsh", "det", "inv", "expm"])
def test_matrix_functions_enclose(name):
    a = RNG.normal(size=(2, 3, 3))
    if name == "eigvalsh":
        a = a + np.swapaxes(a, -1, -2)
    got, want = _both(name, a)
    assert _all_contain(got, want)


def test_eigvalsh_is_ascending_on_every_backend():
    a = RNG.normal(size=(4, 4))
    a = a + a.T
    np_vals = numpy_xp.eigvalsh(a)
    got, _ = _both("eigvalsh", a)
    assert np.all(np.diff(np_vals) > 0)
    assert all(got[i] < got[i + 1] for i in range(3))


def test_solve_encloses_the_solution():
    a, b = RNG.normal(size=(2, 3, 3)), RNG.normal(size=(2, 3))
    with ball_precision(BITS):
        x = ball_xp.solve(to_ball(a), to_ball(b))
        residual = np.einsum("bij,bj->bi", to_ball(a), x) - to_ball(b)
    assert all(r.a.contains(0) for r in residual.ravel())
    assert np.allclose(numpy_xp.solve(a, b), np.linalg.solve(a, b[..., None])[..., 0])


def test_general_eig_on_every_backend():
    a = np.array([[0.0, 1.0], [-2.0, 0.0]])  # eigenvalues ±i√2
    assert np.allclose(sorted(np.abs(numpy_xp.eig(a))), [math.sqrt(2)] * 2)
    with mp_precision(40):
        assert all(abs(abs(e) - mpmath.sqrt(2)) < 1e-35 for e in mpmath_xp.eig(to_mp(a)))
    with ball_precision(BITS):
        eigs = ball_xp.eig(to_ball(a))
        assert all(abs(e).a.overlaps(arb(2).sqrt()) for e in eigs)


def test_expm_and_erf_agree_across_backends():
    a = RNG.normal(size=(2, 3, 3))
    with mp_precision(40):
        ref = np.array(mpmath_xp.expm(to_mp(a)), dtype=float)
    # float64 scaling, Taylor polynomial and squaring of a 3x3 normal matrix: rounding of a few ulp per
    # squaring, far inside 1e-12; atol only guards entries near 0 (the smallest here is about 0.06)
    assert np.allclose(numpy_xp.expm(a), ref, rtol=1e-12, atol=1e-14)
    x = np.linspace(-3, 3, 7)
    assert np.allclose(numpy_xp.erf(x), [math.erf(v) for v in x])


def test_comparisons_are_three_valued():
    with ball_precision(BITS):
        wide = Ball(arb("1 +/- 0.5"))
        assert wide.compare(2) == -1 and wide.compare(0) == 1 and wide.compare(1) is None
        assert Ball(0).compare(0) == 0
        assert wide < 2 and not (wide > 2)
        with pytest.raises(Undecided):
            _ = wide > 1  # bare arb would answer False here
        with pytest.raises(Undecided):
            ball_xp.where(np.array([wide], dtype=object) > 1, 1.0, 0.0)


def test_max_of_overlapping_balls_encloses_both_candidates():
    with ball_precision(BITS):
        x = np.array([Ball(arb("1 +/- 0.5")), Ball(arb("1.2 +/- 0.1"))], dtype=object)
        m = ball_xp.max(x)
        assert m.a.contains(arb("1.5")) and m.a.contains(arb("1.2"))
        assert ball_xp.max(np.array([Ball(1), Ball(3)], dtype=object)).compare(3) == 0


def test_what_balls_cannot_enclose_is_refused():
    with ball_precision(BITS):
        with pytest.raises(NotEnclosable, match="log"):
            ball_xp.log(np.array([Ball(arb("0 +/- 1e-3"))], dtype=object))
        with pytest.raises(NotEnclosable, match="float"):
            float(Ball(1) / 3)
        with pytest.raises(NotEnclosable, match="not a finite number"):
            to_ball(np.array([math.nan]))
        with pytest.raises(TypeError):
            mpmath.exp(
                Ball(1)
            )  # an mpmath function on a ball: a TypeError the ball route turns into a reason


def test_inputs_convert_exactly():
    """A float64 and an mpf become balls of radius 0: the candidate's inputs are its exact values."""
    b = to_ball(np.array([0.1, 1e-300, -3.5]))
    assert all(v.a.rad() == 0 for v in b)
    with mp_precision(80):
        third = mpmath.mpf(1) / 3
    for v in (mpmath.mpf(-0.5), -third, mpmath.mpf(-3) * 2**-70, mpmath.mpf(0)):
        with ball_precision(400):
            assert Ball(v).compare(0) == int(mpmath.sign(v))
            assert (Ball(v) + Ball(-v)).compare(0) == 0 and (Ball(v) - v).compare(0) == 0
    assert Ball(third).a.rad() == 0 and Ball(third).a.mid().man_exp() == tuple(map(int, third.man_exp))


def test_every_xp_function_the_catalogue_calls_exists_on_every_namespace():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "checks"
    used = {m for f in root.rglob("*.py") for m in re.findall(r"\bxp\.([a-z_]+)", f.read_text())}
    assert used, "no xp.* call found under checks/"
    for ns in (numpy_xp, mpmath_xp, ball_xp):
        missing = sorted(name for name in used if not hasattr(ns, name))
        assert not missing, f"{ns.backend} lacks {missing}"


def test_a_nested_difference_on_balls_raises_the_balls_precision_and_encloses_the_derivative():
    """checks/_vocab/fd.py evaluates a difference at twice the digits in force (``xp.workdps``). On balls
    that must raise the balls' precision too: otherwise the rounding of each evaluation, divided by the
    step h = 10^-30 twice, leaves a ball far wider than the value (sens.eq27_four_parts's nested
    difference was [± 3e48] at 219 bits, at every precision, so it was settled in mpmath)."""
    from checks._vocab.fd import mixed

    x = to_ball(np.array([0.25]))
    with ball_precision(bits_for(61)), mp_precision(61):
        (d,) = mixed(ball_xp, lambda a, b: ball_xp.exp(x + a + 2 * b))  # ∂²/∂a∂b = 2 exp(0.25)
        assert float(d.a.rad()) < 1e-40
    with mp_precision(120):
        assert _contains(d, 2 * mpmath.exp(mpmath.mpf(0.25)))  # truncation O(h⁴) = 1e-120


def test_an_integer_power_of_a_ball_about_zero_is_its_interval():
    """python-flint's arb ** n is NaN for a ball reaching both sides of 0; the power is an interval
    all the same ([−0.5, 1.5]² = [0, 2.25], [−0.5, 1.5]³ = [−0.125, 3.375])."""
    with ball_precision(BITS):
        tiny = Ball(arb(0, 1e-30))
        assert (tiny**2).is_finite() and (tiny**2).lower() >= 0 and (tiny**2).upper() <= 1.01e-60
        wide = Ball(arb(0.5, 1))
        for n, lo, hi in ((2, 0, 2.25), (3, -0.125, 3.375)):
            p = (wide**n).a
            assert p.contains(lo) and p.contains(hi) and p.lower() >= lo - 1e-8, (n, p)  # radii are 30-bit


def test_symmetric_eigenvalues_arb_cannot_isolate_are_enclosed_from_an_eigenbasis():
    """Four exact zero eigenvalues beside one large one, whose entry is a ball: Arb's eig does not
    isolate them (norms.equiv_w000_upper's witness fell back to mpmath for it), and Weyl's and
    Ostrowski's bounds from an approximate eigenbasis enclose every one."""
    m = np.empty((1, 5, 5), dtype=object)
    m[...] = Ball(0)
    with ball_precision(226):
        m[0, 4, 4] = Ball(arb("56976.3985294288929786727777752 +/- 1.88e-26"))
        got = ball_xp.eigvalsh(m)[0]
        assert all(g.a.contains(0) and g.a.rad() < 1e-25 for g in got[:4])
        assert got[4].a.contains(m[0, 4, 4].a) and got[4].a.rad() < 1e-24
