"""Batch norm vs weight norm, and the gradient of the weight-norm parametrisation w = γ u/‖u‖.

Seed 002 Question 4, seed 003 Question 4, seed 004 Questions 4.2–4.3.

Expectations over the input x are exact finite averages: x = M r with r a Rademacher vector (all 2^n
sign patterns). The distribution of x is chosen to match each document's assumption:
  * seed 002 — entries independent, zero mean, unit variance: x = r itself;
  * seed 003 — entries uncorrelated with unit variance (not independent): x = Q r, Q orthogonal;
  * seed 004 — whitened, Var(x) = I, centred: x = Q r, Q orthogonal;
  * without decorrelation (unit variances, correlated entries): x = L r, L with unit-norm rows.
Q is re-orthonormalised in the working precision (Gram–Schmidt with xp), so E[xxᵀ] = I holds to 60
digits in the re-verification too.

Derivatives are checked through directional derivatives: for a direction c, cᵀ∇_u L = ∇_w Lᵀ (Dw(u)[c]),
with Dw(u)[c] = γ(c/‖u‖ − u (uᵀc)/‖u‖³) written from the quotient rule, which is an independent
expression from the projection form s W^⊥.
"""

from checks._vocab.linalg import dot, matvec
from checks._vocab.sources import SEED_002, SEED_003, SEED_004
from checks.optim._helpers import (
    gram_schmidt_rows,
    orth_projector,
    probe,
    rademacher_support,
    unit_rows_transform,
    weight_from_direction,
)
from lemmacheck import Source, Verdict, identity, inequality
from lemmacheck.inputs import Array, Orthogonal, Scalar

_DIMS = {"n": [1, 2, 3, 4, 6]}
_VEC_DIMS = {"n": [1, 2, 3, 5, 8]}


def _support(xp, mix, n):
    """All equally likely values of x = M r, shape (batch, 2^n, n) (mix=None: x = r)."""
    r = rademacher_support(n)
    if mix is None:
        return r[None, :, :]
    return xp.matmul(r[None, :, :], xp.transpose(mix))


def _whitening(xp, Q):
    """An exactly orthogonal Q (re-orthonormalised in the working precision): x = Q r has E[xxᵀ] = I."""
    return gram_schmidt_rows(xp, Q)


def _expect(xp, values):
    """Exact expectation over the support axis (axis 1)."""
    return xp.mean(values, axis=1)


def _projections(xp, u, X):
    """uᵀx for every support point: (batch, K)."""
    return xp.sum(u[:, None, :] * X, axis=-1)


def _resolvable(xp, w, b, k=None):
    """w ≠ 0 and wᵀx not lost below the rounding unit of the bias b (float64 would give Var = 0)."""
    scale = k if k is not None else 1.0
    return dot(xp, w, w) * scale**2 > 1e-12 * (1 + b * b)


def _nonzero(xp, u, **_):
    """u ≠ 0 (W^⊥ and u/‖u‖ need it); the floor keeps ‖u‖³ clear of float64 underflow."""
    return dot(xp, u, u) > 1e-100


def _dw(xp, u, gain, c):
    """Directional derivative of w(u) = γu/‖u‖ along c, by the quotient rule: γ(c/‖u‖ − u(uᵀc)/‖u‖³)."""
    nu = xp.sqrt(dot(xp, u, u))[:, None]
    return gain[:, None] * (c / nu - u * dot(xp, u, c)[:, None] / nu**3)


# ====================================================================== seed 002, Question 4

_BN2 = {"w": Array("n"), "b": Scalar(-10.0, 10.0)}


