r"""Vanishing gradients in h_t = W sigma(h_{t-1}) + U x_t + b (or g_t = sigma(W g_{t-1} + U x_t + b)).

Seeds 002 (Question 1.2-1.3), 003 (Question 5.2-5.3) and 004 (Question 1.2-1.3) bound
:math:`\|\partial h_T/\partial h_0\| \le (\gamma\|W\|)^T \le \delta^T` under
:math:`\lambda_1(W^\top W) \le \delta^2/\gamma^2`, each in its own Jacobian layout.  The Jacobians here are
exact (products of step Jacobians) and are themselves checked against central differences; gamma is
sup|sigma'| (tanh 1, sigmoid 1/4, softplus 1, softsign 1, relu 1, abs 1, identity 1).
"""

import numpy as np

from checks._vocab.activations import SMOOTH, SUP_D1, dact
from checks._vocab.fd import fd_jacobian
from checks._vocab.linalg import matvec, op_norm
from checks._vocab.sources import S2_Q1, S3_Q5, S4_Q1_2
from checks.gradflow._helpers import (
    FD_JACOBIAN_TOL,
    JACOBIAN_PROBES,
    POLICY_RTOL,
    chain_product,
    jac_g_step,
    jac_h_step,
    lambda_max_gram,
    probes,
    run_g,
    run_h,
)
from checks.gradflow._notation import (
    CHAIN_002,
    CHAIN_002_SCALED,
    CHAIN_PRODUCT_002,
    JACOBIAN_STEP_002,
    ONE_STEP_002,
    ONE_STEP_002_VECTOR,
)
from lemmacheck import Array, Orthogonal, Scalar, Verdict, identity, inequality, prop, value

ALL_ACTS = list(SUP_D1)


def _nonzero(a):
    """Replace (numerically) zero matrices by the identity: rescaling W to a prescribed norm needs W != 0."""
    a = a.copy()
    small = np.abs(a).max(axis=(-2, -1)) < 1e-6
    a[small] = np.eye(a.shape[-1])
    return a


RNN_INPUTS = {
    "W": Array("n", "n", scale=(0.3, 2.0), transform=_nonzero),
    "U": Array("n", 2, scale=(0.1, 2.0)),
    "b": Array("n", scale=(0.1, 2.0)),
    "X": Array("T", 2, scale=(0.1, 2.0)),
    "h0": Array("n", scale=(0.1, 2.0)),
}
FD_DIMS = {"n": [1, 2, 4], "T": [1, 2, 4], "act": list(SMOOTH)}
BOUND_DIMS = {"n": [1, 2, 4], "T": [1, 3, 6], "act": ALL_ACTS}
#: an RNN whose exact Jacobians are checked against central differences (smooth activations)
FD_CHECKED = {
    "inputs": RNN_INPUTS | JACOBIAN_PROBES,
    "dims": FD_DIMS,
    "tol": FD_JACOBIAN_TOL,
}
#: an RNN with any of the activations, for the norm bounds
BOUNDED = {"inputs": RNN_INPUTS, "dims": BOUND_DIMS}
#: hypothesis-scaled RNNs: ||W|| = s * delta / gamma with s in (0, 1]
HYP_INPUTS = RNN_INPUTS | {"delta": Scalar(0.0, 0.999), "s": Scalar(0.01, 1.0)}
#: reversed condition: ||W|| = s * delta / gamma with s in (1, 4]
REV_INPUTS = RNN_INPUTS | {"delta": Scalar(0.01, 0.999), "s": Scalar(1.001, 4.0)}
UNDER_HYPOTHESIS = {"inputs": HYP_INPUTS, "dims": BOUND_DIMS}


def _matches_fd(xp, f, z, J, c, d, *, transposed=False):
    """(cᵀFd, cᵀJd): the central-difference Jacobian F of f at z (its transpose for the denominator
    layout) and J, probed with c, d."""
    fd = fd_jacobian(xp, f, z)
    return probes(xp, c, d, xp.transpose(fd) if transposed else fd, J)


