"""Batch and weight normalisation of seed 003, Question 4."""

from checks._vocab.linalg import dot, matvec
from checks._vocab.sources import S3_Q4_1, S3_Q4_2, S3_Q4_3
from checks.optim._helpers import (
    orth_projector,
    probe,
    u_nonzero,
    unit_rows_transform,
    weight_from_direction,
)
from checks.optim._notation import WEIGHT_NORM
from checks.optim.normalisation import (
    _DIMS,
    _STEP,
    _VEC_DIMS,
    BN_MOMENTS,
    BN_POINT,
    WN_GRADIENT,
    WN_MATRICES,
    WN_PROJECTED,
    WN_STEP,
    WN_UPDATE_STEP,
    _dw,
    _expect,
    _projections,
    _support,
    _support_point,
    _whitening,
    _wn_step,
)
from lemmacheck import Array, Orthogonal, Scalar, Verdict, identity, inequality

# ====================================================================== seed 003, Question 4

claim_symbols = {
    "wn.pythagoras_003": WN_MATRICES,
    "wn.grad_003": WN_MATRICES,
    "wn.growth_in_alpha_003": WN_UPDATE_STEP,
    "bn.mean_003": BN_MOMENTS,
    "wn.eq19_003": WEIGHT_NORM,
    "bn.identify_003": BN_POINT,
}
#: differences the statement check finds and that are kept, with why
statement_differs = {
    "wn.growth_in_alpha_003": "the check compares the squared norms ‖u_{t+1}(α)‖² and ‖u_{t+1}(α')‖² (and "
    "orders the two sampled rates itself, where the statement is compared only where α ≤ α' holds): the same "
    "truth value on every instance, not the same margins or ratio, so its tightness is that of the squares",
}


@identity(
    "wn.eq19_003",
    inputs={"u": Array("n"), "x": Array("n"), "gamma": Scalar(-10.0, 10.0), "beta": Scalar(-10.0, 10.0)},
    dims=_VEC_DIMS,
    relations=("=", "="),
    where=u_nonzero,
    labels=("w = γu/‖u‖", "y = uᵀx"),
    title="Eq. (19): wᵀx + β = γ y/‖u‖ + β",
    source=S3_Q4_1.at("eq. (19)").quote(
        "w^T x + \\beta = \\gamma \\frac{u^T}{\\|u\\|} x + \\beta = \\gamma \\frac{y}{\\|u\\|} + "
        "\\beta \\quad (19)"
    ),
    statement=r"w^Tx+\beta = \gamma\frac{u^T}{\|u\|}x+\beta = \gamma\frac{y}{\|u\|}+\beta",
    expected=Verdict.PROVED,
    same_as=("wn.output_002",),
)
def wn_eq19_003(xp, u, x, gamma, beta):
    nu = xp.sqrt(dot(xp, u, u))
    y = dot(xp, u, x)
    return (
        dot(xp, weight_from_direction(xp, u, gamma), x) + beta,
        gamma * dot(xp, u / nu[:, None], x) + beta,
        gamma * y / nu + beta,
    )


_BN3 = {"u": Array("n"), "Q": Orthogonal("n")}
#: a direction u and the orthogonal Q of the inputs x = Q r (centred, uncorrelated, unit variances)
BN_WHITENED = {"inputs": _BN3, "dims": _DIMS}


@identity(
    "bn.mean_003",
    **BN_WHITENED,
    relations=("=", "="),
    labels=("linearity", "E[x] = 0"),
    title="μ_y = E[uᵀx] = uᵀE[x] = 0",
    source=S3_Q4_1.quote("\\mu_y = \\mathbb{E}[y] = \\mathbb{E}[u^T x] = u^T \\mathbb{E}[x] = 0"),
    statement=r"\mu_y = \mathbb{E}[u^Tx] = u^T\mathbb{E}[x] = 0",
    expected=Verdict.HOLDS,
    same_as=("bn.preact_mean_002", "bn.mean_004"),
    notes="x = Q r (Q orthogonal, r Rademacher): centred, uncorrelated, not independent.",
)
def bn_mean_003(xp, u, Q, n):
    Q = _whitening(xp, Q)
    X = _support(xp, Q, n)
    return (_expect(xp, _projections(xp, u, X)), dot(xp, u, _expect(xp, X)), 0 * dot(xp, u, u))