@identity(
    "bn.preact_mean_002",
    inputs=_BN2,
    dims=_DIMS,
    relations=("=", "="),
    labels=("linearity", "E[x] = 0"),
    title="Mean of the pre-activation for centred inputs",
    source=Source(SEED_002, "Question 4.1", quote="E[w^T x + b] = w^T E[x] + b = w^T(0) + b = b"),
    statement=r"\mathbb{E}[w^Tx+b] = w^T\mathbb{E}[x]+b = b",
    expected=Verdict.HOLDS,
    same_as=("bn.mean_003", "bn.mean_004"),
    notes="x has independent ±1 entries (zero mean, unit variance), the document's assumption; the "
    "expectation is exact.",
)
def bn_preact_mean_002(xp, w, b, n):
    X = _support(xp, None, n)
    return (
        _expect(xp, _projections(xp, w, X) + b[:, None]),
        dot(xp, w, _expect(xp, X + 0 * w[:, None, :])) + b,
        b,
    )


@identity(
    "bn.preact_var_002",
    inputs=_BN2,
    dims=_DIMS,
    relations=("=", "=", "=", "=", "="),
    labels=(
        "b is a constant",
        "Var = E[·²] − E[·]²",
        "(wᵀx)² = wᵀxxᵀw, E[wᵀx] = 0",
        "pull w out of E",
        "E[xxᵀ] = I",
    ),
    title="Variance of the pre-activation for whitened independent inputs",
    source=Source(
        SEED_002,
        "Question 4.1",
        quote="Var[w^T x + b] = Var[w^T x] = E[(w^T x)^2] - (E[w^T x])^2 = E[w^T x w] - 0^2 = w^T E[x x^T] "
        "w = w^T w = \\|w\\|^2",
    ),
    statement=r"\mathrm{Var}[w^Tx+b] = \mathrm{Var}[w^Tx] = \mathbb{E}[(w^Tx)^2]-(\mathbb{E}[w^Tx])^2 = "
    r"\mathbb{E}[w^Txw]-0^2 = w^T\mathbb{E}[xx^T]w = w^Tw = \|w\|^2",
    expected=Verdict.HOLDS,
    same_as=("bn.var_uncorrelated_003", "bn.var_004"),
    notes="Puzzle: the fourth expression 'E[w^T x w]' is not a scalar (wᵀx times the vector w); we read it "
    "as E[wᵀxxᵀw] (an xᵀ lost in the document or its conversion) and check that reading. E[xxᵀ] = I needs "
    "the entries uncorrelated with unit variance; the document assumes independence, which is more than "
    "needed (see bn.var_uncorrelated_003).",
)
def bn_preact_var_002(xp, w, b, n):
    X = _support(xp, None, n)
    y = _projections(xp, w, X)
    yb = y + b[:, None]
    var_yb = _expect(xp, (yb - _expect(xp, yb)[:, None]) ** 2)
    var_y = _expect(xp, (y - _expect(xp, y)[:, None]) ** 2)
    second = _expect(xp, y**2)
    exx = _expect(xp, X[:, :, :, None] * X[:, :, None, :] + 0 * w[:, None, :, None])  # E[xxᵀ], (batch, n, n)
    return (var_yb, var_y, second - _expect(xp, y) ** 2, second, dot(xp, w, matvec(exx, w)), dot(xp, w, w))


@identity(
    "bn.output_002",
    inputs={**_BN2, "x_raw": Array("n")},
    dims=_DIMS,
    where=lambda xp, w, b, **_: _resolvable(xp, w, b),
    title="Batch-normalised output for whitened inputs is wᵀx/‖w‖",
    source=Source(
        SEED_002,
        "Question 4.1",
        quote="y_{BN} = \\frac{w^T x + b - E[w^T x + b]}{\\sqrt{Var[w^T x + b]}} = \\frac{w^T x}{\\|w\\|}",
    ),
    statement=r"y_{BN} = \frac{w^Tx+b-\mathbb{E}[w^Tx+b]}{\sqrt{\mathrm{Var}[w^Tx+b]}} = \frac{w^Tx}{\|w\|}",
    expected=Verdict.HOLDS,
    notes="Evaluated at a point x of the support (independent ±1 entries), with the mean and variance "
    "computed exactly over the support.",
)
def bn_output_002(xp, w, b, x_raw, n):
    X = _support(xp, None, n)
    x = _signs_xp(xp, x_raw)
    yb = _projections(xp, w, X) + b[:, None]
    mean = _expect(xp, yb)
    var = _expect(xp, (yb - mean[:, None]) ** 2)
    return (dot(xp, w, x) + b - mean) / xp.sqrt(var), dot(xp, w, x) / xp.sqrt(dot(xp, w, w))


