r"""Seed 003, Question 1: initialisation of a^{(t)} = W^{(t)} h^{(t-1)} + b^{(t)} so that E[a] = 0, V[a] = 1.

Each moment identity is checked *exactly* on discrete laws: supports and probabilities are the sampled
inputs and expectations are finite sums, so there is no Monte Carlo noise and a failure is a real
counterexample.  The assumptions the derivation leans on (independence of W and h, uncorrelated entries,
symmetry of a) are imposed by construction where the document assumes them, and dropped in the claims
that test whether they are needed.  Variance propagation through deep random networks is measured in
the study ``init.propagation``.
"""

import itertools
from fractions import Fraction

from checks._vocab.sources import S3_Q1
from checks.gradflow._helpers import distinct_support, expect, positive_support, standardize, symmetric_law
from checks.gradflow._notation import LAW, LAW_STANDARDISED, SYMMETRIC_LAW
from checks.gradflow._notation import symbols as gradflow_notation
from lemmacheck import Array, Derived, ProbVector, Scalar, Verdict, identity, prop, value

SUPPORT = dict(scale=(0.1, 3.0), transform=distinct_support)
GRID2 = list(itertools.product(range(3), repeat=2))  # the 9 configurations of two 3-point variables


def _iid_pair(xp, s, p):
    """Two i.i.d. copies of the law (s, p): values (batch, 9, 2) and probabilities (batch, 9)."""
    vals = xp.stack([xp.stack([s[:, g[0]], s[:, g[1]]], axis=-1) for g in GRID2], axis=1)
    probs = xp.stack([p[:, g[0]] * p[:, g[1]] for g in GRID2], axis=1)
    return vals, probs


def _joint_from_supports(xp, sh):
    """Values (batch, 9, 2) of (h_1, h_2) on the grid of their 3-point supports sh (batch, 2, 3)."""
    return xp.stack([xp.stack([sh[:, 0, g[0]], sh[:, 1, g[1]]], axis=-1) for g in GRID2], axis=1)


EQ14_INPUTS = {
    "c": Scalar(-3.0, 3.0),
    "sw": Array(3, **SUPPORT),
    "pw": ProbVector(3),
    "sh": Array(2, 3, **SUPPORT),
    "ph": ProbVector(9),
}


@identity(
    "init.s003.eq1_4",
    inputs=EQ14_INPUTS,
    dims={},
    relations=("=", "=", "="),
    labels=("(2) linearity", "(3) W independent of h", "(4) w_ij i.i.d."),
    title="(1)-(4): E[a_i] = c + sum_j E[w_ij h_j] = c + sum_j E[w_ij]E[h_j] = c + E[w_i1] sum_j E[h_j]",
    source=S3_Q1.at("eq. (1)-(4)").quote(
        "c = -\\mathbb{E}[w_{i1}^{(t)}] \\sum_{j=1}^{d^{(t-1)}} \\mathbb{E}[h_j^{(t-1)}] (4)"
    ),
    statement=r"\mathbb{E}[a_i] = 0 \iff c = -\sum_j \mathbb{E}[w_{ij}h_j] = "
    r"-\sum_j\mathbb{E}[w_{ij}]\mathbb{E}[h_j] = -\mathbb{E}[w_{i1}]\sum_j\mathbb{E}[h_j]",
    expected=Verdict.HOLDS,
    notes="d = 2, three-point laws: the weights i.i.d., h an arbitrary joint law (its entries may depend "
    "on each other) independent of W, as the document assumes. Checked as the chain of values of E[a_i] "
    "each equivalence rearranges. With E[h_j] = 0 (part 1) it gives c = 0.",
)
def eq1_4(xp, c, sw, pw, sh, ph):
    wv, wp = _iid_pair(xp, sw, pw)
    hv = _joint_from_supports(xp, sh)
    prob = wp[:, :, None] * ph[:, None, :]  # (batch, w-config, h-config)
    prods = wv[:, :, None, :] * hv[:, None, :, :]  # w_j h_j on every joint configuration
    e_a = c + xp.sum(xp.sum(prob * xp.sum(prods, axis=-1), axis=-1), axis=-1)
    e_wh = [xp.sum(xp.sum(prob * prods[..., j], axis=-1), axis=-1) for j in range(2)]
    e_w = expect(xp, pw, sw)
    e_h = [expect(xp, ph, hv[:, :, j]) for j in range(2)]
    return (e_a, c + e_wh[0] + e_wh[1], c + e_w * e_h[0] + e_w * e_h[1], c + e_w * (e_h[0] + e_h[1]))