def _scaled(xp, W, target):
    """W rescaled to operator norm `target` (W = 0 stays 0)."""
    return W * (target / (op_norm(xp, W) + 1e-300))[:, None, None]


def _g_jacobians(xp, W, U, b, X, g0, act):
    gs = run_g(xp, W, U, b, X, g0, act)
    pres = [matvec(W, gs[t]) + matvec(U, X[:, t]) + b for t in range(X.shape[1])]
    return [jac_g_step(xp, W, a, act) for a in pres]


def _h_jacobians(xp, W, U, b, X, h0, act):
    hs = run_h(xp, W, U, b, X, h0, act)
    return hs, [jac_h_step(xp, W, hs[t], act) for t in range(X.shape[1])]


# =========================================================================== seed 002, Question 1.2


@identity(
    "vanish.s002.jacobian_step",
    **FD_CHECKED,
    title="dg_t/dg_{t-1} = sigma'(W g_{t-1} + U x_t + b) W (seed 002)",
    source=S2_Q1.at("part 2").quote("= \\sigma'(Wg_{t-1} + Ux_t + b)W"),
    statement=r"\frac{\partial g_t}{\partial g_{t-1}} = \frac{\partial \sigma'(Wg_{t-1} + Ux_t + "
    r"b)}{\partial g_{t-1}} = \sigma'(Wg_{t-1} + Ux_t + b)W",
    expected=Verdict.PROVED,
    same_as=("vanish.s003.jacobian_step", "vanish.s004.jacobian_step"),
    notes="Numerator layout, sigma'(.) read as diag(sigma'(.)). The middle expression differentiates "
    "sigma' instead of sigma (a slip that the right-hand side does not carry). Checked against central "
    "differences of g_{t-1} -> g_t (X[:, 0] is x_t) and proved in SymPy for n = 2, generic sigma.",
)
def jacobian_step_002(xp, W, U, b, X, h0, act, c, d):
    g_prev = h0
    step = lambda z: run_g(xp, W, U, b, X[:, :1], z, act)[-1]  # noqa: E731
    J = jac_g_step(xp, W, matvec(W, g_prev) + matvec(U, X[:, 0]) + b, act)
    return _matches_fd(xp, step, g_prev, J, c, d)


@identity(
    "vanish.s002.chain_product",
    **FD_CHECKED,
    title="dg_T/dg_0 is the product of the step Jacobians (seed 002)",
    source=S2_Q1.at("part 2").quote(
        "\\frac{\\partial g_T}{\\partial g_0} = \\prod_{t=1}^T \\frac{\\partial g_t}{\\partial g_{t-1}}"
    ),
    statement=r"\frac{\partial g_T}{\partial g_0} = \prod_{t=1}^T \frac{\partial g_t}{\partial g_{t-1}}",
    expected=Verdict.HOLDS,
    same_as=("vanish.s003.eq22_23", "vanish.s004.chain"),
    notes="The product is ordered J_T ... J_1 (numerator layout); the document leaves the order implicit. "
    "Checked against central differences of the whole map g_0 -> g_T.",
)
def chain_product_002(xp, W, U, b, X, h0, act, c, d):
    full = lambda z: run_g(xp, W, U, b, X, z, act)[-1]  # noqa: E731
    J = chain_product(xp, _g_jacobians(xp, W, U, b, X, h0, act))
    return _matches_fd(xp, full, h0, J, c, d)


