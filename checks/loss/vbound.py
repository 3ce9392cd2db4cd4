r"""Seed 000 §"Loss Bounded with Respect to V": the loss bound when only V moves, per token and averaged.

With U, W (and s₀) fixed the states s_t do not depend on V, so :math:`g` is linear in V and
:math:`f_t(V) = \mathrm{lse}(V s_t)`.  The bound is eq. (2) of seed 001 at :math:`x = V s_t`,
:math:`\Delta x = \Delta V s_t`, followed by :math:`\|\Delta V s_t\|_\infty \le \|\Delta
V\|_{S^\infty}\|s_t\|_2`.
Gradients with respect to V are computed by back-propagation (independently of the pull-back formula
:math:`\nabla_V f_t = \mathrm{softmax}(Vs_t)s_t^\top` that the bound's last step relies on).
"""

import math

import numpy as np

from checks._vocab.linalg import dot, frob, inf_norm, matvec
from checks._vocab.notation import symbols as shared
from checks._vocab.rnn import hidden_states, preactivations_and_states
from checks._vocab.sources import S0_APPENDIX, S0_LOSS_V
from checks.loss._helpers import (
    LOSS_RNN_DIMS,
    LOSS_RNN_DIMS_SMALL,
    backprop_logits,
    float_errors_raise,
    loss_rnn_inputs,
    regime_table,
    token_gradient,
)
from lemmacheck import (
    Array,
    Derived,
    Function,
    Input,
    Plot,
    Series,
    StudyResult,
    Table,
    Verdict,
    identity,
    inequality,
    study,
)

#: the RNN instances of the loss claims, with only V perturbed; claims expected to be refuted take the
#: small dims
VIN = {k: v for k, v in loss_rnn_inputs("onehot").items() if k in ("U", "W", "V", "s0", "X", "Y", "dV")}
ON_V = dict(inputs=VIN, dims=LOSS_RNN_DIMS)
ON_SMALL_V = dict(inputs=VIN, dims=LOSS_RNN_DIMS_SMALL)


def _per_token(xp, U, W, V, s0, X, act):
    """The forward pass, pre-activations and states s_0..s_T (what back-propagation takes, so that it does not
    run the pass again), and the logits V s_1..V s_T."""
    forward = preactivations_and_states(xp, U, W, s0, X, act)
    zs = [matvec(V, s) for s in forward[1][1:]]
    if float_errors_raise():  # every token's softmax, as this function computed them for every caller
        for z in zs:
            xp.softmax(z, axis=-1)
    return forward, zs


def _last_token(xp, U, W, V, s0, X, dV, act):
    """The quantities seed 000's V-bound names, at the last token t = T (the statement compiler's table)."""
    forward, zs = _per_token(xp, U, W, V, s0, X, act)
    s, z = forward[1][-1], zs[-1]
    p = xp.softmax(z, axis=-1)
    return {
        "s": s,
        "f": xp.logsumexp(z, axis=-1),
        "f_new": xp.logsumexp(matvec(V + dV, s), axis=-1),
        "pair": dot(xp, p, matvec(dV, s)),
    }


def _linear_part(xp, U, W, V, s0, X, Y, dV, act):
    """Seed 000's linear part g(V) = Σ_t y_tᵀ V s_t at V^k and V^k + ΔV, and ⟨∇_V g(V^k), ΔV⟩ with the
    gradient by back-propagation."""
    forward = preactivations_and_states(xp, U, W, s0, X, act)
    ss = forward[1][1:]
    T = X.shape[1]
    grad = _grad_v(xp, U, W, V, s0, X, [Y[:, t] for t in range(T)], act, forward)
    return {
        "g": sum(dot(xp, Y[:, t], matvec(V, ss[t])) for t in range(T)),
        "g_new": sum(dot(xp, Y[:, t], matvec(V + dV, ss[t])) for t in range(T)),
        "pair": frob(xp, grad, dV),
    }


#: seed 000 §Loss bound w.r.t. V at the last token: s_t its state, f_t(V) its log-sum-exp, ∇_V f_t paired;
#: item 1's linear part g at the current V^k and after the step
symbols = shared.extend(
    "checks/loss/vbound.py",
    {
        r"\mathbf{s}_t": Derived(_last_token, "s", "s_T"),
        r"\Delta\mathbf{V}": Input("dV"),
        r"f_t(\mathbf{V}+\Delta\mathbf{V})": Derived(_last_token, "f_new", "f_T(V + ΔV)"),
        r"f_t(\mathbf{V})": Derived(_last_token, "f", "f_T(V)"),
        r"\langle\nabla_{\mathbf{V}}f_t,\Delta\mathbf{V}\rangle": Derived(
            _last_token, "pair", "⟨∇_V f_T, ΔV⟩"
        ),
        r"g(\mathbf{V}^k+\Delta\mathbf{V})": Derived(_linear_part, "g_new", "g(V^k + ΔV)"),
        r"g(\mathbf{V}^k)": Derived(_linear_part, "g", "Σ_t y_tᵀ V^k s_t"),
        r"\langle\nabla_{\mathbf{V}}g(\mathbf{V}^k),\Delta\mathbf{V}\rangle": Derived(
            _linear_part, "pair", "⟨∇_V g(V^k), ΔV⟩ (back-propagation)"
        ),
    },
)