@identity(
    "init.s003.eq3_needs_independence",
    inputs={"sw": Array(3, **SUPPORT), "sh": Array(3, **SUPPORT), "pj": ProbVector(9)},
    dims={},
    title="without W independent of h, E[w h] = E[w] E[h] (step (2) -> (3)) fails",
    source=S3_Q1.at("eq. (3) (hypothesis W^{(t)} independent of h^{(t-1)})").quote(
        "W^{(t)} \\perp h^{(t-1)} \\rightarrow \\Leftrightarrow c = - \\sum_{j=1}^{d^{(t-1)}} "
        "\\mathbb{E}[w_{ij}^{(t)}] \\mathbb{E}[h_j^{(t-1)}] (3)"
    ),
    statement=r"\mathbb{E}[w_{ij}h_j] = \mathbb{E}[w_{ij}]\,\mathbb{E}[h_j]\ \text{for an arbitrary joint "
    r"law of }(w_{ij}, h_j)",
    expected=Verdict.REFUTED,
    notes="Tests whether the hypothesis W ⊥ h can be dropped: it cannot (any joint 3 x 3 law with Cov[w, "
    "h] != 0). Not a claim of the document; the hypothesis does hold in a feed-forward network at "
    "initialisation, since h^{(t-1)} is a function of earlier layers' weights and the input only.",
)
def eq3_needs_independence(xp, sw, sh, pj):
    """E[wh] against E[w]E[h] for a dependent pair."""
    wv = xp.stack([sw[:, g[0]] for g in GRID2], axis=1)
    hv = xp.stack([sh[:, g[1]] for g in GRID2], axis=1)
    return expect(xp, pj, wv * hv), expect(xp, pj, wv) * expect(xp, pj, hv)


@identity(
    "init.s003.eq5_7",
    inputs={"c": Scalar(-3.0, 3.0), "s": Array(4, 2, **SUPPORT), "p": ProbVector(16)},
    dims={},
    relations=("=", "="),
    labels=("(6) c is a constant", "(7) variance of a sum"),
    title="(5)-(7): V[c + sum_j w_j h_j] = V[sum_j w_j h_j] = sum_j V[w_j h_j] + 2 sum_{j1<j2} Cov",
    source=S3_Q1.at("eq. (5)-(7)").quote(
        "1 = \\sum_{j=1}^{d^{(t-1)}} \\mathbb{V}[w_{ij}^{(t)} h_j^{(t-1)}] + 2 \\sum_{1 \\leq j_1 < "
        "j_2 \\leq d^{(t-1)}} \\text{Cov}[...] (7)"
    ),
    statement=r"\mathbb{V}\Big[c + \sum_j w_{ij}h_j\Big] = \mathbb{V}\Big[\sum_j w_{ij}h_j\Big] = \sum_j "
    r"\mathbb{V}[w_{ij}h_j] + 2\sum_{j_1<j_2}\mathrm{Cov}[w_{ij_1}h_{j_1}, w_{ij_2}h_{j_2}]",
    expected=Verdict.HOLDS,
    notes="No assumption needed: d = 2 and an arbitrary joint law of (w_1, h_1, w_2, h_2) on a 2-point "
    "grid per variable (16 atoms).",
)
def eq5_7(xp, c, s, p):
    grid = list(itertools.product(range(2), repeat=4))
    vals = xp.stack([xp.stack([s[:, v, g[v]] for v in range(4)], axis=-1) for g in grid], axis=1)
    x1, x2 = vals[..., 0] * vals[..., 1], vals[..., 2] * vals[..., 3]

    def var(f):
        m = expect(xp, p, f)
        return expect(xp, p, (f - m[:, None]) ** 2)

    m1, m2 = expect(xp, p, x1), expect(xp, p, x2)
    cov = expect(xp, p, (x1 - m1[:, None]) * (x2 - m2[:, None]))
    return var(c[:, None] + x1 + x2), var(x1 + x2), var(x1) + var(x2) + 2 * cov


