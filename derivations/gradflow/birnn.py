r"""Symbolic checks of the bidirectional-RNN gradients (seed 003, Question 6).

Scalar states (n = 1) and T = 3 for the recursion (31); n = 2 for the Jacobian factorisation (28)-(30).
The gradient of L with respect to h_1 is taken by SymPy with h_1 a free symbol and h_2, h_3 built from it,
and compared with the recursion, in which grad_{h_2} L is again SymPy's derivative with h_2 free.
"""

import sympy as sp

from lemmacheck import derivation


def sig(z):
    return 1 / (1 + sp.exp(-z))


u, w = sp.symbols("u w", real=True)
x2, x3 = sp.symbols("x2 x3", real=True)
a1, a2, a3 = sp.symbols("a1 a2 a3", real=True)
H1, H2 = sp.symbols("H1 H2", real=True)


def recursion_check(coeffs):
    """(d L / d h_1, u h_2 (1 - h_2) dL/dh_2) for L = sum_t coeffs[t] h_t."""
    c1, c2, c3 = coeffs
    h2_of_h1 = sig(w * x2 + u * H1)
    loss_from_h1 = c1 * H1 + c2 * h2_of_h1 + c3 * sig(w * x3 + u * h2_of_h1)
    loss_from_h2 = c2 * H2 + c3 * sig(w * x3 + u * H2)
    grad_h2 = sp.diff(loss_from_h2, H2).subs(H2, h2_of_h1)
    return sp.diff(loss_from_h1, H1), u * h2_of_h1 * (1 - h2_of_h1) * grad_h2


domain = {s: (-2.0, 2.0) for s in (u, w, x2, x3, a1, a2, a3, H1)}
lhs, rhs = recursion_check((a1, a2, a3))
derivation(
    "birnn.s003.eq31_every", chain=[lhs, "=", rhs], labels=["(31) at t = 1, L = sum_t a_t h_t"], domain=domain
)
lhs, rhs = recursion_check((0, 0, a3))
derivation(
    "birnn.s003.eq31_last", chain=[lhs, "=", rhs], labels=["(31) at t = 1, L = a_3 h_3"], domain=domain
)

# (28)-(30) for n = 2: transposed Jacobian of h_{t+1} = sigma(W x_{t+1} + U h_t) w.r.t. h_t
n = 2
U = sp.Matrix(n, n, lambda i, j: sp.Symbol(f"U{i}{j}", real=True))
b = sp.Matrix(n, 1, lambda i, j: sp.Symbol(f"b{i}", real=True))  # W^(f) x_{t+1}
h = sp.Matrix(n, 1, lambda i, j: sp.Symbol(f"h{i}", real=True))
C = sp.Matrix(n, n, lambda i, j: sp.Symbol(f"C{i}{j}", real=True))
f = U * h + b
h_next = f.applyfunc(sig)
denominator_jac = h_next.jacobian(h).T
fact = U.T * sp.diag(*[sig(f[i]) * (1 - sig(f[i])) for i in range(n)])
fact_h = U.T * sp.diag(*[h_next[i] * (1 - h_next[i]) for i in range(n)])


def probe(M):
    return sum(C[i, j] * M[i, j] for i in range(n) for j in range(n))


derivation(
    "birnn.s003.eq28_30",
    chain=[probe(denominator_jac), "=", probe(fact), "=", probe(fact_h)],
    labels=["(28) df/dh_t = U^T and (29) sigma' = sigma (1 - sigma)", "(30) sigma(f) = h_{t+1}"],
)