def _token_pullback(xp, U, W, V, s0, X, act):
    """softmax(Vs_T) and ∇_V f_T back-propagated: the two gradients of item 2's last step, at t = T."""
    forward, zs = _per_token(xp, U, W, V, s0, X, act)
    p = xp.softmax(zs[-1], axis=-1)
    return {"p": p, "grad_v": token_gradient(xp, U, W, V, s0, X, p, act, forward=forward)[2]}


def _token_f(xp, U, W, V, s0, X, dV, act):
    q = _last_token(xp, U, W, V, s0, X, dV, act)
    return {"f": q["f"], "f_new": q["f_new"]}


def _lse(xp, u):
    return xp.logsumexp(u, axis=-1)


def _softmax(xp, u):
    return xp.softmax(u, axis=-1)


_LSE_1 = Function(_lse, grad=_softmax, doc="lse_1, log-sum-exp with unit weights")
#: item 2's chain at the last token t = T, f read per token (f_t = lse(Vs_t)) as the chain needs: as written
#: f is the sum over the tokens (§Loss Function item 2), and its first '=' is then loss.f_single_lse
PER_TOKEN = symbols.extend(
    "checks/loss/vbound.py (PER_TOKEN)",
    {
        r"\mathrm{lse}_1": _LSE_1,
        r"\nabla\mathrm{lse}_1": Function(_softmax, doc="∇lse_1 = softmax"),
        "V^k": Input("V"),
        r"\Delta V": Input("dV"),
        "s_t": Derived(_last_token, "s", "s_T"),
        r"f(U^k,W^k,V^k+\Delta V)": Derived(_token_f, "f_new", "f_T(V + ΔV), per token"),
        r"f(\theta^k)": Derived(_token_f, "f", "f_T(V), per token"),
        r"\nabla_{Vs_t}f(\theta^k)": Derived(_token_pullback, "p", "softmax(Vs_T)"),
        r"\nabla_{\mathbf{V}\mathbf{s}_t}f(\theta^k)": Derived(_token_pullback, "p", "softmax(Vs_T)"),
        r"\nabla_Vf(\theta^k)": Derived(_token_pullback, "grad_v", "∇_V f_T (back-propagation)"),
        r"\nabla_{\mathbf{V}}f(\theta^k)": Derived(_token_pullback, "grad_v", "∇_V f_T (back-propagation)"),
    },
)


def _f_all_tokens(xp, U, W, V, s0, X, act):
    _, zs = _per_token(xp, U, W, V, s0, X, act)
    return sum(xp.logsumexp(z, axis=-1) for z in zs)


#: item 2's 'f(V) = lse_1(V s_t)' as written: f(V) the sum over the tokens (§Loss Function item 2), s_t the
#: last token's state (t is free in the statement)
F_AS_DEFINED = symbols.extend(
    "checks/loss/vbound.py (F_AS_DEFINED)",
    {
        r"f(\mathbf{V})": Derived(_f_all_tokens, doc="Σ_t lse(Vs_t), f as §Loss Function defines it"),
        r"\mathrm{lse}_{\mathbf{1}}": _LSE_1,
    },
)


def _vec(xp, M):
    """vec(M): the columns of M stacked (batch axis first)."""
    return xp.transpose(M).reshape(M.shape[0], -1)


def _sequence_loss(xp, U, W, V, s0, X, Y, dV, act):
    E, E_new, _, ss, grad = _loss_and_grad_pair(xp, U, W, V, s0, X, Y, dV, act)
    least = ss[0]
    for s in ss[1:]:  # the state of least norm: t free read 'for every t', which binds at the smallest
        smaller = (dot(xp, s, s) < dot(xp, least, least))[:, None]
        least = xp.where(smaller, s, least)
    return {
        "E": E,
        "E_new": E_new,
        "vec_grad": _vec(xp, grad),
        "states": xp.stack(ss, axis=1),
        "least": least,
    }