@inequality(
    "vanish.s002.step_bound",
    uses=("vanish.s002.jacobian_step",),
    inputs=RNN_INPUTS,
    dims={"n": [1, 2, 4], "T": [1], "act": ALL_ACTS},
    relations=("<=", "<="),
    labels=("||AB|| <= ||A|| ||B||", "|sigma'| <= gamma"),
    title="||dg_t/dg_{t-1}|| <= ||sigma'(.)|| ||W|| <= gamma ||W|| (seed 002)",
    source=S2_Q1.at("part 2").quote(
        "\\left\\| \\frac{\\partial g_t}{\\partial g_{t-1}} \\right\\| \\leq \\gamma \\|W\\|"
    ),
    statement=r"\left\|\frac{\partial g_t}{\partial g_{t-1}}\right\| \le "
    r"\|\sigma'(Wg_{t-1}+Ux_t+b)\|\cdot\|W\| \le \gamma\|W\|",
    expected=Verdict.HOLDS,
    same_as=("vanish.s002.step_bound_vector_norm",),
    notes="σ'(·) read as the matrix diag(σ'(·)), as the document's own product σ'(·)W and its use of "
    "||AB|| <= ||A|| ||B|| need; ||σ'(·)|| is then the operator norm, max|σ'|. gamma = sup|sigma'| per "
    "activation; tight (ratio 1) for the identity activation. Read as the Euclidean norm of the vector "
    "σ'(·): vanish.s002.step_bound_vector_norm.",
)
def step_bound_002(xp, W, U, b, X, h0, act):
    pre = matvec(W, h0) + matvec(U, X[:, 0]) + b
    J = jac_g_step(xp, W, pre, act)
    d = xp.max(xp.abs(dact(xp, act, pre)), axis=-1)
    return op_norm(xp, J), d * op_norm(xp, W), SUP_D1[act] * op_norm(xp, W)


@inequality(
    "vanish.s002.step_bound_vector_norm",
    uses=("vanish.s002.jacobian_step",),
    inputs=RNN_INPUTS,
    dims={"n": [1, 2, 4], "T": [1], "act": ALL_ACTS},
    relations=("<=", "<="),
    labels=("||AB|| <= ||A|| ||B||, ||σ'|| the vector 2-norm", "|sigma'| <= gamma"),
    expected_broken_step=2,
    title="||dg_t/dg_{t-1}|| <= ||sigma'(.)||_2 ||W|| <= gamma ||W||, ||σ'(·)|| read as the vector 2-norm "
    "(seed 002)",
    source=S2_Q1.at("part 2").quote(
        "\\left\\| \\frac{\\partial g_t}{\\partial g_{t-1}} \\right\\| \\leq "
        "\\|\\sigma'(W g_{t-1} + U x_t + b)\\| \\cdot \\|W\\|"
    ),
    statement=r"\left\|\frac{\partial g_t}{\partial g_{t-1}}\right\| \le "
    r"\|\sigma'(Wg_{t-1}+Ux_t+b)\|_2\cdot\|W\| \le \gamma\|W\|",
    expected=Verdict.HOLDS,
    same_as=("vanish.s002.step_bound",),
    notes="The other reading of ||σ'(·)||: the Euclidean norm of the vector σ'(Wg_{t-1} + Ux_t + b). Step 1 "
    "still holds (the vector 2-norm bounds max|σ'|), but |σ'| <= γ entrywise gives only ||σ'(·)||_2 <= √n γ, "
    "so step 2 breaks for n >= 2 while the ends agree. Under the diag reading every link holds "
    "(vanish.s002.step_bound).",
)
def step_bound_vector_norm_002(xp, W, U, b, X, h0, act):
    pre = matvec(W, h0) + matvec(U, X[:, 0]) + b
    J = jac_g_step(xp, W, pre, act)
    d = xp.vector_norm(dact(xp, act, pre), 2)
    return op_norm(xp, J), d * op_norm(xp, W), SUP_D1[act] * op_norm(xp, W)


