r"""Symbolic checks of the running-average algebra (seed 002 Q2.2–2.3, seed 003 Q3.2–3.3).

Scalars stand for one component of the vectors. Where a chain contains a geometric sum with a symbolic
number of terms, β is written β = 1/(1 + κ) with κ > 0 — exactly the range 0 < β < 1 the documents
need — so that SymPy's closed form of the sum has no β = 1 branch; the sums are evaluated with
``doit()`` (SymPy's summation) before the steps are compared.
"""

import sympy as sp

from lemmacheck import derivation

beta = sp.Symbol("beta", positive=True)
kappa = sp.Symbol("kappa", positive=True)
beta_open = 1 / (1 + kappa)  # 0 < β < 1
n = sp.Symbol("n", integer=True, positive=True)
i, t = sp.symbols("i t", integer=True, positive=True)
mu = sp.Symbol("mu_g", real=True)
v3, v2, v1, g0, g1, g2 = sp.symbols("v_{t-3} v_{t-2} v_{t-1} g_t g_{t-1} g_{t-2}", real=True)

# ---------------------------------------------------------------- seed 002, Q2.2: three unrolled steps
_rec = {v1: beta * v2 + (1 - beta) * g1}
_rec2 = {v2: beta * v3 + (1 - beta) * g2}
derivation(
    "ema.unroll_002",
    chain=[
        (beta * v1 + (1 - beta) * g0).subs(_rec).subs(_rec2),
        "=",
        (beta * (beta * v2 + (1 - beta) * g1) + (1 - beta) * g0).subs(_rec2),
        "=",
        (beta**2 * v2 + beta * (1 - beta) * g1 + (1 - beta) * g0).subs(_rec2),
        "=",
        beta**3 * v3 + beta**2 * (1 - beta) * g2 + beta * (1 - beta) * g1 + (1 - beta) * g0,
    ],
    labels=["substitute v_{t-1}", "expand", "substitute v_{t-2}"],
)

# ---------------------------------------------------------------- seed 002, Q2.3 and seed 003, Q3.3
_w = (1 - beta_open) * beta_open ** (n - i)
# Σ w_i evaluated once: each summation costs 0.1-0.3 s of SymPy (its telescoping attempt runs `solve`),
# and `(μ·Σ w_i).doit()` is `μ·(Σ w_i).doit()`, the same expression (tests/test_content_import.py).
_weights = sp.Sum(_w, (i, 1, n)).doit()
derivation(
    "ema.expectation_002",
    chain=[
        sp.Sum(_w * mu, (i, 1, n)).doit(),
        "=",
        mu * _weights,
    ],
    labels=["E[g_i] = μ_g for every i; pull the constant out of the sum"],
)

derivation(
    "ema.mu_estimator_002",
    chain=[
        mu * _weights / _weights,
        "=",
        mu,
    ],
    labels=["divide E[v_t] = μ_g Σ(1−β)β^{t−i} by the (non-zero) weight sum"],
)

derivation(
    "ema.expectation_chain_003",
    chain=[
        (mu * (1 - beta_open) * sp.Sum(beta_open ** (n - t), (t, 1, n))).doit(),
        "=",
        (mu * (1 - beta_open) * beta_open**n * sp.Sum((1 / beta_open) ** t, (t, 1, n))).doit(),
        "=",
        mu
        * (1 - beta_open)
        * beta_open**n
        * (1 / beta_open)
        * (1 - (1 / beta_open) ** n)
        / (1 - 1 / beta_open),
        "=",
        mu * (1 - beta_open**n),
    ],
    labels=["factor β^n", "geometric sum", "simplify"],
)

derivation(
    "ema.bias_correction_003",
    chain=[
        mu * (1 - beta_open**n) / (1 - beta_open**n),
        "=",
        mu,
    ],
    labels=["E[v_n] = (1 − β^n) E[g_n], divide by 1 − β^n ≠ 0"],
)

# ---------------------------------------------------------------- seed 003, Q3.2: first terms, base case
ga, gb = sp.symbols("g_1 g_2", real=True)
_v1 = beta * 0 + (1 - beta) * ga
derivation(
    "ema.first_terms_003",
    chain=[
        beta * _v1 + (1 - beta) * gb,
        "=",
        beta * (1 - beta) * ga + (1 - beta) * gb,
    ],
    labels=["v_0 = 0, v_1 = (1−β)g_1, then v_2 = βv_1 + (1−β)g_2"],
)

# The closed form for general n (seed 002 Q2.2, seed 003 Q3.2) has no derivation here: SymPy's simplify
# cannot split the last term off a sum of symbolic length (Σ_{1}^{n+1} = Σ_{1}^{n} + term), so the
# induction step is left to the numeric checks (HOLDS); reported to the lead as an engine request.
