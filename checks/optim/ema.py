"""The exponential moving average v_t = β v_{t-1} + (1 − β) g_t: closed form, expectation and bias.

Seed 002 Questions 2.2–2.3 and seed 003 Questions 3.2–3.3. Expectations are computed *exactly*: the
gradients are g_i = μ + σ_i r_i with independent Rademacher signs r_i, so E[·] is the finite average over
all 2^T sign patterns (no Monte-Carlo error, and the same average re-runs in high precision). The σ_i differ
across i: only the stationarity of the mean, which the documents use, is assumed.
"""

from checks._vocab.sources import S2_Q2_2, S2_Q2_3, S3_Q3_2, S3_Q3_3
from checks.optim._helpers import ema_closed_form, ema_recursive, probe, rademacher_support
from checks.optim._notation import EMA_CLOSED, EMA_UNROLL
from checks.optim._notation import symbols as optim_notation
from lemmacheck import Array, Derived, Input, Scalar, Verdict, identity


def _v_all(xp, g, beta):
    return ema_recursive(xp, g, beta, g[:, 0, :] * 0)


def _v_but_last(xp, g, beta):
    return ema_recursive(xp, g[:, :-1, :], beta, g[:, 0, :] * 0)


def _last_gradient(xp, g):
    return g[:, -1, :]


def _steps_before(xp, N):
    return N - 1


#: seed 003 Question 3.2's induction step: the N sampled gradients are g_1..g_{n+1} (n = N − 1 steps before
#: the step), v_n and v_{n+1} the recursion from v_0 = 0 over the first n and all N of them, g_t row t
INDUCTION_STEP = optim_notation.extend(
    "checks/optim/ema.py (INDUCTION_STEP)",
    {
        "v_{n+1}": Derived(_v_all, doc="the recursion over g_1..g_{n+1} from v_0 = 0"),
        "v_n": Derived(_v_but_last, doc="the recursion over g_1..g_n from v_0 = 0"),
        "g_{n+1}": Derived(_last_gradient, doc="the last sampled gradient"),
        "n": Derived(_steps_before, doc="N − 1"),
    },
)


def _gradient_mean(xp, mu, sigma, T, i):
    """E[g_i], the exact average of g_i = μ + σ_i r_i over the sign patterns (μ: the mean is stationary)."""
    return xp.mean(_gradient_patterns(xp, mu, sigma, T), axis=1)[:, i - 1]


def _stationary_mean(xp, mu):
    return mu  # E[g_n] = μ: the sampled gradients' mean is the same at every step


def _expected_last(xp, mu, sigma, beta, T):
    return _expected_ema(xp, mu, sigma, beta, T)


#: seeds 002 Question 2.3 and 003 Question 3.3 (EXPECTATION below): the expectation over the 2^T sign
#: patterns of g_i = μ + σ_i r_i; v_t (seed 003: v_n) the recursion over t = T gradients from v_0 = 0
EMA_EXPECTATION = optim_notation.extend(
    "checks/optim/ema.py (EMA_EXPECTATION)",
    {
        r"\mathbb{E}[v_t]": Derived(_expected_last, doc="E[v_T], the exact average over the sign patterns"),
        r"\mathbb{E}[v_n]": Derived(_expected_last, doc="E[v_T], the exact average over the sign patterns"),
        r"\mathbb{E}[g_i]": Derived(_gradient_mean, doc="E[g_i], exact over the sign patterns"),
        r"\mathbb{E}[g_n]": Derived(_stationary_mean, doc="μ, the stationary mean of every g_i"),
        r"\mu_g": Input("mu"),
        "t": Input("T"),
        "n": Input("T"),
    },
)


def _zero(xp, g):
    return g[:, 0, :] * 0


