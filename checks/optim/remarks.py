"""Optimiser and normalisation statements of seeds 002-004 that had no claim: the ranges of β in the EMA and
momentum answers, what Adam's bias-corrected moments estimate, and remarks on weight normalisation.

An as-written claim and its corrected form check the same thing on different ranges: one function carries
both declarations."""

import math

import sympy as sp

from checks._vocab.linalg import dot, matvec
from checks._vocab.notation import spectral
from checks._vocab.sources import (
    S2_Q4_2,
    S2_Q4_3,
    S3_Q3_1,
    S3_Q3_3,
    S3_Q4_3,
    S4_Q3_3A,
    S4_Q4_2,
)
from checks.optim._helpers import ema_recursive, orth_projector, u_nonzero
from checks.optim._notation import symbols as optim_symbols
from lemmacheck import (
    Array,
    Derived,
    Input,
    Scalar,
    Verdict,
    identity,
    inequality,
    prop,
    tolerance_for,
    value,
)

#: β at the ends and inside the range [0, 1] that seed 003 declares (Question 3.1)
BETAS_CLOSED = [0.0, 0.5, 0.9, 1.0]
#: β in (0, 1]: the range where E[v_n] = (1 − β^n)E[g] really differs from E[g]
BETAS_POSITIVE = [0.5, 0.9, 0.99, 1.0]
#: β in [0, 1): the range where the rescaling by 1 − β^n is defined
BETAS_BELOW_ONE = [0.0, 0.5, 0.9, 0.99]
#: a stationary gradient mean E[g] = μ
MEAN_INPUTS = {"mu": Scalar(0.1, 2.0)}
#: the horizons n of the Question 3.3 claims on E[v_n]
HORIZONS = [1, 2, 5]

_Q33 = "\\mathbb{E}[v_n] = \\mathbb{E}[g_n] (1 - \\beta^n) \\neq \\mathbb{E}[g_n]"


def _mean_of_average(xp, mu, beta, n):
    """E[v_n] from the document's first line, E[g](1 − β)Σ_t β^{n−t}, summed term by term."""
    return sum(mu * (1 - beta) * beta ** (n - t) for t in range(1, n + 1))


@prop(
    "ema.s003.biased_as_written",
    uses=("ema.expectation_chain_003",),
    title="E[v_n] = E[g_n](1 − β^n) ≠ E[g_n] for every β in [0, 1] (the range of Question 3.1)",
    source=S3_Q3_3.quote(_Q33),
    statement=r"\forall \beta\in[0,1],\ n\ge1:\ "
    r"\mathbb{E}[v_n] = (1-\beta^n)\mathbb{E}[g_n] \ne \mathbb{E}[g_n]",
    expected=Verdict.REFUTED,
    inputs=MEAN_INPUTS,
    dims={"beta": BETAS_CLOSED, "n": HORIZONS},
    notes="Seed 003 declares β ∈ [0, 1] (Question 3.1). At β = 0, v_n = g_n and E[v_n] = E[g_n]: "
    "the closing "
    "'≠' fails (it also fails when E[g_n] = 0). Previously recorded only in the notes of "
    "ema.expectation_chain_003. Corrected: ema.s003.biased_positive_beta.",
)
@prop(
    "ema.s003.biased_positive_beta",
    title="Corrected: for β in (0, 1] and E[g] ≠ 0, E[v_n] ≠ E[g_n]",
    source=S3_Q3_3.at("(corrected: β > 0, E[g] ≠ 0)").quote(_Q33),
    statement=r"\beta\in(0,1],\ \mathbb{E}[g]\ne0 \implies \mathbb{E}[v_n] \ne \mathbb{E}[g_n]",
    expected=Verdict.HOLDS,
    corrects="ema.s003.biased_as_written",
    inputs=MEAN_INPUTS,
    dims={"beta": BETAS_POSITIVE, "n": HORIZONS},
)
def biased_003(xp, mu, beta, n):
    return _mean_of_average(xp, mu, beta, n) != mu