@identity(
    "bn.var_uncorrelated_003",
    **BN_WHITENED,
    relations=("=", "="),
    labels=("variance of a sum", "V[x_i] = 1, Cov = 0 (uncorrelated entries)"),
    title="σ_y² = ‖u‖² when the entries of x are uncorrelated with unit variance",
    source=S3_Q4_1.quote("if we suppose that the entries of x are uncorrelated ... = \\|u\\|^2"),
    statement=r"\sigma_y^2 = \mathbb{V}\Big[\sum_i u_ix_i\Big] = \sum_i "
    r"u_i^2\mathbb{V}[x_i]+2\sum_{i<j}\mathrm{Cov}(u_ix_i,u_jx_j) = \|u\|^2",
    expected=Verdict.HOLDS,
    same_as=("bn.preact_var_002", "bn.var_004"),
    notes="Checked with x = Q r, whose entries are uncorrelated but dependent: decorrelation, the "
    "document's supposition, is enough (seed 002 assumes independence). The middle expression is computed "
    "from the exact variances and covariances of x.",
)
def bn_var_uncorrelated_003(xp, u, Q, n):
    Q = _whitening(xp, Q)
    X = _support(xp, Q, n)
    y = _projections(xp, u, X)
    var_y = _expect(xp, (y - _expect(xp, y)[:, None]) ** 2)
    xc = X - _expect(xp, X)[:, None, :]
    cov = _expect(xp, xc[:, :, :, None] * xc[:, :, None, :])  # Cov(x_i, x_j), (batch, n, n)
    diag = xp.sum(u * u * xp.diagonal(cov), axis=-1)
    off = 0 * diag
    for i in range(n):
        for j in range(i + 1, n):
            off = off + u[:, i] * u[:, j] * cov[:, i, j]
    return var_y, diag + 2 * off, dot(xp, u, u)


@identity(
    "bn.decorrelation_needed_003",
    inputs={"u": Array("n"), "L": Array("n", "n", transform=unit_rows_transform)},
    dims={"n": [2, 3, 4]},
    title="Without decorrelation, unit variances alone do not give σ_y² = ‖u‖²",
    source=S3_Q4_1.quote("Moreover, if we suppose that the entries of x are uncorrelated, we can write"),
    statement=r"\mathbb{E}[x]=0,\ \mathbb{V}[x_i]=1\ \ (\text{entries correlated}) \implies "
    r"\mathbb{V}[u^Tx] = \|u\|^2",
    expected=Verdict.REFUTED,
    notes="Not a mistake of the document: it checks that the supposition seed 003 adds ('if we suppose "
    "that the entries of x are uncorrelated') cannot be dropped. x = L r with unit-norm rows has unit "
    "variances and Cov(x_i, x_j) = ℓ_iᵀℓ_j ≠ 0, and V[uᵀx] = ‖Lᵀu‖² ≠ ‖u‖².",
)
def bn_decorrelation_needed_003(xp, u, L, n):
    X = _support(xp, L, n)
    y = _projections(xp, u, X)
    return _expect(xp, (y - _expect(xp, y)[:, None]) ** 2), dot(xp, u, u)


