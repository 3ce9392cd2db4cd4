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
from checks._vocab.sources import S2_Q4_1, S2_Q4_2, S2_Q4_3
from checks.optim._helpers import (
    gram_schmidt_rows,
    orth_projector,
    probe,
    rademacher_support,
    u_nonzero,
    weight_from_direction,
)
from checks.optim._notation import WEIGHT_NORM
from lemmacheck import Array, Derived, Input, Scalar, Verdict, identity, inequality

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
    source=S2_Q4_1.quote("E[w^T x + b] = w^T E[x] + b = w^T(0) + b = b"),
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


_VAR_002_SOURCE = S2_Q4_1.quote(
    "Var[w^T x + b] = Var[w^T x] = E[(w^T x)^2] - (E[w^T x])^2 = E[w^T x w] - 0^2 = w^T E[x x^T] "
    "w = w^T w = \\|w\\|^2"
)
_VAR_002_STATEMENT = (
    r"\mathrm{Var}[w^Tx+b] = \mathrm{Var}[w^Tx] = \mathbb{E}[(w^Tx)^2]-(\mathbb{E}[w^Tx])^2 = "
    r"\mathbb{E}[w^Txw]-0^2 = w^T\mathbb{E}[xx^T]w = w^Tw = \|w\|^2"
)


def _var_chain_002(xp, w, b, n, fourth):
    """The six expressions of the chain over the exact support (x = r, independent ±1 entries), the
    fourth one given by ``fourth(X, y)`` (its reading)."""
    X = _support(xp, None, n)
    y = _projections(xp, w, X)
    yb = y + b[:, None]
    var_yb = _expect(xp, (yb - _expect(xp, yb)[:, None]) ** 2)
    var_y = _expect(xp, (y - _expect(xp, y)[:, None]) ** 2)
    exx = _expect(xp, X[:, :, :, None] * X[:, :, None, :] + 0 * w[:, None, :, None])  # E[xxᵀ], (batch, n, n)
    return (
        var_yb,
        var_y,
        _expect(xp, y**2) - _expect(xp, y) ** 2,
        fourth(X, y) - 0**2,
        dot(xp, w, matvec(exx, w)),
        dot(xp, w, w),
    )


@identity(
    "bn.preact_var_002",
    inputs=_BN2,
    dims={"n": [1]},
    relations=("=", "=", "=", "=", "="),
    labels=(
        "b is a constant",
        "Var = E[·²] − E[·]²",
        "E[(wᵀx)²] = E[wᵀxw] as written, E[wᵀx] = 0",
        "pull w out of E",
        "E[xxᵀ] = I",
    ),
    expected_broken_step=3,
    title="Variance of the pre-activation for whitened independent inputs, E[wᵀxw] as written",
    source=_VAR_002_SOURCE,
    statement=_VAR_002_STATEMENT,
    expected=Verdict.HOLDS,
    same_as=("bn.preact_var_002_xxt", "bn.var_uncorrelated_003", "bn.var_004"),
    notes="The fourth expression E[wᵀxw] read literally: wᵀx times w, a vector for n ≥ 2 (the equation is "
    "then ill-typed) and the scalar w²x for n = 1, where it is checked: E[w x w] = w² E[x] = 0, not E[(wx)²] "
    "= w², so the chain breaks at step 3 (and step 4) while its two ends agree (Var[wᵀx + b] = ‖w‖² "
    "holds). The reading with an xᵀ supplied, E[wᵀxxᵀw], is bn.preact_var_002_xxt, whose links all hold.",
)
def bn_preact_var_002(xp, w, b, n):
    # n = 1: wᵀxw = w x w, a scalar
    return _var_chain_002(xp, w, b, n, lambda X, y: _expect(xp, y * w[:, None, 0]))