_E = {
    r"E(\mathbf{U}^k,\mathbf{W}^k,\mathbf{V}^k+\Delta\mathbf{V})": Derived(
        _sequence_loss, "E_new", "E(V + ΔV)"
    ),
    r"E(\mathbf{V}^k+\Delta\mathbf{V})": Derived(_sequence_loss, "E_new", "E(V + ΔV)"),
    r"E(\theta^k)": Derived(_sequence_loss, "E", "E = (1/M)Σ_t (lse(Vs_t) − y_tᵀVs_t)"),
    r"\nabla_{\mathrm{vec}(\mathbf{V})}E(\theta^k)": Derived(
        _sequence_loss, "vec_grad", "vec(∇_V E), back-propagated"
    ),
    r"\mathrm{vec}": Function(_vec, doc="the columns stacked"),
    r"\Delta\mathbf{V}": Input("dV"),
    "M": Input("T"),
}
#: item 3 corrected: E the mean over the M = T tokens, s_t the state at step t of the sum
SEQUENCE_MEAN = shared.extend(
    "checks/loss/vbound.py (SEQUENCE_MEAN)",
    {**_E, r"\mathbf{s}": Derived(_sequence_loss, "states", "s_1..s_T")},
)
#: item 3 as written: the one ‖s_t‖₂² with t free, read 'for every t' (loss.v_bound_e's notes), which binds at
#: the state of least norm
SEQUENCE_FREE_T = shared.extend(
    "checks/loss/vbound.py (SEQUENCE_FREE_T)",
    {**_E, r"\mathbf{s}_t": Derived(_sequence_loss, "least", "the s_t of least norm")},
)
#: the appendix's restatement of eq. (2) with two points x_1, x_2: l_se is log-sum-exp
TWO_POINTS = shared.extend(
    "checks/loss/vbound.py (TWO_POINTS)",
    {
        "l_{se}": Function(_lse, grad=_softmax, doc="log-sum-exp"),
        r"\nabla_{x_1}l_{se}": Function(_softmax, doc="∇l_se = softmax"),
        "x_1": Input("x1"),
        "x_2": Input("x2"),
    },
)
#: item 2 corrected: f(V) the sum over the M = T tokens, s_t the state at step t of the sum
F_SUM = shared.extend(
    "checks/loss/vbound.py (F_SUM)",
    {
        r"f(\mathbf{V})": Derived(_f_all_tokens, doc="Σ_t lse(Vs_t), f as §Loss Function defines it"),
        r"\mathrm{lse}_{\mathbf{1}}": _LSE_1,
        r"\mathbf{s}": Derived(
            lambda xp, U, W, s0, X, act: xp.stack(hidden_states(xp, U, W, s0, X, act)[1:], axis=1),
            doc="s_1..s_T",
        ),
        "M": Input("T"),
    },
)
claim_symbols = {
    "loss.f_sum_lse": F_SUM,
    "loss.lse_bound_hw": TWO_POINTS,
    "loss.v_bound_chain": PER_TOKEN,
    "loss.v_grad_pullback": PER_TOKEN,
    "loss.f_single_lse": F_AS_DEFINED,
    "loss.v_bound_e": SEQUENCE_FREE_T,
    "loss.v_bound_e.mean": SEQUENCE_MEAN,
}


def _grad_v(xp, U, W, V, s0, X, C, act, forward):
    """∇_V Σ_t c_tᵀ V s_t by back-propagation (only the V block is used here) from the caller's forward."""
    return backprop_logits(xp, U, W, V, s0, X, C, act, forward)[2]


@identity(
    "loss.g_linear_in_v",
    title="g is linear in V: g(V + ΔV) = g(V) + ⟨∇_V g(V), ΔV⟩",
    source=S0_LOSS_V.at("item 1").quote(
        "For g(θ) is linear with respect to V, so we have: g(V^k + ΔV) = g(V^k) + ⟨∇_V g(V^k), ΔV⟩"
    ),
    statement=r"g(\mathbf V^k + \Delta\mathbf V) = g(\mathbf V^k) + \langle\nabla_{\mathbf V} g(\mathbf "
    r"V^k),\Delta\mathbf V\rangle",
    expected=Verdict.PROVED,
    **ON_V,
    notes="True because s_t does not depend on V (U, W fixed). ∇_V g = Σ_t y_t s_tᵀ by back-propagation; "
    "SymPy proves the identity for H = K = 2 (derivations/loss/vbound.py).",
)
def loss_g_linear_in_v(xp, U, W, V, s0, X, Y, dV, act):
    q = _linear_part(xp, U, W, V, s0, X, Y, dV, act)
    return q["g_new"], q["g"] + q["pair"]


@identity(
    "loss.f_single_lse",
    title="'f(V) = lse_1(V s_t)' as written (f was defined as a sum over all tokens)",
    source=S0_LOSS_V.at("item 2").quote(
        "Let lse_w(u) = log Σ_{j=1}^K w_j exp(u_j), we have: f(V) = lse_1(V s_t)"
    ),
    statement=r"f(\mathbf V) = \mathrm{lse}_{\mathbf 1}(\mathbf V\mathbf s_t)",
    expected=Verdict.REFUTED,
    **ON_SMALL_V,
    notes="f(θ) = Σ_{t=1}^M lse(Vs_t) (item 2 of §Loss Function), so f = lse_1(V s_t) only for M = 1; the "
    "free index t is tested as the last token. The rest of the section (and our loss.v_bound_chain) reads "
    "f as the per-token f_t. Corrected: loss.f_sum_lse.",
)
def loss_f_single_lse(xp, U, W, V, s0, X, act):
    _, zs = _per_token(xp, U, W, V, s0, X, act)
    f = sum(xp.logsumexp(z, axis=-1) for z in zs)
    return f, xp.logsumexp(zs[-1], axis=-1)


