r"""Symbolic checks of the quadratic model and Newton's step (seed 002, Question 3).

Vectors have n = 2 symbolic components and H is a general symmetric 2×2 matrix (a Hessian); the
manipulations are dimension-free, n = 2 keeps SymPy fast. Vector identities are compared through a
symbolic linear functional cᵀ(·).
"""

import sympy as sp

from derivations.optim._helpers import scalar
from lemmacheck import derivation

f0, eps = sp.symbols("f_0 epsilon", real=True)
x0 = sp.Matrix(sp.symbols("x0_1 x0_2", real=True))
x = sp.Matrix(sp.symbols("x_1 x_2", real=True))
g = sp.Matrix(sp.symbols("g_1 g_2", real=True))
c = sp.Matrix(sp.symbols("c_1 c_2", real=True))
h11, h12, h22 = sp.symbols("H_11 H_12 H_22", real=True)
H = sp.Matrix([[h11, h12], [h12, h22]])


def model(point):
    d = point - x0
    return f0 + scalar(d.T * g) + sp.Rational(1, 2) * scalar(d.T * H * d)


x1 = x0 - eps * g
step = -eps * g
gg, gHg = scalar(g.T * g), scalar(g.T * H * g)

derivation(
    "quad.model_after_step_002",
    chain=[
        model(x1),
        "=",
        f0 + scalar(step.T * g) + sp.Rational(1, 2) * scalar(step.T * H * step),
        "=",
        f0 - eps * gg + sp.Rational(1, 2) * eps**2 * gHg,
    ],
    labels=["x_1 − x_0 = −εg", "simplify"],
)

derivation(
    "quad.change_002",
    chain=[
        model(x1) - f0,
        "=",
        f0 - eps * gg + sp.Rational(1, 2) * eps**2 * gHg - f0,
        "=",
        -eps * gg + sp.Rational(1, 2) * eps**2 * gHg,
    ],
    labels=["substitute the model value", "cancel f(x_0)"],
)

grad_model = sp.Matrix([sp.diff(model(x), xi) for xi in x])
derivation(
    "newton.model_gradient_002",
    chain=[
        scalar(c.T * grad_model),
        "=",
        scalar(c.T * (g + sp.Rational(1, 2) * 2 * H * (x - x0))),
        "=",
        scalar(c.T * (g + H * (x - x0))),
    ],
    labels=["differentiate (H symmetric)", "½·2 = 1"],
)

x_newton = x0 - H.inv() * g
derivation(
    "newton.step_002",
    chain=[
        scalar(c.T * (g + H * (x_newton - x0))) + scalar(c.T * g),
        "=",
        scalar(c.T * g),
    ],
    labels=["∇f̂(x_0 − H⁻¹g) = g − HH⁻¹g = 0 (cᵀg added to both sides: a non-zero reference)"],
    domain={h11: (1, 3), h22: (1, 3), h12: (-0.5, 0.5)},
)