@identity(
    "bn.preact_var_002_xxt",
    inputs=_BN2,
    dims=_DIMS,
    relations=("=", "=", "=", "=", "="),
    labels=(
        "b is a constant",
        "Var = E[·²] − E[·]²",
        "(wᵀx)² = wᵀxxᵀw (E[wᵀxw] read as E[wᵀxxᵀw]), E[wᵀx] = 0",
        "pull w out of E",
        "E[xxᵀ] = I",
    ),
    steps_claimed=True,
    proof_not_asserted="the document's fourth expression is E[wᵀxw]; this chain reads it as E[wᵀxxᵀw] (an "
    "xᵀ supplied by the catalogue). The chain as written is bn.preact_var_002, broken at step 3",
    title="Variance of the pre-activation for whitened independent inputs, E[wᵀxw] read as E[wᵀxxᵀw]",
    source=_VAR_002_SOURCE,
    statement=_VAR_002_STATEMENT.replace(r"\mathbb{E}[w^Txw]", r"\mathbb{E}[w^Txx^Tw]"),
    expected=Verdict.HOLDS,
    same_as=("bn.preact_var_002", "bn.var_uncorrelated_003", "bn.var_004"),
    notes="The reading that makes every link true: an xᵀ lost in the document or its conversion. E[xxᵀ] = "
    "I needs the entries uncorrelated with unit variance; the document assumes independence, which is more "
    "than needed (see bn.var_uncorrelated_003).",
)
def bn_preact_var_002_xxt(xp, w, b, n):
    return _var_chain_002(xp, w, b, n, lambda X, y: _expect(xp, y * y))


