"""Weight normalisation of seed 004, Questions 4.2–4.3."""

from checks._vocab.linalg import dot, matvec
from checks._vocab.sources import S4_Q4_2, S4_Q4_3
from checks.optim._helpers import (
    orth_projector,
    probe,
    u_nonzero,
    weight_from_direction,
)
from checks.optim.normalisation import (
    _DIMS,
    _VEC_DIMS,
    BN_MOMENTS,
    BN_POINT,
    WN_MATRICES,
    _expect,
    _grad_u,
    _projections,
    _support,
    _support_point,
    _whitening,
)
from checks.optim.normalisation_003 import _BN3, BN_WHITENED, bn_mean_003
from lemmacheck import Array, Derived, Input, Scalar, Verdict, identity

# ====================================================================== seed 004, Questions 4.2–4.3


def _grad_u_004(xp, u, x, gamma, dl):
    """∇_uL = (∂w/∂u)ᵀ∇_wL with ∇_wL = (∂L/∂ŷ) x, entry by entry by the quotient rule."""
    return _grad_u(xp, u, dl[:, None] * x, gamma)


#: seed 004 Question 4.3 (one-sample loss L(ŷ), ŷ = γuᵀx/‖u‖ + β): ∂L/∂ŷ the sampled dl, ∇_wL = (∂L/∂ŷ)x,
#: ∇_uL through w = γu/‖u‖; the gain is γ there
WN_GRAD_004 = WN_MATRICES.extend(
    "checks/optim/normalisation_004.py (WN_GRAD_004)",
    {
        r"\frac{\partial L}{\partial\hat y}": Input("dl"),
        r"\nabla_wL": Derived(lambda xp, x, dl: dl[:, None] * x, doc="(∂L/∂ŷ) x"),
        r"\nabla_uL": Derived(_grad_u_004, doc="(∂w/∂u)ᵀ∇_wL by the quotient rule, coordinate by coordinate"),
        r"\gamma": Input("gamma"),
    },
)
claim_symbols = {
    "wn.grad_004": WN_GRAD_004,
    "wn.perp_u_zero_004": WN_MATRICES,
    "bn.mean_004": BN_MOMENTS,
    "bn.var_004": BN_MOMENTS,
    "bn.wn_equivalence_004": BN_POINT,
}


@identity(
    "bn.mean_004",
    **BN_WHITENED,
    relations=("=", "="),
    labels=("u is not random: out of E", "E[x] = 0"),
    title="μ_y = E[uᵀx] = uᵀE[x] = 0 for centred inputs",
    source=S4_Q4_2.quote("\\mu_{u} = \\mathbb{E}[y] = \\mathbb{E}[u^{\\top}x] = u^{\\top}\\mathbb{E}[x] = 0"),
    statement=r"\mu_y = \mathbb{E}[y] = \mathbb{E}[u^\top x] = u^\top\mathbb{E}[x] = 0",
    expected=Verdict.HOLDS,
    same_as=("bn.mean_003", "bn.preact_mean_002"),
    notes="The document writes μ_u for μ_y here (and σ_u for σ_y below): read as μ_y. x = Q r is whitened "
    "(Var(x) = I) and centred.",
)
def bn_mean_004(xp, u, Q, n):
    return bn_mean_003(xp, u, Q, n)