def weighted_lse(xp, w, u):
    r""":math:`\mathrm{lse}_w(u) = \log\sum_j w_j e^{u_j}` (w > 0), shifted by max u for stability."""
    m = xp.max(u, axis=-1)
    return m + xp.log(xp.sum(w * xp.exp(u - m[..., None]), axis=-1))


@identity(
    "loss.f_sum_lse",
    title="f(V) = Σ_t lse_1(V s_t): f is a sum of weighted log-sum-exps with unit weights",
    source=S0_LOSS_V.at("item 2 (corrected)").cite(),
    statement=r"f(\mathbf V) = \sum_{t=1}^M \mathrm{lse}_{\mathbf 1}(\mathbf V\mathbf s_t),\quad "
    r"\mathrm{lse}_{\mathbf w}(\mathbf u) = \log\sum_{j=1}^K w_j e^{u_j}",
    expected=Verdict.HOLDS,
    corrects="loss.f_single_lse",
    **ON_V,
)
def loss_f_sum_lse(xp, U, W, V, s0, X, act):
    _, zs = _per_token(xp, U, W, V, s0, X, act)
    ones = zs[0] * 0 + 1
    f = sum(xp.logsumexp(z, axis=-1) for z in zs)
    return f, sum(weighted_lse(xp, ones, z) for z in zs)


@inequality(
    "loss.v_bound_chain",
    uses=("loss.lse_weighted_theorem1",),
    title="The V-bound of a token, step by step (eq. (2) at Vs_t, then ‖ΔV s_t‖∞ ≤ ‖ΔV‖_{S∞}‖s_t‖₂)",
    source=S0_LOSS_V.at("item 2").quote(
        "f(U^k, W^k, V^k + ΔV) = lse_1(V^k s_t + ΔV s_t) ≤ lse_1(V^k s_t) + ⟨∇ lse_1(V^k s_t), ΔV "
        "s_t⟩ + 1/2 ||ΔV s_t||_∞^2 = ... ≤ f(θ^k) + ⟨∇_V f(θ^k), ΔV⟩ + 1/2 ||ΔV||_{S∞}^2 ||s_t||_2^2"
    ),
    statement=r"f(U^k, W^k, V^k+\Delta V) = \mathrm{lse}_1(V^k s_t + \Delta V s_t) \le \mathrm{lse}_1(V^k "
    r"s_t) + \langle\nabla\mathrm{lse}_1(V^k s_t),\Delta V s_t\rangle + \tfrac12\|\Delta V s_t\|_\infty^2 "
    r"= f(\theta^k) + \langle\nabla_{V s_t} f(\theta^k),\Delta V s_t\rangle + \tfrac12\|\Delta V "
    r"s_t\|_\infty^2 \le f(\theta^k) + \langle\nabla_V f(\theta^k),\Delta V\rangle + \tfrac12\|\Delta "
    r"V\|_{S^\infty}^2\|s_t\|_2^2",
    expected=Verdict.HOLDS,
    same_as=("lse.bound",),
    step_is={1: "loss.f_single_lse"},
    expected_broken_step=1,
    relations=("=", "<=", "=", "<="),
    labels=[
        "f_t(V + ΔV) = lse_1((V + ΔV)s_t)",
        "log-sum-exp bound (Theorem 1 of Carlson et al.; seed 001 eq. (2))",
        "∇lse_1 = ∇_{Vs_t} f",
        "⟨p, ΔVs_t⟩ = ⟨∇_V f, ΔV⟩ and ‖ΔVs_t‖∞ ≤ ‖ΔV‖_{S∞}‖s_t‖₂",
    ],
    **ON_V,
    notes="The check reads f per token (f_t = lse(Vs_t), t = the last token), as the chain needs; as written "
    "f is the sum over tokens (§Loss Function, item 2), and the first '=' is then loss.f_single_lse, "
    "REFUTED: the proof as written breaks at step 1. ∇_V f is back-propagated, ⟨∇_{Vs_t} f, ΔVs_t⟩ "
    "uses softmax(Vs_t) directly. Steps 2 and 4 are tight only in limits; the slack on RNN states is "
    "measured in loss.v_bound_token and the study loss.v_bound_tightness.",
)
def loss_v_bound_chain(xp, U, W, V, s0, X, dV, act):
    forward, zs = _per_token(xp, U, W, V, s0, X, act)
    s, z = forward[1][-1], zs[-1]
    p = xp.softmax(z, axis=-1)
    dz = matvec(dV, s)
    f = xp.logsumexp(z, axis=-1)
    half = 0.5 * inf_norm(xp, dz) ** 2
    gV = token_gradient(xp, U, W, V, s0, X, p, act, forward=forward)[2]  # ∇_V f_t, back-propagated
    # ∇lse_1(V s_t) and ∇_{Vs_t} f_t are the one softmax p: step 3's '=' compares a value with itself
    linear = dot(xp, p, dz) + half
    # f_t(V) subtracted from every element (same chain, no cancellation of large common terms)
    return (
        xp.logsumexp(matvec(V + dV, s), axis=-1) - f,
        xp.logsumexp(z + dz, axis=-1) - f,
        linear,
        linear,
        frob(xp, gV, dV) + 0.5 * xp.schatten_norm(dV, math.inf) ** 2 * dot(xp, s, s),
    )


