"""Seed 002 Question 1.2, the reversed condition: λ_1(WᵀW) > δ²/γ² does not make gradients explode."""

from checks._vocab.activations import SUP_D1
from checks._vocab.activations import act as apply_act
from checks._vocab.linalg import matvec, op_norm
from checks._vocab.sources import S2_Q1, S3_Q5, S4_Q1_3
from checks.gradflow._helpers import POLICY_RTOL, chain_product, jac_h_step, lambda_max_gram
from checks.gradflow._notation import CHAIN_002_SCALED, W_SCALED_UNIT
from checks.gradflow.vanishing import (
    ALL_ACTS,
    BOUND_DIMS,
    REV_INPUTS,
    RNN_INPUTS,
    _g_jacobians,
    _h_jacobians,
    _nonzero,
    _scaled,
)
from lemmacheck import Array, Orthogonal, Scalar, Verdict, inequality, prop

# --------------------------------------------------------------------------- reversed condition


@inequality(
    "vanish.s002.reverse_chain",
    uses=("vanish.s002.bound_chain",),
    inputs=REV_INPUTS,
    dims=BOUND_DIMS,
    relations=("<=", ">"),
    title="lambda_1 > delta^2/gamma^2: ||dg_T/dg_0|| <= gamma^T sqrt(lambda_1)^T > delta^T (seed 002)",
    source=S2_Q1.at("part 3").quote(
        "\\left\\| \\frac{\\partial g_T}{\\partial g_0} \\right\\| \\leq \\gamma^T "
        "(\\sqrt{\\lambda_1(W^\\top W)})^T > \\delta^T"
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
NEC_DIMS = {"n": [1, 2, 4], "T": [2, 6], "act": ALL_ACTS}
#: an RNN and a δ in [0, 1): does growth of the gradient imply the reversed condition?
NECESSITY = {"inputs": NEC_INPUTS, "dims": NEC_DIMS}


# Seeds 002, 003 and 004 state the same necessity: one check.
@prop(
    "vanish.s002.reverse_necessary",
    **NECESSITY,
    title="the reversed condition is necessary for the gradient to explode (seed 002)",
    source=S2_Q1.at("part 3").quote(
        "this condition is necessary but not sufficient for the gradient to explode"
    ),
    statement=r"\left\|\frac{\partial h_T}{\partial h_0}\right\| \to \infty \implies \lambda_1(W^\top W) > "
    r"\frac{\delta^2}{\gamma^2}",
    expected=Verdict.HOLDS,
    same_as=("vanish.s003.reverse_necessary", "vanish.s004.reverse_necessary"),
    notes="Finite-T proxy: whenever the exact Jacobian norm exceeds 1 (growth), lambda_1(W^T W) > "
    "delta^2/gamma^2 for every sampled delta in [0, 1). This follows from ||J_T|| <= (gamma ||W||)^T.",
)
@prop(
    "vanish.s003.reverse_necessary",
    uses=("vanish.s003.eq25",),
    **NECESSITY,
    title="the reversed condition is necessary for explosion (seed 003)",
    source=S3_Q5.at("part 3").quote("This condition will be necessary but not sufficient"),
    statement=r"\left\|\frac{\partial h_T}{\partial h_0}\right\| \to \infty \implies \lambda_1(W^\top W) > "
    r"\frac{\delta^2}{\gamma^2}",
    expected=Verdict.HOLDS,
    same_as=("vanish.s002.reverse_necessary",),
)
@prop(
    "vanish.s004.reverse_necessary",
    uses=("vanish.s004.norm_chain",),
    **NECESSITY,
    title="the reversed condition is a necessary condition for explosion (seed 004)",
    source=S4_Q1_3.quote("so this condition is a necessary condition"),
    statement=r"\left\|\frac{\partial h_T}{\partial h_0}\right\| \to \infty \implies \lambda_1(W^\top W) "
    r"\not< \frac{\delta^2}{\gamma^2}",
    expected=Verdict.HOLDS,
    same_as=("vanish.s002.reverse_necessary",),
)
def reverse_necessary(xp, W, U, b, X, h0, delta, act):
    # True where 'the gradient grows (||dh_T/dh_0|| > 1)' implies lambda_1(W^T W) > delta^2/gamma^2
    g = SUP_D1[act]
    J = chain_product(xp, _h_jacobians(xp, W, U, b, X, h0, act)[1])
    grows = op_norm(xp, J) > 1
    reversed_cond = lambda_max_gram(xp, W) > delta * delta / (g * g)
    return (~grows) | reversed_cond


SAT_INPUTS = {"Q": Orthogonal("n"), "a": Scalar(1.05, 3.0), "delta": Scalar(0.0, 0.999)}
SAT_DIMS = {"n": [1, 2, 4], "T": [4, 8], "act": ["tanh", "sigmoid"]}
#: W = (a/γ)Q (Q orthogonal, a > 1) with a saturating bias: the reversed condition without explosion
SATURATED = {"inputs": SAT_INPUTS, "dims": SAT_DIMS}


def _saturated_witness(xp, Q, a, delta, T, act):
    """W = c a Q with gamma c a > 1 (reversed condition) and a saturating bias: the gradient still
    vanishes."""
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


# Seeds 002 and 003 state the same insufficiency: one witness family.
@prop(
    "vanish.s002.reverse_not_sufficient",
    **SATURATED,
    title="the reversed condition is not sufficient: saturated units vanish anyway (seed 002)",
    source=S2_Q1.at("part 3").quote(
        "this condition is necessary but not sufficient for the gradient to explode"
    ),
    statement=r"\exists\,W,b:\ \lambda_1(W^\top W) > \frac{\delta^2}{\gamma^2}\ \text{and}\ "
    r"\left\|\frac{\partial h_T}{\partial h_0}\right\| \le 2^{-T}",
    expected=Verdict.HOLDS,
    same_as=("vanish.s003.reverse_not_sufficient",),
    notes="Witness family: W = (a/gamma) Q with Q orthogonal and a in (1.05, 3), so even gamma ||W|| > 1; "
    "a bias large enough to saturate tanh/sigmoid makes sigma' tiny and the exact Jacobian decays faster "
    "than 2^{-T}. Explosion witnesses: vanish.s004.explosion_possible.",
)
@prop(
    "vanish.s003.reverse_not_sufficient",
    uses=("vanish.s003.eq25",),
    **SATURATED,
    title="the reversed condition is not sufficient for explosion (seed 003)",
    source=S3_Q5.at("part 3").quote(
        "we can only say that the gradients will be smaller than something that is greater than 0, "
        "but this doesn't imply that the gradients will tend to infinity"
    ),
    statement=r"\lambda_1(W^\top W) > \frac{\delta^2}{\gamma^2} \not\Rightarrow \left\|\frac{\partial "
    r"h_T}{\partial h_0}\right\| \to \infty",
    expected=Verdict.HOLDS,
    same_as=("vanish.s002.reverse_not_sufficient",),
    notes="Same saturated witness family as seed 002.",
)
def reverse_not_sufficient(xp, Q, a, delta, T, act):
    return _saturated_witness(xp, Q, a, delta, T, act)


@prop(
    "vanish.s004.explosion_possible",
    uses=("vanish.s004.norm_chain",),
    inputs={"Q": Orthogonal("n"), "a": Scalar(1.05, 3.0)},
    dims={"n": [1, 2, 4], "T": [2, 8, 16]},
    title="under the reversed condition the gradient can explode (seed 004; seed 002 'likely to explode')",
    source=S4_Q1_3.quote(
        "gradient explosion is possible. It won't certainly explode but now it has the potential to explode"
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
    return (xp.abs(op_norm(xp, J) - a**T) <= POLICY_RTOL * a**T) & (lambda_max_gram(xp, W) > 1)


def _reversed_condition(s_low):
    """W ≠ 0 rescaled so that λ_1(WᵀW) = (s δ/γ)² with s ≥ ``s_low``: the reversed condition (s > 1) or its
    boundary (s = 1); γ‖W‖ is compared with 1."""
    return {
        "inputs": {
            "W": Array("n", "n", scale=(0.3, 2.0), transform=_nonzero),
            "delta": Scalar(0.01, 0.999),
            "s": Scalar(s_low, 3.0),
        },
        "dims": {"n": [1, 2, 4], "act": ["tanh", "sigmoid"]},
        "relations": (">=",),
    }


# Three documents read the reversed condition as removing the decay: one check.
@inequality(
    "vanish.s004.reverse_bound_not_zero",
    uses=("vanish.s004.norm_chain",),
    **_reversed_condition(1.0),
    title="lambda_1 >= delta^2/gamma^2 => the upper bound (gamma ||W||)^T does not tend to 0 (seed 004)",
    source=S4_Q1_3.quote(
        "Hence if the largest eigenvalue is not smaller than \\frac{\\delta^2}{\\gamma^2}, then the "
        "upper bound won't tend to zero"
    ),
    statement=r"\lambda_1(W^\top W) \ge \frac{\delta^2}{\gamma^2} \implies (\gamma\|W\|)^T \not\to 0",
    expected=Verdict.REFUTED,
    same_as=("vanish.s002.reverse_likely_explode", "vanish.s003.reverse_suppose_explode"),
    notes="Checked as gamma ||W|| >= 1 (the bound (gamma||W||)^T tends to 0 exactly when gamma||W|| < 1). "
    "With delta < 1 the condition only gives gamma ||W|| >= delta, e.g. delta = 1/2, gamma ||W|| = 0.6: "
    "the bound still tends to 0 and the gradient vanishes. Corrected: vanish.s004.reverse_fixed.",
)
@inequality(
    "vanish.s002.reverse_likely_explode",
    uses=("vanish.s002.reverse_chain",),
    **_reversed_condition(1.001),
    title="lambda_1 > delta^2/gamma^2 => 'the gradients are likely to explode' (seed 002)",
    source=S2_Q1.at("part 3").quote(
        "If the largest eigenvalue of the weights is larger than \\frac{\\delta^2}{\\gamma^2}, then "
        "the gradients of the hidden state are likely to explode."
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
@inequality(
    "vanish.s003.reverse_suppose_explode",
    **_reversed_condition(1.001),
    title="lambda_1 > delta^2/gamma^2 => 'we can suppose that instead of vanishing, the gradients will "
    "explode' (seed 003)",
    source=S3_Q5.at("part 3").quote(
        "If the largest eigenvalue of the weights is greater than \\frac{\\delta^2}{\\gamma^2}, then "
        "we can suppose that instead of vanishing, the gradients will explode."
    ),
    statement=r"\lambda_1(W^\top W) > \frac{\delta^2}{\gamma^2} \implies \text{the gradients do not vanish}",
    expected=Verdict.REFUTED,
    same_as=("vanish.s002.reverse_likely_explode", "vanish.s004.reverse_bound_not_zero"),
    notes="Read as 'instead of vanishing': the condition excludes the guaranteed decay, gamma ||W|| >= 1 "
    "(checked). False for delta < gamma ||W|| < 1. The answer's next sentence (necessary, not sufficient) "
    "is right: vanish.s003.reverse_necessary, vanish.s003.reverse_not_sufficient.",
)
def reverse_removes_decay(xp, W, delta, s, act):
    # γ‖W‖ against 1, for a W scaled so that λ_1(WᵀW) = (s δ/γ)²: the decay of (γ‖W‖)^T is removed iff ≥ 1
    g = SUP_D1[act]
    Ws = _scaled(xp, W, s * delta / g)
    return g * xp.sqrt(lambda_max_gram(xp, Ws)), 0 * delta + 1


@inequality(
    "vanish.s004.reverse_fixed",
    inputs={"W": Array("n", "n", scale=(0.3, 2.0), transform=_nonzero), "s": Scalar(1.0, 3.0)},
    dims={"n": [1, 2, 4], "T": [1, 4, 16], "act": ["tanh", "sigmoid"]},
    relations=(">=",),
    title="the bound gamma^T ||W||^T stays >= 1 exactly when lambda_1(W^T W) >= 1/gamma^2",
    source=S4_Q1_3.at("(corrected)").cite(),
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


claim_symbols = {
    "vanish.s002.reverse_chain": CHAIN_002_SCALED,
    "vanish.s004.reverse_fixed": W_SCALED_UNIT,
}
