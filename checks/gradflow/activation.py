"""Activation placement in an RNN: h_t = W sigma(h_{t-1}) + U x_t + b versus g_t = sigma(W g_{t-1} + U x_t
+ b).

Seeds 002 (Question 1.1), 003 (Question 5.1) and 004 (Question 1.1) each show g_t = sigma(h_t).  The
simulations run both recurrences from g_0 = sigma(h_0) for several activations, two of which (relu, abs)
are not invertible: the identity needs no inverse, but the argument of seeds 002 and 003 uses one.
"""

from checks._vocab.activations import SUP_D1
from checks._vocab.activations import act as apply_act
from checks._vocab.sources import S2_Q1, S3_Q5, S4_Q1_1
from checks.gradflow._helpers import relatively_equal, run_g, run_h
from checks.gradflow._notation import RECURRENCES_AT_T
from lemmacheck import Array, Verdict, prop

ALL_ACTS = list(SUP_D1)
INVERTIBLE_ACTS = ["tanh", "sigmoid", "softplus", "softsign"]

RNN_INPUTS = {
    "W": Array("n", "n", scale=(0.1, 2.0)),
    "U": Array("n", 2, scale=(0.1, 2.0)),
    "b": Array("n", scale=(0.1, 2.0)),
    "X": Array("T", 2, scale=(0.1, 2.0)),
    "h0": Array("n", scale=(0.1, 2.0)),
}
ACT_DIMS = {"n": [1, 2, 4], "T": [1, 3, 6], "act": ALL_ACTS}
#: both recurrences run from g_0 = σ(h_0), for every activation
BOTH_RECURRENCES = {"inputs": RNN_INPUTS, "dims": ACT_DIMS}


def _g_matches_sigma_h(xp, W, U, b, X, h0, act_name):
    """True where g_t = sigma(h_t) for every t = 0..T when g_0 = sigma(h_0)."""
    hs = run_h(xp, W, U, b, X, h0, act_name)
    gs = run_g(xp, W, U, b, X, apply_act(xp, act_name, h0), act_name)
    ok = None
    for h, g in zip(hs, gs, strict=False):
        # rounding differs between the two recurrences: the policy's rtol, relative to the size of the
        # states and with no absolute floor, so states near 0 are compared as strictly as large ones
        step_ok = relatively_equal(xp, g, apply_act(xp, act_name, h))
        ok = step_ok if ok is None else (ok & step_ok)
    return ok


# Seeds 002, 003 and 004 each show g_t = σ(h_t): one simulation.
@prop(
    "act.s002.g_eq_sigma_h",
    uses=("act.s002.inverse_step",),
    **BOTH_RECURRENCES,
    title="g_t = sigma(h_t) relates the two recurrences (seed 002)",
    source=S2_Q1.at("part 1").quote("We can express g_t in terms of h_t by : g_t = \\sigma(h_t)"),
    statement=r"h_t = W\sigma(h_{t-1}) + Ux_t + b,\ g_t = \sigma(Wg_{t-1} + Ux_t + b),\ g_{t-1} = "
    r"\sigma(h_{t-1}) \implies g_t = \sigma(h_t)",
    expected=Verdict.PROVED,
    same_as=("act.s003.identification", "act.s004.induction"),
    proof_not_asserted="the catalogue's route: it uses the hypothesis σ(h_{t-1}) = g_{t-1} directly, where "
    "the document substitutes h_{t-1} = σ^{-1}(g_{t-1}), a step that needs an injective σ "
    "(act.s002.inverse_step, REFUTED)",
    notes="Induction step proved in SymPy with a generic sigma (derivations/gradflow/activation.py); "
    "simulated for tanh, sigmoid, softplus, softsign, relu, abs and the identity from g_0 = sigma(h_0). "
    "The result needs no invertibility, although the written argument passes through sigma^{-1} (see "
    "act.s002.inverse_step).",
)
@prop(
    "act.s003.identification",
    uses=("act.s003.eq21_inverse", "act.s003.conditions_equivalent"),
    **BOTH_RECURRENCES,
    title="setting g_t = sigma(h_t) for all t makes the recurrences equivalent (seed 003)",
    source=S3_Q5.at("part 1").quote(
        "setting \\forall t, g_t = \\sigma(h_t) suffices to make the recurrence for h_t and g_t equivalent"
    ),
    statement=r"\forall t,\ g_t = \sigma(h_t)\ \text{makes}\ h_t = W\sigma(h_{t-1}) + Ux_t + b\ "
    r"\text{and}\ g_t = \sigma(Wg_{t-1} + Ux_t + b)\ \text{equivalent}",
    expected=Verdict.PROVED,
    same_as=("act.s002.g_eq_sigma_h", "act.s004.induction"),
    proof_not_asserted="the catalogue's route: σ(h_t) = σ(Wσ(h_{t-1}) + Ux_t + b) with σ(h_{t-1}) = g_{t-1}; "
    "the document identifies h_t with σ^{-1}(g_t) through (21), which needs an injective σ "
    "(act.s003.eq21_inverse, REFUTED)",
    notes="Read as: if g_0 = sigma(h_0) then g_t = sigma(h_t) for all t. Induction step proved in SymPy, "
    "simulated for seven activations including non-invertible relu and abs.",
)
@prop(
    "act.s004.induction",
    **BOTH_RECURRENCES,
    title="induction step h_t = W g_{t-1} + U x_t + b, hence sigma(h_t) = g_t (seed 004)",
    source=S4_Q1_1.quote(
        "h_t = W g_{t-1} + U x_t + b ... Now using the equation for g_t for the right hand side, we "
        "will get: \\sigma(h_t) = g_t"
    ),
    statement=r"h_t = W\sigma(W\sigma(h_{t-2}) + Ux_{t-1} + b) + Ux_t + b = Wg_{t-1} + Ux_t + b,\ "
    r"\sigma(h_t) = g_t",
    expected=Verdict.PROVED,
    same_as=("act.s002.g_eq_sigma_h", "act.s003.identification"),
    notes="The chain unrolls two steps and uses sigma(h_{t-2}) = g_{t-2}; no inverse is needed, so it "
    "holds for relu and abs too. Conversion garbling: 'W q_{t-1}' for W g_{t-1}; 'pass both sides through "
    "a sigmoid' means the generic sigma; 'proved the inductive bias' means the induction step.",
)
def g_eq_sigma_h(xp, W, U, b, X, h0, act):
    return _g_matches_sigma_h(xp, W, U, b, X, h0, act)