@identity(
    "loss.v_grad_pullback",
    title="⟨∇_{Vs_t} f, ΔV s_t⟩ = ⟨∇_V f, ΔV⟩ (∇_V f = softmax(Vs_t) s_tᵀ)",
    source=S0_LOSS_V.at("item 2, last step").quote(
        "⟨∇_{V s_t} f(θ^k), ΔV s_t⟩ ... ≤ f(θ^k) + ⟨∇_V f(θ^k), ΔV⟩ + ..."
    ),
    statement=r"\langle\nabla_{\mathbf V\mathbf s_t} f(\theta^k), \Delta\mathbf V\mathbf s_t\rangle = "
    r"\langle\nabla_{\mathbf V} f(\theta^k), \Delta\mathbf V\rangle",
    expected=Verdict.PROVED,
    **ON_V,
    notes="The pull-back used (silently) in the last step of the V-chain; per token, f_t = lse(Vs_t). "
    "Numerically: softmax pairing vs back-propagated ∇_V f_t; SymPy: H = K = 2.",
)
def loss_v_grad_pullback(xp, U, W, V, s0, X, dV, act):
    forward, zs = _per_token(xp, U, W, V, s0, X, act)
    p = xp.softmax(zs[-1], axis=-1)
    gV = token_gradient(xp, U, W, V, s0, X, p, act, forward=forward)[2]
    return dot(xp, p, matvec(dV, forward[1][-1])), frob(xp, gV, dV)


@inequality(
    "loss.v_norm_step",
    title="‖ΔV s_t‖∞ ≤ ‖ΔV‖_{S∞} ‖s_t‖₂ on RNN hidden states",
    source=S0_LOSS_V.at("item 2, last step").quote(
        "1/2 ||ΔV s_t||_∞^2 ... ≤ ... 1/2 ||ΔV||_{S∞}^2 ||s_t||_2^2"
    ),
    statement=r"\|\Delta\mathbf V\mathbf s_t\|_\infty \le \|\Delta\mathbf V\|_{S^\infty}\|\mathbf s_t\|_2",
    expected=Verdict.HOLDS,
    **ON_V,
    notes="‖ΔVs‖∞ ≤ ‖ΔVs‖₂ ≤ σ_max(ΔV)‖s‖₂. Tight (ratio 1) iff ΔVs is concentrated on one coordinate and "
    "s is a top right-singular vector — e.g. at H = 1 with one dominant entry of ΔV; on typical RNN states "
    "the ratio is far below 1 (study loss.v_bound_tightness).",
)
def loss_v_norm_step(xp, U, W, s0, X, dV, act):
    s = hidden_states(xp, U, W, s0, X, act)[-1]
    return inf_norm(xp, matvec(dV, s)), xp.schatten_norm(dV, math.inf) * xp.sqrt(dot(xp, s, s))


