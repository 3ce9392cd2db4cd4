r"""Vanishing gradients in h_t = W sigma(h_{t-1}) + U x_t + b (or g_t = sigma(W g_{t-1} + U x_t + b)).

Seeds 002 (Question 1.2-1.3), 003 (Question 5.2-5.3) and 004 (Question 1.2-1.3) bound
:math:`\|\partial h_T/\partial h_0\| \le (\gamma\|W\|)^T \le \delta^T` under
:math:`\lambda_1(W^\top W) \le \delta^2/\gamma^2`, each in its own Jacobian layout.  The Jacobians here are
exact (products of step Jacobians) and are themselves checked against central differences; gamma is
sup|sigma'| (tanh 1, sigmoid 1/4, softplus 1, softsign 1, relu 1, abs 1, identity 1).
"""

import numpy as np

from checks._vocab.activations import SMOOTH, SUP_D1, dact
from checks._vocab.activations import act as apply_act
from checks._vocab.fd import fd_jacobian
from checks._vocab.linalg import matvec, op_norm
from checks._vocab.sources import SEED_002, SEED_003, SEED_004
from checks.gradflow._helpers import chain_product, jac_g_step, jac_h_step, lambda_max_gram, run_g, run_h
from lemmacheck import Plot, Series, Source, StudyResult, Table, Verdict, inequality, prop, study, value
from lemmacheck.inputs import Array, Orthogonal, Scalar

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
#: hypothesis-scaled RNNs: ||W|| = s * delta / gamma with s in (0, 1]
HYP_INPUTS = RNN_INPUTS | {"delta": Scalar(0.0, 0.999), "s": Scalar(0.01, 1.0)}
#: reversed condition: ||W|| = s * delta / gamma with s in (1, 4]
REV_INPUTS = RNN_INPUTS | {"delta": Scalar(0.01, 0.999), "s": Scalar(1.001, 4.0)}


def _close(xp, A, B, scale_floor):
    """max |A - B| small relative to the entries (central differences: ~1e-10 relative in float64)."""
    err = xp.max(xp.max(xp.abs(A - B), axis=-1), axis=-1)
    size = xp.max(xp.max(xp.abs(A) + xp.abs(B), axis=-1), axis=-1)
    return err <= 1e-6 * size + 1e-7 * scale_floor


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


@prop(
    "vanish.s002.jacobian_step",
    inputs=RNN_INPUTS,
    dims=FD_DIMS,
    title="dg_t/dg_{t-1} = sigma'(W g_{t-1} + U x_t + b) W (seed 002)",
    source=Source(SEED_002, "Question 1, part 2", quote="= \\sigma'(Wg_{t-1} + Ux_t + b)W"),
    statement=r"\frac{\partial g_t}{\partial g_{t-1}} = \frac{\partial \sigma'(Wg_{t-1} + Ux_t + "
    r"b)}{\partial g_{t-1}} = \sigma'(Wg_{t-1} + Ux_t + b)W",
    expected=Verdict.PROVED,
    same_as=("vanish.s003.jacobian_step", "vanish.s004.jacobian_step"),
    notes="Numerator layout, sigma'(.) read as diag(sigma'(.)). The middle expression differentiates "
    "sigma' instead of sigma (a slip that the right-hand side does not carry). Checked against central "
    "differences of g_{t-1} -> g_t (X[:, 0] is x_t) and proved in SymPy for n = 2, generic sigma.",
)
def jacobian_step_002(xp, W, U, b, X, h0, act):
    g_prev = h0
    step = lambda z: run_g(xp, W, U, b, X[:, :1], z, act)[-1]  # noqa: E731
    J = jac_g_step(xp, W, matvec(W, g_prev) + matvec(U, X[:, 0]) + b, act)
    return _close(xp, fd_jacobian(xp, step, g_prev), J, 1 + xp.max(xp.abs(step(g_prev)), axis=-1))


@prop(
    "vanish.s002.chain_product",
    inputs=RNN_INPUTS,
    dims=FD_DIMS,
    title="dg_T/dg_0 is the product of the step Jacobians (seed 002)",
    source=Source(
        SEED_002,
        "Question 1, part 2",
        quote="\\frac{\\partial g_T}{\\partial g_0} = \\prod_{t=1}^T \\frac{\\partial g_t}{\\partial "
        "g_{t-1}}",
    ),
    statement=r"\frac{\partial g_T}{\partial g_0} = \prod_{t=1}^T \frac{\partial g_t}{\partial g_{t-1}}",
    expected=Verdict.HOLDS,
    same_as=("vanish.s003.eq22_23", "vanish.s004.chain"),
    notes="The product is ordered J_T ... J_1 (numerator layout); the document leaves the order implicit. "
    "Checked against central differences of the whole map g_0 -> g_T.",
)
def chain_product_002(xp, W, U, b, X, h0, act):
    full = lambda z: run_g(xp, W, U, b, X, z, act)[-1]  # noqa: E731
    J = chain_product(xp, _g_jacobians(xp, W, U, b, X, h0, act))
    return _close(xp, fd_jacobian(xp, full, h0), J, 1 + xp.max(xp.abs(full(h0)), axis=-1))


