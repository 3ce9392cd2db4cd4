r"""Symbolic steps of the initialisation derivation (seed 003, Question 1).

Moments are symbols: mu_w = E[w], v_w = V[w], mu_h = E[h], v_h = V[h]; for independent w, h,
E[(wh)^2] = E[w^2]E[h^2] with E[x^2] = V[x] + E[x]^2.  d is the fan-in d^{(t-1)}.
"""

import sympy as sp
from checks._vocab.sources import S3_Q1

from lemmacheck import Verdict, derivation

mu_w, mu_h = sp.symbols("mu_w mu_h", real=True)
v_w, v_h = sp.symbols("v_w v_h", nonnegative=True)
d = sp.Symbol("d", positive=True, integer=True)
alpha, beta, x = sp.symbols("alpha beta x", real=True)

# (9): V[wh] for independent w, h
derivation(
    "init.s003.eq9",
    chain=[(v_w + mu_w**2) * (v_h + mu_h**2) - mu_w**2 * mu_h**2, "=", v_w * (v_h + mu_h**2) + v_h * mu_w**2],
    labels=["V[wh] = E[w^2]E[h^2] - E[w]^2E[h]^2, expanded"],
)

# part 1(b): second moment of U(alpha, beta) by integration
second_moment = sp.integrate(x**2 / (beta - alpha), (x, alpha, beta))
derivation(
    "init.s003.uniform_moments",
    chain=[
        second_moment,
        "=",
        (beta - alpha) ** 2 / 12 + (alpha + beta) ** 2 / 4,
        "=",
        (alpha**2 + beta**2 + alpha * beta) / 3,
    ],
    labels=["E[w^2] = V[w] + E[w]^2 with V = (beta-alpha)^2/12, E = (alpha+beta)/2", "expand"],
    domain={alpha: (-3, 0), beta: (0.1, 3)},
)

# part 1: with E[h_j] = 0, (4) gives c = 0 whatever the weights' mean
eh1, eh2, eh3 = sp.symbols("E_h1 E_h2 E_h3", real=True)
derivation(
    "init.s003.c_zero_linear",
    uses=("init.s003.eq1_4",),
    chain=[(-mu_w * (eh1 + eh2 + eh3)).subs({eh1: 0, eh2: 0, eh3: 0}), "=", sp.Integer(0)],
    labels=["(4) with E[h_j] = 0 (d = 3 written out)"],
    title="part 1: E[h_j] = 0 gives c = -E[w_i1] sum_j E[h_j] = 0",
    source=S3_Q1.at("part 1").quote(
        "c = -\\mathbb{E}[w_{i1}^{(t)}] \\underbrace{\\sum_{j=1}^{d^{(t-1)}} "
        "\\mathbb{E}[h_j^{(t-1)}]}_{=0} = 0"
    ),
    statement=r"\mathbb{E}[h_j] = 0\ \forall j \implies c = -\mathbb{E}[w_{i1}]\sum_j\mathbb{E}[h_j] = 0",
    expected=Verdict.PROVED,
)

sigma_lin = 1 / sp.sqrt(d)
derivation(
    "init.s003.linear_gauss",
    uses=("init.s003.eq8_10", "init.s003.c_zero_linear"),
    chain=[d * (0**2 + sigma_lin**2), "=", sp.Integer(1)],
    labels=["(10) with mu = 0, sigma = 1/sqrt(d)"],
    title="linear layer, Gaussian weights: mu = 0, sigma = 1/sqrt(d^{(t-1)}) gives 1 = d(mu^2 + sigma^2), "
    "c = 0",
    source=S3_Q1.at("part 1(a)").quote(
        "taking \\mu = 0 and \\sigma = \\frac{1}{\\sqrt{d^{(t-1)}}} works (recall that we already "
        "showed that c = 0)"
    ),
    statement=r"1 = d^{(t-1)}(\mu^2 + \sigma^2)\ \text{with}\ \mu = 0,\ \sigma = 1/\sqrt{d^{(t-1)}}",
    expected=Verdict.PROVED,
    notes="Variance propagation through deep random linear networks: study init.propagation.",
)

