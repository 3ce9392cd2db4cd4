r"""SymPy proof of the linking equations of seed 000 for H = 2, N = 1, T = 3, σ an arbitrary function.

The states s_1..s_3 are built symbolically from s_t = σ(U x_t + W s_{t−1}); SymPy differentiates s_3
directly and the right-hand side of each linking equation is formed from the derivatives of s_2.  All
H²·H (resp. H·N·H) component equations are combined with independent symbolic coefficients c_{pij},
so the combined difference is identically zero iff every component equation holds.
"""

import sympy as sp

from lemmacheck import derivation

H, N, T = 2, 1, 3
sigma = sp.Function("sigma")
_xi = sp.Symbol("xi")


def dsigma(z):
    """σ'(z) as SymPy writes the derivative of σ at a compound argument."""
    return sp.Subs(sp.Derivative(sigma(_xi), _xi), _xi, z)


W = sp.Matrix(H, H, lambda i, j: sp.Symbol(f"W_{i}{j}", real=True))
U = sp.Matrix(H, N, lambda i, j: sp.Symbol(f"U_{i}{j}", real=True))
s0 = sp.Matrix(H, 1, lambda i, j: sp.Symbol(f"s0_{i}", real=True))
xs = [sp.Matrix(N, 1, lambda i, j, t=t: sp.Symbol(f"x{t}_{i}", real=True)) for t in range(1, T + 1)]
states, pre = [s0], [None]
for t in range(1, T + 1):
    z = U * xs[t - 1] + W * states[-1]
    pre.append(z)
    states.append(z.applyfunc(sigma))


def _combined(param, rhs_direct):
    """Σ c_pij ∂[s_T]_p/∂param_ij and Σ c_pij σ'(z_T)_p(direct_pij + Σ_k W_pk ∂[s_{T-1}]_k/∂param_ij)."""
    lhs, rhs = 0, 0
    for p in range(H):
        for i in range(param.rows):
            for j in range(param.cols):
                c = sp.Symbol(f"c_{p}{i}{j}", real=True)
                lhs += c * sp.diff(states[T][p], param[i, j])
                inner = rhs_direct(p, i, j) + sum(
                    W[p, k] * sp.diff(states[T - 1][k], param[i, j]) for k in range(H)
                )
                rhs += c * dsigma(pre[T][p]) * inner
    return lhs, rhs


lhs_w, rhs_w = _combined(W, lambda p, i, j: states[T - 1][j] if i == p else 0)
lhs_u, rhs_u = _combined(U, lambda p, i, j: xs[T - 1][j] if i == p else 0)

# V_p s_t is linear in s_t: the first linking equation, with a symbolic row v.
v = sp.Matrix(1, H, lambda i, j: sp.Symbol(f"v_{j}", real=True))
cw = {(i, j): sp.Symbol(f"b_{i}{j}", real=True) for i in range(H) for j in range(H)}
first_lhs = sum(cw[i, j] * sp.diff((v * states[T])[0, 0], W[i, j]) for i in range(H) for j in range(H))
first_rhs = sum(
    cw[i, j] * sum(v[0, k] * sp.diff(states[T][k], W[i, j]) for k in range(H))
    for i in range(H)
    for j in range(H)
)

derivation(
    "sens.w_linking",
    chain=[first_lhs + lhs_w, "=", first_rhs + rhs_w],
    labels=["both linking equations for W (H = 2, T = 3, σ arbitrary), all components at once"],
)

derivation(
    "sens.u_linking",
    chain=[lhs_u, "=", rhs_u],
    labels=["the linking equation for U (H = 2, N = 1, T = 3, σ arbitrary), all components at once"],
)
