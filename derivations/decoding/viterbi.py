r"""SymPy steps of the Viterbi solution, seed 004 Q2.2.a, for a vocabulary of N = 3 words (<BOS> = word 0).

* the first step of the recurrence, :math:`\delta_1(j) = \max_i P_{ij}\delta_0(i) = P_{\langle BOS\rangle j}`,
  proved exactly for nonnegative transition probabilities;
* the 'product of maxima' step, :math:`\max_x f(x)g(x) = \max_x f(x)\max_x g(x)`, for a two-valued argument:
  not an identity (sampled counterexample), only the upper bound for :math:`f, g \ge 0`.
"""

import sympy as sp
from checks._vocab.sources import S4_Q2

from lemmacheck import Verdict, derivation

# P_{0j}, P_{1j}, P_{2j}: the column j of the transition matrix (probabilities, so nonnegative)
p0j, p1j, p2j = sp.symbols("P_0j P_1j P_2j", nonnegative=True)
delta0 = (1, 0, 0)  # δ_0 = indicator of <BOS> = word 0

derivation(
    "viterbi.delta1",
    chain=[sp.Max(p0j * delta0[0], p1j * delta0[1], p2j * delta0[2]), "=", p0j],
    labels=["δ_0 vanishes off <BOS>; P ≥ 0, so the max is P_<BOS>j"],
    domain={p0j: (0, 1), p1j: (0, 1), p2j: (0, 1)},
)

f1, f2, g1, g2 = sp.symbols("f1 f2 g1 g2", nonnegative=True)

derivation(
    "viterbi.max_product",
    chain=[sp.Max(f1 * g1, f2 * g2), "=", sp.Max(f1, f2) * sp.Max(g1, g2)],
    labels=["'the product is maximised when each factor is at its maximum'"],
    domain={f1: (0, 1), f2: (0, 1), g1: (0, 1), g2: (0, 1)},
)

derivation(
    "viterbi.max_product_bound",
    chain=[sp.Max(f1 * g1, f2 * g2), "<=", sp.Max(f1, f2) * sp.Max(g1, g2)],
    labels=["f_k g_k ≤ max f · max g for each k, as f, g ≥ 0"],
    domain={f1: (0, 1), f2: (0, 1), g1: (0, 1), g2: (0, 1)},
)

# The full-context factorisation of the Question 2 preamble, for T = 3: with q_t = p(w_{0:t}) the prefix
# probabilities, p(w_t | w_{0:t-1}) = q_t / q_{t-1}, and the product telescopes to p(w_{1:3} | w_0) = q_3 /
# q_0.
q0, q1, q2, q3 = sp.symbols("q_0 q_1 q_2 q_3", positive=True)

derivation(
    "viterbi.full_context_factorisation",
    chain=[q3 / q0, "=", (q1 / q0) * (q2 / q1) * (q3 / q2)],
    labels=["p(w_t | w_{0:t-1}) = p(w_{0:t}) / p(w_{0:t-1}): the product telescopes"],
    domain={q0: (0.1, 1), q1: (0.1, 1), q2: (0.1, 1), q3: (0.1, 1)},
    title="Language model with full context: p(w_{1:T} | w_0) = ∏_t p(w_t | w_{0:t−1}) (T = 3)",
    source=S4_Q2.at("(preamble)").quote(
        "a language model with a full context can be written as p(w_1, w_2, …, w_T | w_0) = "
        "∏_{t=1}^T p(w_t | w_0, …, w_{t−1})"
    ),
    statement=r"p(w_1,\dots,w_T\mid w_0) = \prod_{t=1}^T p(w_t\mid w_0,\dots,w_{t-1})",
    expected=Verdict.PROVED,
    notes="The chain rule of probability, proved symbolically for T = 3 with the conditionals written as "
    "ratios of prefix probabilities (all positive).",
)