@prop(
    "act.s002.target_typo",
    inputs=RNN_INPUTS,
    dims={"n": [1, 2, 4], "T": [1, 3], "act": INVERTIBLE_ACTS},
    title="'we need to show g_t = sigma^{-1}(h_t)' (seed 002, as written)",
    source=S2_Q1.at("part 1").quote(
        "Then we need to show that the relationship also holds for time step t : g_t = \\sigma^{-1}(h_t)"
    ),
    statement=r"g_t = \sigma^{-1}(h_t)",
    expected=Verdict.REFUTED,
    notes="Checked as sigma(g_t) = h_t (equivalent for invertible sigma; it avoids evaluating sigma^{-1} "
    "outside its domain). A typo: the same answer concludes sigma(h_t) = g_t two lines later, which is "
    "act.s002.g_eq_sigma_h.",
)
def target_typo_002(xp, W, U, b, X, h0, act):
    hs = run_h(xp, W, U, b, X, h0, act)
    gs = run_g(xp, W, U, b, X, apply_act(xp, act, h0), act)
    h, g = hs[-1], gs[-1]
    s = apply_act(xp, act, g)
    return relatively_equal(xp, s, h)


def _injective_on_pairs(xp, h, h2, act_name):
    """True where sigma(h) = sigma(h') forces h = h', on the pairs (h, h') and (h, -h)."""
    s, s2, sm = apply_act(xp, act_name, h), apply_act(xp, act_name, h2), apply_act(xp, act_name, -h)
    ok1 = (s != s2) | (h == h2)
    ok2 = (s != sm) | (h == -h)
    return xp.min(xp.where(ok1 & ok2, 0 * h + 1, 0 * h), axis=-1) > 0


PAIR_INPUTS = {"h": Array("n", scale=(0.1, 3.0)), "h2": Array("n", scale=(0.1, 3.0))}
PAIR_DIMS = {"n": [1, 2, 4], "act": ["tanh", "sigmoid", "softplus", "relu", "abs"]}
#: pairs (h, h') on which σ(h) = σ(h') ⇒ h = h' is tested
PAIRS = {"inputs": PAIR_INPUTS, "dims": PAIR_DIMS}


# Seeds 002 and 003 both apply σ⁻¹: one injectivity check.
@prop(
    "act.s002.inverse_step",
    **PAIRS,
    title="g_{t-1} = sigma(h_{t-1}) 'that is' sigma^{-1}(g_{t-1}) = h_{t-1} (seed 002)",
    source=S2_Q1.at("part 1").quote(
        "that is \\sigma^{-1}(g_{t-1}) = h_{t-1}, where \\sigma^{-1} is inverse activation function"
    ),
    statement=r"g_{t-1} = \sigma(h_{t-1}) \iff \sigma^{-1}(g_{t-1}) = h_{t-1}",
    expected=Verdict.REFUTED,
    same_as=("act.s003.eq21_inverse",),
    notes="The step needs sigma injective, which the question does not assume: relu (two negative inputs) "
    "and abs (h and -h) give sigma(h) = sigma(h') with h != h', so no sigma^{-1} recovers h_{t-1}. The "
    "conclusion g_t = sigma(h_t) survives (act.s002.g_eq_sigma_h simulates relu and abs): only "
    "sigma(sigma^{-1}(g)) = g on the range of sigma is used, and sigma(h_{t-1}) = g_{t-1} directly gives "
    "it. Checked as injectivity of sigma on sampled pairs.",
)
@prop(
    "act.s003.eq21_inverse",
    **PAIRS,
    title="(20) => (21): sigma^{-1}(g_t) = W g_{t-1} + U x_t + b (seed 003)",
    source=S3_Q5.at("part 1, eq. (21)").quote("\\sigma^{-1}(g_t) = Wg_{t-1} + Ux_t + b (21)"),
    statement=r"g_t = \sigma(Wg_{t-1} + Ux_t + b) \implies \sigma^{-1}(g_t) = Wg_{t-1} + Ux_t + b",
    expected=Verdict.REFUTED,
    same_as=("act.s002.inverse_step",),
    notes="Same gap as seed 002: applying sigma^{-1} needs an injective sigma; relu and abs are not. The "
    "answer's 'Those two conditions being equivalent' (h_t = sigma^{-1}(g_t) and g_{t-1} = sigma(h_{t-1})) "
    "also needs it. The final recipe g_t = sigma(h_t) is still right (act.s003.identification).",
)
def sigma_inverse_step(xp, h, h2, act):
    return _injective_on_pairs(xp, h, h2, act)


claim_symbols = {"act.s002.g_eq_sigma_h": RECURRENCES_AT_T, "act.s002.target_typo": RECURRENCES_AT_T}
