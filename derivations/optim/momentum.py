r"""Symbolic forms of the momentum / running-average rewrites (seed 002 Q2.1, seed 003 Q3.1).

The updates act componentwise with scalar coefficients, so one component suffices: Δθ_{t-1}, g_t and
v_{t-1} are scalar symbols, and the substitutions the documents make (v_{t-1} = −Δθ_{t-1} for momentum,
v_{t-1} = −Δθ_{t-1}/δ for the running average) are written into the first expression of each chain.
"""

import sympy as sp

from lemmacheck import derivation

alpha, beta = sp.symbols("alpha beta", nonnegative=True)
eps, delta = sp.symbols("epsilon delta", positive=True)
dtheta, g, v_prev = sp.symbols("Delta_theta_prev g_t v_prev", real=True)

_momentum = [
    -(alpha * v_prev + eps * g).subs(v_prev, -dtheta),
    "=",
    -alpha * (-dtheta) - eps * g,
    "=",
    alpha * dtheta - eps * g,
]
derivation("momentum.step_002", chain=_momentum, labels=["v_{t-1} = −Δθ_{t-1}", "simplify"])

derivation(
    "momentum.eq17_003",
    chain=[
        -(alpha * v_prev + eps * g),
        "=",
        -alpha * v_prev - eps * g,
        "=",
        (alpha * dtheta - eps * g).subs(dtheta, -v_prev),
    ],
    labels=["expand v_t", "Δθ_{t-1} = −v_{t-1}"],
)

derivation(
    "momentum.running_avg_step_002",
    chain=[
        -delta * (beta * v_prev + (1 - beta) * g).subs(v_prev, -dtheta / delta),
        "=",
        -delta * beta * (-dtheta / delta) - delta * (1 - beta) * g,
        "=",
        beta * dtheta - (1 - beta) * delta * g,
    ],
    labels=["v_{t-1} = −Δθ_{t-1}/δ", "simplify"],
)

derivation(
    "momentum.eq18_003",
    chain=[
        -delta * (beta * v_prev + (1 - beta) * g),
        "=",
        -delta * beta * v_prev - delta * (1 - beta) * g,
        "=",
        (beta * dtheta - delta * (1 - beta) * g).subs(dtheta, -delta * v_prev),
    ],
    labels=["expand v_t", "Δθ_{t-1} = −δ v_{t-1}"],
)

# α = β and ε = (1 − β)δ turn the momentum recursion into the running-average one
_identified = (alpha * dtheta - eps * g).subs({alpha: beta, eps: (1 - beta) * delta})
derivation(
    "momentum.equivalence_002",
    chain=[
        _identified,
        "=",
        beta * dtheta - (1 - beta) * delta * g,
    ],
    labels=["α = β, ε = (1 − β)δ"],
)
derivation(
    "momentum.equivalence_003",
    chain=[
        _identified,
        "=",
        beta * dtheta - delta * (1 - beta) * g,
    ],
    labels=["α = β, ε = δ(1 − β)"],
)