@identity(
    "bn.identify_003",
    uses=("wn.eq19_003", "bn.mean_003", "bn.var_uncorrelated_003"),
    inputs={**_BN3, "s_raw": Array("n"), "gamma": Scalar(-10.0, 10.0), "beta": Scalar(-10.0, 10.0)},
    dims=_DIMS,
    relations=("=", "="),
    where=u_nonzero,
    labels=("eq. (19)", "μ_y = 0, σ_y = ‖u‖"),
    title="wᵀx + β = γ(y − μ_y)/σ_y + β = ŷ: weight norm reproduces batch norm",
    source=S3_Q4_1.quote(
        "w^T x + \\beta = \\gamma \\frac{y}{\\|u\\|} + \\beta = \\gamma \\frac{y - "
        "\\mu_y}{\\sigma_y} + \\beta = \\hat{y}"
    ),
    statement=r"w^Tx+\beta = \gamma\frac{y}{\|u\|}+\beta = \gamma\frac{y-\mu_y}{\sigma_y}+\beta = \hat y",
    expected=Verdict.HOLDS,
    same_as=("bn.wn_equivalence_002", "bn.wn_equivalence_004"),
    notes="At a point x = Q s of the support (s a sign vector), with μ_y and σ_y computed exactly.",
)
def bn_identify_003(xp, u, Q, s_raw, gamma, beta, n):
    x, y, mu, sigma = _support_point(xp, u, Q, s_raw, n)
    return (
        dot(xp, weight_from_direction(xp, u, gamma), x) + beta,
        gamma * y / xp.sqrt(dot(xp, u, u)) + beta,
        gamma * (y - mu) / sigma + beta,
    )


@identity(
    "wn.grad_003",
    **WN_GRADIENT,
    relations=("=", "="),
    labels=("∂w/∂u = γ/‖u‖ I − ½γu/‖u‖³·2uᵀ", "factor s = γ/‖u‖, W^⊥ = I − uuᵀ/‖u‖²"),
    title="∇_u L = (γ/‖u‖ I − ½γu/‖u‖³ 2uᵀ)∇_w L = s W^⊥ ∇_w L",
    source=S3_Q4_2.quote(
        "\\left( \\frac{\\gamma}{\\|u\\|} I - \\frac{1}{2} \\frac{\\gamma u}{\\|u\\|^3} 2u^T "
        "\\right) \\nabla_w L = \\frac{\\gamma}{\\|u\\|} \\left( I - \\frac{uu^T}{\\|u\\|^2} \\right) "
        "\\nabla_w L"
    ),
    statement=r"\nabla_uL = \frac{\partial w(u)}{\partial u}\frac{\partial L}{\partial w} = "
    r"\Big(\frac{\gamma}{\|u\|}I-\frac12\frac{\gamma u}{\|u\|^3}2u^T\Big)\nabla_wL = \frac{\gamma}{\|u\|}"
    r"\Big(I-\frac{uu^T}{\|u\|^2}\Big)\nabla_wL",
    expected=Verdict.PROVED,
    same_as=("wn.grad_002", "wn.grad_004"),
)
def wn_grad_003(xp, u, gw, c, gain):
    nu = xp.sqrt(dot(xp, u, u))
    s = gain / nu
    jac_form = (gain / nu)[:, None] * gw - 0.5 * (gain / nu**3)[:, None] * u * (2 * dot(xp, u, gw))[:, None]
    return (
        dot(xp, gw, _dw(xp, u, gain, c)),
        probe(xp, c, jac_form),
        probe(xp, c, s[:, None] * matvec(orth_projector(xp, u), gw)),
    )