def _rescaled_mean(xp, mu, beta, n):
    """E[v_n/(1 − β^n)], undefined (NaN) where 1 − β^n = 0."""
    den = 1 - beta**n
    defined = den != 0
    return xp.where(
        defined, _mean_of_average(xp, mu, beta, n) / xp.where(defined, den, 1.0), xp.asarray(math.nan)
    )


#: seed 003 Question 3.3 under a stationary gradient mean μ = E[g] = E[g_n] (MEAN_INPUTS; β and n are dims):
#: E[v_n] the document's first line E[g](1 − β)Σ_t β^{n−t}, summed term by term
EMA_MEANS = optim_symbols.extend(
    "checks/optim/remarks.py (EMA_MEANS)",
    {
        r"\mathbb{E}[g]": Input("mu"),
        r"\mathbb{E}[g_n]": Input("mu"),
        r"\mathbb{E}[v_n]": Derived(_mean_of_average, doc="E[g](1 − β)Σ_t β^{n−t}"),
        r"\mathbb{E}[\frac{v_n}{1-\beta^n}]": Derived(
            _rescaled_mean, doc="E[v_n]/(1 − β^n), NaN where 1 − β^n = 0"
        ),
    },
)


_RESCALE = "v'_n = \\frac{v_n}{1 - \\beta^n} and \\forall n \\geq 1, \\mathbb{E}[v'_n] = \\mathbb{E}[g_n]"


@prop(
    "ema.s003.rescale_as_written",
    uses=("ema.expectation_chain_003",),
    title="v'_n = v_n/(1 − β^n) is defined and unbiased for every β in [0, 1] (the range of Question 3.1)",
    source=S3_Q3_3.quote(_RESCALE),
    statement=r"\forall\beta\in[0,1],\ n\ge1:\ \mathbb{E}\Big[\frac{v_n}{1-\beta^n}\Big] = \mathbb{E}[g_n]",
    expected=Verdict.REFUTED,
    inputs=MEAN_INPUTS,
    dims={"beta": BETAS_CLOSED, "n": HORIZONS},
    notes="At β = 1 (allowed by Question 3.1) 1 − β^n = 0: v'_n is undefined (and v_n = v_0 = 0 carries no "
    "information). Checked as: the divisor is non-zero and E[v_n] = (1 − β^n)E[g]. Previously "
    "recorded only "
    "in the notes of ema.bias_correction_003. Corrected: ema.s003.rescale_below_one.",
)
@prop(
    "ema.s003.rescale_below_one",
    title="Corrected: for β in [0, 1) the rescaled average v_n/(1 − β^n) is defined and unbiased",
    source=S3_Q3_3.at("(corrected: β < 1)").quote(_RESCALE),
    statement=r"\beta\in[0,1) \implies \mathbb{E}\Big[\frac{v_n}{1-\beta^n}\Big] = \mathbb{E}[g_n]",
    expected=Verdict.HOLDS,
    corrects="ema.s003.rescale_as_written",
    same_as=("ema.bias_correction_003",),
    inputs=MEAN_INPUTS,
    dims={"beta": BETAS_BELOW_ONE, "n": HORIZONS},
)
def rescale_003(xp, mu, beta, n):
    # 1 − β^n ≠ 0 (the rescaling is defined) and E[v_n] = (1 − β^n)E[g], compared without dividing; the
    # sides are equal in exact arithmetic, so the policy's float64 tolerance (relative to both sides) covers
    # the rounding of the n-term sum
    den = 1 - beta**n
    mean, stated = _mean_of_average(xp, mu, beta, n), mu * den
    tol = tolerance_for()
    return (den != 0) & (xp.abs(mean - stated) <= tol.rtol * (xp.abs(mean) + xp.abs(stated)) + tol.atol)


_IDENT = "if \\alpha = \\beta and \\epsilon = \\delta(1 - \\beta), then the two schemes are equivalent"
#: the running average's step size δ > 0
DELTA_INPUTS = {"delta": Scalar(1e-3, 10.0, log=True)}