def _signs_xp(xp, raw):
    """±1 from the sign of a raw input, written with xp so it also runs on mpmath arrays."""
    return xp.where(raw >= 0, 1.0, -1.0)


@identity(
    "wn.output_002",
    inputs={"u": Array("n"), "x": Array("n"), "g": Scalar(-10.0, 10.0), "b": Scalar(-10.0, 10.0)},
    dims=_VEC_DIMS,
    where=_nonzero,
    title="Weight-normalised output",
    source=Source(
        SEED_002,
        "Question 4.1",
        quote="y_{WN} = \\left(\\frac{g}{\\|u\\|} u\\right)^T x + b = g \\frac{u^T x}{\\|u\\|} + b",
    ),
    statement=r"y_{WN} = \Big(\frac{g}{\|u\|}u\Big)^Tx+b = g\frac{u^Tx}{\|u\|}+b",
    expected=Verdict.PROVED,
    same_as=("wn.eq19_003",),
)
def wn_output_002(xp, u, x, g, b):
    return (dot(xp, weight_from_direction(xp, u, g), x) + b, g * dot(xp, u, x) / xp.sqrt(dot(xp, u, u)) + b)


@identity(
    "bn.wn_equivalence_002",
    inputs={"u": Array("n"), "k": Scalar(1e-2, 1e2, log=True), "b": Scalar(-10.0, 10.0), "x_raw": Array("n")},
    dims=_DIMS,
    where=lambda xp, u, k, b, **_: _resolvable(xp, u, b, k),
    title="Ignoring learned scale and shift, y_WN equals y_BN for whitened inputs",
    source=Source(
        SEED_002,
        "Question 4.1",
        quote="in the condition of ignoring the learned scale and shift terms for both BN and WN, we can "
        "say in this case y_{WN} is equivalent to y_{BN}",
    ),
    statement=r"g = 1,\ b_{WN} = 0:\quad y_{WN} = \frac{u^Tx}{\|u\|} = \frac{w^Tx}{\|w\|} = y_{BN}\quad (w "
    r"= k u,\ k>0)",
    expected=Verdict.HOLDS,
    same_as=("bn.identify_003", "bn.wn_equivalence_004"),
    notes="The BN weight w and the WN direction u are different parameters; the equivalence holds when "
    "they point the same way (w = k u with k > 0; for k < 0 the sign flips). The BN bias b cancels in y_BN.",
)
def bn_wn_equivalence_002(xp, u, k, b, x_raw, n):
    X = _support(xp, None, n)
    x = _signs_xp(xp, x_raw)
    w = k[:, None] * u
    yb = _projections(xp, w, X) + b[:, None]
    mean = _expect(xp, yb)
    y_bn = (dot(xp, w, x) + b - mean) / xp.sqrt(_expect(xp, (yb - mean[:, None]) ** 2))
    y_wn = dot(xp, weight_from_direction(xp, u, k * 0 + 1), x)
    return y_wn, y_bn


_WN = {"u": Array("n"), "gw": Array("n"), "c": Array("n", scale=(1.0, 1.0)), "gain": Scalar(-10.0, 10.0)}
_WN_WHERE = {"where": _nonzero}