@inequality(
    "vanish.s002.step_bound",
    inputs=RNN_INPUTS,
    dims={"n": [1, 2, 4], "T": [1], "act": ALL_ACTS},
    relations=("<=", "<="),
    labels=("||AB|| <= ||A|| ||B||", "|sigma'| <= gamma"),
    title="||dg_t/dg_{t-1}|| <= ||sigma'(.)|| ||W|| <= gamma ||W|| (seed 002)",
    source=Source(
        SEED_002,
        "Question 1, part 2",
        quote="\\left\\| \\frac{\\partial g_t}{\\partial g_{t-1}} \\right\\| \\leq \\gamma \\|W\\|",
    ),
    statement=r"\left\|\frac{\partial g_t}{\partial g_{t-1}}\right\| \le "
    r"\|\sigma'(Wg_{t-1}+Ux_t+b)\|\cdot\|W\| \le \gamma\|W\|",
    expected=Verdict.HOLDS,
    notes="gamma = sup|sigma'| per activation; tight (ratio 1) for the identity activation.",
)
def step_bound_002(xp, W, U, b, X, h0, act):
    pre = matvec(W, h0) + matvec(U, X[:, 0]) + b
    J = jac_g_step(xp, W, pre, act)
    d = xp.max(xp.abs(dact(xp, act, pre)), axis=-1)
    return op_norm(xp, J), d * op_norm(xp, W), SUP_D1[act] * op_norm(xp, W)