@inequality(
    "loss.v_bound_token",
    uses=("loss.lse_weighted_theorem1", "loss.f_single_lse", "loss.v_grad_pullback", "loss.v_norm_step"),
    title="V-bound of one token, remainder form: f_t(V+ΔV) − f_t − ⟨∇_V f_t, ΔV⟩ ≤ ½‖ΔV‖²_{S∞}‖s_t‖₂²",
    source=S0_LOSS_V.at("item 2 (end to end)").quote(
        "≤ f(θ^k) + ⟨∇_V f(θ^k), ΔV⟩ + 1/2 ||ΔV||_{S∞}^2 ||s_t||_2^2"
    ),
    statement=r"f_t(\mathbf V+\Delta\mathbf V) - f_t(\mathbf V) - \langle\nabla_{\mathbf V} "
    r"f_t,\Delta\mathbf V\rangle \le \tfrac12\|\Delta\mathbf V\|_{S^\infty}^2\|\mathbf s_t\|_2^2",
    expected=Verdict.HOLDS,
    same_as=("loss.v_bound_chain",),
    **ON_V,
    notes="The end-to-end claim of loss.v_bound_chain with f_t(V) and its gradient moved to the left, so "
    "the reported tightness measures the constant. It stays ≤ ½: the log-sum-exp step is tight only for p "
    "= (½, ½) and ΔVs_t = (a, −a) (small a), the norm step only when ΔVs_t has a single nonzero coordinate "
    "— incompatible, so ½ could be ¼ (loss.v_bound_token.quarter, tightness → 1).",
)
def loss_v_bound_token(xp, U, W, V, s0, X, dV, act):
    forward, zs = _per_token(xp, U, W, V, s0, X, act)
    s, z = forward[1][-1], zs[-1]
    p = xp.softmax(z, axis=-1)
    rem = xp.logsumexp(matvec(V + dV, s), axis=-1) - xp.logsumexp(z, axis=-1) - dot(xp, p, matvec(dV, s))
    return rem, 0.5 * xp.schatten_norm(dV, math.inf) ** 2 * dot(xp, s, s)


def _loss_and_grad_pair(xp, U, W, V, s0, X, Y, dV, act):
    """E(V), E(V + ΔV), ⟨∇_V E, ΔV⟩, the states s_1..s_T and ∇_V E, for the mean-over-tokens loss."""
    forward, zs = _per_token(xp, U, W, V, s0, X, act)
    ss, ps = forward[1][1:], [xp.softmax(z, axis=-1) for z in zs]
    T = X.shape[1]
    E = sum(xp.logsumexp(zs[t], axis=-1) - dot(xp, Y[:, t], zs[t]) for t in range(T)) / T
    E_new = (
        sum(
            xp.logsumexp(matvec(V + dV, ss[t]), axis=-1) - dot(xp, Y[:, t], matvec(V + dV, ss[t]))
            for t in range(T)
        )
        / T
    )
    gV = _grad_v(xp, U, W, V, s0, X, [(ps[t] - Y[:, t]) / T for t in range(T)], act, forward)
    return E, E_new, frob(xp, gV, dV), ss, gV


@inequality(
    "loss.v_bound_e",
    uses=("loss.e_split", "loss.g_linear_in_v", "loss.v_bound_token"),
    title="Loss bound in V for the sequence loss E, as written (a single ‖s_t‖₂² with t unbound)",
    source=S0_LOSS_V.at("item 3").quote(
        "E(U^k, W^k, V^k + ΔV) ≤ E(θ^k) + ⟨∇_{vec(V)} E(θ^k), vec(ΔV)⟩ + 1/2 ||ΔV||_{S∞}^2 ||s_t||_2^2"
    ),
    statement=r"E(\mathbf U^k,\mathbf W^k,\mathbf V^k+\Delta\mathbf V) \le E(\theta^k) + "
    r"\langle\nabla_{\mathrm{vec}(\mathbf V)}E(\theta^k),\mathrm{vec}(\Delta\mathbf V)\rangle + "
    r"\frac12\|\Delta\mathbf V\|_{S^\infty}^2\|\mathbf s_t\|_2^2",
    expected=Verdict.REFUTED,
    **ON_SMALL_V,
    notes="PUZZLE/slip: E averages M tokens but the right side keeps one ‖s_t‖₂² with t free. Read as 'for "
    "every t' (checked with the smallest ‖s_t‖₂²) it fails when one hidden state is small and the others "
    "are not (e.g. tanh with a pre-activation near 0 at one step). Per token (M = 1) it is "
    "loss.v_bound_token. Corrected: the mean (1/M)Σ_t ‖s_t‖₂² (loss.v_bound_e.mean).",
)
def loss_v_bound_e(xp, U, W, V, s0, X, Y, dV, act):
    E, E_new, pair, ss, _ = _loss_and_grad_pair(xp, U, W, V, s0, X, Y, dV, act)
    norms = xp.stack([dot(xp, s, s) for s in ss], axis=-1)
    return E_new - E - pair, 0.5 * xp.schatten_norm(dV, math.inf) ** 2 * xp.min(norms, axis=-1)


@inequality(
    "loss.v_bound_e.mean",
    title="Loss bound in V for E corrected: ½‖ΔV‖²_{S∞} times the mean of ‖s_t‖₂² over the tokens",
    source=S0_LOSS_V.at("item 3 (corrected)").cite(),
    statement=r"E(\mathbf V^k+\Delta\mathbf V) \le E(\theta^k) + \langle\nabla_{\mathrm{vec}(\mathbf "
    r"V)}E(\theta^k),\mathrm{vec}(\Delta\mathbf V)\rangle + \frac12\|\Delta\mathbf "
    r"V\|_{S^\infty}^2\,\frac1M\sum_{t=1}^M\|\mathbf s_t\|_2^2",
    expected=Verdict.HOLDS,
    corrects="loss.v_bound_e",
    **ON_V,
    notes="Average of the per-token bounds (g is exactly linear in V). max_t ‖s_t‖₂² also works but is "
    "looser.",
)
def loss_v_bound_e_mean(xp, U, W, V, s0, X, Y, dV, act):
    E, E_new, pair, ss, _ = _loss_and_grad_pair(xp, U, W, V, s0, X, Y, dV, act)
    T = X.shape[1]
    mean_sq = sum(dot(xp, s, s) for s in ss) / T
    return E_new - E - pair, 0.5 * xp.schatten_norm(dV, math.inf) ** 2 * mean_sq