@identity(
    "wn.jacobian_002",
    inputs={k: v for k, v in _WN.items() if k != "gw"},
    dims=_VEC_DIMS,
    **_WN_WHERE,
    title="Jacobian of w = g u/‖u‖: ∇_u w = (g/‖u‖)(I − uuᵀ/‖u‖²)",
    source=Source(
        SEED_002,
        "Question 4.2",
        quote="\\nabla_u w = \\frac{g}{\\|u\\|} \\left( I - \\frac{u u^T}{\\|u\\|^2} \\right)",
    ),
    statement=r"\nabla_u w = \frac{g}{\|u\|}\Big(I-\frac{uu^T}{\|u\|^2}\Big)",
    expected=Verdict.PROVED,
    notes="Numerically: the matrix applied to a direction c against the quotient-rule directional "
    "derivative of w(u); symbolically: SymPy's Jacobian for n = 3.",
)
def wn_jacobian_002(xp, u, c, gain):
    s = gain / xp.sqrt(dot(xp, u, u))
    d = _dw(xp, u, gain, c)
    jc = s[:, None] * matvec(orth_projector(xp, u), c)
    return probe(xp, c, d), probe(xp, c, jc)


@identity(
    "wn.projector_002",
    inputs={"u": Array("n"), "a": Array("n"), "c": Array("n", scale=(1.0, 1.0))},
    dims=_VEC_DIMS,
    relations=("=", "="),
    **_WN_WHERE,
    labels=("W* a = a − v(vᵀa), v = u/‖u‖", "W* is idempotent (a projection)"),
    title="I − uuᵀ/‖u‖² is the projection onto the orthogonal complement of u",
    source=Source(
        SEED_002,
        "Question 4.2",
        quote="I - \\frac{u u^T}{\\|u\\|^2} (that is I - vv^T) is the orthogonal complement projection "
        "matrix, because : (I - vv^T)a = a - v(v^T a)",
    ),
    statement=r"W^* = I-\frac{uu^T}{\|u\|^2} = I-vv^T,\quad (I-vv^T)a = a-v(v^Ta),\quad W^*W^* = W^*",
    expected=Verdict.PROVED,
    same_as=("wn.orthogonal_update_003", "wn.perp_u_zero_004"),
    notes="The document uses W* for the matrix seed 003 and 004 call W^⊥.",
)
def wn_projector_002(xp, u, a, c):
    P = orth_projector(xp, u)
    v = u / xp.sqrt(dot(xp, u, u))[:, None]
    Pa = matvec(P, a)
    return (probe(xp, c, Pa), probe(xp, c, a - v * dot(xp, v, a)[:, None]), probe(xp, c, matvec(P, Pa)))


@identity(
    "wn.grad_002",
    inputs=_WN,
    dims=_VEC_DIMS,
    relations=("=", "="),
    **_WN_WHERE,
    labels=("chain rule: ∇_w L · ∇_u w", "s = g/‖u‖ is a scalar, W* symmetric"),
    title="Gradient of the weight-norm parametrisation: ∇_u L = s W* ∇_w L, s = g/‖u‖",
    source=Source(
        SEED_002,
        "Question 4.2",
        quote="\\nabla_u L = \\nabla_w L \\cdot \\frac{g}{\\|u\\|} \\cdot W^* ... \\nabla_u L = sW^* "
        "\\cdot \\nabla_w L where s = \\frac{g}{\\|u\\|}",
    ),
    statement=r"\nabla_uL = \nabla_wL\cdot\frac{g}{\|u\|}\cdot W^* = sW^*\cdot\nabla_wL,\quad "
    r"s=\frac{g}{\|u\|}",
    expected=Verdict.PROVED,
    same_as=("wn.grad_003", "wn.grad_004"),
    notes="The first form multiplies the row vector ∇_wLᵀ by W*; it equals the column form because W* is "
    "symmetric. ∇_w L is an arbitrary vector (the gradient of any loss at w).",
)
def wn_grad_002(xp, u, gw, c, gain):
    s = gain / xp.sqrt(dot(xp, u, u))
    P = orth_projector(xp, u)
    row_form = xp.sum(gw[:, :, None] * P, axis=1) * s[:, None]  # (∇_wLᵀ s W*)ᵀ
    return (
        dot(xp, gw, _dw(xp, u, gain, c)),
        probe(xp, c, row_form),
        probe(xp, c, s[:, None] * matvec(P, gw)),
    )