#: seeds 002 Question 2.2 and 003 Question 3.2 from v_0 = 0 (ZERO_START): v_t (seed 003: v_n) the recursion
#: over the T sampled gradients, g_i row i; n counts the steps here, not the claim's vector size
EMA_ZERO = optim_notation.extend(
    "checks/optim/ema.py (EMA_ZERO)",
    {
        "v_t": Derived(_v_all, doc="the recursion over g_1..g_T from v_0 = 0"),
        "v_n": Derived(_v_all, doc="the recursion over g_1..g_T from v_0 = 0"),
        "v_0": Derived(_zero, doc="the start, 0"),
        "t": Input("T"),
        "n": Input("T"),
    },
)
#: seed 002 Question 2.3's estimator writes E[g_i] with i free: the mean μ, the same at every i
EMA_FREE_I = EMA_EXPECTATION.extend(
    "checks/optim/ema.py (EMA_FREE_I)",
    {r"\mathbb{E}[g_i]": Derived(_stationary_mean, doc="μ, the stationary mean of every g_i (i free)")},
)
#: how the statement compiler reads v_t, v_{t-k} and g_{t-k} (the recursion, run on the claim's inputs)
claim_symbols = {
    "ema.unroll_002": EMA_UNROLL,
    "ema.closed_form_002": EMA_CLOSED,
    "ema.induction_step_003": INDUCTION_STEP,
    "ema.expectation_002": EMA_EXPECTATION,
    "ema.mu_estimator_002": EMA_FREE_I,
    "ema.closed_form_zero_init_002": EMA_ZERO,
    "ema.closed_form_003": EMA_ZERO,
    "ema.expectation_chain_003": EMA_EXPECTATION,
}

_SEQ_INPUTS = {
    "g": Array("T", "n"),
    "v0": Array("n"),
    "c": Array("n", scale=(1.0, 1.0)),
    "beta": Scalar(0.0, 1.0),
}
_SEQ_DIMS = {"T": [1, 2, 3, 5, 8], "n": [1, 3]}
#: a gradient sequence g_1..g_T, a probe c and β; the running average starts at a sampled v0, or at 0
ANY_START = {"inputs": _SEQ_INPUTS, "dims": _SEQ_DIMS}
ZERO_START = {"inputs": {k: v for k, v in _SEQ_INPUTS.items() if k != "v0"}, "dims": _SEQ_DIMS}
#: gradients g_i = μ + σ_i r_i (stationary mean μ, Rademacher r_i) and β, for exact expectations
EXPECTATION = {
    "inputs": {"mu": Scalar(-10.0, 10.0), "sigma": Array("T", positive=True), "beta": Scalar(0.01, 0.99)},
    "dims": {"T": [1, 2, 3, 4, 6]},
}


def _ema_weights(xp, beta, T):
    """(1 − β) β^{T−i}, i = 1..T, shape (batch, T)."""
    return xp.stack([(1 - beta) * beta ** (T - i) for i in range(1, T + 1)], axis=-1)


def _gradient_patterns(xp, mu, sigma, T):
    """All 2^T equally likely gradient sequences g_i = μ + σ_i r_i, shape (batch, 2^T, T)."""
    signs = rademacher_support(T)
    return mu[:, None, None] + sigma[:, None, :] * signs[None, :, :]


def _expected_ema(xp, mu, sigma, beta, T):
    """E[v_T] with v_0 = 0, exactly: the average over the sign patterns of the recursion itself."""
    g = _gradient_patterns(xp, mu, sigma, T)
    v = g[:, :, 0] * 0
    for t in range(T):
        v = beta[:, None] * v + (1 - beta[:, None]) * g[:, :, t]
    return xp.mean(v, axis=-1)


# ------------------------------------------------------------------ seed 002, Question 2.2


@identity(
    "ema.unroll_002",
    inputs={
        "v3": Array("n"),
        "g": Array(3, "n"),
        "c": Array("n", scale=(1.0, 1.0)),
        "beta": Scalar(0.0, 1.0),
    },
    dims={"n": [1, 3]},
    relations=("=", "=", "="),
    labels=("substitute v_{t-1}", "expand", "substitute v_{t-2}"),
    title="Unrolling the running average three steps",
    source=S2_Q2_2.quote(
        "= \\beta^3 v_{t-3} + \\beta^2(1 - \\beta) g_{t-2} + \\beta(1 - \\beta) g_{t-1} + (1 - \\beta) g_t"
    ),
    statement=r"v_t = \beta v_{t-1}+(1-\beta)g_t = \beta(\beta v_{t-2}+(1-\beta)g_{t-1})+(1-\beta)g_t = "
    r"\beta^2 v_{t-2}+\beta(1-\beta)g_{t-1}+(1-\beta)g_t = \beta^3 v_{t-3}+\beta^2(1-\beta)g_{t-2}+\beta(1-"
    r"\beta)g_{t-1}+(1-\beta)g_t",
    expected=Verdict.PROVED,
)
def ema_unroll_002(xp, v3, g, c, beta):
    b = beta[:, None]
    g2, g1, g0 = g[:, 0, :], g[:, 1, :], g[:, 2, :]  # g_{t-2}, g_{t-1}, g_t
    v2 = b * v3 + (1 - b) * g2
    v1 = b * v2 + (1 - b) * g1
    v0 = b * v1 + (1 - b) * g0
    return (
        probe(xp, c, v0),
        probe(xp, c, b * (b * v2 + (1 - b) * g1) + (1 - b) * g0),
        probe(xp, c, b**2 * v2 + b * (1 - b) * g1 + (1 - b) * g0),
        probe(xp, c, b**3 * v3 + b**2 * (1 - b) * g2 + b * (1 - b) * g1 + (1 - b) * g0),
    )