@prop(
    "momentum.s003.identification_range",
    uses=("momentum.eq17_003", "momentum.eq18_003"),
    title="For every running-average scheme (δ > 0, β ∈ [0, 1]) the identified (α, ε) is a momentum scheme",
    source=S3_Q3_1.quote(_IDENT),
    statement=r"\delta>0,\ \beta\in[0,1] \implies (\alpha,\epsilon) = (\beta, \delta(1-\beta))"
    r" \in [0,1]\times(0,\infty)",
    expected=Verdict.REFUTED,
    inputs=DELTA_INPUTS,
    dims={"beta": BETAS_CLOSED},
    notes="Question 3.1 declares SGD momentum with ε > 0, α ∈ [0, 1] and the running average with δ > 0, "
    "β ∈ [0, 1]. At β = 1 the identification gives ε = 0, outside the momentum scheme's range (both "
    "schemes "
    "then never move). A boundary slip, previously recorded only in the notes of momentum.equivalence_003. "
    "Corrected: momentum.s003.identification_range_fixed.",
)
@prop(
    "momentum.s003.identification_range_fixed",
    title="Corrected: for β in [0, 1) the identified (α, ε) = (β, δ(1 − β)) is a momentum scheme",
    source=S3_Q3_1.at("(corrected: β < 1)").quote(_IDENT),
    statement=r"\delta>0,\ \beta\in[0,1) \implies (\beta, \delta(1-\beta)) \in [0,1]\times(0,\infty)",
    expected=Verdict.HOLDS,
    corrects="momentum.s003.identification_range",
    inputs=DELTA_INPUTS,
    dims={"beta": BETAS_BELOW_ONE},
)
def identification_range_003(xp, delta, beta):
    # (α, ε) = (β, δ(1 − β)) lies in the momentum scheme's range α ∈ [0, 1], ε > 0
    alpha, eps = beta + 0 * delta, delta * (1 - beta)
    return (alpha >= 0) & (alpha <= 1) & (eps > 0)


_ADAM = (
    "But what are \\hat{m}_t, \\hat{v}? They are unbiased estimates of the moving average of gradients and "
)
_ADAM += "gradient squares."
ADAM_INPUTS = {"mu": Scalar(0.1, 2.0), "beta": Scalar(0.5, 0.999)}


def _adam_means(xp, mu, beta, t):
    """(E[m̂_t], E[m_t]) for a stationary gradient mean mu, m_0 = 0 (the moving average of the means)."""
    means = mu[:, None, None] * (0 * xp.zeros((1, t, 1)) + 1)
    m_t = ema_recursive(xp, means, beta, 0 * mu[:, None])[:, 0]
    return m_t / (1 - beta**t), m_t


@identity(
    "adam.hat_estimates_average_004",
    title="m̂_t is an unbiased estimate of the moving average m_t: E[m̂_t] = E[m_t] (as written)",
    source=S4_Q3_3A.quote(_ADAM),
    statement=r"\mathbb{E}[\hat{m}_t] = \mathbb{E}[m_t],\quad \hat{m}_t = \frac{m_t}{1-\beta_1^t}",
    expected=Verdict.REFUTED,
    inputs=ADAM_INPUTS,
    dims={"t": [1, 2, 5, 10]},
    notes="Under a stationary gradient mean μ and m_0 = 0, E[m_t] = (1 − β^t)μ and E[m̂_t] = μ: m̂_t is an "
    "unbiased estimate of E[g] (what the moving average is meant to track), while the moving average m_t "
    "itself is the biased one. The same holds for v̂_t with β₂ and E[g²]. Previously recorded only in the "
    "notes of adam.first_moment_004. Corrected: adam.hat_estimates_mean_004.",
)
def hat_estimates_average_004(xp, mu, beta, t):
    return _adam_means(xp, mu, beta, t)


@identity(
    "adam.hat_estimates_mean_004",
    title="Corrected: m̂_t is an unbiased estimate of the gradient mean, E[m̂_t] = E[g]",
    source=S4_Q3_3A.at("(corrected: estimates of E[g] and E[g²])").quote(_ADAM),
    statement=r"\mathbb{E}[\hat{m}_t] = \mathbb{E}[g]",
    expected=Verdict.HOLDS,
    corrects="adam.hat_estimates_average_004",
    same_as=("ema.bias_correction_003",),
    inputs=ADAM_INPUTS,
    dims={"t": [1, 2, 5, 10]},
)
def hat_estimates_mean_004(xp, mu, beta, t):
    return _adam_means(xp, mu, beta, t)[0], mu