@identity(
    "bn.var_004",
    uses=("bn.a_squared_rule_004",),
    **BN_WHITENED,
    relations=("=", "=", "=", "=", "="),
    labels=(
        "μ_y = 0",
        "(uᵀx)² = (uᵀx)ᵀuᵀx",
        "scalar = its transpose",
        "pull u out of E",
        "E[xxᵀ] = Var(x) = I",
    ),
    title="σ_y² = E[(uᵀx)²] = uᵀE[xxᵀ]u = ‖u‖² for whitened inputs",
    source=S4_Q4_2.quote(
        "\\sigma_u^2 = \\mathbb{E}[u^{\\top} x x^{\\top} u] = u^{\\top} \\mathbb{E}[x x^{\\top}] u = "
        "u^{\\top} I u = \\|u\\|_2^2"
    ),
    statement=r"\sigma_y^2 = \mathbb{E}[(y-\mu_y)^2] = \mathbb{E}[y^2] = \mathbb{E}[(u^\top x)^\top u^\top "
    r"x] = \mathbb{E}[u^\top xx^\top u] = u^\top\mathbb{E}[xx^\top]u = u^\top Iu = \|u\|_2^2",
    expected=Verdict.HOLDS,
    same_as=("bn.var_uncorrelated_003", "bn.preact_var_002"),
    notes="The step labelled 'A² = AᵀA' is meant for the scalar A = uᵀx. Var(x) = I is used as E[xxᵀ] = I, "
    "valid because E[x] = 0 (the document says so).",
)
def bn_var_004(xp, u, Q, n):
    Q = _whitening(xp, Q)
    X = _support(xp, Q, n)
    y = _projections(xp, u, X)
    outer = X[:, :, :, None] * X[:, :, None, :]
    uxxu = xp.sum(xp.sum(u[:, None, :, None] * outer * u[:, None, None, :], axis=-1), axis=-1)
    exx = _expect(xp, outer + 0 * u[:, None, :, None])
    return (
        _expect(xp, (y - _expect(xp, y)[:, None]) ** 2),
        _expect(xp, y**2),
        _expect(xp, y * y),
        _expect(xp, uxxu),
        dot(xp, u, matvec(exx, u)),
        dot(xp, u, u),
    )


@identity(
    "bn.wn_equivalence_004",
    uses=("bn.mean_004", "bn.var_004"),
    inputs={**_BN3, "s_raw": Array("n"), "gamma": Scalar(-10.0, 10.0), "beta": Scalar(-10.0, 10.0)},
    dims=_DIMS,
    relations=("=", "=", "="),
    where=u_nonzero,
    labels=("μ_y = 0, σ_y = ‖u‖", "y = uᵀx", "w = γu/‖u‖"),
    title="ŷ = γ(y − μ_y)/σ_y + β = wᵀx + β for whitened, centred inputs",
    source=S4_Q4_2.quote(
        "\\hat{y} = \\gamma \\cdot \\frac{u^{\\top}}{\\|u\\|_{2}} x + \\beta = w^{\\top} x + \\beta"
    ),
    statement=r"\hat y = \gamma\frac{y-\mu_y}{\sigma_y}+\beta = \gamma\frac{y-0}{\|u\|_2}+\beta = "
    r"\gamma\frac{u^\top}{\|u\|_2}x+\beta = w^\top x+\beta",
    expected=Verdict.HOLDS,
    same_as=("bn.identify_003", "bn.wn_equivalence_002"),
    notes="At a point x = Q s of the support; μ_y and σ_y computed exactly.",
)
def bn_wn_equivalence_004(xp, u, Q, s_raw, gamma, beta, n):
    x, y, mu, sigma = _support_point(xp, u, Q, s_raw, n)
    nu = xp.sqrt(dot(xp, u, u))
    return (
        gamma * (y - mu) / sigma + beta,
        gamma * (y - 0) / nu + beta,
        gamma * dot(xp, u / nu[:, None], x) + beta,
        dot(xp, weight_from_direction(xp, u, gamma), x) + beta,
    )


# n = 1 is degenerate for the quotient rule (W^⊥ = 0: both sides vanish), and its float cancellations
# crowd the engine's few kept candidates; the step is checked from n = 2 on.
_QR_DIMS = {"n": [2, 3, 5, 8]}
_QR = {"u": Array("n"), "x": Array("n"), "c": Array("n", scale=(1.0, 1.0)), "gamma": Scalar(-10.0, 10.0)}
_QR_SOURCE = S4_Q4_3.quote(
    "= \\gamma \\left( \\frac{\\partial u}{\\partial u} \\|u\\| - u \\frac{\\partial "
    "\\|u\\|}{\\partial u} \\right) x = \\gamma \\left( \\frac{I \\|u\\| - u \\frac{\\partial "
    "\\|u\\|}{\\partial u}}{\\|u\\|^{2}} \\right) x"
)


