"""Finite differences: ground truth that does not trust the formula under test.  One step policy.

The step depends on the stencil, so it is looked up by stencil, never chosen at the call site:

* ``points=4`` (4-point central, truncation O(h⁴)): h = 1e-3 in float64 (truncation and rounding both
  ≈ 1e-12 relative).
* ``points=2`` (2-point central, truncation O(h²)): h = 1e-5 in float64 (the usual ε^{1/3} balance).
* Under mpmath and on balls both follow the precision in force (``d`` digits): h = 10^-(d/2), evaluated at
  2d + 10 digits (``xp.workdps``: on balls the ball precision too, or the rounding of every evaluation,
  divided by h twice in a nested difference, would leave a ball wider than the value), so truncation
  (≤ 10^-(2d) for 4 points, 10^-d for 2) and rounding (≈ 10^-(1.5d)) shrink as the engine raises the
  precision.  A fixed step and precision would give the same finite-difference error at
  every precision, and the engine's stability test could then take it for a converged violation.
* :func:`quadratic_directional`: the step is the direction itself, for quadratic functions only (exact).

``checks/sensitivity/groundtruth.py`` (study ``sens.groundtruth_steps``) measures the 4-point error
against a high-precision reference over a range of steps.
"""

from __future__ import annotations

import mpmath

#: float64 step per stencil
STEPS = {4: 1e-3, 2: 1e-5}


def fd_step(xp, points: int):
    """The step of the ``points``-point central difference on the backend of ``xp``."""
    if xp.backend == "numpy":
        return STEPS[points]
    return mpmath.mpf(10) ** (-(mpmath.mp.dps // 2))


def fd_dps() -> int:
    """Working digits of an mpmath difference: twice the precision in force, and ten more."""
    return 2 * mpmath.mp.dps + 10


def central4(F, h):
    """F'(0) by the 4-point central difference of step ``h``."""
    return (-F(2 * h) + 8 * F(h) - 8 * F(-h) + F(-2 * h)) / (12 * h)


def directional(xp, F):
    """d/de F(e) at e = 0 by the 4-point central difference (F returns an array)."""
    # said in every backend: float64 ignores it, but the search reads it (a difference's error is
    # bounded only near the sampling scale, so the check is not explored across the float range)
    xp.discretised("a derivative by a 4-point central difference (step 10^-(d/2) at d digits)")
    if xp.backend != "numpy":
        h = fd_step(xp, 4)
        with xp.workdps(fd_dps()):
            return central4(F, h)
    return central4(F, fd_step(xp, 4))


def mixed(xp, F):
    """∂²/∂a∂b F(a, b) at 0 by nesting the 4-point difference (16 evaluations)."""
    return directional(xp, lambda a: directional(xp, lambda b: F(a, b)))


def quadratic_directional(f, x, c):
    """cᵀ∇f(x) = (f(x + c) − f(x − c))/2: the step is c itself, and there is no truncation error when f
    is quadratic (the claims that use it check quadratic losses, so any step is exact)."""
    return 0.5 * (f(x + c) - f(x - c))


def fd_jacobian(xp, fn, x):
    """2-point central-difference Jacobian of fn: (batch, n) -> (batch, m); returns (batch, m, n)."""
    xp.discretised("a Jacobian by 2-point central differences (step 10^-(d/2) at d digits)")  # as above
    if xp.backend != "numpy":
        h = fd_step(xp, 2)
        with xp.workdps(fd_dps()):
            return _jacobian2(xp, fn, x, h)
    return _jacobian2(xp, fn, x, fd_step(xp, 2))


def _jacobian2(xp, fn, x, step):
    cols = []
    n = x.shape[-1]
    for k in range(n):
        e = 0 * x
        e[:, k] = e[:, k] + step
        cols.append((fn(x + e) - fn(x - e)) / (2 * step))
    return xp.stack(cols, axis=-1)
