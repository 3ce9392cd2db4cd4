r"""Symbolic checks of the weight-norm algebra (seed 002 Q4, seed 003 Q4, seed 004 Q4.2–4.3).

Vectors have n = 2 symbolic components (the algebra is dimension-free; n = 2 keeps simplify fast).
Vector and matrix identities are compared through symbolic functionals cᵀ(·) and aᵀ(·)c. A loss is
represented at the point of interest by its gradient: L(w) = aᵀw has ∇_wL = a, which is all the chain
rule uses; for seed 004 the one-sample loss is L = ℓ·ŷ with ∂L/∂ŷ = ℓ.
"""

import sympy as sp
from checks._vocab.sources import S4_Q4_3

from derivations.optim._helpers import scalar
from lemmacheck import Verdict, derivation

u = sp.Matrix(sp.symbols("u_1 u_2", real=True))
x = sp.Matrix(sp.symbols("x_1 x_2", real=True))
a = sp.Matrix(sp.symbols("a_1 a_2", real=True))  # ∇_w L, or any vector
c = sp.Matrix(sp.symbols("c_1 c_2", real=True))  # direction of the functional
gain, b, alpha, ell = sp.symbols("g b alpha ell", real=True)
alpha_pos = sp.Symbol("alpha", positive=True)
I2 = sp.eye(2)
uu = (u.T * u)[0, 0]
nu = sp.sqrt(uu)
W_perp = I2 - u * u.T / uu
s = gain / nu
w = gain * u / nu


def grad_u(expr):
    return sp.Matrix([sp.diff(expr, ui) for ui in u])


_U_DOMAIN = {u[0]: (0.2, 3), u[1]: (-3, -0.2)}

# ---------------------------------------------------------------- seed 002, Question 4
derivation(
    "wn.output_002",
    chain=[
        scalar((gain / nu * u).T * x) + b,
        "=",
        gain * scalar(u.T * x) / nu + b,
    ],
    labels=["(g/‖u‖ u)ᵀx = g uᵀx/‖u‖"],
)

derivation(
    "wn.jacobian_002",
    chain=[
        scalar(a.T * w.jacobian(u) * c),
        "=",
        scalar(a.T * (gain / nu * W_perp) * c),
    ],
    labels=["SymPy Jacobian of g u/‖u‖ against (g/‖u‖)(I − uuᵀ/‖u‖²)"],
)

_v = u / nu
derivation(
    "wn.projector_002",
    chain=[
        scalar(c.T * W_perp * a),
        "=",
        scalar(c.T * (a - _v * scalar(_v.T * a))),
        "=",
        scalar(c.T * W_perp * W_perp * a),
    ],
    labels=["W* a = a − v(vᵀa)", "W*W* = W*"],
)

_loss_w = scalar(a.T * w)  # L(w) = aᵀw: ∇_w L = a
derivation(
    "wn.grad_002",
    chain=[
        scalar(c.T * grad_u(_loss_w)),
        "=",
        scalar((a.T * (gain / nu) * W_perp) * c),
        "=",
        scalar(c.T * (s * W_perp * a)),
    ],
    labels=["chain rule ∇_wL · ∇_u w", "W* symmetric, s = g/‖u‖"],
)

_u_next = u - alpha * s * W_perp * a
derivation(
    "wn.pythagoras_002",
    chain=[
        scalar(_u_next.T * _u_next),
        "=",
        uu + alpha**2 * s**2 * scalar((W_perp * a).T * (W_perp * a)),
    ],
    labels=["uᵀW*a = 0 (Pythagoras)"],
)

# For the inequalities SymPy must see that the denominators ‖u‖^k are positive: the components of u are
# taken non-zero there (u = 0 is excluded by the claims anyway; the numeric checks cover the rest).
_u_nonzero = dict(zip(u, sp.symbols("u_1 u_2", real=True, nonzero=True), strict=False))
_pa = W_perp * a
derivation(
    "wn.norm_growth_002",
    chain=[
        uu.subs(_u_nonzero),
        "<=",
        (uu + alpha**2 * s**2 * (_pa[0] ** 2 + _pa[1] ** 2)).subs(_u_nonzero),
    ],
    labels=["α²s²‖W*∇_wL‖² ≥ 0 (squared norms; ‖·‖ is increasing)"],
)

# ---------------------------------------------------------------- seed 003, Question 4
gamma, beta = sp.symbols("gamma beta", real=True)
w3 = gamma * u / nu
y = scalar(u.T * x)
derivation(
    "wn.eq19_003",
    chain=[
        scalar(w3.T * x) + beta,
        "=",
        gamma * scalar((u / nu).T * x) + beta,
        "=",
        gamma * y / nu + beta,
    ],
    labels=["w = γu/‖u‖", "y = uᵀx"],
)