def _var_product_independent(xp, sw, pw, sh, ph):
    """V[w h] for independent w ~ (sw, pw), h ~ (sh, ph), by enumeration of the product law."""
    prob = pw[:, :, None] * ph[:, None, :]
    prod = sw[:, :, None] * sh[:, None, :]
    m = xp.sum(xp.sum(prob * prod, axis=-1), axis=-1)
    return xp.sum(xp.sum(prob * (prod - m[:, None, None]) ** 2, axis=-1), axis=-1)


@identity(
    "init.s003.eq9",
    inputs={"sw": Array(3, **SUPPORT), "pw": ProbVector(3), "sh": Array(3, **SUPPORT), "ph": ProbVector(3)},
    dims={},
    title="V[w h] = V[w](V[h] + E[h]^2) + V[h] E[w]^2 for independent w, h (the term of (9))",
    source=S3_Q1.at("eq. (9)").quote(
        "\\mathbb{V}[w_{ij}^{(t)}] \\left( \\mathbb{V}[h_j^{(t-1)}] + \\mathbb{E}[h_j^{(t-1)}]^2 "
        "\\right) + \\mathbb{V}[h_j^{(t-1)}] \\mathbb{E}[w_{ij}^{(t)}]^2 (9)"
    ),
    statement=r"w \perp h \implies \mathbb{V}[wh] = \mathbb{V}[w]\left(\mathbb{V}[h] + "
    r"\mathbb{E}[h]^2\right) + \mathbb{V}[h]\,\mathbb{E}[w]^2",
    expected=Verdict.PROVED,
    notes="Exact on independent 3-point laws; proved in SymPy from V[wh] = E[w^2]E[h^2] - E[w]^2E[h]^2. In "
    "(9) the last term sits outside the sum sign as typeset; read inside (it is in (10)).",
)
def eq9(xp, sw, pw, sh, ph):
    ew, eh = expect(xp, pw, sw), expect(xp, ph, sh)
    vw, vh = expect(xp, pw, (sw - ew[:, None]) ** 2), expect(xp, ph, (sh - eh[:, None]) ** 2)
    return _var_product_independent(xp, sw, pw, sh, ph), vw * (vh + eh * eh) + vh * ew * ew