@inequality(
    "vanish.s002.bound_chain",
    inputs=RNN_INPUTS,
    dims=BOUND_DIMS,
    relations=("<=", "<=", "="),
    labels=("submultiplicativity", "step bound", "||W|| = sqrt(lambda_1(W^T W))"),
    title="||dg_T/dg_0|| <= prod ||dg_t/dg_{t-1}|| <= gamma^T ||W||^T = gamma^T sqrt(lambda_1)^T (seed 002)",
    source=Source(
        SEED_002,
        "Question 1, part 2",
        quote="\\leq \\gamma^T \\|W\\|^T = \\gamma^T (\\sqrt{\\lambda_1(W^\\top W)})^T",
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


DELTA_INPUTS = {"gamma": Scalar(0.05, 2.0), "delta": Scalar(0.0, 1.0)}


@inequality(
    "vanish.s002.delta_subst",
    inputs=DELTA_INPUTS,
    dims={"T": [1, 2, 3, 5, 8]},
    relations=("=",),
    title="gamma^T (sqrt(delta^2/gamma^2))^T = gamma^T sqrt(delta^2/gamma^2) = delta^T (seed 002, as "
    "written)",
    source=Source(
        SEED_002,
        "Question 1, part 2",
        quote="\\gamma^T \\left( \\sqrt{\\frac{\\delta^2}{\\gamma^2}} \\right)^T = \\gamma^T "
        "\\sqrt{\\frac{\\delta^2}{\\gamma^2}} = \\delta^T",
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
    inputs=DELTA_INPUTS,
    dims={"T": [1, 2, 3, 5, 8]},
    relations=("=",),
    title="gamma^T (sqrt(delta^2/gamma^2))^T = delta^T (seed 002, corrected)",
    source=Source(SEED_002, "Question 1, part 2 (corrected)"),
    statement=r"\gamma^T\left(\sqrt{\frac{\delta^2}{\gamma^2}}\right)^T = \delta^T",
    expected=Verdict.PROVED,
    corrects="vanish.s002.delta_subst",
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
    inputs=HYP_INPUTS,
    dims=BOUND_DIMS,
    title="lambda_1(W^T W) <= delta^2/gamma^2 => ||dg_T/dg_0|| <= delta^T (seed 002)",
    source=Source(
        SEED_002,
        "Question 1, part 2",
        quote="Substitute \\lambda_1(W^\\top W) \\leq \\frac{\\delta^2}{\\gamma^2} ... = \\delta^T",
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
    import sympy as sp

    T = sp.Symbol("T", positive=True, integer=True)
    return [sp.limit(sp.Rational(d) ** T, T, sp.oo) for d in deltas]


value(
    "vanish.s002.limit",
    computed=lambda: _delta_limits(["0", "1/2", "9/10", "1"]),
    stated=[0, 0, 0, 0],
    title="delta^T -> 0 for 0 <= delta <= 1 (seed 002, as written)",
    source=Source(
        SEED_002,
        "Question 1, part 2",
        quote="where \\gamma > 0, 0 \\leq \\delta \\leq 1 ... Thus, \\delta^T \\rightarrow 0 as T "
        "\\rightarrow \\infty",
    ),
    statement=r"0 \le \delta \le 1 \implies \lim_{T\to\infty}\delta^T = 0",
    expected=Verdict.REFUTED,
    notes="Computed: lim delta^T for delta = 0, 1/2, 9/10, 1 is 0, 0, 0, 1. The boundary delta = 1 is "
    "admitted by seed 002 but not by the question (0 <= delta < 1, seeds 003 and 004); at delta = 1 the "
    "gradient need not vanish (vanish.s002.delta_one_witness).",
)

value(
    "vanish.s003.limit",
    computed=lambda: _delta_limits(["0", "1/2", "9/10", "999/1000"]),
    stated=[0, 0, 0, 0],
    title="0 <= delta < 1 => delta^T -> 0 (seed 003)",
    source=Source(
        SEED_003,
        "Question 5, part 2, after (25)",
        quote="And as 0 \\leq \\delta < 1, we have \\lim_{T \\rightarrow \\infty} \\delta^T = 0",
    ),
    statement=r"0 \le \delta < 1 \implies \lim_{T\to\infty}\delta^T = 0",
    expected=Verdict.PROVED,
    same_as=("vanish.s004.limit",),
    notes="Exact limits at sample values of delta in [0, 1).",
)

value(
    "vanish.s002.limit_fixed",
    computed=lambda: _delta_limits(["0", "1/2", "9/10", "99/100"]),
    stated=[0, 0, 0, 0],
    title="delta^T -> 0 for 0 <= delta < 1 (seed 002, corrected range)",
    source=Source(SEED_002, "Question 1, part 2 (corrected: 0 <= delta < 1, as the question states)"),
    statement=r"0 \le \delta < 1 \implies \lim_{T\to\infty}\delta^T = 0",
    expected=Verdict.PROVED,
    corrects="vanish.s002.limit",
    same_as=("vanish.s003.limit", "vanish.s004.limit"),
    notes="Exact limits at sample values of delta in [0, 1).",
)

value(
    "vanish.s004.limit",
    computed=lambda: _delta_limits(["0", "1/3", "3/4", "99/100"]),
    stated=[0, 0, 0, 0],
    title="lim ||dh_T/dh_0|| <= lim delta^T = 0 for 0 <= delta < 1 (seed 004)",
    source=Source(
        SEED_004,
        "Question 1.2",
        quote="\\lim_{T \\to \\infty} \\|\\frac{\\partial h_T}{\\partial h_0}\\| \\le \\lim_{T \\to "
        "\\infty} \\delta^T = 0",
    ),
    statement=r"0 \le \delta < 1 \implies \lim_{T\to\infty}\delta^T = 0",
    expected=Verdict.PROVED,
    same_as=("vanish.s003.limit",),
    notes="Exact limits at sample values of delta in [0, 1).",
)


@prop(
    "vanish.s002.delta_one_witness",
    inputs={"Q": Orthogonal("n")},
    dims={"n": [1, 2, 4], "T": [1, 4, 16]},
    title="at delta = 1 the hypothesis allows ||dh_T/dh_0|| = 1 for every T",
    source=Source(
        SEED_002,
        "Question 1, part 2 (boundary delta = 1)",
        quote="where \\gamma > 0, 0 \\leq \\delta \\leq 1",
    ),
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
    ok_hyp = xp.abs(lam - 1) <= 1e-9
    ok_norm = xp.abs(op_norm(xp, J) - 1) <= 1e-9 * (1 + n)
    return ok_hyp & ok_norm


# --------------------------------------------------------------------------- reversed condition


@inequality(
    "vanish.s002.reverse_chain",
    inputs=REV_INPUTS,
    dims=BOUND_DIMS,
    relations=("<=", ">"),
    title="lambda_1 > delta^2/gamma^2: ||dg_T/dg_0|| <= gamma^T sqrt(lambda_1)^T > delta^T (seed 002)",
    source=Source(
        SEED_002,
        "Question 1, part 3",
        quote="\\left\\| \\frac{\\partial g_T}{\\partial g_0} \\right\\| \\leq \\gamma^T "
        "(\\sqrt{\\lambda_1(W^\\top W)})^T > \\delta^T",
    ),
    statement=r"\left\|\frac{\partial g_T}{\partial g_0}\right\| \le \gamma^T\left(\sqrt{\lambda_1(W^\top "
    r"W)}\right)^T > \delta^T",
    expected=Verdict.HOLDS,
    notes="Both links hold; together they say nothing about ||dg_T/dg_0|| versus delta^T (mixed "
    "directions), which is why the reversed condition decides nothing by itself.",
)
def reverse_chain_002(xp, W, U, b, X, h0, delta, s, act):
    g = SUP_D1[act]
    Ws = _scaled(xp, W, s * delta / g)
    T = X.shape[1]
    J = chain_product(xp, _g_jacobians(xp, Ws, U, b, X, h0, act))
    return op_norm(xp, J), g**T * xp.sqrt(lambda_max_gram(xp, Ws)) ** T, delta**T


NEC_INPUTS = RNN_INPUTS | {"delta": Scalar(0.0, 0.999)}


def _necessary(xp, W, U, b, X, h0, delta, act):
    """True where 'the gradient grows (||dh_T/dh_0|| > 1)' implies lambda_1(W^T W) > delta^2/gamma^2."""
    g = SUP_D1[act]
    J = chain_product(xp, _h_jacobians(xp, W, U, b, X, h0, act)[1])
    grows = op_norm(xp, J) > 1
    reversed_cond = lambda_max_gram(xp, W) > delta * delta / (g * g)
    return (~grows) | reversed_cond


NEC_DIMS = {"n": [1, 2, 4], "T": [2, 6], "act": ALL_ACTS}


@prop(
    "vanish.s002.reverse_necessary",
    inputs=NEC_INPUTS,
    dims=NEC_DIMS,
    title="the reversed condition is necessary for the gradient to explode (seed 002)",
    source=Source(
        SEED_002,
        "Question 1, part 3",
        quote="this condition is necessary but not sufficient for the gradient to explode",
    ),
    statement=r"\left\|\frac{\partial h_T}{\partial h_0}\right\| \to \infty \implies \lambda_1(W^\top W) > "
    r"\frac{\delta^2}{\gamma^2}",
    expected=Verdict.HOLDS,
    same_as=("vanish.s003.reverse_necessary", "vanish.s004.reverse_necessary"),
    notes="Finite-T proxy: whenever the exact Jacobian norm exceeds 1 (growth), lambda_1(W^T W) > "
    "delta^2/gamma^2 for every sampled delta in [0, 1). This follows from ||J_T|| <= (gamma ||W||)^T.",
)
def reverse_necessary_002(xp, W, U, b, X, h0, delta, act):
    return _necessary(xp, W, U, b, X, h0, delta, act)


@prop(
    "vanish.s003.reverse_necessary",
    inputs=NEC_INPUTS,
    dims=NEC_DIMS,
    title="the reversed condition is necessary for explosion (seed 003)",
    source=Source(
        SEED_003, "Question 5, part 3", quote="This condition will be necessary but not sufficient"
    ),
    statement=r"\left\|\frac{\partial h_T}{\partial h_0}\right\| \to \infty \implies \lambda_1(W^\top W) > "
    r"\frac{\delta^2}{\gamma^2}",
    expected=Verdict.HOLDS,
    same_as=("vanish.s002.reverse_necessary",),
)
def reverse_necessary_003(xp, W, U, b, X, h0, delta, act):
    return _necessary(xp, W, U, b, X, h0, delta, act)


@prop(
    "vanish.s004.reverse_necessary",
    inputs=NEC_INPUTS,
    dims=NEC_DIMS,
    title="the reversed condition is a necessary condition for explosion (seed 004)",
    source=Source(SEED_004, "Question 1.3", quote="so this condition is a necessary condition"),
    statement=r"\left\|\frac{\partial h_T}{\partial h_0}\right\| \to \infty \implies \lambda_1(W^\top W) "
    r"\not< \frac{\delta^2}{\gamma^2}",
    expected=Verdict.HOLDS,
    same_as=("vanish.s002.reverse_necessary",),
)
def reverse_necessary_004(xp, W, U, b, X, h0, delta, act):
    return _necessary(xp, W, U, b, X, h0, delta, act)


SAT_INPUTS = {"Q": Orthogonal("n"), "a": Scalar(1.05, 3.0), "delta": Scalar(0.0, 0.999)}
SAT_DIMS = {"n": [1, 2, 4], "T": [4, 8], "act": ["tanh", "sigmoid"]}


def _saturated_witness(xp, Q, a, delta, T, act):
    """W = c a Q with gamma c a > 1 (reversed condition) and a saturating bias: the gradient still vanishes."""
    g = SUP_D1[act]
    n = Q.shape[-1]
    W = Q * (a / g)[:, None, None]  # ||W|| = a / gamma > 1/gamma >= delta/gamma
    # bias beyond the reach of W sigma(h): pre-activations stay >= 6, where sigma' <= 1e-2 * gamma
    bias = (a / g * n**0.5 + 6)[:, None] * (0 * Q[:, 0] + 1)
    hs = [bias]
    for _ in range(T):
        hs.append(matvec(W, apply_act(xp, act, hs[-1])) + bias)
    J = chain_product(xp, [jac_h_step(xp, W, hs[t], act) for t in range(T)])
    reversed_cond = lambda_max_gram(xp, W) > delta * delta / (g * g)
    vanishes = op_norm(xp, J) <= 0.5**T
    return reversed_cond & vanishes


@prop(
    "vanish.s002.reverse_not_sufficient",
    inputs=SAT_INPUTS,
    dims=SAT_DIMS,
    title="the reversed condition is not sufficient: saturated units vanish anyway (seed 002)",
    source=Source(
        SEED_002,
        "Question 1, part 3",
        quote="this condition is necessary but not sufficient for the gradient to explode",
    ),
    statement=r"\exists\,W,b:\ \lambda_1(W^\top W) > \frac{\delta^2}{\gamma^2}\ \text{and}\ "
    r"\left\|\frac{\partial h_T}{\partial h_0}\right\| \le 2^{-T}",
    expected=Verdict.HOLDS,
    same_as=("vanish.s003.reverse_not_sufficient",),
    notes="Witness family: W = (a/gamma) Q with Q orthogonal and a in (1.05, 3), so even gamma ||W|| > 1; "
    "a bias large enough to saturate tanh/sigmoid makes sigma' tiny and the exact Jacobian decays faster "
    "than 2^{-T}. Explosion witnesses: vanish.s004.explosion_possible.",
)
def reverse_not_sufficient_002(xp, Q, a, delta, T, act):
    return _saturated_witness(xp, Q, a, delta, T, act)


@prop(
    "vanish.s003.reverse_not_sufficient",
    inputs=SAT_INPUTS,
    dims=SAT_DIMS,
    title="the reversed condition is not sufficient for explosion (seed 003)",
    source=Source(
        SEED_003,
        "Question 5, part 3",
        quote="we can only say that the gradients will be smaller than something that is greater than 0, "
        "but this doesn't imply that the gradients will tend to infinity",
    ),
    statement=r"\lambda_1(W^\top W) > \frac{\delta^2}{\gamma^2} \not\Rightarrow \left\|\frac{\partial "
    r"h_T}{\partial h_0}\right\| \to \infty",
    expected=Verdict.HOLDS,
    same_as=("vanish.s002.reverse_not_sufficient",),
    notes="Same saturated witness family as seed 002.",
)
def reverse_not_sufficient_003(xp, Q, a, delta, T, act):
    return _saturated_witness(xp, Q, a, delta, T, act)


@prop(
    "vanish.s004.explosion_possible",
    inputs={"Q": Orthogonal("n"), "a": Scalar(1.05, 3.0)},
    dims={"n": [1, 2, 4], "T": [2, 8, 16]},
    title="under the reversed condition the gradient can explode (seed 004; seed 002 'likely to explode')",
    source=Source(
        SEED_004,
        "Question 1.3",
        quote="gradient explosion is possible. It won't certainly explode but now it has the potential to "
        "explode",
    ),
    statement=r"\exists\,W:\ \lambda_1(W^\top W) > \frac{1}{\gamma^2},\ \left\|\frac{\partial "
    r"h_T}{\partial h_0}\right\| = (\gamma\|W\|)^T \to \infty",
    expected=Verdict.HOLDS,
    notes="Witness: tanh, W = aQ (Q orthogonal, a > 1), b = 0, x_t = 0, h_0 = 0 (a fixed point with "
    "tanh'(0) = 1): the Jacobian is a^T Q^T, norm a^T.",
)
def explosion_possible_004(xp, Q, a, T):
    W = Q * a[:, None, None]
    h = 0 * Q[:, 0]
    J = chain_product(xp, [jac_h_step(xp, W, h, "tanh") for _ in range(T)])
    return (xp.abs(op_norm(xp, J) - a**T) <= 1e-9 * a**T) & (lambda_max_gram(xp, W) > 1)


@inequality(
    "vanish.s004.reverse_bound_not_zero",
    inputs={
        "W": Array("n", "n", scale=(0.3, 2.0), transform=_nonzero),
        "delta": Scalar(0.01, 0.999),
        "s": Scalar(1.0, 3.0),
    },
    dims={"n": [1, 2, 4], "act": ["tanh", "sigmoid"]},
    relations=(">=",),
    title="lambda_1 >= delta^2/gamma^2 => the upper bound (gamma ||W||)^T does not tend to 0 (seed 004)",
    source=Source(
        SEED_004,
        "Question 1.3",
        quote="Hence if the largest eigenvalue is not smaller than \\frac{\\delta^2}{\\gamma^2}, then the "
        "upper bound won't tend to zero",
    ),
    statement=r"\lambda_1(W^\top W) \ge \frac{\delta^2}{\gamma^2} \implies (\gamma\|W\|)^T \not\to 0",
    expected=Verdict.REFUTED,
    same_as=("vanish.s002.reverse_likely_explode", "vanish.s003.reverse_suppose_explode"),
    notes="Checked as gamma ||W|| >= 1 (the bound (gamma||W||)^T tends to 0 exactly when gamma||W|| < 1). "
    "With delta < 1 the condition only gives gamma ||W|| >= delta, e.g. delta = 1/2, gamma ||W|| = 0.6: "
    "the bound still tends to 0 and the gradient vanishes. Corrected: vanish.s004.reverse_fixed.",
)
def reverse_bound_not_zero_004(xp, W, delta, s, act):
    g = SUP_D1[act]
    Ws = _scaled(xp, W, s * delta / g)
    return g * xp.sqrt(lambda_max_gram(xp, Ws)), 0 * delta + 1


REV_ONLY_INPUTS = {
    "W": Array("n", "n", scale=(0.3, 2.0), transform=_nonzero),
    "delta": Scalar(0.01, 0.999),
    "s": Scalar(1.001, 3.0),
}


@inequality(
    "vanish.s002.reverse_likely_explode",
    inputs=REV_ONLY_INPUTS,
    dims={"n": [1, 2, 4], "act": ["tanh", "sigmoid"]},
    relations=(">=",),
    title="lambda_1 > delta^2/gamma^2 => 'the gradients are likely to explode' (seed 002)",
    source=Source(
        SEED_002,
        "Question 1, part 3",
        quote="If the largest eigenvalue of the weights is larger than \\frac{\\delta^2}{\\gamma^2}, then "
        "the gradients of the hidden state are likely to explode.",
    ),
    statement=r"\lambda_1(W^\top W) > \frac{\delta^2}{\gamma^2} \implies \text{the gradients are likely to "
    r"explode}",
    expected=Verdict.REFUTED,
    same_as=("vanish.s003.reverse_suppose_explode", "vanish.s004.reverse_bound_not_zero"),
    notes="'Likely to explode' is read as: the reversed condition at least removes the guaranteed "
    "vanishing, i.e. gamma ||W|| >= 1 (checked). It does not: for delta < 1 the condition allows delta < "
    "gamma ||W|| < 1, where ||dh_T/dh_0|| <= (gamma||W||)^T -> 0 for every input (e.g. delta = 0.5, gamma "
    "||W|| = 0.6). Puzzling wording, recorded as read.",
)
def reverse_likely_explode_002(xp, W, delta, s, act):
    g = SUP_D1[act]
    Ws = _scaled(xp, W, s * delta / g)
    return g * xp.sqrt(lambda_max_gram(xp, Ws)), 0 * delta + 1


@inequality(
    "vanish.s003.reverse_suppose_explode",
    inputs=REV_ONLY_INPUTS,
    dims={"n": [1, 2, 4], "act": ["tanh", "sigmoid"]},
    relations=(">=",),
    title="lambda_1 > delta^2/gamma^2 => 'we can suppose that instead of vanishing, the gradients will "
    "explode' (seed 003)",
    source=Source(
        SEED_003,
        "Question 5, part 3",
        quote="If the largest eigenvalue of the weights is greater than \\frac{\\delta^2}{\\gamma^2}, then "
        "we can suppose that instead of vanishing, the gradients will explode.",
    ),
    statement=r"\lambda_1(W^\top W) > \frac{\delta^2}{\gamma^2} \implies \text{the gradients do not vanish}",
    expected=Verdict.REFUTED,
    same_as=("vanish.s002.reverse_likely_explode", "vanish.s004.reverse_bound_not_zero"),
    notes="Read as 'instead of vanishing': the condition excludes the guaranteed decay, gamma ||W|| >= 1 "
    "(checked). False for delta < gamma ||W|| < 1. The answer's next sentence (necessary, not sufficient) "
    "is right: vanish.s003.reverse_necessary, vanish.s003.reverse_not_sufficient.",
)
def reverse_suppose_explode_003(xp, W, delta, s, act):
    g = SUP_D1[act]
    Ws = _scaled(xp, W, s * delta / g)
    return g * xp.sqrt(lambda_max_gram(xp, Ws)), 0 * delta + 1


@inequality(
    "vanish.s004.reverse_fixed",
    inputs={"W": Array("n", "n", scale=(0.3, 2.0), transform=_nonzero), "s": Scalar(1.0, 3.0)},
    dims={"n": [1, 2, 4], "T": [1, 4, 16], "act": ["tanh", "sigmoid"]},
    relations=(">=",),
    title="the bound gamma^T ||W||^T stays >= 1 exactly when lambda_1(W^T W) >= 1/gamma^2",
    source=Source(SEED_004, "Question 1.3 (corrected)"),
    statement=r"\lambda_1(W^\top W) \ge \frac{1}{\gamma^2} \implies \gamma^T\|W\|^T \ge 1\ \forall T",
    expected=Verdict.HOLDS,
    corrects="vanish.s004.reverse_bound_not_zero",
    notes="The threshold that decides whether the upper bound can stop decaying is delta = 1, not the "
    "given delta < 1.",
)
def reverse_fixed_004(xp, W, s, T, act):
    g = SUP_D1[act]
    Ws = _scaled(xp, W, s / g)
    return (g * xp.sqrt(lambda_max_gram(xp, Ws))) ** T, 0 * s + 1


# =========================================================================== seed 003, Question 5.2


@prop(
    "vanish.s003.jacobian_step",
    inputs=RNN_INPUTS,
    dims=FD_DIMS,
    title="dh_t/dh_{t-1} = diag(sigma'(h_{t-1})) W^T (seed 003, denominator layout)",
    source=Source(
        SEED_003,
        "Question 5, part 2",
        quote="\\frac{\\partial h_t}{\\partial h_{t-1}} = \\frac{\\partial \\sigma(h_{t-1})}{\\partial "
        "h_{t-1}} \\frac{\\partial h_t}{\\partial \\sigma(h_{t-1})} = \\text{diag}(\\sigma'(h_{t-1}))W^T",
    ),
    statement=r"\frac{\partial h_t}{\partial h_{t-1}} = \mathrm{diag}(\sigma'(h_{t-1}))W^\top",
    expected=Verdict.PROVED,
    same_as=("vanish.s002.jacobian_step", "vanish.s004.jacobian_step"),
    notes="Seed 003 uses the denominator layout ([dh_t/dh_{t-1}]_{ij} = d h_{t,j} / d h_{t-1,i}): checked "
    "as the transpose of the central-difference Jacobian. In numerator layout it would be wrong.",
)
def jacobian_step_003(xp, W, U, b, X, h0, act):
    step = lambda z: run_h(xp, W, U, b, X[:, :1], z, act)[-1]  # noqa: E731
    D = dact(xp, act, h0)
    formula = D[:, :, None] * xp.transpose(W)
    return _close(xp, xp.transpose(fd_jacobian(xp, step, h0)), formula, 1 + xp.max(xp.abs(step(h0)), axis=-1))


@prop(
    "vanish.s003.eq22_23",
    inputs=RNN_INPUTS,
    dims=FD_DIMS,
    title="(22)-(23): dh_1/dh_0 ... dh_T/dh_{T-1} = diag(sigma'(h_0))W^T ... diag(sigma'(h_{T-1}))W^T "
    "(seed 003)",
    source=Source(
        SEED_003,
        "Question 5, part 2, eq. (22)-(23)",
        quote="\\left\\| \\frac{\\partial h_1}{\\partial h_0} \\frac{\\partial h_2}{\\partial h_1} \\dots "
        "\\frac{\\partial h_T}{\\partial h_{T-1}} \\right\\| = \\left\\| \\text{diag}(\\sigma'(h_0))W^T "
        "\\dots \\text{diag}(\\sigma'(h_{T-1}))W^T \\right\\|",
    ),
    statement=r"\frac{\partial h_T}{\partial h_0} = \frac{\partial h_1}{\partial h_0}\cdots\frac{\partial "
    r"h_T}{\partial h_{T-1}} = \mathrm{diag}(\sigma'(h_0))W^\top\cdots\mathrm{diag}(\sigma'(h_{T-1}))W^\top",
    expected=Verdict.HOLDS,
    same_as=("vanish.s002.chain_product", "vanish.s004.chain"),
    notes="Consistent denominator layout: the left-to-right order 1..T is right for it. Checked against "
    "the transpose of the central-difference Jacobian of h_0 -> h_T.",
)
def eq22_23_003(xp, W, U, b, X, h0, act):
    full = lambda z: run_h(xp, W, U, b, X, z, act)[-1]  # noqa: E731
    hs = run_h(xp, W, U, b, X, h0, act)
    P = None
    for t in range(X.shape[1]):
        F = dact(xp, act, hs[t])[:, :, None] * xp.transpose(W)
        P = F if P is None else xp.matmul(P, F)
    return _close(xp, xp.transpose(fd_jacobian(xp, full, h0)), P, 1 + xp.max(xp.abs(full(h0)), axis=-1))


@inequality(
    "vanish.s003.eq24",
    inputs=RNN_INPUTS,
    dims=BOUND_DIMS,
    relations=("<=",),
    title="(24): ||prod diag(sigma'(h_t)) W^T|| <= prod ||diag(sigma'(h_t))|| ||W^T|| (seed 003)",
    source=Source(
        SEED_003,
        "Question 5, part 2, eq. (24)",
        quote="\\|AB\\| \\leq \\|A\\|\\|B\\| \\rightarrow \\leq \\left\\| \\text{diag}(\\sigma'(h_0)) "
        "\\right\\| \\|W^T\\| \\dots",
    ),
    statement=r"\left\|\mathrm{diag}(\sigma'(h_0))W^\top\cdots\mathrm{diag}(\sigma'(h_{T-1}))W^\top\right\| "
    r"\le \prod_{t=0}^{T-1}\|\mathrm{diag}(\sigma'(h_t))\|\,\|W^\top\|",
    expected=Verdict.HOLDS,
    same_as=("vanish.s002.bound_chain",),
)
def eq24_003(xp, W, U, b, X, h0, act):
    hs = run_h(xp, W, U, b, X, h0, act)
    P, rhs = None, None
    for t in range(X.shape[1]):
        D = dact(xp, act, hs[t])
        F = D[:, :, None] * xp.transpose(W)
        P = F if P is None else xp.matmul(P, F)
        f = xp.max(xp.abs(D), axis=-1) * op_norm(xp, xp.transpose(W))
        rhs = f if rhs is None else rhs * f
    return op_norm(xp, P), rhs


@inequality(
    "vanish.s003.diag_norm",
    inputs={"h": Array("n", scale=(0.01, 5.0))},
    dims={"n": [1, 2, 4, 8], "act": ALL_ACTS},
    relations=("=", "<="),
    labels=("||A|| = sqrt(lambda_1(A^T A))", "|sigma'| <= gamma"),
    title="||diag(sigma'(h_t))|| = sqrt(lambda_1(diag(sigma'(h_t))^2)) <= gamma (seed 003)",
    source=Source(
        SEED_003,
        "Question 5, part 2",
        quote="\\left\\| \\text{diag}(\\sigma'(h_t)) \\right\\| = "
        "\\sqrt{\\lambda_1(\\text{diag}(\\sigma'(h_t))^2)} ... \\leq \\sqrt{\\gamma^2} = \\gamma",
    ),
    statement=r"\|\mathrm{diag}(\sigma'(h_t))\| = \sqrt{\lambda_1(\mathrm{diag}(\sigma'(h_t))^2)} \le "
    r"\sqrt{\lambda_1(\mathrm{diag}(\gamma)^2)} = \gamma",
    expected=Verdict.HOLDS,
    notes="Tight (ratio 1) for tanh near 0 and for relu/identity; sigmoid reaches 1/4 at 0.",
)
def diag_norm_003(xp, h, act):
    D = xp.diag_embed(dact(xp, act, h))
    return op_norm(xp, D), xp.sqrt(xp.max(xp.eigvalsh(xp.matmul(D, D)), axis=-1)), 0 * h[:, 0] + SUP_D1[act]


@inequality(
    "vanish.s003.eq25",
    inputs=HYP_INPUTS,
    dims=BOUND_DIMS,
    relations=("<=", "<=", "="),
    labels=("(24) with ||diag|| <= gamma", "||W^T|| <= delta/gamma", "algebra"),
    title="(25): ||dh_T/dh_0|| <= gamma^T ||W^T||^T <= gamma^T (delta/gamma)^T = delta^T (seed 003)",
    source=Source(
        SEED_003,
        "Question 5, part 2, eq. (25)",
        quote="\\left\\| \\frac{\\partial h_T}{\\partial h_0} \\right\\| \\leq \\gamma^T \\|W^T\\|^T \\leq "
        "\\gamma^T \\left( \\frac{\\delta}{\\gamma} \\right)^T = \\delta^T",
    ),
    statement=r"\left\|\frac{\partial h_T}{\partial h_0}\right\| \le \gamma^T\|W^\top\|^T \le "
    r"\gamma^T\left(\frac{\delta}{\gamma}\right)^T = \delta^T",
    expected=Verdict.HOLDS,
    same_as=("vanish.s002.final_bound", "vanish.s004.norm_chain"),
    notes="Hypothesis imposed by rescaling W to ||W|| = s delta/gamma, s in (0, 1].",
)
def eq25_003(xp, W, U, b, X, h0, delta, s, act):
    nrm, Ws = _hyp_bound(xp, W, U, b, X, h0, delta, s, act, layout="h")
    g, T = SUP_D1[act], X.shape[1]
    return nrm, g**T * op_norm(xp, xp.transpose(Ws)) ** T, g**T * (delta / g) ** T, delta**T


@inequality(
    "vanish.s003.not_met_no_explosion",
    inputs=HYP_INPUTS,
    dims=BOUND_DIMS,
    relations=("<=", "<="),
    title="if lambda_1 <= delta^2/gamma^2 the gradients won't explode (seed 003)",
    source=Source(
        SEED_003,
        "Question 5, part 3",
        quote="if this condition is not met (i.e the largest eigenvalue of the weights is smaller than "
        "\\frac{\\delta^2}{\\gamma^2}), we are sure that the gradients won't explode",
    ),
    statement=r"\lambda_1(W^\top W) \le \frac{\delta^2}{\gamma^2} \implies \left\|\frac{\partial "
    r"h_T}{\partial h_0}\right\| \le \delta^T \le 1",
    expected=Verdict.HOLDS,
    same_as=("vanish.s003.eq25",),
)
def not_met_no_explosion_003(xp, W, U, b, X, h0, delta, s, act):
    nrm, _ = _hyp_bound(xp, W, U, b, X, h0, delta, s, act, layout="h")
    return nrm, delta ** X.shape[1], 0 * delta + 1


# =========================================================================== seed 004, Question 1.2


@prop(
    "vanish.s004.jacobian_step",
    inputs=RNN_INPUTS,
    dims=FD_DIMS,
    title="dh_t/dh_{t-1} = W D sigma(h_{t-1}) (seed 004, numerator layout)",
    source=Source(
        SEED_004,
        "Question 1.2",
        quote="\\frac{\\partial h_{t}}{\\partial h_{t-1}} = ... = W D \\sigma(h_{t-1})",
    ),
    statement=r"\frac{\partial h_t}{\partial h_{t-1}} = W\,D\sigma(h_{t-1})",
    expected=Verdict.PROVED,
    same_as=("vanish.s002.jacobian_step", "vanish.s003.jacobian_step"),
    notes="Numerator layout; Dsigma = diag(sigma') for an elementwise sigma. The middle term '\\partial^0 "
    "v x_t / \\partial h_{t-1} b' is conversion garbling of the vanishing U x_t + b terms.",
)
def jacobian_step_004(xp, W, U, b, X, h0, act):
    step = lambda z: run_h(xp, W, U, b, X[:, :1], z, act)[-1]  # noqa: E731
    return _close(
        xp, fd_jacobian(xp, step, h0), jac_h_step(xp, W, h0, act), 1 + xp.max(xp.abs(step(h0)), axis=-1)
    )


@prop(
    "vanish.s004.chain",
    inputs=RNN_INPUTS,
    dims=FD_DIMS,
    title="dh_T/dh_0 = W Dsigma(h_{T-1}) W Dsigma(h_{T-2}) ... W Dsigma(h_0) (seed 004)",
    source=Source(
        SEED_004,
        "Question 1.2",
        quote="= W D \\sigma(h_{T-1}) W D \\sigma(h_{T-2}) \\dots W D \\sigma(h_{0})",
    ),
    statement=r"\frac{\partial h_T}{\partial h_0} = \frac{\partial h_T}{\partial "
    r"h_{T-1}}\cdots\frac{\partial h_1}{\partial h_0} = WD\sigma(h_{T-1})\,WD\sigma(h_{T-2})\cdots "
    r"WD\sigma(h_0)",
    expected=Verdict.HOLDS,
    same_as=("vanish.s002.chain_product", "vanish.s003.eq22_23"),
)
def chain_004(xp, W, U, b, X, h0, act):
    full = lambda z: run_h(xp, W, U, b, X, z, act)[-1]  # noqa: E731
    J = chain_product(xp, _h_jacobians(xp, W, U, b, X, h0, act)[1])
    return _close(xp, fd_jacobian(xp, full, h0), J, 1 + xp.max(xp.abs(full(h0)), axis=-1))


@inequality(
    "vanish.s004.norm_chain",
    inputs=HYP_INPUTS,
    dims=BOUND_DIMS,
    relations=("<=", "<=", "=", "<=", "="),
    labels=(
        "||AB|| <= ||A|| ||B||",
        "||Dsigma|| <= gamma",
        "rewrite",
        "lambda_1 <= delta^2/gamma^2",
        "algebra",
    ),
    title="||dh_T/dh_0|| <= prod ||W|| ||Dsigma|| <= ||W||^T gamma^T = (||W||^2 gamma^2)^{T/2} <= "
    "(delta^2)^{T/2} = delta^T (seed 004)",
    source=Source(
        SEED_004,
        "Question 1.2",
        quote="\\leq \\|W\\|^{T}\\gamma^{T} ... \\leq (\\|W\\|^2 \\gamma^2)^{T/2} ... \\leq "
        "(\\delta^2)^{T/2} = \\delta^T",
    ),
    statement=r"\left\|\frac{\partial h_T}{\partial h_0}\right\| \le "
    r"\|W\|\|D\sigma(h_{T-1})\|\cdots\|W\|\|D\sigma(h_0)\| \le \|W\|^T\gamma^T = (\|W\|^2\gamma^2)^{T/2} "
    r"\le (\delta^2)^{T/2} = \delta^T",
    expected=Verdict.HOLDS,
    same_as=("vanish.s002.final_bound", "vanish.s003.eq25"),
    notes="Hypothesis imposed by rescaling W to ||W|| = s delta/gamma, s in (0, 1].",
)
def norm_chain_004(xp, W, U, b, X, h0, delta, s, act):
    g, T = SUP_D1[act], X.shape[1]
    Ws = _scaled(xp, W, s * delta / g)
    hs, jacs = _h_jacobians(xp, Ws, U, b, X, h0, act)
    prod = None
    for t in range(T):
        f = op_norm(xp, Ws) * xp.max(xp.abs(dact(xp, act, hs[t])), axis=-1)
        prod = f if prod is None else prod * f
    nW = op_norm(xp, Ws)
    return (
        op_norm(xp, chain_product(xp, jacs)),
        prod,
        nW**T * g**T,
        (nW * nW * g * g) ** (T / 2),
        (delta * delta) ** (T / 2),
        delta**T,
    )


# =========================================================================== study: how tight is delta^T?


@study(
    "vanish.bound_tightness",
    title="How tight is ||dh_T/dh_0|| <= delta^T on simulated RNNs?",
    source=Source(SEED_003, "Question 5, part 2, eq. (25)"),
    related=("vanish.s002.final_bound", "vanish.s003.eq25", "vanish.s004.norm_chain"),
)
def bound_tightness(profile):
    """Exact Jacobians of random RNNs with ||W|| = delta/gamma (the hypothesis at equality), delta = 0.9."""
    from lemmacheck.xp import numpy_xp as xp_np

    rng = profile.rng
    n, delta, nets = 8, 0.9, 200 if profile.name == "quick" else 2000
    horizons = [1, 2, 4, 8, 16, 32]
    rows, series = [], []
    for act_name in ("tanh", "sigmoid", "relu", "linear"):
        g = SUP_D1[act_name]
        W = rng.standard_normal((nets, n, n))
        W = _scaled(xp_np, W, np.full(nets, delta / g))
        U = rng.standard_normal((nets, n, 2))
        b = 0.1 * rng.standard_normal((nets, n))
        X = rng.standard_normal((nets, max(horizons), 2))
        h0 = rng.standard_normal((nets, n))
        hs, jacs = _h_jacobians(xp_np, W, U, b, X, h0, act_name)
        ratios = []
        P = None
        for t, J in enumerate(jacs, start=1):
            P = J if P is None else J @ P
            if t in horizons:
                ratios.append(float(np.median(op_norm(xp_np, P) / delta**t)))
        rows.append([act_name, g] + [f"{r:.3g}" for r in ratios])
        series.append(Series(label=act_name, x=horizons, y=ratios))
    conclusion = (
        "Median of ||dh_T/dh_0|| / delta^T over random W at the boundary ||W|| = delta/gamma (delta = 0.9, "
        f"n = {n}): at T = 32 it is {rows[0][-1]} for tanh, {rows[1][-1]} for sigmoid, {rows[2][-1]} for relu "
        f"and {rows[3][-1]} for the identity activation. The bound multiplies worst cases: even with "
        "sigma' = gamma everywhere (identity) the norm of the power W^T is far below ||W||^T for a "
        "random non-normal W, and "
        "sigma' < gamma off its peak shrinks the product further. The bound is attained only for "
        "normal W (e.g. orthogonal times delta/gamma) on a trajectory where sigma' stays at gamma "
        "(vanish.s002.delta_one_witness)."
    )
    return StudyResult(
        tables=[
            Table(
                title="median ||dh_T/dh_0|| / delta^T",
                columns=["activation", "gamma"] + [f"T={t}" for t in horizons],
                rows=rows,
            )
        ],
        plots=[
            Plot(title="Tightness of delta^T", x_label="T", y_label="median ratio", logy=True, series=series)
        ],
        conclusion=conclusion,
    )
