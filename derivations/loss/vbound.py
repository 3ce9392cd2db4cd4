r"""SymPy derivations for seed 000 §"Loss Bounded with Respect to V" (H = K = 2, one token).

With U, W fixed, the state s is a constant vector: g = yᵀ V s is linear in V, and the pull-back
:math:`\langle\nabla_{Vs} f, \Delta V s\rangle = \langle\nabla_V f, \Delta V\rangle` holds for f = lse(V s).
"""

import sympy as sp

from derivations.loss._symbolic import lse_and_softmax
from lemmacheck import derivation

H = K = 2
V = sp.Matrix(K, H, lambda i, j: sp.Symbol(f"V_{i}{j}", real=True))
dV = sp.Matrix(K, H, lambda i, j: sp.Symbol(f"dV_{i}{j}", real=True))
s = sp.Matrix(H, 1, lambda i, _: sp.Symbol(f"s_{i}", real=True))
y = sp.Matrix(K, 1, lambda i, _: sp.Symbol(f"y_{i}", real=True))


def frob(A, B):
    return sum(A[i, j] * B[i, j] for i in range(A.rows) for j in range(A.cols))


def grad_wrt_V(expr):
    return sp.Matrix(K, H, lambda i, j: sp.diff(expr, V[i, j]))


g = (y.T * V * s)[0, 0]
g_new = (y.T * (V + dV) * s)[0, 0]
derivation(
    "loss.g_linear_in_v",
    chain=[g_new, "=", g + frob(grad_wrt_V(g), dV)],
    labels=["g = yᵀVs is linear in V (s does not depend on V)"],
)

z = V * s
f, p = lse_and_softmax(z)
dz = dV * s
derivation(
    "loss.v_grad_pullback",
    chain=[sum(p[i] * dz[i] for i in range(K)), "=", frob(grad_wrt_V(f), dV)],
    labels=["∇_V lse(Vs) = softmax(Vs) sᵀ"],
)