@inequality(
    "vanish.s002.bound_chain",
    uses=("vanish.s002.chain_product", "vanish.s002.step_bound"),
    **BOUNDED,
    relations=("<=", "<=", "="),
    labels=("submultiplicativity", "step bound", "||W|| = sqrt(lambda_1(W^T W))"),
    title="||dg_T/dg_0|| <= prod ||dg_t/dg_{t-1}|| <= gamma^T ||W||^T = gamma^T sqrt(lambda_1)^T (seed 002)",
    source=S2_Q1.at("part 2").quote(
        "\\leq \\gamma^T \\|W\\|^T = \\gamma^T (\\sqrt{\\lambda_1(W^\\top W)})^T"
    ),
    statement=r"\left\|\frac{\partial g_T}{\partial g_0}\right\| \le \prod_{t=1}^T\left\|\frac{\partial "
    r"g_t}{\partial g_{t-1}}\right\| \le \gamma^T\|W\|^T = \gamma^T\left(\sqrt{\lambda_1(W^\top "
    r"W)}\right)^T",
    expected=Verdict.HOLDS,
    same_as=("vanish.s003.eq24", "vanish.s004.norm_chain"),
    notes="Exact Jacobians of simulated RNNs, seven activations. Tightness: the identity activation with n "
    "= 1 attains the bound.",
)
def bound_chain_002(xp, W, U, b, X, h0, act):
    jacs = _g_jacobians(xp, W, U, b, X, h0, act)
    T = len(jacs)
    prod_norms = op_norm(xp, jacs[0])
    for J in jacs[1:]:
        prod_norms = prod_norms * op_norm(xp, J)
    g = SUP_D1[act]
    return (
        op_norm(xp, chain_product(xp, jacs)),
        prod_norms,
        (g * op_norm(xp, W)) ** T,
        g**T * xp.sqrt(lambda_max_gram(xp, W)) ** T,
    )


#: γ^T(√(δ²/γ²))^T against δ^T, as written and corrected
DELTA_SUBST = {
    "inputs": {"gamma": Scalar(0.05, 2.0), "delta": Scalar(0.0, 1.0)},
    "dims": {"T": [1, 2, 3, 5, 8]},
    "relations": ("=",),
}


@inequality(
    "vanish.s002.delta_subst",
    **DELTA_SUBST,
    title="gamma^T (sqrt(delta^2/gamma^2))^T = gamma^T sqrt(delta^2/gamma^2) = delta^T (seed 002, as "
    "written)",
    source=S2_Q1.at("part 2").quote(
        "\\gamma^T \\left( \\sqrt{\\frac{\\delta^2}{\\gamma^2}} \\right)^T = \\gamma^T "
        "\\sqrt{\\frac{\\delta^2}{\\gamma^2}} = \\delta^T"
    ),
    statement=r"\gamma^T\left(\sqrt{\frac{\delta^2}{\gamma^2}}\right)^T = "
    r"\gamma^T\sqrt{\frac{\delta^2}{\gamma^2}} = \delta^T",
    expected=Verdict.REFUTED,
    notes="Checked: the first equality, the one that fails (the engine judges a chain by its end points, "
    "which agree here). The middle expression drops the exponent T: it equals gamma^{T-1} delta, not "
    "delta^T, unless T = 1 or gamma = delta. The corrected chain (vanish.s002.delta_subst_fixed) is "
    "proved, so the conclusion of the answer is unaffected.",
)
def delta_subst_002(xp, gamma, delta, T):
    r = xp.sqrt(delta * delta / (gamma * gamma))
    return gamma**T * r**T, gamma**T * r


@inequality(
    "vanish.s002.delta_subst_fixed",
    **DELTA_SUBST,
    title="gamma^T (sqrt(delta^2/gamma^2))^T = delta^T (seed 002, corrected)",
    source=S2_Q1.at("part 2 (corrected)").cite(),
    statement=r"\gamma^T\left(\sqrt{\frac{\delta^2}{\gamma^2}}\right)^T = \delta^T",
    expected=Verdict.PROVED,
    corrects="vanish.s002.delta_subst",
    proof_not_asserted="the catalogue's corrected chain (the exponent T kept on the square root); the "
    "document's chain drops it (vanish.s002.delta_subst, REFUTED)",
)
def delta_subst_fixed_002(xp, gamma, delta, T):
    return gamma**T * xp.sqrt(delta * delta / (gamma * gamma)) ** T, delta**T


