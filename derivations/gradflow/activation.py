r"""Induction step g_t = sigma(h_t) with a generic activation sigma (a SymPy Function), n = 2.

Vectors are compared through a symbolic probe c: :math:`c^\top u = c^\top v` for all c iff u = v, which
keeps each chain scalar.  The induction hypothesis g_{t-1} = sigma(h_{t-1}) (seed 002, 003) or
g_{t-2} = sigma(h_{t-2}) (seed 004) is imposed by *defining* the earlier g from h, so no inverse of sigma
is ever used.
"""

import sympy as sp

from lemmacheck import derivation

sigma = sp.Function("sigma")
n = 2
W = sp.Matrix(n, n, lambda i, j: sp.Symbol(f"W{i}{j}", real=True))
U = sp.Matrix(n, 1, lambda i, j: sp.Symbol(f"U{i}", real=True))
b = sp.Matrix(n, 1, lambda i, j: sp.Symbol(f"b{i}", real=True))
c = sp.Matrix(n, 1, lambda i, j: sp.Symbol(f"c{i}", real=True))
x_t, x_tm1 = sp.symbols("x_t x_tm1", real=True)
h_tm2 = sp.Matrix(n, 1, lambda i, j: sp.Symbol(f"h_tm2_{i}", real=True))
h_tm1 = sp.Matrix(n, 1, lambda i, j: sp.Symbol(f"h_tm1_{i}", real=True))


def s(v):
    """Elementwise sigma."""
    return v.applyfunc(sigma)


def probe(v):
    return (c.T * v)[0, 0]


# ---- seeds 002 / 003: hypothesis at t-1
g_tm1 = s(h_tm1)  # induction hypothesis, g_{t-1} = sigma(h_{t-1})
h_t = W * s(h_tm1) + U * x_t + b  # recurrence of h
g_t = s(W * g_tm1 + U * x_t + b)  # recurrence of g

derivation(
    "act.s002.g_eq_sigma_h",
    chain=[
        probe(s(h_t)),
        "=",
        probe(s(W * s(h_tm1) + U * x_t + b)),
        "=",
        probe(s(W * g_tm1 + U * x_t + b)),
        "=",
        probe(g_t),
    ],
    labels=["recurrence of h_t", "hypothesis sigma(h_{t-1}) = g_{t-1}", "recurrence of g_t"],
)

derivation(
    "act.s003.identification",
    chain=[probe(s(h_t)), "=", probe(s(W * g_tm1 + U * x_t + b)), "=", probe(g_t)],
    labels=["h_t = W sigma(h_{t-1}) + U x_t + b with sigma(h_{t-1}) = g_{t-1}", "(20)"],
)

# ---- seed 004: unroll two steps, hypothesis at t-2
g_tm2 = s(h_tm2)
h_tm1_004 = W * s(h_tm2) + U * x_tm1 + b
g_tm1_004 = s(W * g_tm2 + U * x_tm1 + b)
h_t_004 = W * s(h_tm1_004) + U * x_t + b

derivation(
    "act.s004.induction",
    chain=[
        probe(s(h_t_004)),
        "=",
        probe(s(W * s(W * s(h_tm2) + U * x_tm1 + b) + U * x_t + b)),
        "=",
        probe(s(W * s(W * g_tm2 + U * x_tm1 + b) + U * x_t + b)),
        "=",
        probe(s(W * g_tm1_004 + U * x_t + b)),
        "=",
        probe(s(W * g_tm1_004 + U * x_t + b)),
    ],
    labels=[
        "replace h_{t-1}",
        "sigma(h_{t-2}) = g_{t-2}",
        "g_{t-1} = sigma(W g_{t-2} + U x_{t-1} + b)",
        "recurrence of g_t: sigma(h_t) = g_t",
    ],
)
