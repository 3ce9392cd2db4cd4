"""Seed 000's loss statements that had no claim: the weighted log-sum-exp bound it attributes to Theorem 1 of
Carlson et al., and a second reading of the garbled 'max_{‖r‖∞} r' of the handwritten lemmas."""

from checks._vocab.notation import symbols as shared
from checks._vocab.sources import S0_APPENDIX, S0_LOSS_V
from checks.loss._helpers import ON_RNN, ON_SMALL_RNN, token_terms
from checks.loss._notation import LEMMAS
from lemmacheck import Array, Derived, Function, Verdict, inequality

#: seed 000's handwritten Lemmas 1-2 are read with seed 001's notation and its handwritten aliases


def _lse_w(xp, v, *, log_w):
    return xp.logsumexp(v + log_w, axis=-1)


def _softmax_w(xp, v, *, log_w):
    return xp.softmax(v + log_w, axis=-1)


#: the weighted log-sum-exp with the claim's weights w = e^{log_w}: lse_w(v) = lse(v + log w), its gradient
#: the weighted softmax; j runs over the K entries
WEIGHTED = shared.extend(
    "checks/loss/weighted_lse.py (WEIGHTED)",
    {
        r"\mathrm{lse}_w": Function(_lse_w, grad=_softmax_w, doc="log Σ_j w_j e^{v_j}"),
        r"\nabla\mathrm{lse}_w": Function(_softmax_w, doc="the weighted softmax"),
        "w": Derived(lambda xp, log_w: xp.exp(log_w), doc="e^{log_w}"),
    },
    indices={"j": "K"},
)
claim_symbols = {
    "lemma1.bound_hw.max_entry": LEMMAS,
    "lemma2.bound_hw.max_entry": LEMMAS,
    "loss.lse_weighted_theorem1": WEIGHTED,
}

_THM1 = (
    'f(θ) is sum of several exponentiations. According to [Theorem 1 in "Stochastic Spectral Descent for '
    'Restricted Boltzmann Machine"]. Let lse_w(u) = log Σ_{j=1}^K w_j exp(u_j), we have:'
)


@inequality(
    "loss.lse_weighted_theorem1",
    title="The bound attributed to Theorem 1: lse_w(u + d) ≤ lse_w(u) + ⟨∇lse_w(u), d⟩ + ½‖d‖∞² for w > 0",
    source=S0_LOSS_V.at("item 2").quote(_THM1),
    statement=r"\mathrm{lse}_w(u+d) \le \mathrm{lse}_w(u) + \langle\nabla\mathrm{lse}_w(u), d\rangle + "
    r"\tfrac12\|d\|_\infty^2,\quad \mathrm{lse}_w(u) = \log\sum_j w_j e^{u_j},\ w > 0",
    expected=Verdict.HOLDS,
    inputs={"u": Array("K"), "d": Array("K"), "log_w": Array("K", low=-7.0, high=7.0)},
    dims={"K": [1, 2, 3, 5, 10]},
    same_as=("lse.bound", "loss.lse_bound_hw"),
    notes="The document introduces the weighted lse_w with the citation and then uses only lse_1 "
    "(lse.bound). "
    "The weights shift the logits by log w_j, so the Hessian is still diag(p) − ppᵀ with p the weighted "
    "softmax and the constant ½ carries over. Checked in remainder form (the tightness measures the ½), "
    "with weights w = e^{log_w} between e^{-7} and e^7.",
)
def lse_weighted_theorem1(xp, u, d, log_w):
    """lse_w(u) = lse(u + log w): the weights enter as a shift of the logits (w = e^{log_w} > 0)."""
    shifted = u + log_w
    grad = xp.softmax(shifted, axis=-1)
    remainder = (
        xp.logsumexp(shifted + d, axis=-1) - xp.logsumexp(shifted, axis=-1) - xp.sum(grad * d, axis=-1)
    )
    return remainder, 0.5 * xp.max(xp.abs(d), axis=-1) ** 2