def _wn_step(xp, u, gw, gain, alpha):
    """u_{t+1} = u_t − α s W^⊥ ∇_w L and the pieces of its norm."""
    s = gain / xp.sqrt(dot(xp, u, u))
    pg = matvec(orth_projector(xp, u), gw)
    return u - (alpha * s)[:, None] * pg, s, pg


_STEP = {
    "u": Array("n"),
    "gw": Array("n"),
    "gain": Scalar(-10.0, 10.0),
    "alpha": Scalar(1e-4, 10.0, log=True),
}


@identity(
    "wn.pythagoras_002",
    inputs=_STEP,
    dims=_VEC_DIMS,
    **_WN_WHERE,
    title="Squared norm after a gradient step on u: ‖u_{t+1}‖² = ‖u_t‖² + α²s²‖W*∇_wL_t‖²",
    source=Source(
        SEED_002,
        "Question 4.3",
        quote="\\|u_{t+1}\\|^2 = \\|u_t\\|^2 + \\alpha^2 s^2 \\|W^* \\cdot \\nabla_w L_t\\|^2",
    ),
    statement=r"\|u_{t+1}\|^2 = \|u_t\|^2+\alpha^2s^2\|W^*\cdot\nabla_wL_t\|^2",
    expected=Verdict.PROVED,
    same_as=("wn.pythagoras_003",),
)
def wn_pythagoras_002(xp, u, gw, gain, alpha):
    u1, s, pg = _wn_step(xp, u, gw, gain, alpha)
    return dot(xp, u1, u1), dot(xp, u, u) + alpha**2 * s**2 * dot(xp, pg, pg)


@inequality(
    "wn.norm_growth_002",
    inputs=_STEP,
    dims=_VEC_DIMS,
    **_WN_WHERE,
    title="The norm of u never decreases under gradient descent: ‖u_t‖ ≤ ‖u_{t+1}‖",
    source=Source(
        SEED_002,
        "Question 4.3",
        quote="\\|u_t\\|^2 \\leq \\|u_{t+1}\\|^2 \\implies \\|u_t\\| \\leq \\|u_{t+1}\\|",
    ),
    statement=r"\|u_t\|^2\le\|u_{t+1}\|^2 \implies \|u_t\|\le\|u_{t+1}\|",
    expected=Verdict.PROVED,
    same_as=("wn.pythagoras_003",),
    notes="Tightness 1: equality when ∇_wL is parallel to u (W*∇_wL = 0).",
)
def wn_norm_growth_002(xp, u, gw, gain, alpha):
    u1, _, _ = _wn_step(xp, u, gw, gain, alpha)
    return xp.sqrt(dot(xp, u, u)), xp.sqrt(dot(xp, u1, u1))


# ====================================================================== seed 003, Question 4


