r"""Symbolic derivation of the constant in the log-sum-exp bound (seed 001 §A, eq. (2)), for n = 2.

The Hessian of :math:`h(x) = \log(e^{x_1} + e^{x_2})` is computed by SymPy, its quadratic form reduced to
:math:`p_1 p_2 (d_1 - d_2)^2`, and bounded by :math:`\|d\|_\infty^2`.
"""

import sympy as sp

from derivations.loss._symbolic import lse_and_softmax
from lemmacheck import derivation

x1, x2, d1, d2 = sp.symbols("x1 x2 d1 d2", real=True)
h, (p1, p2) = lse_and_softmax((x1, x2))
hessian = sp.hessian(h, (x1, x2))
d = sp.Matrix([d1, d2])

derivation(
    "lse.hessian_inf_bound",
    chain=[
        (d.T * hessian * d)[0, 0],
        "=",
        p1 * p2 * (d1 - d2) ** 2,
        "<=",
        sp.Rational(1, 4) * (d1 - d2) ** 2,
        "<=",
        sp.Max(sp.Abs(d1), sp.Abs(d2)) ** 2,
    ],
    labels=[
        "∇²h = diag(p) − ppᵀ, so dᵀ∇²h d = p₁p₂(d₁ − d₂)²",
        "p₁p₂ ≤ ¼ since p₁ + p₂ = 1",
        "|d₁ − d₂| ≤ 2‖d‖∞",
    ],
    domain={x1: (-8, 8), x2: (-8, 8), d1: (-5, 5), d2: (-5, 5)},
)