def _hw_terms(xp, U, W, V, s0, X, dU, dW, dV, ds0, Y, act):
    """Remainders of f_{-t} = lse(VS_t) and g_{-t} = −y_tᵀVS_t for the last token, and max_p r_p, ‖Δz‖∞."""
    tt = token_terms(xp, U, W, V, s0, X, dU, dW, dV, ds0, act)
    y = Y[:, tt["t"] - 1]
    p = xp.softmax(tt["z"], axis=-1)
    f_rem = (
        xp.logsumexp(tt["z_new"], axis=-1) - xp.logsumexp(tt["z"], axis=-1) - xp.sum(p * tt["jvp"], axis=-1)
    )
    g_rem = -xp.sum(y * tt["r"], axis=-1)
    dz_inf = xp.max(xp.abs(tt["z_new"] - tt["z"]), axis=-1)
    return f_rem, g_rem, xp.max(tt["r"], axis=-1), dz_inf


@inequality(
    "lemma1.bound_hw.max_entry",
    uses=("loss.lse_bound_hw", "lemma1.eq3_hw", "lemma1.eq4_hw", "softmax.grad_le_one_hw"),
    title="Handwritten Lemma 1 with 'max_{‖r‖∞} r' read as the largest entry max_p r_p (a sharper bound)",
    source=S0_APPENDIX.at("proof of Lemma 1 (last line)").quote(
        "so f_{-t}(∅) ≤ f_{-t}(θ) + ⟨∇_θ f_{-t}(θ), ∅ − θ⟩ + 1/2 ||V S_t(∅) − V "
        "S_t(θ)||_∞^2 + "
        "max_{||r||_∞} r"
    ),
    statement=r"f_{-t}(\emptyset) \le f_{-t}(\theta) + \langle\nabla_\theta "
    r"f_{-t}(\theta),\emptyset-\theta\rangle"
    r" + \tfrac12\|VS_t(\emptyset)-VS_t(\theta)\|_\infty^2 + \max_p r_p",
    expected=Verdict.HOLDS,
    same_as=("lemma1.bound_hw", "lemma1.bound_hw.each_entry"),
    **ON_RNN,
    notes="PUZZLE: 'max_{‖r‖∞} r' is garbled. lemma1.bound_hw reads it as ‖r‖∞; read as the largest entry "
    "max_p r_p (signed) the lemma is sharper and still true, because the term it bounds is pᵀr with p the "
    "softmax, a probability vector. Remainder form; the last token.",
)
def lemma1_bound_hw_max_entry(xp, U, W, V, s0, X, dU, dW, dV, ds0, Y, act):
    f_rem, _, r_max, dz_inf = _hw_terms(xp, U, W, V, s0, X, dU, dW, dV, ds0, Y, act)
    return f_rem, 0.5 * dz_inf**2 + r_max


@inequality(
    "lemma2.bound_hw.max_entry",
    uses=("lemma2.eq5_hw", "lemma2.hw_chain"),
    title="Handwritten Lemma 2 with 'max_{‖r‖∞} r' read as the largest entry max_p r_p",
    source=S0_APPENDIX.at("Lemma 2").quote(
        "Lemma 2: g_{-t}(∅) ≤ g_{-t}(θ) + ⟨∇_θ g_{-t}(θ), ∅ − θ⟩ + max_{||r||_∞} r"
    ),
    statement=r"g_{-t}(\emptyset) \le g_{-t}(\theta) + \langle\nabla_\theta "
    r"g_{-t}(\theta),\emptyset-\theta\rangle"
    r" + \max_p r_p",
    expected=Verdict.REFUTED,
    **ON_SMALL_RNN,
    notes="PUZZLE, second reading of the garbled term (lemma2.bound_hw reads ‖r‖∞ and holds). The "
    "remainder "
    "of g_{-t} is exactly −y_tᵀr = −r_label, which exceeds max_p r_p whenever r is negative on the label's "
    "coordinate and below |r_label| elsewhere: unlike Lemma 1, Lemma 2 needs the absolute value. Recorded, "
    "like loss.eq7.reading_b, to show which reading the proof needs.",
)
def lemma2_bound_hw_max_entry(xp, U, W, V, s0, X, dU, dW, dV, ds0, Y, act):
    _, g_rem, r_max, _ = _hw_terms(xp, U, W, V, s0, X, dU, dW, dV, ds0, Y, act)
    return g_rem, r_max