@identity(
    "init.s003.eq8_10",
    uses=("init.s003.eq5_7", "init.s003.eq9"),
    inputs={
        "sw": Array(3, **SUPPORT),
        "pw": ProbVector(3),
        "sh": Array(2, 3, **SUPPORT),
        "ph1": ProbVector(3),
        "ph2": ProbVector(3),
    },
    dims={},
    relations=("=", "=", "="),
    labels=("(8) covariances vanish", "(9)", "(10) E[h]=0, V[h]=1, w i.i.d."),
    title="(8)-(10): with E[h_j] = 0, V[h_j] = 1, uncorrelated h, i.i.d. w: 1 = d (V[w] + E[w]^2)",
    source=S3_Q1.at("part 1, eq. (8)-(10)").quote(
        "1 = \\sum_{j=1}^{d^{(t-1)}} \\mathbb{V}[w_{ij}^{(t)}] + \\mathbb{E}[w_{ij}^{(t)}]^2 = "
        "d^{(t-1)} \\left( \\mathbb{V}[w_{i1}^{(t)}] + \\mathbb{E}[w_{i1}^{(t)}]^2 \\right) (10)"
    ),
    statement=r"\mathbb{V}\Big[\sum_j w_{ij}h_j\Big] = \sum_j\mathbb{V}[w_{ij}h_j] = \sum_j "
    r"\mathbb{V}[w_{ij}](\mathbb{V}[h_j] + \mathbb{E}[h_j]^2) + \mathbb{V}[h_j]\mathbb{E}[w_{ij}]^2 = "
    r"d\left(\mathbb{V}[w_{i1}] + \mathbb{E}[w_{i1}]^2\right)",
    expected=Verdict.HOLDS,
    corrects="init.s003.eq10_as_typeset",
    steps_claimed=True,
    proof_not_asserted="the catalogue's chain with the brackets of (9) and (10) restored around both terms; "
    "as typeset, (10) is init.s003.eq10_as_typeset (REFUTED)",
    notes="d = 2; h_1, h_2 independent standardised 3-point laws (so uncorrelated, mean 0, variance 1), "
    "weights i.i.d. and independent of h; the weights' mean is not zero, so (8)'s covariances vanish "
    "because the h_j are uncorrelated.",
)
def eq8_10(xp, sw, pw, sh, ph1, ph2):
    h1, h2 = standardize(xp, sh[:, 0], ph1), standardize(xp, sh[:, 1], ph2)
    wv, wp = _iid_pair(xp, sw, pw)
    hv = xp.stack([xp.stack([h1[:, g[0]], h2[:, g[1]]], axis=-1) for g in GRID2], axis=1)
    hp = xp.stack([ph1[:, g[0]] * ph2[:, g[1]] for g in GRID2], axis=1)
    prob = wp[:, :, None] * hp[:, None, :]
    total = xp.sum(wv[:, :, None, :] * hv[:, None, :, :], axis=-1)
    m = xp.sum(xp.sum(prob * total, axis=-1), axis=-1)
    v_total = xp.sum(xp.sum(prob * (total - m[:, None, None]) ** 2, axis=-1), axis=-1)
    v_terms = _var_product_independent(xp, sw, pw, h1, ph1) + _var_product_independent(xp, sw, pw, h2, ph2)
    ew = expect(xp, pw, sw)
    vw = expect(xp, pw, (sw - ew[:, None]) ** 2)
    terms9 = 0 * ew
    for h, ph in ((h1, ph1), (h2, ph2)):
        eh = expect(xp, ph, h)
        vh = expect(xp, ph, (h - eh[:, None]) ** 2)
        terms9 = terms9 + vw * (vh + eh * eh) + vh * ew * ew
    return v_total, v_terms, terms9, 2 * (vw + ew * ew)


def _upper_end(xp, alpha, width):
    return alpha + width


#: seed 003 part 1(b): U(α, β) with β = α + width (the check samples the width, so that β > α)
claim_symbols = {
    "init.s003.relu_mean_positive": SYMMETRIC_LAW,
    "init.s003.relu_var_line": LAW,
    "init.s003.relu_var_line_fixed": LAW,
    "init.s003.relu_half_needs_symmetry": LAW_STANDARDISED,
    "init.s003.uniform_moments": gradflow_notation.extend(
        "checks/gradflow/init.py (claim_symbols)", {r"\beta": Derived(_upper_end, doc="α + width")}
    ),
}


@identity(
    "init.s003.uniform_moments",
    inputs={"alpha": Scalar(-3.0, 3.0), "width": Scalar(0.01, 4.0)},
    dims={},
    title="U(alpha, beta): V + E^2 = (beta-alpha)^2/12 + (alpha+beta)^2/4 = (alpha^2 + beta^2 + alpha "
    "beta)/3",
    source=S3_Q1.at("part 1(b)").quote(
        "= d^{(t-1)} \\left[ \\frac{(\\beta - \\alpha)^2}{12} + \\frac{(\\alpha + \\beta)^2}{4} "
        "\\right] = d^{(t-1)} \\frac{\\alpha^2 + \\beta^2 + \\alpha\\beta}{3}"
    ),
    statement=r"\frac{(\beta-\alpha)^2}{12} + \frac{(\alpha+\beta)^2}{4} = "
    r"\frac{\alpha^2+\beta^2+\alpha\beta}{3}",
    expected=Verdict.PROVED,
    notes="SymPy integrates w^2 against the uniform density (E[w^2] = V + E^2) and simplifies.",
)
def uniform_moments(xp, alpha, width):
    beta = _upper_end(xp, alpha, width)
    return (
        (beta - alpha) ** 2 / 12 + (alpha + beta) ** 2 / 4,
        (alpha * alpha + beta * beta + alpha * beta) / 3,
    )