#: a weight-normalisation update of u: direction u ≠ 0, loss gradient, learning rate α, gain γ
WN_UPDATE = {
    "inputs": {
        "u": Array("n"),
        "grad": Array("n"),
        "alpha": Scalar(1e-3, 1.0, log=True),
        "gamma": Scalar(0.1, 3.0),
    },
    "dims": {"n": [1, 2, 3, 5]},
    "where": u_nonzero,
}


def _wn_step(xp, u, grad, alpha, gamma):
    """u_{t+1} = u_t − α s W^⊥ ∇_w L with s = γ/‖u_t‖."""
    s = gamma / xp.sqrt(dot(xp, u, u))
    proj = xp.matmul(orth_projector(xp, u), grad[..., None])[..., 0]
    return u - (alpha * s)[:, None] * proj


#: seed 003 Question 4.3's weight-normalised step: u_t sampled, u_{t+1} = u_t − αsW^⊥∇_wL, ‖·‖ Euclidean
_WN = optim_symbols.extend(
    "checks/optim/remarks.py (_WN)",
    {"u_t": Input("u"), "u_{t+1}": Derived(_wn_step, doc="the weight-normalised update of u_t")},
    norm=spectral,
)
#: seed 002 Question 4.3's step: W* the projector I − uuᵀ/‖u‖², s = γ/‖u‖, ∇_wL_t the sampled gradient
_WN_STEP_002 = _WN.extend(
    "checks/optim/remarks.py (_WN_STEP_002)",
    {
        "W^*": Derived(lambda xp, u: orth_projector(xp, u), doc="I − uuᵀ/‖u‖²"),
        "s": Derived(lambda xp, u, gamma: gamma / xp.sqrt(dot(xp, u, u)), doc="γ/‖u‖"),
        r"\nabla_wL_t": Input("grad"),
    },
)
#: seed 004 Question 3.3(a) under a stationary gradient mean μ (ADAM_INPUTS): E[m̂_t] the moving average
#: of the means from m_0 = 0, corrected; E[g] = μ
_ADAM_MEANS = optim_symbols.extend(
    "checks/optim/remarks.py (_ADAM_MEANS)",
    {
        r"\mathbb{E}[\hat{m}_t]": Derived(_adam_means, 0, doc="E[m_t]/(1 − β^t), m_0 = 0"),
        r"\mathbb{E}[g]": Input("mu"),
        r"\mathbb{E}[m_t]": Derived(_adam_means, 1, doc="E[m_t], the moving average of the means, m_0 = 0"),
        r"\beta_1": Input("beta"),
    },
)


def _probe_c_matrix_d(xp, side, inputs):
    """cᵀMd: a matrix side M compared through the probes c, d, as _a_squared_sides compares the two sides."""
    return dot(xp, inputs["c"], matvec(side, inputs["d"]))