@identity(
    "wn.eq19_003",
    inputs={"u": Array("n"), "x": Array("n"), "gamma": Scalar(-10.0, 10.0), "beta": Scalar(-10.0, 10.0)},
    dims=_VEC_DIMS,
    relations=("=", "="),
    where=_nonzero,
    labels=("w = γu/‖u‖", "y = uᵀx"),
    title="Eq. (19): wᵀx + β = γ y/‖u‖ + β",
    source=Source(
        SEED_003,
        "Question 4.1, eq. (19)",
        quote="w^T x + \\beta = \\gamma \\frac{u^T}{\\|u\\|} x + \\beta = \\gamma \\frac{y}{\\|u\\|} + "
        "\\beta \\quad (19)",
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


@identity(
    "bn.mean_003",
    inputs=_BN3,
    dims=_DIMS,
    relations=("=", "="),
    labels=("linearity", "E[x] = 0"),
    title="μ_y = E[uᵀx] = uᵀE[x] = 0",
    source=Source(
        SEED_003,
        "Question 4.1",
        quote="\\mu_y = \\mathbb{E}[y] = \\mathbb{E}[u^T x] = u^T \\mathbb{E}[x] = 0",
    ),
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
    inputs=_BN3,
    dims=_DIMS,
    relations=("=", "="),
    labels=("variance of a sum", "V[x_i] = 1, Cov = 0 (uncorrelated entries)"),
    title="σ_y² = ‖u‖² when the entries of x are uncorrelated with unit variance",
    source=Source(
        SEED_003, "Question 4.1", quote="if we suppose that the entries of x are uncorrelated ... = \\|u\\|^2"
    ),
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
    source=Source(
        SEED_003,
        "Question 4.1",
        quote="Moreover, if we suppose that the entries of x are uncorrelated, we can write",
    ),
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
    inputs={**_BN3, "s_raw": Array("n"), "gamma": Scalar(-10.0, 10.0), "beta": Scalar(-10.0, 10.0)},
    dims=_DIMS,
    relations=("=", "="),
    where=_nonzero,
    labels=("eq. (19)", "μ_y = 0, σ_y = ‖u‖"),
    title="wᵀx + β = γ(y − μ_y)/σ_y + β = ŷ: weight norm reproduces batch norm",
    source=Source(
        SEED_003,
        "Question 4.1",
        quote="w^T x + \\beta = \\gamma \\frac{y}{\\|u\\|} + \\beta = \\gamma \\frac{y - "
        "\\mu_y}{\\sigma_y} + \\beta = \\hat{y}",
    ),
    statement=r"w^Tx+\beta = \gamma\frac{y}{\|u\|}+\beta = \gamma\frac{y-\mu_y}{\sigma_y}+\beta = \hat y",
    expected=Verdict.HOLDS,
    same_as=("bn.wn_equivalence_002", "bn.wn_equivalence_004"),
    notes="At a point x = Q s of the support (s a sign vector), with μ_y and σ_y computed exactly. ",
)
def bn_identify_003(xp, u, Q, s_raw, gamma, beta, n):
    Q = _whitening(xp, Q)
    X = _support(xp, Q, n)
    x = matvec(Q, _signs_xp(xp, s_raw))
    ys = _projections(xp, u, X)
    mu = _expect(xp, ys)
    sigma = xp.sqrt(_expect(xp, (ys - mu[:, None]) ** 2))
    y = dot(xp, u, x)
    return (
        dot(xp, weight_from_direction(xp, u, gamma), x) + beta,
        gamma * y / xp.sqrt(dot(xp, u, u)) + beta,
        gamma * (y - mu) / sigma + beta,
    )


@identity(
    "wn.grad_003",
    inputs=_WN,
    dims=_VEC_DIMS,
    relations=("=", "="),
    **_WN_WHERE,
    labels=("∂w/∂u = γ/‖u‖ I − ½γu/‖u‖³·2uᵀ", "factor s = γ/‖u‖, W^⊥ = I − uuᵀ/‖u‖²"),
    title="∇_u L = (γ/‖u‖ I − ½γu/‖u‖³ 2uᵀ)∇_w L = s W^⊥ ∇_w L",
    source=Source(
        SEED_003,
        "Question 4.2",
        quote="\\left( \\frac{\\gamma}{\\|u\\|} I - \\frac{1}{2} \\frac{\\gamma u}{\\|u\\|^3} 2u^T "
        "\\right) \\nabla_w L = \\frac{\\gamma}{\\|u\\|} \\left( I - \\frac{uu^T}{\\|u\\|^2} \\right) "
        "\\nabla_w L",
    ),
    statement=r"\nabla_uL = \frac{\partial w(u)}{\partial u}\frac{\partial L}{\partial w} = "
    r"\Big(\frac{\gamma}{\|u\|}I-\frac12\frac{\gamma u}{\|u\|^3}2u^T\Big)\nabla_wL = "
    r"\frac{\gamma}{\|u\|}\Big(I-\frac{uu^T}{\|u\|^2}\Big)\nabla_wL",
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
    inputs={"u": Array("n"), "a": Array("n"), "c": Array("n", scale=(1.0, 1.0))},
    dims=_VEC_DIMS,
    relations=("=", "="),
    **_WN_WHERE,
    labels=("a = a_Vect(u) + a_Vect(u)^⊥", "W^⊥ a_Vect(u) = 0"),
    title="W^⊥a = W^⊥a_{Vect(u)^⊥} ∈ Vect(u)^⊥",
    source=Source(
        SEED_003,
        "Question 4.3",
        quote="W^\\perp a = W^\\perp (a_{\\text{Vect}(u_t)} + a_{\\text{Vect}(u_t)^\\perp}) = W^\\perp "
        "a_{\\text{Vect}(u_t)^\\perp} + 0 \\in \\text{Vect}(u_t)^\\perp",
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
    inputs=_STEP,
    dims=_VEC_DIMS,
    relations=("=", ">="),
    **_WN_WHERE,
    labels=("Pythagoras: u_t ⊥ αsW^⊥∇_wL", "a squared norm is ≥ 0"),
    title="‖u_{t+1}‖² = ‖u_t‖² + ‖αsW^⊥∇_wL‖² ≥ ‖u_t‖²",
    source=Source(
        SEED_003,
        "Question 4.3",
        quote="\\|u_{t+1}\\|^2 = \\|u_t\\|^2 + \\|\\alpha s W^\\perp \\nabla_{w_t} L\\|^2 \\geq \\|u_t\\|^2",
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
    **_WN_WHERE,
    title="A larger step size gives a larger ‖u_{t+1}‖",
    source=Source(
        SEED_003,
        "Question 4.3",
        quote="larger values of \\alpha implies larger values of \\|u_{t+1}\\| and leads to faster growth",
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


# ====================================================================== seed 004, Questions 4.2–4.3


@identity(
    "bn.mean_004",
    inputs=_BN3,
    dims=_DIMS,
    relations=("=", "="),
    labels=("u is not random: out of E", "E[x] = 0"),
    title="μ_y = E[uᵀx] = uᵀE[x] = 0 for centred inputs",
    source=Source(
        SEED_004,
        "Question 4.2",
        quote="\\mu_{u} = \\mathbb{E}[y] = \\mathbb{E}[u^{\\top}x] = u^{\\top}\\mathbb{E}[x] = 0",
    ),
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
    inputs=_BN3,
    dims=_DIMS,
    relations=("=", "=", "=", "=", "="),
    labels=(
        "μ_y = 0",
        "(uᵀx)² = (uᵀx)ᵀuᵀx",
        "scalar = its transpose",
        "pull u out of E",
        "E[xxᵀ] = Var(x) = I",
    ),
    title="σ_y² = E[(uᵀx)²] = uᵀE[xxᵀ]u = ‖u‖² for whitened inputs",
    source=Source(
        SEED_004,
        "Question 4.2",
        quote="\\sigma_u^2 = \\mathbb{E}[u^{\\top} x x^{\\top} u] = u^{\\top} \\mathbb{E}[x x^{\\top}] u = "
        "u^{\\top} I u = \\|u\\|_2^2",
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
    inputs={**_BN3, "s_raw": Array("n"), "gamma": Scalar(-10.0, 10.0), "beta": Scalar(-10.0, 10.0)},
    dims=_DIMS,
    relations=("=", "=", "="),
    where=_nonzero,
    labels=("μ_y = 0, σ_y = ‖u‖", "y = uᵀx", "w = γu/‖u‖"),
    title="ŷ = γ(y − μ_y)/σ_y + β = wᵀx + β for whitened, centred inputs",
    source=Source(
        SEED_004,
        "Question 4.2",
        quote="\\hat{y} = \\gamma \\cdot \\frac{u^{\\top}}{\\|u\\|_{2}} x + \\beta = w^{\\top} x + \\beta",
    ),
    statement=r"\hat y = \gamma\frac{y-\mu_y}{\sigma_y}+\beta = \gamma\frac{y-0}{\|u\|_2}+\beta = "
    r"\gamma\frac{u^\top}{\|u\|_2}x+\beta = w^\top x+\beta",
    expected=Verdict.HOLDS,
    same_as=("bn.identify_003", "bn.wn_equivalence_002"),
    notes="At a point x = Q s of the support; μ_y and σ_y computed exactly.",
)
def bn_wn_equivalence_004(xp, u, Q, s_raw, gamma, beta, n):
    Q = _whitening(xp, Q)
    X = _support(xp, Q, n)
    x = matvec(Q, _signs_xp(xp, s_raw))
    ys = _projections(xp, u, X)
    mu = _expect(xp, ys)
    sigma = xp.sqrt(_expect(xp, (ys - mu[:, None]) ** 2))
    y = dot(xp, u, x)
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
_QR_SOURCE = Source(
    SEED_004,
    "Question 4.3",
    quote="= \\gamma \\left( \\frac{\\partial u}{\\partial u} \\|u\\| - u \\frac{\\partial "
    "\\|u\\|}{\\partial u} \\right) x = \\gamma \\left( \\frac{I \\|u\\| - u \\frac{\\partial "
    "\\|u\\|}{\\partial u}}{\\|u\\|^{2}} \\right) x",
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
    **_WN_WHERE,
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
    **_WN_WHERE,
    labels=("quotient rule with its 1/‖u‖²", "(same expression)", "∂‖u‖/∂u = uᵀ/‖u‖", "factor W^⊥ γx/‖u‖"),
    title="∂ŷ/∂u by the quotient rule, with the denominator ‖u‖²",
    source=_QR_SOURCE,
    statement=r"\frac{\partial\hat y}{\partial u} = \gamma\Big(\frac{I\|u\|-u\frac{\partial\|u\|}{\partial "
    r"u}}{\|u\|^2}\Big)x = \gamma\Big(\frac{I\|u\|^2-uu^\top}{\|u\|^3}\Big)x = "
    r"\Big(I-\frac{uu^\top}{\|u\|^2}\Big)\frac{\gamma x}{\|u\|}",
    expected=Verdict.PROVED,
    corrects="wn.quotient_rule_004",
)
def wn_quotient_rule_corrected_004(xp, u, x, c, gamma):
    return _quotient_chain(xp, u, x, c, gamma, with_denominator=True)


@identity(
    "wn.grad_004",
    inputs={**_QR, "dl": Scalar(-10.0, 10.0)},
    dims=_VEC_DIMS,
    relations=("=", "="),
    **_WN_WHERE,
    labels=("chain rule through ŷ", "∇_wL = (∂L/∂ŷ) x, s = γ/‖u‖"),
    title="∇_u L = (∂L/∂ŷ)(I − uuᵀ/‖u‖²) γx/‖u‖ = (γ/‖u‖) W^⊥ ∇_w L",
    source=Source(
        SEED_004,
        "Question 4.3",
        quote="\\nabla_{u} L(u, \\gamma, \\beta) = \\frac{\\partial L}{\\partial \\hat{y}} \\Big( I - "
        "\\frac{u u^{\\top}}{\\|u\\|^{2}} \\Big) \\frac{\\gamma x}{\\|u\\|} = \\frac{\\gamma}{\\|u\\|} "
        "W^{\\perp} \\nabla_{w} L",
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
    **_WN_WHERE,
    title="W^⊥u = 0",
    source=Source(
        SEED_004,
        "Question 4.3",
        quote="where W^{\\perp} = \\left(I - \\frac{u u^{\\top}}{||u||^2}\\right). Note that {}^2 "
        "W^{\\perp} u = 0",
    ),
    statement=r"W^\perp u = \Big(I-\frac{uu^\top}{\|u\|^2}\Big)u = 0",
    expected=Verdict.PROVED,
    same_as=("wn.projector_002", "wn.orthogonal_update_003"),
    notes="The '^2' before W^⊥ in the document is a footnote mark left by the conversion.",
)
def wn_perp_u_zero_004(xp, u, c):
    return probe(xp, c, matvec(orth_projector(xp, u), u)), 0 * dot(xp, u, u)