GENERAL_LAW = {"s": Array(4, **SUPPORT), "p": ProbVector(4)}


@identity(
    "init.s003.relu_var_line",
    inputs=GENERAL_LAW,
    dims={},
    title="'1 = V[a] <=> 1 = E[a]^2 - E[a]^2' (seed 003, part 2, first line as written)",
    source=S3_Q1.at("part 2").quote(
        "1 = \\mathbb{V}[a_j^{(t-1)}] &\\Leftrightarrow 1 = \\mathbb{E}[a_j^{(t-1)}]^2 - "
        "\\underbrace{\\mathbb{E}[a_j^{(t-1)}]^2}_{=0}"
    ),
    statement=r"\mathbb{V}[a] = \mathbb{E}[a]^2 - \mathbb{E}[a]^2",
    expected=Verdict.REFUTED,
    notes="As written the right side is identically 0. Presumably E[a^2] - E[a]^2 was meant (the next line "
    "integrates x^2); the square may have been misplaced by the PDF conversion. Corrected: "
    "init.s003.relu_var_line_fixed.",
)
def relu_var_line(xp, s, p):
    m = expect(xp, p, s)
    return expect(xp, p, (s - m[:, None]) ** 2), m * m - m * m


@identity(
    "init.s003.relu_var_line_fixed",
    inputs=GENERAL_LAW,
    dims={},
    title="V[a] = E[a^2] - E[a]^2",
    source=S3_Q1.at("part 2 (corrected)").cite(),
    statement=r"\mathbb{V}[a] = \mathbb{E}[a^2] - \mathbb{E}[a]^2",
    expected=Verdict.HOLDS,
    corrects="init.s003.relu_var_line",
)
def relu_var_line_fixed(xp, s, p):
    m = expect(xp, p, s)
    return expect(xp, p, (s - m[:, None]) ** 2), expect(xp, p, s * s) - m * m


SYM_LAW = {"s": Array(4, scale=(0.1, 3.0), transform=positive_support), "p": ProbVector(5)}


def _relu(xp, x):
    return xp.where(x > 0, x, 0 * x)


def _relu_second_moments():
    """E[ReLU(a)^2] by symbolic integration for standardised Gaussian, uniform and Laplace laws."""
    import sympy as sp

    x = sp.Symbol("x", real=True)
    gauss = sp.exp(-(x**2) / 2) / sp.sqrt(2 * sp.pi)
    r3 = sp.sqrt(3)
    laplace_b = 1 / sp.sqrt(2)  # variance 2 b^2 = 1
    laplace = sp.exp(-sp.Abs(x) / laplace_b) / (2 * laplace_b)
    return [
        sp.simplify(sp.integrate(x**2 * gauss, (x, 0, sp.oo))),
        sp.simplify(sp.integrate(x**2 / (2 * r3), (x, 0, r3))),
        sp.simplify(sp.integrate(x**2 * laplace.subs(sp.Abs(x), x), (x, 0, sp.oo))),
    ]


