r"""Symbolic steps of dropout on linear regression (seed 003, Question 2), for n = d = 2.

The expectation over the 16 masks R in {0,1}^{2x2} is a finite sum weighted by p^{|R|}(1-p)^{4-|R|}, so
SymPy can expand it exactly and compare it with the closed form.
"""

import itertools

import sympy as sp

from lemmacheck import derivation

p = sp.Symbol("p", positive=True)
X = sp.Matrix(2, 2, lambda i, j: sp.Symbol(f"x{i}{j}", real=True))
w = sp.Matrix(2, 1, lambda i, j: sp.Symbol(f"w{i}", real=True))
y = sp.Matrix(2, 1, lambda i, j: sp.Symbol(f"y{i}", real=True))
v = sp.Matrix(2, 1, lambda i, j: sp.Symbol(f"v{i}", real=True))

gamma_sq = sp.diag(*[(X.T * X)[j, j] for j in range(2)])


def loss(R, weights):
    r = R.multiply_elementwise(X) * weights - y
    return (r.T * r)[0, 0]


expected = 0
for bits in itertools.product((0, 1), repeat=4):
    R = sp.Matrix(2, 2, bits)
    k = sum(bits)
    expected += p**k * (1 - p) ** (4 - k) * loss(R, w)

quadratic = (
    (w.T * (p**2 * X.T * X + p * (1 - p) * gamma_sq) * w)[0, 0]
    - 2 * p * (y.T * X * w)[0, 0]
    + (y.T * y)[0, 0]
)
residual = y - p * X * w
closed = (residual.T * residual)[0, 0] + p * (1 - p) * ((gamma_sq * w).T * w)[0, 0]

derivation(
    "dropout.s003.expected_loss",
    chain=[expected, "=", quadratic, "=", closed],
    labels=["sum over the 16 masks", "complete the square"],
    domain={p: (0.01, 0.99)},
)

grad = sp.Matrix([sp.diff(closed, wi) for wi in w])
formula = 2 * p**2 * X.T * X * w - 2 * p * X.T * y + 2 * p * (1 - p) * gamma_sq * w
derivation(
    "dropout.s003.gradient",
    chain=[(v.T * grad)[0, 0], "=", (v.T * formula)[0, 0]],
    labels=["differentiate the closed form (probe v)"],
    domain={p: (0.01, 0.99)},
)

derivation(
    "dropout.s003.columns_penalised",
    chain=[
        (w.T * gamma_sq * w)[0, 0],
        "=",
        sum(w[j] ** 2 * sum(X[i, j] ** 2 for i in range(2)) for j in range(2)),
    ],
    labels=["Gamma^2 = I_d (Hadamard) X^T X is the diagonal of squared column norms"],
)
