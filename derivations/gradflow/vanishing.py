r"""Symbolic steps of the vanishing-gradient argument (seeds 002 Q1.2, 003 Q5.2, 004 Q1.2).

The step Jacobians are derived by SymPy for n = 2 and a generic activation sigma (a SymPy Function), in
each document's own layout; matrices are compared through a symbolic probe C (sum_ij C_ij A_ij), which
keeps each chain scalar.
"""

import sympy as sp
from checks._vocab.sources import S3_Q5

from lemmacheck import Verdict, derivation

sigma = sp.Function("sigma")
z = sp.Symbol("z", real=True)
n = 2
W = sp.Matrix(n, n, lambda i, j: sp.Symbol(f"W{i}{j}", real=True))
C = sp.Matrix(n, n, lambda i, j: sp.Symbol(f"C{i}{j}", real=True))
u = sp.Matrix(n, 1, lambda i, j: sp.Symbol(f"u{i}", real=True))  # U x_t + b, constant in the state
v = sp.Matrix(n, 1, lambda i, j: sp.Symbol(f"v{i}", real=True))  # the previous state g_{t-1} or h_{t-1}


def dsigma(a):
    """sigma'(a) as SymPy writes it after the chain rule."""
    return sp.diff(sigma(z), z).subs(z, a)


def probe(M):
    return sum(C[i, j] * M[i, j] for i in range(n) for j in range(n))


# ---- seed 002: g_t = sigma(W g_{t-1} + U x_t + b), numerator layout
pre = W * v + u
g_t = pre.applyfunc(sigma)
jac_g = g_t.jacobian(v)
derivation(
    "vanish.s002.jacobian_step",
    chain=[probe(jac_g), "=", probe(sp.diag(*[dsigma(pre[i]) for i in range(n)]) * W)],
    labels=["chain rule: d sigma(a_i)/d g_j = sigma'(a_i) W_ij"],
)

# ---- seed 004: h_t = W sigma(h_{t-1}) + U x_t + b, numerator layout W D sigma(h_{t-1})
h_t = W * v.applyfunc(sigma) + u
jac_h = h_t.jacobian(v)
derivation(
    "vanish.s004.jacobian_step",
    chain=[probe(jac_h), "=", probe(W * sp.diag(*[dsigma(v[i]) for i in range(n)]))],
    labels=["chain rule: d h_{t,i}/d h_{t-1,j} = W_ij sigma'(h_{t-1,j})"],
)

# ---- seed 003: same recurrence, denominator layout diag(sigma'(h_{t-1})) W^T
derivation(
    "vanish.s003.jacobian_step",
    chain=[probe(jac_h.T), "=", probe(sp.diag(*[dsigma(v[i]) for i in range(n)]) * W.T)],
    labels=["denominator layout: entry (i, j) is d h_{t,j} / d h_{t-1,i}"],
)

# ---- seed 002: the substitution lambda_1 <= delta^2/gamma^2 (gamma > 0, 0 <= delta)
gamma = sp.Symbol("gamma", positive=True)
delta = sp.Symbol("delta", nonnegative=True)
T = sp.Symbol("T", positive=True, integer=True)
derivation(
    "vanish.s002.delta_subst",
    chain=[gamma**T * sp.sqrt(delta**2 / gamma**2) ** T, "=", gamma**T * sp.sqrt(delta**2 / gamma**2)],
    labels=["drop the power T (as written)"],
    domain={gamma: (0.05, 2.0), delta: (0.0, 1.0)},
)
derivation(
    "vanish.s002.delta_subst_fixed",
    chain=[gamma**T * sp.sqrt(delta**2 / gamma**2) ** T, "=", gamma**T * (delta / gamma) ** T, "=", delta**T],
    labels=["sqrt(delta^2/gamma^2) = delta/gamma for gamma > 0, delta >= 0", "powers"],
    domain={gamma: (0.05, 2.0), delta: (0.0, 1.0)},
)
# ---- seed 003 eq. (25) last equality and seed 004's (||W||^2 gamma^2)^{T/2} <= (delta^2)^{T/2} = delta^T
derivation(
    "vanish.s003.eq25_algebra",
    chain=[gamma**T * (delta / gamma) ** T, "=", delta**T],
    labels=["(delta/gamma)^T gamma^T = delta^T"],
    title="gamma^T (delta/gamma)^T = delta^T (seed 003, eq. (25), last step)",
    source=S3_Q5.at("part 2, eq. (25)").quote(
        "\\gamma^T \\left( \\frac{\\delta}{\\gamma} \\right)^T = \\delta^T"
    ),
    statement=r"\gamma^T\left(\frac{\delta}{\gamma}\right)^T = \delta^T",
    expected=Verdict.PROVED,
    same_as=("vanish.s002.delta_subst_fixed",),
)
