"""Finite differences: ground truth that does not trust the formula under test.  One step policy.

The step depends on the stencil, so it is looked up by stencil, never chosen at the call site:

* ``points=4`` (4-point central, truncation O(h⁴)): h = 1e-3 in float64 (truncation and rounding both
  ≈ 1e-12 relative); under mpmath h = 1e-30 evaluated at :data:`FD_DPS` digits.
* ``points=2`` (2-point central, truncation O(h²)): h = 1e-5 in float64 (the usual ε^{1/3} balance);
  under mpmath h = 1e-25, whose truncation h² = 1e-50 sits far below what re-verification resolves.
* :func:`quadratic_directional`: the step is the direction itself, for quadratic functions only (exact).

``checks/sensitivity/groundtruth.py`` (study ``sens.groundtruth_steps``) measures the 4-point error
against a high-precision reference over a range of steps.
"""

from __future__ import annotations

import mpmath

#: (float64 step, mpmath step) per stencil
STEPS = {4: (1e-3, "1e-30"), 2: (1e-5, 1e-25)}

#: working precision of the mpmath 4-point differences: with h = 1e-30 at 130 digits the truncation is
#: ≈ 1e-120 and the rounding ≈ 1e-100, far below anything the high-precision re-verification resolves
FD_DPS = 130


def fd_step(xp, points: int):
    """The step of the ``points``-point central difference on the backend of ``xp``."""
    h64, hmp = STEPS[points]
    if xp.backend == "numpy":
        return h64
    return mpmath.mpf(hmp) if isinstance(hmp, str) else hmp


def central4(F, h):
    """F'(0) by the 4-point central difference of step ``h``."""
    return (-F(2 * h) + 8 * F(h) - 8 * F(-h) + F(-2 * h)) / (12 * h)


def directional(xp, F):
    """d/de F(e) at e = 0 by the 4-point central difference (F returns an array)."""
    if xp.backend != "numpy":
        with mpmath.workdps(FD_DPS):
            return central4(F, fd_step(xp, 4))
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
    step = fd_step(xp, 2)
    cols = []
    n = x.shape[-1]
    for k in range(n):
        e = 0 * x
        e[:, k] = e[:, k] + step
        cols.append((fn(x + e) - fn(x - e)) / (2 * step))
    return xp.stack(cols, axis=-1)
