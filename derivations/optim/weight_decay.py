r"""Symbolic checks for weight decay vs L2 regularisation (seed 004, Question 3).

θ has three symbolic components; vector identities are compared through a symbolic functional cᵀ(·).
The loss gradient ∇L is a free vector G (it is common to both sides wherever it appears), so the
derivations isolate exactly the terms the documents manipulate: the penalty and its gradient.
"""

import sympy as sp

from derivations.optim._helpers import scalar
from lemmacheck import derivation

theta = sp.Matrix(sp.symbols("theta_1:4", real=True))
c = sp.Matrix(sp.symbols("c_1:4", real=True))
G = sp.Matrix(sp.symbols("G_1:4", real=True))
gamma, eta = sp.symbols("gamma eta", positive=True)
m = sp.Symbol("m", integer=True, positive=True)
j = sp.Symbol("j", integer=True, positive=True)
sq = sp.Symbol("s", nonnegative=True)  # s = ‖θ‖₂²
L = sp.Function("L")


def grad(expr):
    return sp.Matrix([sp.diff(expr, th) for th in theta])


penalty = gamma * scalar(theta.T * theta)

derivation(
    "wd.l2_average_004",
    chain=[
        (sp.Sum(L(j), (j, 1, m)) + sp.Sum(gamma * sq, (j, 1, m)).doit()) / m,
        "=",
        sp.Sum(L(j), (j, 1, m)) / m + gamma * sq,
    ],
    labels=["(1/m) Σ_j γ‖θ‖² = γ‖θ‖² (the penalty does not depend on j)"],
)

derivation(
    "wd.penalty_gradient_004",
    chain=[
        scalar(c.T * grad(scalar(theta.T * theta))),
        "=",
        scalar(c.T * 2 * theta),
    ],
    labels=["∂(θᵀθ)/∂θ = 2θ"],
)

derivation(
    "wd.l2_sgd_update_004",
    chain=[
        scalar(c.T * (theta - eta * (G + grad(penalty)))),
        "=",
        scalar(c.T * (theta - eta * G - 2 * eta * gamma * theta)),
    ],
    labels=["∇L_reg = ∇L + γ∂‖θ‖²/∂θ = ∇L + 2γθ"],
)

lam = -2 * eta * gamma
derivation(
    "wd.sgd_equivalence_004",
    chain=[
        scalar(c.T * (theta - eta * G + lam * theta)),
        "=",
        scalar(c.T * (theta - eta * G - 2 * eta * gamma * theta)),
    ],
    labels=["λ = −2ηγ in θ_i − η∇L + λθ_i"],
)


# Adam + L2: the gradient line. ∇L is common to both sides, the penalty term is what is compared.
def _penalty_gradient_against(term):
    """cᵀ∇(γ‖θ‖²) = cᵀ(the term the gradient line adds)."""
    return [scalar(c.T * grad(penalty)), "=", scalar(c.T * term)]


derivation(
    "adam.l2_gradient_line_004",
    chain=_penalty_gradient_against(gamma * theta),
    labels=["∇(γ‖θ‖²) against the written new term γθ"],
)
derivation(
    "adam.l2_gradient_33a_004",
    chain=_penalty_gradient_against(gamma * theta),
    labels=["∇(γ‖θ‖²) against the written γθ_t"],
)
derivation(
    "adam.l2_gradient_line_corrected",
    chain=_penalty_gradient_against(2 * gamma * theta),
    labels=["∇(γ‖θ‖²) = 2γθ"],
)

# Adam moment estimates (one component)
b1, b2 = sp.symbols("beta_1 beta_2", positive=True)
t = sp.Symbol("t", positive=True)
m_prev, g_t = sp.symbols("m_{t-1} g_t", real=True)
v_prev = sp.Symbol("v_{t-1}", positive=True)
m_t = b1 * m_prev + (1 - b1) * g_t
v_t = b2 * v_prev + (1 - b2) * g_t**2
derivation(
    "adam.first_moment_004",
    chain=[
        m_t / (1 - b1**t),
        "=",
        (b1 * m_prev + (1 - b1) * g_t) / (1 - b1**t),
    ],
    labels=["m_t = β₁m_{t−1} + (1−β₁)g_t"],
    domain={b1: (0.01, 0.99), t: (1, 50)},
)
derivation(
    "adam.second_moment_004",
    chain=[
        v_t / (1 - b2**t),
        "=",
        (b2 * v_prev + (1 - b2) * g_t**2) / (1 - b2**t),
    ],
    labels=["v_t = β₂v_{t−1} + (1−β₂)g_t²"],
    domain={b2: (0.01, 0.999), t: (1, 50)},
)

# The Adam-L2 update, one component: G = ∇L, g_t = G + γθ (the document's line). β₁, β₂ and Adam's ε
# take their usual values (0.9, 0.999, 10⁻⁸) as exact rationals: the expressions stay small enough for
# simplify to settle the true steps quickly; the broken step is then found at sampled points.
th, Gs = sp.symbols("theta_t G", real=True)
ab1, ab2, adam_eps = sp.Rational(9, 10), sp.Rational(999, 1000), sp.Rational(1, 10**8)
g_reg = Gs + gamma * th
bias1 = 1 - ab1**t


def v_hat(squared):
    return (ab2 * v_prev + (1 - ab2) * squared) / (1 - ab2**t)


def expansion(squared):
    den = bias1 * (sp.sqrt(v_hat(squared)) + adam_eps)
    return [
        th - eta * ((ab1 * m_prev + (1 - ab1) * g_reg) / bias1) / (sp.sqrt(v_hat(g_reg**2)) + adam_eps),
        "=",
        th - eta * (ab1 * m_prev + (1 - ab1) * g_reg) / (bias1 * (sp.sqrt(v_hat(g_reg**2)) + adam_eps)),
        "=",
        th - eta * (ab1 * m_prev + (1 - ab1) * (Gs + gamma * th)) / den,
        "=",
        th - eta * (ab1 * m_prev + (1 - ab1) * Gs) / den - eta * (1 - ab1) * (gamma * th) / den,
    ]


_adam_domain = {
    t: (1, 50),
    eta: (1e-4, 1e-1),
    gamma: (1e-2, 10),
    th: (-5, 5),
    Gs: (-5, 5),
    m_prev: (-5, 5),
    v_prev: (1e-3, 10),
}
# The as-written chain (v̂_t built from (∇L)², adam.l2_update_expansion_004) is left to its numeric check,
# which finds step 2 broken and re-verifies it in high precision: simplify on the two unequal square roots
# costs seconds and cannot prove anything there.
derivation(
    "adam.l2_update_expansion_corrected",
    chain=expansion(g_reg**2),
    labels=["expand m̂_t", "v̂_t with (∇L + γθ)²", "split the L2 term off"],
    domain=_adam_domain,
)