@inequality(
    "loss.lse_bound_hw",
    title="Handwritten restatement of the log-sum-exp bound (seed 000 appendix)",
    source=S0_APPENDIX.at("proof of Lemma 1").quote(
        "We already know, for function l_se(x) = log Σ_{j=1}^J e^{x_j}, we have l_se(x_2) ≤ "
        "l_se(x_1) + ⟨∇_{x_1} l_se(x_1), x_2 − x_1⟩ + 1/2 ||x_2 − x_1||_∞^2"
    ),
    statement=r"l_{se}(x_2) \le l_{se}(x_1) + \langle\nabla_{x_1} l_{se}(x_1), x_2 - x_1\rangle + "
    r"\frac12\|x_2 - x_1\|_\infty^2",
    expected=Verdict.HOLDS,
    same_as=("lse.bound",),
    inputs={"x1": Array("n"), "x2": Array("n")},
    dims={"n": [1, 2, 3, 5, 8]},
    notes="Same mathematics as seed 001 eq. (2) (lse.bound), stated with two points; checked in remainder "
    "form.",
)
def loss_lse_bound_hw(xp, x1, x2):
    rem = xp.logsumexp(x2, axis=-1) - xp.logsumexp(x1, axis=-1) - dot(xp, xp.softmax(x1, axis=-1), x2 - x1)
    return rem, 0.5 * inf_norm(xp, x2 - x1) ** 2


@inequality(
    "loss.v_bound_token.quarter",
    title="Sharpened V-bound: the composite constant is ¼, not ½ (½ is never approached)",
    source=S0_LOSS_V.at("item 2 (tightness of the end-to-end bound)").cite(),
    statement=r"f_t(\mathbf V+\Delta\mathbf V) - f_t(\mathbf V) - \langle\nabla_{\mathbf V} "
    r"f_t,\Delta\mathbf V\rangle \le \tfrac14\|\Delta\mathbf V\|_{S^\infty}^2\|\mathbf s_t\|_2^2",
    expected=Verdict.HOLDS,
    same_as=("loss.v_bound_token",),
    **ON_V,
    notes="Not a claim of the document: a measured sharpening. The lse remainder is at most ½ sup Var_p(d) "
    "with d = ΔVs_t, and Var_p(d) ≤ (max d − min d)²/4 ≤ ‖d‖₂²/2 ≤ ‖ΔV‖²_{S∞}‖s_t‖₂²/2. The two "
    "inequalities behind the document's ½ (‖d‖∞ ≤ ‖d‖₂ and Var_p(d) ≤ ‖d‖∞²) are tight for incompatible d "
    "(one coordinate vs ±a on two), so loss.v_bound_token's tightness stays ≤ ½.",
)
def loss_v_bound_token_quarter(xp, U, W, V, s0, X, dV, act):
    lhs, rhs = loss_v_bound_token(xp, U, W, V, s0, X, dV, act)
    return lhs, 0.5 * rhs


# ------------------------------------------------------------------------------------------------ study


def _rnn_batch(rng, B, H, N, K, T, weight_gain):
    """Realistic instances: Glorot-like weights times a gain, inputs N(0, 1), one-hot labels."""
    U = rng.standard_normal((B, H, N)) * weight_gain / np.sqrt(N)
    W = rng.standard_normal((B, H, H)) * weight_gain / np.sqrt(H)
    V = rng.standard_normal((B, K, H)) * weight_gain / np.sqrt(H)
    s0 = np.zeros((B, H))
    X = rng.standard_normal((B, T, N))
    return U, W, V, s0, X