@identity(
    "ema.closed_form_002",
    uses=("ema.unroll_002",),
    **ANY_START,
    title="Closed form of the running average with a general start v_0",
    source=S2_Q2_2.quote("v_t = \\beta^t v_0 + \\sum_{i=1}^t (1 - \\beta) \\beta^{t-i} g_i"),
    statement=r"v_t = \beta^t v_0 + \sum_{i=1}^t (1-\beta)\beta^{t-i} g_i",
    expected=Verdict.HOLDS,
    notes="The document extrapolates from three unrolled steps ('continue this process'). Checked "
    "numerically for T ≤ 8 with an arbitrary start v_0; no SymPy derivation: simplify cannot split the "
    "last term off a sum of symbolic length, so the induction step stays numeric.",
)
def ema_closed_form_002(xp, g, v0, c, beta):
    return probe(xp, c, ema_recursive(xp, g, beta, v0)), probe(xp, c, ema_closed_form(xp, g, beta, v0))


# ------------------------------------------------------------------ seed 002, Question 2.3


@identity(
    "ema.expectation_002",
    uses=("ema.closed_form_zero_init_002",),
    **EXPECTATION,
    relations=("=", "="),
    labels=("linearity of E", "stationary mean E[g_i] = μ_g"),
    title="Expectation of the running average under a stationary gradient mean",
    source=S2_Q2_3.quote("\\mathbb{E}[v_t] = \\mu_{g} \\sum_{i=1}^t (1 - \\beta) \\beta^{t-i}"),
    statement=r"\mathbb{E}[v_t] = \sum_{i=1}^t (1-\beta)\beta^{t-i}\mathbb{E}[g_i] = \mu_g \sum_{i=1}^t "
    r"(1-\beta)\beta^{t-i}",
    expected=Verdict.PROVED,
    same_as=("ema.expectation_chain_003",),
)
def ema_expectation_002(xp, mu, sigma, beta, T):
    w = _ema_weights(xp, beta, T)
    mean_g = xp.mean(_gradient_patterns(xp, mu, sigma, T), axis=1)  # E[g_i], shape (batch, T)
    return (_expected_ema(xp, mu, sigma, beta, T), xp.sum(w * mean_g, axis=-1), mu * xp.sum(w, axis=-1))


@identity(
    "ema.mu_estimator_002",
    uses=("ema.expectation_002",),
    **EXPECTATION,
    title="The gradient mean recovered from E[v_t] divided by the weight sum",
    source=S2_Q2_3.quote(
        "\\mathbb{E}[g_i] = \\frac{\\mathbb{E}[v_t]}{\\sum_{i=1}^t (1 - \\beta) \\beta^{t-i}}"
    ),
    statement=r"\mu_g = \mathbb{E}[g_i] = \frac{\mathbb{E}[v_t]}{\sum_{i=1}^t (1-\beta)\beta^{t-i}}",
    expected=Verdict.PROVED,
    same_as=("ema.bias_correction_003",),
    notes="Correct for 0 ≤ β < 1 (the weight sum is 1 − β^t > 0). The document never evaluates the sum; "
    "seed 003 does (1 − β^n), which makes this the usual bias correction. The estimate needs E[v_t], not "
    "v_t: 'estimate E[g_i] using E[v_t]' is an identity between expectations.",
)
def ema_mu_estimator_002(xp, mu, sigma, beta, T):
    w = _ema_weights(xp, beta, T)
    return mu, _expected_ema(xp, mu, sigma, beta, T) / xp.sum(w, axis=-1)