def _quotient_chain(xp, u, x, c, gamma, with_denominator):
    """cᵀ∂ŷ/∂u for ŷ = γuᵀx/‖u‖ + β, in the forms of seed 004 Q4.3."""
    nu = xp.sqrt(dot(xp, u, u))
    cx, cu, ux = dot(xp, c, x), dot(xp, c, u), dot(xp, u, x)
    # the derivative itself: quotient rule on uᵀx/‖u‖ along c
    e0 = gamma * (cx / nu - ux * cu / nu**3)
    # (∂u/∂u ‖u‖ − u ∂‖u‖/∂u) x with ∂‖u‖/∂u = uᵀ/‖u‖, with or without the 1/‖u‖² of the quotient rule
    numerator = cx * nu - cu * ux / nu
    e1 = gamma * (numerator / nu**2 if with_denominator else numerator)
    e2 = gamma * numerator / nu**2
    e3 = gamma * (cx * nu**2 - cu * ux) / nu**3
    e4 = probe(xp, c, matvec(orth_projector(xp, u), (gamma / nu)[:, None] * x))
    return e0, e1, e2, e3, e4


@identity(
    "wn.quotient_rule_004",
    inputs=_QR,
    dims=_QR_DIMS,
    relations=("=", "=", "=", "="),
    where=u_nonzero,
    labels=(
        "quotient rule, as written (no 1/‖u‖²)",
        "divide by ‖u‖²",
        "∂‖u‖/∂u = uᵀ/‖u‖",
        "factor W^⊥ γx/‖u‖",
    ),
    expected_broken_step=1,
    steps_claimed=True,
    title="∂ŷ/∂u by the quotient rule, first line as written (denominator missing)",
    source=_QR_SOURCE,
    statement=r"\frac{\partial\hat y}{\partial u} = \gamma\Big(\frac{\partial}{\partial "
    r"u}\frac{u^\top}{\|u\|}\Big)x = \gamma\Big(\frac{\partial u}{\partial "
    r"u}\|u\|-u\frac{\partial\|u\|}{\partial u}\Big)x = "
    r"\gamma\Big(\frac{I\|u\|-u\frac{\partial\|u\|}{\partial u}}{\|u\|^2}\Big)x = \dots = "
    r"\Big(I-\frac{uu^\top}{\|u\|^2}\Big)\frac{\gamma x}{\|u\|}",
    expected=Verdict.REFUTED,
    notes="The first application of the quotient rule drops the denominator ‖u‖²; the next expression "
    "restores it, so the chain is wrong at step 1 (and step 2 equates two different things) while its end "
    "result is right: step 1 holds only for ‖u‖ = 1. Numeric chain through cᵀ(·).",
)
def wn_quotient_rule_004(xp, u, x, c, gamma):
    return _quotient_chain(xp, u, x, c, gamma, with_denominator=False)


@identity(
    "wn.quotient_rule_corrected_004",
    inputs=_QR,
    dims=_VEC_DIMS,
    relations=("=", "=", "=", "="),
    where=u_nonzero,
    labels=("quotient rule with its 1/‖u‖²", "(same expression)", "∂‖u‖/∂u = uᵀ/‖u‖", "factor W^⊥ γx/‖u‖"),
    title="∂ŷ/∂u by the quotient rule, with the denominator ‖u‖²",
    source=_QR_SOURCE,
    statement=r"\frac{\partial\hat y}{\partial u} = \gamma\Big(\frac{I\|u\|-u\frac{\partial\|u\|}{\partial "
    r"u}}{\|u\|^2}\Big)x = \gamma\Big(\frac{I\|u\|^2-uu^\top}{\|u\|^3}\Big)x = "
    r"\Big(I-\frac{uu^\top}{\|u\|^2}\Big)\frac{\gamma x}{\|u\|}",
    expected=Verdict.PROVED,
    corrects="wn.quotient_rule_004",
    proof_not_asserted="the catalogue's corrected chain (the quotient rule with its 1/‖u‖²); the chain as "
    "written is wn.quotient_rule_004, broken at step 1",
)
def wn_quotient_rule_corrected_004(xp, u, x, c, gamma):
    return _quotient_chain(xp, u, x, c, gamma, with_denominator=True)