value(
    "init.s003.relu_half_families",
    computed=_relu_second_moments,
    stated=[Fraction(1, 2)] * 3,
    title="E[ReLU(a)^2] = 1/2 for standard Gaussian, uniform(-sqrt 3, sqrt 3) and Laplace(1/sqrt 2) a",
    source=S3_Q1.at("part 2").quote("\\frac{1}{2} = \\mathbb{E}[g(a_j^{(t-1)})^2]"),
    statement=r"\mathbb{E}[\mathrm{ReLU}(a)^2] = \int_0^\infty x^2 p(x)\,dx = \tfrac12\ \text{for "
    r"symmetric }a\ \text{with}\ \mathbb{V}[a] = 1",
    expected=Verdict.PROVED,
    same_as=("init.s003.relu_half",),
    notes="Symbolic integration (SymPy) for three symmetric families with variance 1.",
)


@identity(
    "init.s003.relu_half_needs_symmetry",
    inputs=GENERAL_LAW,
    dims={},
    title="without symmetry, E[a] = 0 and V[a] = 1 do not give E[ReLU(a)^2] = 1/2",
    source=S3_Q1.at("part 2 (hypothesis 'a has a symmetric distribution')").quote(
        "that a_j^{(t-1)} has a symmetric distribution"
    ),
    statement=r"\mathbb{E}[a] = 0,\ \mathbb{V}[a] = 1 \implies \mathbb{E}[\mathrm{ReLU}(a)^2] = \tfrac12",
    expected=Verdict.REFUTED,
    notes="Tests whether the symmetry hypothesis can be dropped: it cannot (a skewed standardised law has "
    "E[ReLU(a)^2] = E[a^2 1_{a>0}] != 1/2). Not a claim of the document; it documents for which a the step "
    "'1 = 2 int_0^inf x^2 p(x) dx' is true.",
)
def relu_half_needs_symmetry(xp, s, p):
    v = standardize(xp, s, p)
    return expect(xp, p, _relu(xp, v) ** 2), 0 * v[:, 0] + 0.5


@prop(
    "init.s003.relu_mean_positive",
    uses=("init.s003.eq1_4",),
    inputs=SYM_LAW,
    dims={},
    title="symmetric a, not a Dirac at 0 => E[ReLU(a)] > 0, hence c = 0 <=> E[w] = 0 by (4)",
    source=S3_Q1.at("part 2").quote(
        "we have that \\forall j, \\mathbb{E}[h_j^{(t-1)}] = \\mathbb{E}[g(a_j^{(t-1)})] > 0. Then, "
        "we deduce from (4) that \\mathbb{E}[w_{i1}^{(t)}] = 0 \\Leftrightarrow c = 0"
    ),
    statement=r"a\ \text{symmetric},\ \mathbb{V}[a] = 1 \implies \mathbb{E}[\mathrm{ReLU}(a)] > 0",
    expected=Verdict.HOLDS,
    notes="With sum_j E[h_j] > 0, (4) c = -E[w_i1] sum_j E[h_j] vanishes exactly when E[w_i1] = 0.",
)
def relu_mean_positive(xp, s, p):
    v, q = symmetric_law(xp, s, p)
    return expect(xp, q, _relu(xp, v)) > 0


def _cov_w_relu(xp, sw, pw, a1, a2, pa):
    """(E[X_1 X_2], E[X_1] E[X_2]) for X_j = w_j ReLU(a_j), w_1, w_2 i.i.d. (sw, pw) independent of the pair
    (a_1, a_2) ~ pa; their difference is the covariance term of (7)."""
    wv, wp = _iid_pair(xp, sw, pw)  # (batch, 9, 2), (batch, 9)
    h1, h2 = _relu(xp, a1), _relu(xp, a2)  # (batch, m)
    prob = wp[:, :, None] * pa[:, None, :]
    x1 = wv[:, :, 0][:, :, None] * h1[:, None, :]
    x2 = wv[:, :, 1][:, :, None] * h2[:, None, :]

    def e(f):
        return xp.sum(xp.sum(prob * f, axis=-1), axis=-1)

    # (E[x1 x2], E[x1] E[x2]): Cov = 0 is their equality; comparing the two O(1) numbers keeps the
    # relative tolerance meaningful (a difference compared with 0 would be judged on rounding alone)
    return e(x1 * x2), e(x1) * e(x2)