# ------------------------------------------------------------------ seed 003, Question 3.2


@identity(
    "ema.first_terms_003",
    inputs={"g": Array(2, "n"), "c": Array("n", scale=(1.0, 1.0)), "beta": Scalar(0.0, 1.0)},
    dims={"n": [1, 3]},
    relations=("=", "="),
    labels=("v_1 = (1−β) g_1", "v_2 from the recursion"),
    title="First two terms of the running average from v_0 = 0",
    source=S3_Q3_2.quote("v_2 = \\beta v_1 + (1 - \\beta) g_2 = \\beta(1 - \\beta) g_1 + (1 - \\beta) g_2"),
    statement=r"v_1 = (1-\beta)g_1,\quad v_2 = \beta v_1+(1-\beta)g_2 = \beta(1-\beta)g_1+(1-\beta)g_2",
    expected=Verdict.PROVED,
)
def ema_first_terms_003(xp, g, c, beta):
    b = beta[:, None]
    g1, g2 = g[:, 0, :], g[:, 1, :]
    v1 = b * (g1 * 0) + (1 - b) * g1
    return (
        probe(xp, c, b * v1 + (1 - b) * g2),
        probe(xp, c, b * ((1 - b) * g1) + (1 - b) * g2),
        probe(xp, c, b * (1 - b) * g1 + (1 - b) * g2),
    )


@identity(
    "ema.induction_step_003",
    inputs={"g": Array("N", "n"), "c": Array("n", scale=(1.0, 1.0)), "beta": Scalar(0.0, 1.0)},
    dims={"N": [2, 3, 5, 8], "n": [1, 3]},
    relations=("=", "="),
    labels=("induction hypothesis at rank n", "absorb β and the new term"),
    title="Induction step for the closed form of the running average",
    source=S3_Q3_2.quote(
        "v_{n+1} = \\beta \\sum_{t=1}^n \\beta^{n-t} (1 - \\beta) g_t + (1 - \\beta) g_{n+1} ... = "
        "\\sum_{t=1}^{n+1} \\beta^{n+1-t} (1 - \\beta) g_t"
    ),
    statement=r"v_{n+1} = \beta v_n+(1-\beta)g_{n+1} = "
    r"\beta\sum_{t=1}^n\beta^{n-t}(1-\beta)g_t+(1-\beta)g_{n+1} = \sum_{t=1}^{n+1}\beta^{n+1-t}(1-\beta)g_t",
    expected=Verdict.HOLDS,
    notes="Numeric for n + 1 ≤ 8 (the SymPy form of this step needs splitting Σ_{t=1}^{n+1} into "
    "Σ_{t=1}^{n} plus its last term, which simplify does not do).",
)
def ema_induction_step_003(xp, g, c, beta):
    b = beta[:, None]
    zero = g[:, 0, :] * 0
    v_n = ema_recursive(xp, g[:, :-1, :], beta, zero)
    closed_n = ema_closed_form(xp, g[:, :-1, :], beta, zero)
    return (
        probe(xp, c, b * v_n + (1 - b) * g[:, -1, :]),
        probe(xp, c, b * closed_n + (1 - b) * g[:, -1, :]),
        probe(xp, c, ema_closed_form(xp, g, beta, zero)),
    )


# The closed form from v_0 = 0 is stated by seed 002 (Question 2.2) and by seed 003: one check for both.
@identity(
    "ema.closed_form_zero_init_002",
    uses=("ema.closed_form_002",),
    **ZERO_START,
    title="Closed form of the running average started at v_0 = 0",
    source=S2_Q2_2.quote(
        "Since v_0 is initialized as a vector of zeros ... v_t = \\sum_{i=1}^t (1 - \\beta) \\beta^{t-i} g_i"
    ),
    statement=r"v_0 = 0 \implies v_t = \sum_{i=1}^t (1-\beta)\beta^{t-i} g_i",
    expected=Verdict.HOLDS,
    same_as=("ema.closed_form_003",),
)
@identity(
    "ema.closed_form_003",
    uses=("ema.first_terms_003", "ema.induction_step_003"),
    **ZERO_START,
    title="Closed form of the running average, for every n ≥ 1",
    source=S3_Q3_2.quote("\\forall n \\in \\mathbb{N}^*, v_n = \\sum_{t=1}^n \\beta^{n-t} (1 - \\beta) g_t"),
    statement=r"\forall n\in\mathbb{N}^*,\ v_n = \sum_{t=1}^n \beta^{n-t}(1-\beta)g_t",
    expected=Verdict.HOLDS,
    same_as=("ema.closed_form_zero_init_002",),
)
def ema_closed_form_zero_start(xp, g, c, beta):
    zero = g[:, 0, :] * 0
    return probe(xp, c, ema_recursive(xp, g, beta, zero)), probe(xp, c, ema_closed_form(xp, g, beta, zero))