@identity(
    "wn.grad_004",
    uses=("wn.quotient_rule_004", "wn.norm_derivative_004"),
    inputs={**_QR, "dl": Scalar(-10.0, 10.0)},
    dims=_VEC_DIMS,
    relations=("=", "="),
    where=u_nonzero,
    labels=("chain rule through ŷ", "∇_wL = (∂L/∂ŷ) x, s = γ/‖u‖"),
    title="∇_u L = (∂L/∂ŷ)(I − uuᵀ/‖u‖²) γx/‖u‖ = (γ/‖u‖) W^⊥ ∇_w L",
    source=S4_Q4_3.quote(
        "\\nabla_{u} L(u, \\gamma, \\beta) = \\frac{\\partial L}{\\partial \\hat{y}} \\Big( I - "
        "\\frac{u u^{\\top}}{\\|u\\|^{2}} \\Big) \\frac{\\gamma x}{\\|u\\|} = \\frac{\\gamma}{\\|u\\|} "
        "W^{\\perp} \\nabla_{w} L"
    ),
    statement=r"\nabla_uL = \frac{\partial L}{\partial\hat "
    r"y}\Big(I-\frac{uu^\top}{\|u\|^2}\Big)\frac{\gamma x}{\|u\|} = "
    r"\frac{\gamma}{\|u\|}W^\perp\nabla_wL,\quad s=\frac{\gamma}{\|u\|}",
    expected=Verdict.PROVED,
    same_as=("wn.grad_002", "wn.grad_003"),
    notes="One-sample loss L(ŷ) with ∂L/∂ŷ = dl; the document writes ∂L/∂û once for ∂L/∂ŷ (typo).",
)
def wn_grad_004(xp, u, x, c, gamma, dl):
    nu = xp.sqrt(dot(xp, u, u))
    P = orth_projector(xp, u)
    dyhat = gamma * (dot(xp, c, x) / nu - dot(xp, u, x) * dot(xp, c, u) / nu**3)  # cᵀ∂ŷ/∂u
    grad_w = dl[:, None] * x
    return (
        dl * dyhat,
        probe(xp, c, dl[:, None] * matvec(P, (gamma / nu)[:, None] * x)),
        probe(xp, c, (gamma / nu)[:, None] * matvec(P, grad_w)),
    )


@identity(
    "wn.perp_u_zero_004",
    inputs={"u": Array("n"), "c": Array("n", scale=(1.0, 1.0))},
    dims=_VEC_DIMS,
    where=u_nonzero,
    title="W^⊥u = 0",
    source=S4_Q4_3.quote(
        "where W^{\\perp} = \\left(I - \\frac{u u^{\\top}}{||u||^2}\\right). Note that {}^2 W^{\\perp} u = 0"
    ),
    statement=r"W^\perp u = \Big(I-\frac{uu^\top}{\|u\|^2}\Big)u = 0",
    expected=Verdict.PROVED,
    same_as=("wn.projector_002", "wn.orthogonal_update_003"),
    notes="The '^2' before W^⊥ in the document is a footnote mark left by the conversion.",
)
def wn_perp_u_zero_004(xp, u, c):
    return probe(xp, c, matvec(orth_projector(xp, u), u)), 0 * dot(xp, u, u)