beta_lin = sp.sqrt(3 / d)
derivation(
    "init.s003.linear_uniform",
    uses=("init.s003.eq8_10", "init.s003.uniform_moments", "init.s003.c_zero_linear"),
    chain=[d * ((-beta_lin) ** 2 + beta_lin**2 + (-beta_lin) * beta_lin) / 3, "=", sp.Integer(1)],
    labels=["(10) with alpha = -beta, beta = sqrt(3/d)"],
    title="linear layer, uniform weights: alpha = -beta, beta = sqrt(3/d^{(t-1)})",
    source=S3_Q1.at("part 1(b)").quote(
        "if we decide to take \\alpha = -\\beta, taking \\beta = \\sqrt{\\frac{3}{d^{(t-1)}}} works"
    ),
    statement=r"1 = d^{(t-1)}\frac{\alpha^2+\beta^2+\alpha\beta}{3}\ \text{with}\ \alpha = -\beta,\ \beta "
    r"= \sqrt{3/d^{(t-1)}}",
    expected=Verdict.PROVED,
)

# (11)-(12): with E[g(a)^2] = 1/2 and vanishing covariances, for d = 3 written out
vh1, vh2, vh3 = sp.symbols("v_h1 v_h2 v_h3", nonnegative=True)
derivation(
    "init.s003.eq11_12",
    uses=("init.s003.eq5_7", "init.s003.relu_cov_zero", "init.s003.relu_half"),
    chain=[
        sum(v_w * sp.Rational(1, 2) + vh * mu_w**2 for vh in (vh1, vh2, vh3)),
        "=",
        3 * v_w / 2 + mu_w**2 * (vh1 + vh2 + vh3),
    ],
    labels=["sum over j = 1..d (d = 3)"],
    title="(11)-(12): 1 = d V[w]/2 + E[w]^2 sum_j V[h_j] (ReLU layer, seed 003)",
    source=S3_Q1.at("part 2, eq. (11)-(12)").quote(
        "1 = \\frac{d^{(t-1)} \\mathbb{V}[w_{i1}^{(t)}]}{2} + \\mathbb{E}[w_{i1}^{(t)}]^2 "
        "\\sum_{j=1}^{d^{(t-1)}} \\mathbb{V}[h_j^{(t-1)}] (12)"
    ),
    statement=r"\sum_j \mathbb{V}[w_{ij}]\cdot\tfrac12 + \mathbb{V}[h_j]\mathbb{E}[w_{ij}]^2 = "
    r"\frac{d\,\mathbb{V}[w_{i1}]}{2} + \mathbb{E}[w_{i1}]^2\sum_j\mathbb{V}[h_j]",
    expected=Verdict.PROVED,
    notes="Algebra of (11) -> (12), given (9) and that the covariance term of (7) vanishes — which, for "
    "E[w] != 0, needs more than uncorrelated pre-activations (init.s003.relu_cov_zero).",
)

sigma_relu = sp.sqrt(2 / d)
derivation(
    "init.s003.relu_gauss",
    uses=("init.s003.eq11_12", "init.s003.relu_mean_positive"),
    chain=[d * sigma_relu**2 / 2 + 0**2 * d, "=", sp.Integer(1)],
    labels=["(12) with mu = 0, sigma = sqrt(2/d)"],
    title="ReLU layer, Gaussian weights: c = 0, mu = 0, sigma = sqrt(2/d^{(t-1)})",
    source=S3_Q1.at("part 2(a)").quote(
        "c = 0 \\quad ; \\quad \\mu = 0 \\quad ; \\quad \\sigma = \\sqrt{\\frac{2}{d^{(t-1)}}}"
    ),
    statement=r"1 = \frac{d^{(t-1)}\sigma^2}{2}\ \text{with}\ c = 0,\ \mu = 0,\ \sigma = \sqrt{2/d^{(t-1)}}",
    expected=Verdict.PROVED,
    notes="This is He (Kaiming) initialisation; the answer's remark (c) likens it to Glorot, whose "
    "variance 2/(fan_in + fan_out) differs. Deep-network propagation: study init.propagation.",
)

beta_relu = sp.sqrt(6 / d)
derivation(
    "init.s003.relu_uniform",
    uses=("init.s003.eq11_12", "init.s003.relu_mean_positive"),
    chain=[d * (beta_relu**2 / 3) / 2, "=", sp.Integer(1)],
    labels=["(12) with V[U(-beta, beta)] = beta^2/3, beta = sqrt(6/d)"],
    title="ReLU layer, uniform weights: c = 0, alpha = -beta, beta = sqrt(6/d^{(t-1)})",
    source=S3_Q1.at("part 2(b)").quote(
        "c = 0 \\quad ; \\quad \\alpha = -\\beta \\quad ; \\quad \\beta = \\sqrt{\\frac{6}{d^{(t-1)}}}"
    ),
    statement=r"1 = \frac{d^{(t-1)}}{2}\cdot\frac{\beta^2}{3}\ \text{with}\ \alpha = -\beta,\ \beta = "
    r"\sqrt{6/d^{(t-1)}}",
    expected=Verdict.PROVED,
)