@identity(
    "bn.output_002",
    uses=("bn.preact_mean_002", "bn.preact_var_002"),
    inputs={**_BN2, "x_raw": Array("n")},
    dims=_DIMS,
    where=lambda xp, w, b, **_: _resolvable(xp, w, b),
    title="Batch-normalised output for whitened inputs is wᵀx/‖w‖",
    source=S2_Q4_1.quote(
        "y_{BN} = \\frac{w^T x + b - E[w^T x + b]}{\\sqrt{Var[w^T x + b]}} = \\frac{w^T x}{\\|w\\|}"
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


def _support_point(xp, u, Q, s_raw, n):
    """x = Q s at a sign vector s, y = uᵀx, and μ_y, σ_y computed exactly over the support of x = Q r."""
    Q = _whitening(xp, Q)
    X = _support(xp, Q, n)
    x = matvec(Q, _signs_xp(xp, s_raw))
    ys = _projections(xp, u, X)
    mu = _expect(xp, ys)
    sigma = xp.sqrt(_expect(xp, (ys - mu[:, None]) ** 2))
    return x, dot(xp, u, x), mu, sigma


def _bn_output(xp, u, Q, s_raw, gamma, beta, n):
    _, y, mu, sigma = _support_point(xp, u, Q, s_raw, n)
    return gamma * (y - mu) / sigma + beta


def _wn_output(xp, u, x, g, b):
    return dot(xp, weight_from_direction(xp, u, g), x) + b


#: seeds 003/004's batch norm at a point x = Q s of the whitened inputs' support: y = uᵀx, μ_y and σ_y its
#: mean and standard deviation over the support, ŷ = γ(y − μ_y)/σ_y + β the batch-normalised output
BN_POINT = WEIGHT_NORM.extend(
    "checks/optim/normalisation.py (BN_POINT)",
    {
        "x": Derived(_support_point, 0, doc="x = Q s"),
        "y": Derived(_support_point, 1, doc="uᵀx"),
        r"\mu_y": Derived(_support_point, 2, doc="E[y] over the support"),
        r"\sigma_y": Derived(_support_point, 3, doc="the standard deviation of y over the support"),
        r"\hat{y}": Derived(_bn_output, doc="γ(y − μ_y)/σ_y + β"),
    },
)


def _whitened_moment(body):
    """E[body] over the support of x = Q r (seeds 003/004), ``body(xp, u, X)`` at every support point."""

    def moment(xp, u, Q, n):
        return _expect(xp, body(xp, u, _support(xp, _whitening(xp, Q), n)))

    return moment


def _outer(X):
    return X[:, :, :, None] * X[:, :, None, :]


def _identity_like(xp, u):
    return xp.eye(u.shape[-1]) + 0 * u[:, :, None] * u[:, None, :]


def _centred_square(xp, u, Q, n):
    y = _projections(xp, u, _support(xp, _whitening(xp, Q), n))
    return _expect(xp, (y - _expect(xp, y)[:, None]) ** 2)


def _as_moment(body, doc: str) -> Derived:
    return Derived(_whitened_moment(body), doc=doc)


_E_X = _as_moment(lambda xp, u, X: X + 0 * u[:, None, :], "E[x] over the support")
_E_Y = _as_moment(lambda xp, u, X: _projections(xp, u, X), "E[uᵀx] over the support")
_E_Y2 = _as_moment(lambda xp, u, X: _projections(xp, u, X) ** 2, "E[(uᵀx)²] over the support")
_E_XX = _as_moment(lambda xp, u, X: _outer(X) + 0 * u[:, None, :, None], "E[xxᵀ] over the support")
_E_UXXU = _as_moment(
    lambda xp, u, X: xp.sum(xp.sum(u[:, None, :, None] * _outer(X) * u[:, None, None, :], axis=-1), axis=-1),
    "E[uᵀxxᵀu] over the support, the matrix product at each point",
)
#: seeds 003/004 Question 4: x = Q r centred and whitened (BN_WHITENED); each expectation E[·] the statements
#: write is the exact average of · over the 2^n points of the support, y = uᵀx, μ_y = E[y], σ_y² = E[(y−μ_y)²]
BN_MOMENTS = WEIGHT_NORM.extend(
    "checks/optim/normalisation.py (BN_MOMENTS)",
    {
        r"\mathbb{E}[x]": _E_X,
        r"\mathbb{E}[u^Tx]": _E_Y,
        r"\mathbb{E}[u^\top x]": _E_Y,
        r"\mathbb{E}[y]": _E_Y,
        r"\mu_y": _E_Y,
        r"\sigma_y^2": Derived(_centred_square, doc="E[(y − μ_y)²] over the support"),
        r"\mathbb{E}[(y-\mu_y)^2]": Derived(_centred_square, doc="E[(y − μ_y)²] over the support"),
        r"\mathbb{E}[y^2]": _E_Y2,
        r"\mathbb{E}[(u^\top x)^\top u^\top x]": _E_Y2,
        r"\mathbb{E}[u^\top xx^\top u]": _E_UXXU,
        r"\mathbb{E}[xx^\top]": _E_XX,
        "I": Derived(_identity_like, doc="the n × n identity"),
    },
)


def _independent_moment(body):
    """E[body] over the support of x = r (seed 002: independent ±1 entries), ``body(xp, w, b, X)``."""

    def moment(xp, w, b, n):
        return _expect(xp, body(xp, w, b, _support(xp, None, n) + 0 * w[:, None, :]))

    return moment


def _variance(xp, y):
    return _expect(xp, (y - _expect(xp, y)[:, None]) ** 2)


def _var_shifted(xp, w, b, n):
    return _variance(xp, _projections(xp, w, _support(xp, None, n)) + b[:, None])


def _var_centred(xp, w, n):
    return _variance(xp, _projections(xp, w, _support(xp, None, n)))


def _m002(body, doc: str) -> Derived:
    return Derived(_independent_moment(body), doc=doc)


def _bn_002(xp, w, b, x_raw, n):
    """y_BN at the support point x = signs(x_raw): (wᵀx + b − E[wᵀx + b])/√Var[wᵀx + b]."""
    mean = _expect(xp, _projections(xp, w, _support(xp, None, n)) + b[:, None])
    return (dot(xp, w, _signs_xp(xp, x_raw)) + b - mean) / xp.sqrt(_var_shifted(xp, w, b, n))


def _first_entry_wxw(xp, w, b, X):
    return _projections(xp, w, X) * w[:, None, 0]


#: seed 002 Question 4.1: x = r with independent ±1 entries; each E[·] and Var[·] the exact average over
#: the 2^n points of the support; x at a point of it the signs of x_raw; wᵀxw as written is a vector for
#: n ≥ 2 and the scalar w x w at n = 1, the only size bn.preact_var_002 reads it at
BN_MOMENTS_002 = WEIGHT_NORM.extend(
    "checks/optim/normalisation.py (BN_MOMENTS_002)",
    {
        r"\mathbb{E}[w^Tx+b]": _m002(lambda xp, w, b, X: _projections(xp, w, X) + b[:, None], "E[wᵀx + b]"),
        r"\mathbb{E}[x]": _m002(lambda xp, w, b, X: X, "E[x]"),
        r"\mathbb{E}[w^Tx]": _m002(lambda xp, w, b, X: _projections(xp, w, X), "E[wᵀx]"),
        r"\mathbb{E}[(w^Tx)^2]": _m002(lambda xp, w, b, X: _projections(xp, w, X) ** 2, "E[(wᵀx)²]"),
        r"\mathbb{E}[w^Txw]": _m002(_first_entry_wxw, "E[wᵀx·w] at n = 1"),
        r"\mathbb{E}[w^Txx^Tw]": _m002(lambda xp, w, b, X: _projections(xp, w, X) ** 2, "E[wᵀxxᵀw]"),
        r"\mathbb{E}[xx^T]": _m002(lambda xp, w, b, X: _outer(X), "E[xxᵀ]"),
        r"\mathrm{Var}[w^Tx+b]": Derived(_var_shifted, doc="Var[wᵀx + b]"),
        r"\mathrm{Var}[w^Tx]": Derived(_var_centred, doc="Var[wᵀx]"),
        "x": Derived(
            lambda xp, x_raw: _signs_xp(xp, x_raw), doc="a point of the support: the signs of x_raw"
        ),
        "w": Input("w"),
        "y_{BN}": Derived(_bn_002, doc="(wᵀx + b − E[wᵀx + b])/√Var[wᵀx + b]"),
    },
)
#: seed 002 Question 4.1: y_WN = wᵀx + b with w = g u/‖u‖ (the gain is g there)
WN_OUTPUT_002 = WEIGHT_NORM.extend(
    "checks/optim/normalisation.py (WN_OUTPUT_002)", {"y_{WN}": Derived(_wn_output, doc="wᵀx + b")}
)
claim_symbols = {
    "wn.output_002": WN_OUTPUT_002,
    **dict.fromkeys(
        ("bn.preact_mean_002", "bn.preact_var_002", "bn.preact_var_002_xxt", "bn.output_002"), BN_MOMENTS_002
    ),
}


@identity(
    "wn.output_002",
    inputs={"u": Array("n"), "x": Array("n"), "g": Scalar(-10.0, 10.0), "b": Scalar(-10.0, 10.0)},
    dims=_VEC_DIMS,
    where=u_nonzero,
    title="Weight-normalised output",
    source=S2_Q4_1.quote(
        "y_{WN} = \\left(\\frac{g}{\\|u\\|} u\\right)^T x + b = g \\frac{u^T x}{\\|u\\|} + b"
    ),
    statement=r"y_{WN} = \Big(\frac{g}{\|u\|}u\Big)^Tx+b = g\frac{u^Tx}{\|u\|}+b",
    expected=Verdict.PROVED,
    same_as=("wn.eq19_003",),
)
def wn_output_002(xp, u, x, g, b):
    return (dot(xp, weight_from_direction(xp, u, g), x) + b, g * dot(xp, u, x) / xp.sqrt(dot(xp, u, u)) + b)


@identity(
    "bn.wn_equivalence_002",
    uses=("bn.output_002", "wn.output_002"),
    inputs={"u": Array("n"), "k": Scalar(1e-2, 1e2, log=True), "b": Scalar(-10.0, 10.0), "x_raw": Array("n")},
    dims=_DIMS,
    where=lambda xp, u, k, b, **_: _resolvable(xp, u, b, k),
    title="Ignoring learned scale and shift, y_WN equals y_BN for whitened inputs",
    source=S2_Q4_1.quote(
        "in the condition of ignoring the learned scale and shift terms for both BN and WN, we can "
        "say in this case y_{WN} is equivalent to y_{BN}"
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
#: u ≠ 0, the loss gradient ∇_w L, a probe c and the gain: the gradient through w = γu/‖u‖
WN_GRADIENT = {"inputs": _WN, "dims": _VEC_DIMS, "where": u_nonzero}
#: u ≠ 0, a vector a and a probe c: the projections onto u and its orthogonal complement
WN_PROJECTED = {
    "inputs": {"u": Array("n"), "a": Array("n"), "c": Array("n", scale=(1.0, 1.0))},
    "dims": _VEC_DIMS,
    "where": u_nonzero,
}


@identity(
    "wn.jacobian_002",
    inputs={k: v for k, v in _WN.items() if k != "gw"},
    dims=_VEC_DIMS,
    where=u_nonzero,
    title="Jacobian of w = g u/‖u‖: ∇_u w = (g/‖u‖)(I − uuᵀ/‖u‖²)",
    source=S2_Q4_2.quote("\\nabla_u w = \\frac{g}{\\|u\\|} \\left( I - \\frac{u u^T}{\\|u\\|^2} \\right)"),
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
    uses=("wn.s002.projection_onto_u",),
    **WN_PROJECTED,
    relations=("=", "="),
    labels=("W* a = a − v(vᵀa), v = u/‖u‖", "W* is idempotent (a projection)"),
    title="I − uuᵀ/‖u‖² is the projection onto the orthogonal complement of u",
    source=S2_Q4_2.quote(
        "I - \\frac{u u^T}{\\|u\\|^2} (that is I - vv^T) is the orthogonal complement projection "
        "matrix, because : (I - vv^T)a = a - v(v^T a)"
    ),
    statement=r"W^* = I-\frac{uu^T}{\|u\|^2} = I-vv^T,\quad (I-vv^T)a = a-v(v^Ta),\quad W^*W^* = W^*",
    expected=Verdict.PROVED,
    same_as=("wn.orthogonal_update_003", "wn.perp_u_zero_004"),
    steps_claimed=True,
    proof_not_asserted="the document asserts only (I - vvᵀ)a = a - v(vᵀa); the second link, W*W* = W*, is "
    "the catalogue's check that W* is a projection",
    notes="The document uses W* for the matrix seed 003 and 004 call W^⊥.",
)
def wn_projector_002(xp, u, a, c):
    P = orth_projector(xp, u)
    v = u / xp.sqrt(dot(xp, u, u))[:, None]
    Pa = matvec(P, a)
    return (probe(xp, c, Pa), probe(xp, c, a - v * dot(xp, v, a)[:, None]), probe(xp, c, matvec(P, Pa)))


@identity(
    "wn.grad_002",
    uses=("wn.jacobian_002",),
    **WN_GRADIENT,
    relations=("=", "="),
    labels=("chain rule: ∇_w L · ∇_u w", "s = g/‖u‖ is a scalar, W* symmetric"),
    title="Gradient of the weight-norm parametrisation: ∇_u L = s W* ∇_w L, s = g/‖u‖",
    source=S2_Q4_2.quote(
        "\\nabla_u L = \\nabla_w L \\cdot \\frac{g}{\\|u\\|} \\cdot W^* ... \\nabla_u L = sW^* "
        "\\cdot \\nabla_w L where s = \\frac{g}{\\|u\\|}"
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
#: u ≠ 0, ∇_w L, the gain and a step size α: one gradient step on u
WN_STEP = {"inputs": _STEP, "dims": _VEC_DIMS, "where": u_nonzero}


def _step_at(gain_name: str):
    def step(xp, u, gw, gain, **inputs):
        return _wn_step(xp, u, gw, gain, inputs[gain_name])[0]

    return step


#: seeds 002/003 Question 4.3: one step u_{t+1} = u_t − αsW^⊥∇_wL from the sampled u_t (u), ∇_wL (gw);
#: u_{t+1}(α') the same step with the second sampled rate alpha2; ‖·‖ Euclidean
WN_UPDATE_STEP = WEIGHT_NORM.extend(
    "checks/optim/normalisation.py (WN_UPDATE_STEP)",
    {
        "u_t": Input("u"),
        "u_{t+1}": Derived(_step_at("alpha"), doc="u_t − αsW^⊥∇_wL"),
        r"u_{t+1}(\alpha)": Derived(_step_at("alpha"), doc="u_t − αsW^⊥∇_wL"),
        r"u_{t+1}(\alpha')": Derived(_step_at("alpha2"), doc="u_t − α'sW^⊥∇_wL"),
        r"\alpha'": Input("alpha2"),
    },
)


def _bn_of_ku(xp, u, k, b, x_raw, n):
    """y_BN of w = k u at the support point x = signs(x_raw), the mean and variance over x = r's support."""
    return _bn_002(xp, k[:, None] * u, b, x_raw, n)


def _wn_plain(xp, u, x_raw):
    """y_WN with the premise's g = 1, b_WN = 0: uᵀx/‖u‖ at the support point x = signs(x_raw)."""
    return _wn_output(xp, u, _signs_xp(xp, x_raw), 1 + 0 * u[:, 0], 0 * u[:, 0])


#: seed 002 Question 4.1's equivalence: y_WN with g = 1, b_WN = 0 (the premise), y_BN of w = k u (the
#: statement defines w), both at a point x of the support of x = r
WN_BN_002 = WEIGHT_NORM.extend(
    "checks/optim/normalisation.py (WN_BN_002)",
    {
        "y_{WN}": Derived(_wn_plain, doc="(u/‖u‖)ᵀx: g = 1, b_WN = 0"),
        "y_{BN}": Derived(_bn_of_ku, doc="(wᵀx + b − E[wᵀx + b])/√Var[wᵀx + b], w = k u"),
        "x": Derived(
            lambda xp, x_raw: _signs_xp(xp, x_raw), doc="a point of the support: the signs of x_raw"
        ),
    },
)


def _projector(xp, u):
    return orth_projector(xp, u)


def _grad_u(xp, u, gw, gain):
    """∇_u L = (∂w/∂u)ᵀ∇_w L entry by entry: ∇_w Lᵀ Dw(u)[e_k], the quotient-rule directional derivative
    along each coordinate (independent of the projection form s W^⊥ ∇_w L)."""
    entries = []
    for k in range(u.shape[-1]):
        e = 0 * u
        e[:, k] = e[:, k] + 1
        entries.append(dot(xp, gw, _dw(xp, u, gain, e)))
    return xp.stack(entries, axis=-1)


_GRAD_U = Derived(_grad_u, doc="(∂w/∂u)ᵀ∇_wL by the quotient rule, coordinate by coordinate")
#: seeds 002-004 Question 4.2-4.3's matrices and gradients: W* (seed 002) and W^⊥ (003, 004) the projector
#: I − uuᵀ/‖u‖², ∇_wL the sampled gw, the gain g (002) or γ (003, 004), u_t, u_{t+1} one step
WN_MATRICES = WN_UPDATE_STEP.extend(
    "checks/optim/normalisation.py (WN_MATRICES)",
    {
        "W^*": Derived(_projector, doc="I − uuᵀ/‖u‖²"),
        r"W^\perp": Derived(_projector, doc="I − uuᵀ/‖u‖²"),
        "I": Derived(_identity_like, doc="the n × n identity"),
        r"\nabla_wL": Input("gw"),
        r"\nabla_wL_t": Input("gw"),
        r"\nabla_{w_t}L": Input("gw"),
        r"\nabla_uL": _GRAD_U,
        r"\frac{\partial w(u)}{\partial u}\frac{\partial L}{\partial w}": _GRAD_U,
        "g": Input("gain"),
        r"\gamma": Input("gain"),
        "s": Derived(lambda xp, u, gain: gain / xp.sqrt(dot(xp, u, u)), doc="γ/‖u‖"),
    },
)


def _jacobian_w(xp, u, gain):
    """∂w/∂u of w = g u/‖u‖, column k the quotient-rule directional derivative along e_k (independent of
    the closed form (g/‖u‖)(I − uuᵀ/‖u‖²) the statement writes)."""
    columns = []
    for k in range(u.shape[-1]):
        e = 0 * u
        e[:, k] = e[:, k] + 1
        columns.append(_dw(xp, u, gain, e))
    return xp.stack(columns, axis=-1)


def _probe_c_c(xp, side, inputs):
    """cᵀMc of a matrix side (cᵀv of a vector): wn.jacobian_002 compares the Jacobian applied to c."""
    c = inputs["c"]
    return dot(xp, c, matvec(side, c) if side.ndim == 3 else side)


#: seed 002 Question 4.2: ∇_u w is the Jacobian ∂w/∂u of w = g u/‖u‖ ("\nabla_u w = \frac{g}{\|u\|}(I − …)")
WN_JACOBIAN = WN_MATRICES.extend(
    "checks/optim/normalisation.py (WN_JACOBIAN)",
    {r"\nabla_u w": Derived(_jacobian_w, doc="∂w/∂u, column by column by the quotient rule")},
    probe_fn=_probe_c_c,
)


def _row_times_projector(xp, u, gw, gain):
    """(∇_wLᵀ · g/‖u‖ · W*)ᵀ: the row vector ∇_wLᵀ times the matrix, written back as a column."""
    s = gain / xp.sqrt(dot(xp, u, u))
    return s[:, None] * xp.sum(gw[:, :, None] * orth_projector(xp, u), axis=1)


#: seed 002 Question 4.2 writes "∇_u L = ∇_w L · g/‖u‖ · W*", the gradient on the LEFT of W*: a row vector
#: times the matrix (the compiler refuses a column vector there), named as one phrase; a drift inside the
#: phrase is therefore not seen, the second form sW*·∇_wL is read symbol by symbol
WN_GRAD_002 = WN_MATRICES.extend(
    "checks/optim/normalisation.py (WN_GRAD_002)",
    {r"\nabla_wL\cdot\frac{g}{\|u\|}\cdot W^*": Derived(_row_times_projector, doc="(∇_wLᵀ s W*)ᵀ")},
)
#: the claims below read with the tables above (defined beside the step they use)
claim_symbols.update(
    {
        "wn.jacobian_002": WN_JACOBIAN,
        "wn.pythagoras_002": WN_MATRICES,
        "wn.grad_002": WN_GRAD_002,
        "bn.wn_equivalence_002": WN_BN_002,
        "wn.norm_growth_002": WN_UPDATE_STEP,
    }
)


@identity(
    "wn.pythagoras_002",
    uses=("wn.grad_002", "wn.s002.orthogonal_step"),
    **WN_STEP,
    title="Squared norm after a gradient step on u: ‖u_{t+1}‖² = ‖u_t‖² + α²s²‖W*∇_wL_t‖²",
    source=S2_Q4_3.quote("\\|u_{t+1}\\|^2 = \\|u_t\\|^2 + \\alpha^2 s^2 \\|W^* \\cdot \\nabla_w L_t\\|^2"),
    statement=r"\|u_{t+1}\|^2 = \|u_t\|^2+\alpha^2s^2\|W^*\cdot\nabla_wL_t\|^2",
    expected=Verdict.PROVED,
    same_as=("wn.pythagoras_003",),
)
def wn_pythagoras_002(xp, u, gw, gain, alpha):
    u1, s, pg = _wn_step(xp, u, gw, gain, alpha)
    return dot(xp, u1, u1), dot(xp, u, u) + alpha**2 * s**2 * dot(xp, pg, pg)


@inequality(
    "wn.norm_growth_002",
    uses=("wn.pythagoras_002",),
    **WN_STEP,
    title="The norm of u never decreases under gradient descent: ‖u_t‖ ≤ ‖u_{t+1}‖",
    source=S2_Q4_3.quote("\\|u_t\\|^2 \\leq \\|u_{t+1}\\|^2 \\implies \\|u_t\\| \\leq \\|u_{t+1}\\|"),
    statement=r"\|u_t\|^2\le\|u_{t+1}\|^2 \implies \|u_t\|\le\|u_{t+1}\|",
    expected=Verdict.PROVED,
    same_as=("wn.pythagoras_003",),
    notes="Tightness 1: equality when ∇_wL is parallel to u (W*∇_wL = 0).",
)
def wn_norm_growth_002(xp, u, gw, gain, alpha):
    u1, _, _ = _wn_step(xp, u, gw, gain, alpha)
    return xp.sqrt(dot(xp, u, u)), xp.sqrt(dot(xp, u1, u1))