derivation(
    "wn.grad_003",
    chain=[
        scalar(c.T * grad_u(scalar(a.T * w3))),
        "=",
        scalar(c.T * ((gamma / nu) * I2 - sp.Rational(1, 2) * gamma * u / nu**3 * 2 * u.T) * a),
        "=",
        scalar(c.T * (gamma / nu) * W_perp * a),
    ],
    labels=["∂w/∂u = γ/‖u‖ I − ½γu/‖u‖³·2uᵀ", "s = γ/‖u‖, W^⊥"],
)

_a_par = u * scalar(u.T * a) / uu
_a_perp = a - _a_par
derivation(
    "wn.orthogonal_update_003",
    chain=[
        scalar(c.T * W_perp * a),
        "=",
        scalar(c.T * (W_perp * _a_par + W_perp * _a_perp)),
        "=",
        scalar(c.T * W_perp * _a_perp),
    ],
    labels=["a = a_Vect(u) + a_Vect(u)^⊥", "W^⊥ a_Vect(u) = 0"],
)

_step = alpha * s * W_perp * a
derivation(
    "wn.pythagoras_003",
    chain=[
        scalar(_u_next.T * _u_next).subs(_u_nonzero),
        "=",
        (uu + (_step[0] ** 2 + _step[1] ** 2)).subs(_u_nonzero),
        ">=",
        uu.subs(_u_nonzero),
    ],
    labels=["Pythagoras", "a squared norm is ≥ 0"],
)

# ---------------------------------------------------------------- seed 004, Question 4.3
y_hat = gamma * scalar(u.T * x) / nu + beta
cx, cu, ux = scalar(c.T * x), scalar(c.T * u), scalar(u.T * x)
derivation(
    "wn.quotient_rule_corrected_004",
    chain=[
        scalar(c.T * grad_u(y_hat)),
        "=",
        gamma * (cx * nu - cu * ux / nu) / nu**2,
        "=",
        gamma * (cx * nu - cu * (uu) ** sp.Rational(-1, 2) * ux) / nu**2,
        "=",
        gamma * (cx * nu**2 - cu * ux) / nu**3,
        "=",
        scalar(c.T * W_perp * (gamma * x / nu)),
    ],
    labels=[
        "quotient rule with its 1/‖u‖²",
        "∂‖u‖/∂u = (uᵀu)^{−1/2}uᵀ",
        "(I‖u‖² − uuᵀ)/‖u‖³",
        "factor W^⊥ γx/‖u‖",
    ],
)

derivation(
    "wn.grad_004",
    chain=[
        scalar(c.T * grad_u(ell * y_hat)),
        "=",
        ell * scalar(c.T * W_perp * (gamma * x / nu)),
        "=",
        scalar(c.T * (gamma / nu) * W_perp * (ell * x)),
    ],
    labels=["chain rule through ŷ", "∇_wL = (∂L/∂ŷ)x"],
)

derivation(
    "wn.perp_u_zero_004",
    chain=[
        scalar(c.T * W_perp * u),
        "=",
        sp.Integer(0),
    ],
    labels=["(I − uuᵀ/‖u‖²)u = u − u"],
)

derivation(
    "wn.norm_derivative_004",
    chain=[
        scalar(c.T * grad_u(nu)),
        "=",
        sp.Rational(1, 2) * uu ** sp.Rational(-1, 2) * 2 * scalar(u.T * c),
        "=",
        scalar(u.T * c) / nu,
    ],
    labels=["differentiate (uᵀu)^{1/2}", "simplify"],
    title="Derivative of the norm: ∂‖u‖/∂u = ½(uᵀu)^{−1/2}·2uᵀ",
    source=S4_Q4_3.quote(
        "\\frac{\\partial \\|u\\|}{\\partial u} = \\frac{1}{2}(u^{\\top}u)^{-1/2} \\frac{\\partial "
        "(u^{\\top}u)}{\\partial u} = \\frac{1}{2}(u^{\\top}u)^{-1/2} \\times 2u^{\\top}"
    ),
    statement=r"\frac{\partial\|u\|}{\partial u} = \frac{\partial(u^\top u)^{1/2}}{\partial u} = "
    r"\frac12(u^\top u)^{-1/2}\frac{\partial(u^\top u)}{\partial u} = \frac12(u^\top u)^{-1/2}\times2u^\top",
    expected=Verdict.PROVED,
    notes="Symbolic only (n = 2, through a functional cᵀ): a derivative, no exact numeric ground truth "
    "besides the SymPy one.",
)