COV_INPUTS = {
    "sw": Array(3, **SUPPORT),
    "pw": ProbVector(3),
    "s": Array(3, scale=(0.1, 3.0), transform=positive_support),
    "p": ProbVector(4),
}


@identity(
    "init.s003.relu_cov_zero",
    inputs=COV_INPUTS,
    dims={},
    title="'as the a^{(t-1)} are uncorrelated ... the covariance term is equal to 0 in (7)' (seed 003)",
    source=S3_Q1.at("part 2, before (11)").quote(
        "As the a^{(t-1)} are uncorrelated and h_j^{(t-1)} is either equal to 0 or a_j^{(t-1)}, we "
        "still have that the covariance term is equal to 0 in (7)"
    ),
    statement=r"\mathrm{Cov}[a_{j_1}, a_{j_2}] = 0 \implies \mathrm{Cov}[w_{ij_1}\mathrm{ReLU}(a_{j_1}), "
    r"w_{ij_2}\mathrm{ReLU}(a_{j_2})] = 0",
    expected=Verdict.REFUTED,
    notes="Uncorrelated is not independent: with a_2 = eps a_1 (eps = +-1 independent of a_1, symmetric, "
    "variance 1) the a's are uncorrelated but Cov[ReLU(a_1), ReLU(a_2)] = 1/4 - E[ReLU(a_1)]^2 > 0 unless "
    "|a_1| is constant, and the covariance term of (7) equals E[w]^2 Cov[h_1, h_2] != 0 when E[w] != 0 "
    "(the case (12) still keeps). In a deep random network the pre-activations of a layer share h^{(t-2)} "
    "and are dependent in exactly this way (study init.propagation). The conclusion survives because the "
    "scheme then sets E[w] = 0 (init.s003.relu_cov_zero_fixed).",
)
def relu_cov_zero(xp, sw, pw, s, p):
    """E[X_1X_2] against E[X_1]E[X_2] for ReLU units fed by uncorrelated but dependent pre-activations."""
    v, q = symmetric_law(xp, s, p)  # law of a_1 (2k+1 atoms)
    a1 = xp.concatenate([v, v], axis=-1)
    a2 = xp.concatenate([v, -v], axis=-1)  # a_2 = eps a_1
    pa = xp.concatenate([q / 2, q / 2], axis=-1)
    return _cov_w_relu(xp, sw, pw, a1, a2, pa)


@identity(
    "init.s003.relu_cov_zero_fixed",
    inputs=COV_INPUTS | {"s2": Array(3, scale=(0.1, 3.0), transform=positive_support), "p2": ProbVector(4)},
    dims={},
    title="independent pre-activations (or E[w] = 0) make the covariance term of (7) vanish",
    source=S3_Q1.at("part 2 (corrected: independent a_j)").cite(),
    statement=r"a_{j_1} \perp a_{j_2} \implies \mathrm{Cov}[w_{ij_1}\mathrm{ReLU}(a_{j_1}), "
    r"w_{ij_2}\mathrm{ReLU}(a_{j_2})] = 0",
    expected=Verdict.HOLDS,
    corrects="init.s003.relu_cov_zero",
    notes="Exact on independent symmetric laws; the term is E[w]^2 Cov[h_1, h_2] in general, so E[w] = 0 "
    "also suffices.",
)
def relu_cov_zero_fixed(xp, sw, pw, s, p, s2, p2):
    v1, q1 = symmetric_law(xp, s, p)
    v2, q2 = symmetric_law(xp, s2, p2)
    m = v1.shape[-1]
    a1 = xp.concatenate([v1[:, i : i + 1] + 0 * v2 for i in range(m)], axis=-1)
    a2 = xp.concatenate([v2 for _ in range(m)], axis=-1)
    pa = xp.concatenate([q1[:, i : i + 1] * q2 for i in range(m)], axis=-1)
    return _cov_w_relu(xp, sw, pw, a1, a2, pa)