# ------------------------------------------------------------------ seed 003, Question 3.3


@identity(
    "ema.expectation_chain_003",
    uses=("ema.closed_form_003",),
    **EXPECTATION,
    relations=("=", "=", "=", "="),
    labels=("linearity, stationary mean", "factor β^n", "geometric sum", "simplify"),
    title="E[v_n] = (1 − β^n) E[g_n] through the geometric sum",
    source=S3_Q3_3.quote("\\mathbb{E}[v_n] = \\mathbb{E}[g_n] (1 - \\beta^n) \\neq \\mathbb{E}[g_n]"),
    statement=r"\mathbb{E}[v_n] = \mathbb{E}[g_n](1-\beta)\sum_{t=1}^n\beta^{n-t} = "
    r"\mathbb{E}[g_n](1-\beta)\beta^n\sum_{t=1}^n(1/\beta)^t = \mathbb{E}[g_n](1-\beta)\beta^n\frac{1}{"
    r"\beta}\frac{1-(1/\beta)^n}{1-1/\beta} = \mathbb{E}[g_n](1-\beta^n)",
    expected=Verdict.PROVED,
    same_as=("ema.expectation_002",),
    step_is={2: "ema.s003.factor_step_range", 4: "ema.s003.geometric_step_range"},
    expected_broken_step=2,
    notes="Valid for 0 < β < 1: the middle steps divide by β and by 1 − 1/β, although the document "
    "declares β ∈ [0, 1]. The checks here (β ∈ [0.01, 0.99]) and the SymPy derivation (β = 1/(1 + κ)) "
    "read the chain on 0 < β < 1; as written, step 2 (factor β^n) is ema.s003.factor_step_range and step "
    "4 (the geometric-sum line equals (1 − β^n)E[g]) is ema.s003.geometric_step_range, both REFUTED at "
    "the ends of [0, 1], so the proof breaks at step 2. Step 3 (the geometric sum, a division by "
    "1 − 1/β) is also 0/0 at β = 1 and has no sibling claim. The closing '≠ E[g_n]' needs β > 0 and "
    "E[g_n] ≠ 0 (at β = 0, v_n = g_n is unbiased); it is not checked as a separate claim.",
)
def ema_expectation_chain_003(xp, mu, sigma, beta, T):
    n, b = T, beta
    inv = 1 / b
    geometric = xp.sum(xp.stack([inv**t for t in range(1, n + 1)], axis=-1), axis=-1)
    return (
        _expected_ema(xp, mu, sigma, beta, T),
        mu * (1 - b) * xp.sum(xp.stack([b ** (n - t) for t in range(1, n + 1)], axis=-1), axis=-1),
        mu * (1 - b) * b**n * geometric,
        mu * (1 - b) * b**n * inv * (1 - inv**n) / (1 - inv),
        mu * (1 - b**n),
    )


@identity(
    "ema.bias_correction_003",
    uses=("ema.expectation_chain_003",),
    **EXPECTATION,
    title="The rescaled average v_n / (1 − β^n) is unbiased",
    source=S3_Q3_3.quote(
        "v'_n = \\frac{v_n}{1 - \\beta^n} and \\forall n \\geq 1, \\mathbb{E}[v'_n] = \\mathbb{E}[g_n]"
    ),
    statement=r"v'_n = \frac{v_n}{1-\beta^n},\quad \forall n\ge1,\ \mathbb{E}[v'_n] = \mathbb{E}[g_n]",
    expected=Verdict.PROVED,
    same_as=("ema.mu_estimator_002", "adam.first_moment_004"),
    notes="Needs β < 1 (the document's β ∈ [0, 1] includes β = 1, where 1 − β^n = 0).",
)
def ema_bias_correction_003(xp, mu, sigma, beta, T):
    return _expected_ema(xp, mu, sigma, beta, T) / (1 - beta**T), mu