def _hyp_bound(xp, W, U, b, X, h0, delta, s, act, *, layout):
    """(||dh_T/dh_0||, delta^T) with ||W|| = s delta / gamma <= delta / gamma, exact Jacobian."""
    g = SUP_D1[act]
    Ws = _scaled(xp, W, s * delta / g)
    if layout == "g":
        J = chain_product(xp, _g_jacobians(xp, Ws, U, b, X, h0, act))
    else:
        J = chain_product(xp, _h_jacobians(xp, Ws, U, b, X, h0, act)[1])
    return op_norm(xp, J), Ws


@inequality(
    "vanish.s002.final_bound",
    uses=("vanish.s002.bound_chain", "vanish.s002.delta_subst"),
    **UNDER_HYPOTHESIS,
    title="lambda_1(W^T W) <= delta^2/gamma^2 => ||dg_T/dg_0|| <= delta^T (seed 002)",
    source=S2_Q1.at("part 2").quote(
        "Substitute \\lambda_1(W^\\top W) \\leq \\frac{\\delta^2}{\\gamma^2} ... = \\delta^T"
    ),
    statement=r"\lambda_1(W^\top W) \le \frac{\delta^2}{\gamma^2} \implies \left\|\frac{\partial "
    r"g_T}{\partial g_0}\right\| \le \delta^T",
    expected=Verdict.HOLDS,
    same_as=("vanish.s003.eq25", "vanish.s004.norm_chain"),
    notes="W is drawn and rescaled to ||W|| = s delta/gamma, s in (0, 1], so the hypothesis holds by "
    "construction; exact Jacobians.",
)
def final_bound_002(xp, W, U, b, X, h0, delta, s, act):
    nrm, _ = _hyp_bound(xp, W, U, b, X, h0, delta, s, act, layout="g")
    return nrm, delta ** X.shape[1]


def _delta_limits(deltas):
    """lim_{T→∞} δ^T at each δ (rational strings), exactly, against the 0 the documents state."""

    def limits():
        import sympy as sp

        T = sp.Symbol("T", positive=True, integer=True)
        return [sp.limit(sp.Rational(d) ** T, T, sp.oo) for d in deltas]

    return {"computed": limits, "stated": [0] * len(deltas)}


#: the limit for 0 ≤ δ < 1, which seeds 002 (corrected), 003 and 004 state alike
SUBUNIT_DELTA_LIMIT = {
    "statement": r"0 \le \delta < 1 \implies \lim_{T\to\infty}\delta^T = 0",
    "expected": Verdict.PROVED,
    "notes": "Exact limits at sample values of delta in [0, 1).",
}


value(
    "vanish.s002.limit",
    **_delta_limits(["0", "1/2", "9/10", "1"]),
    title="delta^T -> 0 for 0 <= delta <= 1 (seed 002, as written)",
    source=S2_Q1.at("part 2").quote(
        "where \\gamma > 0, 0 \\leq \\delta \\leq 1 ... Thus, \\delta^T \\rightarrow 0 as T "
        "\\rightarrow \\infty"
    ),
    statement=r"0 \le \delta \le 1 \implies \lim_{T\to\infty}\delta^T = 0",
    expected=Verdict.REFUTED,
    notes="Computed: lim delta^T for delta = 0, 1/2, 9/10, 1 is 0, 0, 0, 1. The boundary delta = 1 is "
    "admitted by seed 002 but not by the question (0 <= delta < 1, seeds 003 and 004); at delta = 1 the "
    "gradient need not vanish (vanish.s002.delta_one_witness).",
)

value(
    "vanish.s003.limit",
    **_delta_limits(["0", "1/2", "9/10", "999/1000"]),
    title="0 <= delta < 1 => delta^T -> 0 (seed 003)",
    source=S3_Q5.at("part 2, after (25)").quote(
        "And as 0 \\leq \\delta < 1, we have \\lim_{T \\rightarrow \\infty} \\delta^T = 0"
    ),
    **SUBUNIT_DELTA_LIMIT,
    same_as=("vanish.s004.limit",),
)