#: seed 004 Question 4.2's step label A² = AᵀA: A² is the matrix product A·A (the label applies it to the
#: scalar uᵀx, a 1×1 matrix, where the two readings meet); sides compared as cᵀ·d like the checks
_A_SQUARED = optim_symbols.extend(
    "checks/optim/remarks.py (_A_SQUARED)",
    {"A^2": Derived(lambda xp, A: xp.matmul(A, A), doc="A·A")},
    probe_fn=_probe_c_matrix_d,
)
#: the corrected form samples B and builds the symmetric A = B + Bᵀ (bn.a_squared_rule_symmetric's notes)
_A_SYMMETRIC = optim_symbols.extend(
    "checks/optim/remarks.py (_A_SYMMETRIC)",
    {
        "A": Derived(lambda xp, B: B + xp.transpose(B), doc="B + Bᵀ"),
        "A^2": Derived(lambda xp, B: xp.matmul(B + xp.transpose(B), B + xp.transpose(B)), doc="A·A"),
    },
    probe_fn=_probe_c_matrix_d,
)
claim_symbols = {
    "bn.a_squared_rule_004": _A_SQUARED,
    "bn.a_squared_rule_symmetric": _A_SYMMETRIC,
    **dict.fromkeys(
        (
            "ema.s003.biased_as_written",
            "ema.s003.biased_positive_beta",
            "ema.s003.rescale_as_written",
            "ema.s003.rescale_below_one",
        ),
        EMA_MEANS,
    ),
    "wn.s003.norm_increases": _WN,
    "wn.s003.norm_nondecreasing": _WN,
    "adam.hat_estimates_mean_004": _ADAM_MEANS,
    "wn.s002.orthogonal_step": _WN_STEP_002,
    "adam.hat_estimates_average_004": _ADAM_MEANS,
}
#: differences the statement check finds and that are kept, with why
statement_differs = dict.fromkeys(
    ("wn.s003.norm_increases", "wn.s003.norm_nondecreasing"),
    "the check compares the squared norms ‖u_{t+1}‖² and ‖u_t‖² (the identity wn.pythagoras_003 is about "
    "squares): the same truth value on every instance, but not the same margins or ratio, so its tightness "
    "is that of the squares",
)


_INCREASES = "Then, we showed that the norm of u increases at each update."


@inequality(
    "wn.s003.norm_increases",
    uses=("wn.pythagoras_003",),
    title="'The norm of u increases at each update': ‖u_{t+1}‖ > ‖u_t‖",
    source=S3_Q4_3.quote(_INCREASES),
    statement=r"\|u_{t+1}\| > \|u_t\|",
    expected=Verdict.REFUTED,
    relations=(">",),
    **WN_UPDATE,
    notes="What the derivation shows is ‖u_{t+1}‖² = ‖u_t‖² + ‖αsW^⊥∇_wL‖² ≥ ‖u_t‖² (wn.pythagoras_003): "
    "equality whenever W^⊥∇_wL = 0, i.e. ∇_wL ∥ u_t — always in dimension 1, and at any stationary point. "
    "Compared on squared norms. Corrected: wn.s003.norm_nondecreasing.",
)
@inequality(
    "wn.s003.norm_nondecreasing",
    title="Corrected: the norm of u never decreases, ‖u_{t+1}‖ ≥ ‖u_t‖",
    source=S3_Q4_3.at("(corrected: non-decreasing)").quote(_INCREASES),
    statement=r"\|u_{t+1}\| \ge \|u_t\|",
    expected=Verdict.HOLDS,
    relations=(">=",),
    corrects="wn.s003.norm_increases",
    same_as=("wn.pythagoras_003", "wn.norm_growth_002"),
    **WN_UPDATE,
)
def norm_growth_003(xp, u, grad, alpha, gamma):
    new = _wn_step(xp, u, grad, alpha, gamma)
    return dot(xp, new, new), dot(xp, u, u)


_ORTH = "so u_t and -\\alpha s W^* \\cdot \\nabla_w L_t are orthogonal vectors"


@identity(
    "wn.s002.orthogonal_step",
    uses=("wn.projector_002",),
    title="u_t and the step −αsW*∇_wL_t are orthogonal vectors",
    source=S2_Q4_3.quote(_ORTH),
    statement=r"u_t^\top\big(-\alpha s W^*\nabla_w L_t\big) = 0",
    expected=Verdict.HOLDS,
    **WN_UPDATE,
    same_as=("wn.orthogonal_update_003",),
)
def orthogonal_step_002(xp, u, grad, alpha, gamma):
    step = _wn_step(xp, u, grad, alpha, gamma) - u
    return dot(xp, u, step), 0 * alpha


_PROJ = (
    "Thus \\frac{u u^T}{\\|u\\|^2} (that is vv^T) represents the projection matrix onto the direction of u"
)