@study(
    "loss.v_bound_tightness",
    title="How loose is the V-bound on real RNN states? (seed 000 §Loss Bounded w.r.t. V)",
    source=S0_LOSS_V.at("item 2").cite(),
    related=(
        "loss.v_bound_chain",
        "loss.v_norm_step",
        "loss.v_bound_token",
        "loss.v_bound_token.quarter",
        "lse.bound",
    ),
)
def v_bound_tightness(profile):
    B = 2000 if profile.name == "quick" else 20000
    rows, series = [], {}
    for act in ("tanh", "sigmoid", "softplus"):
        for H, K in ((4, 3), (16, 10)):
            U, W, V, s0, X = _rnn_batch(profile.rng, B, H, N_TIGHT, K, T_TIGHT, weight_gain=1.0)
            at = _last_token_state(U, W, V, s0, X, act)
            for rel in REL_STEPS:
                norm_ratio, lse_ratio, total_ratio = _bound_ratios(profile.rng, V, at, rel)
                rows.append(
                    [
                        act,
                        H,
                        K,
                        rel,
                        float(np.median(norm_ratio)),
                        float(np.median(lse_ratio)),
                        float(np.median(total_ratio)),
                        float(total_ratio.max()),
                    ]
                )
                series.setdefault(f"{act}, H={H}, K={K}", []).append(float(np.median(total_ratio)))
    plot = Plot(
        title="How much of the V-bound is used (median)",
        x_label="‖ΔV‖_{S∞}/‖V‖_{S∞}",
        y_label="remainder / bound",
        logx=True,
        logy=True,
        series=[Series(label=k, x=REL_STEPS, y=v) for k, v in series.items()],
    )
    return StudyResult(tables=[_tightness_table(rows)], plots=[plot], conclusion=_tightness_conclusion(rows))


#: the study's input size and length, and the steps ‖ΔV‖_{S∞} relative to ‖V‖_{S∞}
N_TIGHT, T_TIGHT = 4, 6
REL_STEPS = [1e-3, 1e-2, 1e-1, 1.0]


def _last_token_state(U, W, V, s0, X, act):
    """What the steps of every size share: the last token's state s, its logits Vs and softmax, and
    ‖V‖_{S∞} (a batch of SVDs, the study's largest cost), computed once per batch of instances."""
    from lemmacheck import numpy_xp as xp

    s = hidden_states(xp, U, W, s0, X, act)[-1]
    z = matvec(V, s)
    return s, z, xp.softmax(z, axis=-1), np.linalg.norm(V, ord=2, axis=(-2, -1))


def _bound_ratios(rng, V, at, rel):
    """At a random step of relative size ``rel``: ‖ΔVs‖∞/(‖ΔV‖‖s‖₂), the lse remainder over ½‖ΔVs‖∞² and
    the remainder over the whole bound ½‖ΔV‖²‖s‖₂², per instance (at the last token, ``at`` its
    :func:`_last_token_state`)."""
    from lemmacheck import numpy_xp as xp

    s, z, p, spec_v = at
    D = rng.standard_normal(V.shape)
    D *= (rel * spec_v / np.linalg.norm(D, ord=2, axis=(-2, -1)))[:, None, None]
    dz = matvec(D, s)
    rem = xp.logsumexp(z + dz, axis=-1) - xp.logsumexp(z, axis=-1) - (p * dz).sum(-1)
    dinf = np.abs(dz).max(-1)
    spec = np.linalg.norm(D, ord=2, axis=(-2, -1))
    s2 = (s * s).sum(-1)
    return dinf / (spec * np.sqrt(s2)), rem / (0.5 * dinf**2), rem / (0.5 * spec**2 * s2)


def _tightness_table(rows) -> Table:
    return regime_table(
        "Median ratios (actual / bound) over random RNN instances; ‖ΔV‖_{S∞} = rel·‖V‖_{S∞}",
        [
            "rel. step",
            "‖ΔVs‖∞ / (‖ΔV‖‖s‖₂)",
            "lse remainder / ½‖ΔVs‖∞²",
            "remainder / ½‖ΔV‖²‖s‖₂²",
            "max of the last",
        ],
        rows,
    )


def _tightness_conclusion(rows) -> str:
    med_total = [r[6] for r in rows]
    med_norm = [r[4] for r in rows]
    med_lse = [r[5] for r in rows]
    mx = max(r[7] for r in rows)
    return (
        f"On RNN states the end-to-end V-bound uses a median {min(med_total):.3f}–{max(med_total):.3f} of "
        f"its allowance (largest single ratio seen {mx:.3f}; it can never exceed ½ — the composite "
        f"constant could be ¼, see loss.v_bound_token.quarter), whatever the step size. Both relaxations "
        f"lose: ‖ΔVs_t‖∞ ≤ ‖ΔV‖_{{S∞}}‖s_t‖₂ has a median ratio {min(med_norm):.2f}–{max(med_norm):.2f} "
        f"(squared in the bound: {min(med_norm) ** 2:.2f}–{max(med_norm) ** 2:.2f}; the ∞-norm of a "
        f"K-vector against its 2-norm, and a random s_t against the top singular direction), and the "
        f"log-sum-exp step keeps {min(med_lse):.2f}–{max(med_lse):.2f} (the variance of ΔVs_t under the "
        f"softmax against ‖ΔVs_t‖∞²). The bound is loosest for large K and H (H = 16, K = 10: about 1/50)."
    )