value(
    "vanish.s002.limit_fixed",
    **_delta_limits(["0", "1/2", "9/10", "99/100"]),
    title="delta^T -> 0 for 0 <= delta < 1 (seed 002, corrected range)",
    source=S2_Q1.at("part 2 (corrected: 0 <= delta < 1, as the question states)").cite(),
    **SUBUNIT_DELTA_LIMIT,
    corrects="vanish.s002.limit",
    same_as=("vanish.s003.limit", "vanish.s004.limit"),
)

value(
    "vanish.s004.limit",
    uses=("vanish.s004.norm_chain",),
    **_delta_limits(["0", "1/3", "3/4", "99/100"]),
    title="lim ||dh_T/dh_0|| <= lim delta^T = 0 for 0 <= delta < 1 (seed 004)",
    source=S4_Q1_2.quote(
        "\\lim_{T \\to \\infty} \\|\\frac{\\partial h_T}{\\partial h_0}\\| \\le \\lim_{T \\to "
        "\\infty} \\delta^T = 0"
    ),
    **SUBUNIT_DELTA_LIMIT,
    same_as=("vanish.s003.limit",),
)


@prop(
    "vanish.s002.delta_one_witness",
    inputs={"Q": Orthogonal("n")},
    dims={"n": [1, 2, 4], "T": [1, 4, 16]},
    title="at delta = 1 the hypothesis allows ||dh_T/dh_0|| = 1 for every T",
    source=S2_Q1.at("part 2 (boundary delta = 1)").quote("where \\gamma > 0, 0 \\leq \\delta \\leq 1"),
    statement=r"\sigma = \tanh,\ W = Q\ \text{orthogonal},\ b = 0,\ x_t = 0,\ h_0 = 0:\ \lambda_1(W^\top "
    r"W) = 1 = \delta^2/\gamma^2\ \text{and}\ \|\partial h_T/\partial h_0\| = 1",
    expected=Verdict.HOLDS,
    notes="Witness for the refutation of vanish.s002.limit: h = 0 is a fixed point, tanh'(0) = 1 and W is "
    "orthogonal, so the Jacobian product is orthogonal and its norm stays 1 for all T.",
)
def delta_one_witness(xp, Q, T):
    n = Q.shape[-1]
    h = 0 * Q[:, 0]
    hs = [h]
    for _ in range(T):
        hs.append(matvec(Q, xp.tanh(hs[-1])))
    J = chain_product(xp, [jac_h_step(xp, Q, hs[t], "tanh") for t in range(T)])
    lam = lambda_max_gram(xp, Q)
    ok_hyp = xp.abs(lam - 1) <= POLICY_RTOL
    ok_norm = xp.abs(op_norm(xp, J) - 1) <= POLICY_RTOL * (1 + n)
    return ok_hyp & ok_norm


claim_symbols = {
    "vanish.s002.chain_product": CHAIN_PRODUCT_002,
    "vanish.s002.bound_chain": CHAIN_002,
    "vanish.s002.final_bound": CHAIN_002_SCALED,
    "vanish.s002.jacobian_step": JACOBIAN_STEP_002,
    "vanish.s002.step_bound": ONE_STEP_002,
    "vanish.s002.step_bound_vector_norm": ONE_STEP_002_VECTOR,
}

statement_differs = {
    "vanish.s002.chain_product": "The document's ∏_{t=1}^T ∂g_t/∂g_{t-1} does not say in which order its "
    "matrix factors multiply. Read as written, left to right in increasing t, it is J_1 J_2 ⋯ J_T, which is "
    "not ∂g_T/∂g_0 in seed 002's numerator layout (that reading is vanish.s002.chain_product_order, "
    "REFUTED); the check reads it in the layout's order J_T ⋯ J_1 (its notes; vanish.s002."
    "chain_product_order.corrected), the charitable reading. The two agree for n = 1 or T = 1.",
}