@identity(
    "wn.s002.projection_onto_u",
    title="uuᵀ/‖u‖² is the orthogonal projection onto the direction of u: P(Pa + u) = Pa + u, P = Pᵀ",
    source=S2_Q4_2.quote(_PROJ),
    statement=r"P = \frac{uu^\top}{\|u\|^2}:\ P^2 = P,\ Pu = u,\ P^\top = P",
    expected=Verdict.HOLDS,
    relations=("=", "="),
    labels=("P(Pa + u) = Pa + u (idempotent, fixes u)", "cᵀ(Pa + u) = aᵀPc + cᵀu (symmetric)"),
    inputs={"u": Array("n"), "a": Array("n"), "c": Array("n")},
    dims={"n": [1, 2, 3, 5]},
    where=u_nonzero,
    same_as=("wn.projector_002",),
    steps_claimed=True,
    proof_not_asserted="the document says in words that uuᵀ/‖u‖² is the projection onto u; the chain "
    "(idempotent, fixes u, symmetric) is the catalogue's formalisation",
    notes="Probed with vectors a, c.",
)
def projection_onto_u_002(xp, u, a, c):
    P = xp.eye(u.shape[-1]) - orth_projector(xp, u)

    def apply(M, v):
        return xp.matmul(M, v[..., None])[..., 0]

    v = apply(P, a) + u
    sym = dot(xp, a, apply(P, c)) + dot(xp, c, u)
    return dot(xp, c, apply(P, v)), dot(xp, c, v), sym


_A2 = "\\stackrel{A^2 = A^\\top A}{\\longrightarrow} = \\mathbb{E}((u^\\top x)^\\top u^\\top x)"


def _a_squared_sides(xp, A, c, d):
    """(cᵀA²d, cᵀAᵀAd): the rule A² = AᵀA probed with the vectors c, d."""
    Ad = xp.matmul(A, d[..., None])
    return dot(xp, c, xp.matmul(A, Ad)[..., 0]), dot(xp, c, xp.matmul(xp.transpose(A), Ad)[..., 0])


@identity(
    "bn.a_squared_rule_004",
    title="The rule A² = AᵀA the step is labelled with, for a square matrix A",
    source=S4_Q4_2.quote(_A2),
    statement=r"A^2 = A^\top A",
    expected=Verdict.REFUTED,
    inputs={"A": Array("n", "n"), "c": Array("n"), "d": Array("n")},
    dims={"n": [1, 2, 3]},
    notes="Probed as cᵀA²d = cᵀAᵀAd. The label states a rule that holds for 1 × 1 matrices (the scalar "
    "uᵀx the step applies it to, so bn.var_004 is unaffected) and for symmetric A, not for a general A "
    "(n ≥ 2). "
    "Previously recorded only in the notes of bn.var_004. Corrected: bn.a_squared_rule_symmetric.",
)
def a_squared_rule_004(xp, A, c, d):
    return _a_squared_sides(xp, A, c, d)


@identity(
    "bn.a_squared_rule_symmetric",
    title="Corrected: A² = AᵀA for symmetric A (in particular for the scalar uᵀx)",
    source=S4_Q4_2.at("(corrected: A symmetric or scalar)").quote(_A2),
    statement=r"A = A^\top \implies A^2 = A^\top A",
    expected=Verdict.HOLDS,
    corrects="bn.a_squared_rule_004",
    inputs={"B": Array("n", "n"), "c": Array("n"), "d": Array("n")},
    dims={"n": [1, 2, 3]},
    notes="A = B + Bᵀ is symmetric by construction.",
)
def a_squared_rule_symmetric(xp, B, c, d):
    return _a_squared_sides(xp, B + xp.transpose(B), c, d)


_GEOM = (
    "\\mathbb{E}[v_n] = \\mathbb{E}[g_n] (1 - \\beta) \\beta^n \\frac{1}{\\beta} \\frac{1 - (1/\\beta)^n}"
    "{1 - (1/\\beta)}"
)


def _geometric_step(betas, n=3):
    """The third line of the chain at each β, exactly (E[g] = 1), and the value 1 − β^n it should equal.

    The line is (1 − β)β^n (1/β)(1 − (1/β)^n)/(1 − 1/β); ``betas`` are rational strings."""
    b = sp.Symbol("beta")
    line = (1 - b) * b**n * (1 / b) * (1 - (1 / b) ** n) / (1 - 1 / b)
    return {
        "computed": lambda: [line.subs(b, sp.Rational(v)) for v in betas],
        "stated": [1 - sp.Rational(v) ** n for v in betas],
    }