@identity(
    "wn.orthogonal_update_003",
    **WN_PROJECTED,
    relations=("=", "="),
    labels=("a = a_Vect(u) + a_Vect(u)^⊥", "W^⊥ a_Vect(u) = 0"),
    title="W^⊥a = W^⊥a_{Vect(u)^⊥} ∈ Vect(u)^⊥",
    source=S3_Q4_3.quote(
        "W^\\perp a = W^\\perp (a_{\\text{Vect}(u_t)} + a_{\\text{Vect}(u_t)^\\perp}) = W^\\perp "
        "a_{\\text{Vect}(u_t)^\\perp} + 0 \\in \\text{Vect}(u_t)^\\perp"
    ),
    statement=r"W^\perp a = W^\perp(a_{\mathrm{Vect}(u)}+a_{\mathrm{Vect}(u)^\perp}) = W^\perp "
    r"a_{\mathrm{Vect}(u)^\perp}+0 \in \mathrm{Vect}(u)^\perp",
    expected=Verdict.PROVED,
    same_as=("wn.projector_002", "wn.perp_u_zero_004"),
    notes="The membership in Vect(u)^⊥ is checked as uᵀW^⊥a = 0 in wn.perp_u_zero_004's companion form "
    "(W^⊥ is symmetric and W^⊥u = 0).",
)
def wn_orthogonal_update_003(xp, u, a, c):
    P = orth_projector(xp, u)
    a_par = u * (dot(xp, u, a) / dot(xp, u, u))[:, None]
    a_perp = a - a_par
    return (
        probe(xp, c, matvec(P, a)),
        probe(xp, c, matvec(P, a_par) + matvec(P, a_perp)),
        probe(xp, c, matvec(P, a_perp)),
    )


@inequality(
    "wn.pythagoras_003",
    uses=("wn.grad_003", "wn.orthogonal_update_003"),
    **WN_STEP,
    relations=("=", ">="),
    labels=("Pythagoras: u_t ⊥ αsW^⊥∇_wL", "a squared norm is ≥ 0"),
    title="‖u_{t+1}‖² = ‖u_t‖² + ‖αsW^⊥∇_wL‖² ≥ ‖u_t‖²",
    source=S3_Q4_3.quote(
        "\\|u_{t+1}\\|^2 = \\|u_t\\|^2 + \\|\\alpha s W^\\perp \\nabla_{w_t} L\\|^2 \\geq \\|u_t\\|^2"
    ),
    statement=r"\|u_{t+1}\|^2 = \|u_t\|^2+\|\alpha sW^\perp\nabla_{w_t}L\|^2 \ge \|u_t\|^2",
    expected=Verdict.PROVED,
    same_as=("wn.pythagoras_002", "wn.norm_growth_002"),
    notes="Tightness 1 (equality when ∇_wL ∥ u).",
)
def wn_pythagoras_003(xp, u, gw, gain, alpha):
    u1, s, pg = _wn_step(xp, u, gw, gain, alpha)
    step = (alpha * s)[:, None] * pg
    return dot(xp, u1, u1), dot(xp, u, u) + dot(xp, step, step), dot(xp, u, u)


@inequality(
    "wn.growth_in_alpha_003",
    inputs={**_STEP, "alpha2": Scalar(1e-4, 10.0, log=True)},
    dims=_VEC_DIMS,
    where=u_nonzero,
    title="A larger step size gives a larger ‖u_{t+1}‖",
    source=S3_Q4_3.quote(
        "larger values of \\alpha implies larger values of \\|u_{t+1}\\| and leads to faster growth"
    ),
    statement=r"0<\alpha\le\alpha' \implies \|u_{t+1}(\alpha)\|\le\|u_{t+1}(\alpha')\|",
    expected=Verdict.HOLDS,
    notes="For one step from the same u_t (‖u_{t+1}‖² = ‖u_t‖² + α²s²‖W^⊥∇_wL‖² is increasing in α ≥ 0); "
    "strict when W^⊥∇_wL ≠ 0. Compared on squared norms; tightness 1 at W^⊥∇_wL = 0.",
)
def wn_growth_in_alpha_003(xp, u, gw, gain, alpha, alpha2):
    lo, hi = xp.minimum(alpha, alpha2), xp.maximum(alpha, alpha2)
    u_lo, _, _ = _wn_step(xp, u, gw, gain, lo)
    u_hi, _, _ = _wn_step(xp, u, gw, gain, hi)
    return dot(xp, u_lo, u_lo), dot(xp, u_hi, u_hi)