value(
    "ema.s003.geometric_step_range",
    **_geometric_step(["0", "1/2", "9/10", "1"]),
    title="Q3.3's geometric-sum line equals (1 − β^n)E[g] for every β in [0, 1] (n = 3, E[g] = 1)",
    source=S3_Q3_3.at("(third line of the chain)").quote(_GEOM),
    statement=r"\forall\beta\in[0,1]:\ (1-\beta)\beta^n\frac1\beta\frac{1-(1/\beta)^n}{1-1/\beta} = "
    r"1-\beta^n",
    expected=Verdict.REFUTED,
    notes="The line divides by β and by 1 − 1/β, so it is undefined (0/0, computed as nan) at both "
    "ends of the "
    "range β ∈ [0, 1] that Question 3.1 declares, where the final value 1 − β^n is 1 and 0. Previously "
    "recorded only in the notes of ema.expectation_chain_003. Corrected: ema.s003.geometric_step_inside.",
)

_FACTOR = (
    "\\mathbb{E}[v_n] = \\mathbb{E}[g_n] (1 - \\beta) \\beta^n \\sum_{t=1}^n "
    "\\left(\\frac{1}{\\beta}\\right)^t"
)


def _factor_step(betas, n=3):
    """The chain's first and second lines at each β, exactly (E[g] = 1): (1 − β)Σβ^{n−t}, and the line
    that factors β^n out, (1 − β)β^n Σ(1/β)^t; ``betas`` are rational strings."""
    b = sp.Symbol("beta")
    t = sp.Symbol("t", integer=True, positive=True)
    # the sums are expanded before β is substituted: substituting first lets SymPy cancel 0 against the
    # unevaluated sum Σ(1/0)^t and report 0 where the line is 0 · ∞
    first = ((1 - b) * sp.Sum(b ** (n - t), (t, 1, n))).doit()
    second = ((1 - b) * b**n * sp.Sum((1 / b) ** t, (t, 1, n))).doit()
    return {
        "computed": lambda: [second.subs(b, sp.Rational(v)) for v in betas],
        "stated": [first.subs(b, sp.Rational(v)) for v in betas],
    }


value(
    "ema.s003.factor_step_range",
    **_factor_step(["0", "1/2", "9/10", "1"]),
    title="Q3.3's second line (β^n factored out) equals the first for every β in [0, 1] (n = 3, E[g] = 1)",
    source=S3_Q3_3.at("(second line of the chain)").quote(_FACTOR),
    statement=r"\forall\beta\in[0,1]:\ (1-\beta)\sum_{t=1}^n\beta^{n-t} = "
    r"(1-\beta)\beta^n\sum_{t=1}^n(1/\beta)^t",
    expected=Verdict.REFUTED,
    notes="Factoring β^n out writes β^{n−t} as β^n (1/β)^t, a division by β: at β = 0, which Question 3.1 "
    "declares (β ∈ [0, 1]), the first line is 1 and the second 0 · ∞ (computed as nan). Step 2 of "
    "ema.expectation_chain_003 as written; the chain's own checks take 0 < β < 1, where the step holds "
    "(the SymPy derivation sets β = 1/(1 + κ), κ > 0).",
)

value(
    "ema.s003.geometric_step_inside",
    **_geometric_step(["1/10", "1/2", "9/10", "99/100"]),
    title="Corrected: for 0 < β < 1 the geometric-sum line equals 1 − β^n (n = 3)",
    source=S3_Q3_3.at("(third line, corrected: 0 < β < 1)").quote(_GEOM),
    statement=r"0<\beta<1:\ (1-\beta)\beta^n\frac1\beta\frac{1-(1/\beta)^n}{1-1/\beta} = 1-\beta^n",
    expected=Verdict.PROVED,
    corrects="ema.s003.geometric_step_range",
    same_as=("ema.expectation_chain_003",),
)
