r"""The cross-entropy loss of the RNN rewritten as log-sum-exp minus a linear part.

Seed 000 §"Loss Function of RNN" items 1–2, seed 000's handwritten appendix, and seed 001 §A eq. (1):

.. math::
    E = -\frac1M\sum_{t=1}^M y_t^\top\log o_t = \frac1M\sum_{t=1}^M\Big(\log\sum_j e^{V_{j,:}s_t} - y_t^\top V
    s_t\Big)

which needs :math:`\mathbf 1^\top y_t = 1` (a probability vector; one-hot is not needed).
"""

from checks._vocab.linalg import dot, matvec
from checks._vocab.notation import symbols as shared
from checks._vocab.rnn import cross_entropy, hidden_states, token_loss
from checks._vocab.sources import S0_APPENDIX, S0_BASICS, S0_LOSS_FN, S1_A
from checks.loss._helpers import loss_rnn_inputs
from lemmacheck import Array, Derived, Input, Verdict, identity, value

_MODEL = ("U", "W", "V", "s0", "X")
# Bounded activations only: the rewrite is a statement about the logits V s_t whatever σ is, and with the
# unbounded softplus the float64 evaluation of log softmax (the left side, as the document defines E)
# underflows to log 0 once two logits differ by more than ~745 — a float64 artefact, not a failure.
DIMS = {"H": [1, 4], "N": [2], "K": [2, 3, 5], "T": [1, 3], "act": ["tanh", "sigmoid"]}
# Soft labels are normalised inside the check (with xp), so that 1ᵀy_t = 1 holds exactly also in the
# high-precision
# re-evaluation: a float64 probability vector sums to one only up to rounding, and (1 − 1ᵀy_t)·lse is then a
# genuine (tiny) defect of the identity.
PROB = {
    **{k: v for k, v in loss_rnn_inputs("prob").items() if k in _MODEL},
    "Y": Array("T", "K", low=0.01, high=1.0),
}
ONEHOT = {k: v for k, v in loss_rnn_inputs("onehot").items() if k in _MODEL + ("Y",)}
_ON_ONEHOT = dict(inputs=ONEHOT, dims=DIMS)
FREE = {**{k: v for k, v in PROB.items() if k != "Y"}, "Y": Array("T", "K", scale=(1e-1, 3.0))}


def _mean_over_tokens(xp, U, W, V, s0, X, Y, act, per_token):
    ss = hidden_states(xp, U, W, s0, X, act)
    T = X.shape[1]
    total = per_token(xp, V, ss[1], Y[:, 0])
    for t in range(2, T + 1):
        total = total + per_token(xp, V, ss[t], Y[:, t - 1])
    return total / T


def _ce_against_rewrite(xp, U, W, V, s0, X, Y, act):
    """The cross-entropy and its rewrite, log-sum-exp minus the linear part, each averaged over the tokens."""
    return (
        _mean_over_tokens(xp, U, W, V, s0, X, Y, act, cross_entropy),
        _mean_over_tokens(xp, U, W, V, s0, X, Y, act, token_loss),
    )


def _states(xp, U, W, s0, X, act):
    """s_1..s_T stacked (batch, T, H): s_t is row t."""
    return xp.stack(hidden_states(xp, U, W, s0, X, act)[1:], axis=1)


def _outputs(xp, U, W, V, s0, X, act):
    """o_1..o_T = softmax(V s_t) stacked (batch, T, K)."""
    return xp.stack(
        [xp.softmax(matvec(V, s), axis=-1) for s in hidden_states(xp, U, W, s0, X, act)[1:]], axis=1
    )


def _normalised(Y, xp):
    return Y / xp.sum(Y, axis=-1)[..., None]


def _ce_labels_as_sampled(xp, U, W, V, s0, X, Y, act):
    return _mean_over_tokens(xp, U, W, V, s0, X, Y, act, cross_entropy)


def _ce_normalised(xp, U, W, V, s0, X, Y, act):
    return _mean_over_tokens(xp, U, W, V, s0, X, _normalised(Y, xp), act, cross_entropy)


_SEQUENCE = {
    "M": Input("T"),
    "s": Derived(_states, doc="s_1..s_T"),
    "o": Derived(_outputs, doc="o_t = softmax(Vs_t)"),
}
#: seed 000 §Loss Function: E the cross-entropy −(1/M)Σ_t y_tᵀ log o_t of the M = T tokens,
#: o_t = softmax(V s_t), y_t row t of the labels Y, s_t the hidden state at step t
SEQUENCE_LOSS = shared.extend(
    "checks/loss/rewrite.py (SEQUENCE_LOSS)",
    {**_SEQUENCE, "E": Derived(_ce_labels_as_sampled, doc="−(1/M)Σ_t y_tᵀ log o_t"), "y": Input("Y")},
)
#: loss.ce_rewrite samples soft labels and normalises them in the check (1ᵀy_t = 1 exactly in high precision
#: too): y_t is row t of Y/1ᵀY, and E is computed with them
NORMALISED_LABELS = shared.extend(
    "checks/loss/rewrite.py (NORMALISED_LABELS)",
    {
        **_SEQUENCE,
        "E": Derived(_ce_normalised, doc="−(1/M)Σ_t y_tᵀ log o_t, labels normalised"),
        "y": Derived(lambda xp, Y: _normalised(Y, xp), doc="the sampled labels, each row divided by its sum"),
    },
)


def _last_state(xp, U, W, s0, X, act):
    return hidden_states(xp, U, W, s0, X, act)[-1]


def _token_ce(xp, U, W, V, s0, X, Y, act):
    return cross_entropy(xp, V, _last_state(xp, U, W, s0, X, act), Y[:, -1])


def _row_logit(xp, U, W, V, s0, X, act, j):
    return dot(xp, V[:, j - 1, :], _last_state(xp, U, W, s0, X, act))


#: seed 001 eq. (1) for the last token t = T: E_t(Φ) its cross-entropy −yᵀ log softmax(Vs_t), y its label
TOKEN_EQ1 = shared.extend(
    "checks/loss/rewrite.py (TOKEN_EQ1)",
    {
        r"E_t(\Phi)": Derived(_token_ce, doc="−yᵀ log softmax(Vs_t), t = T"),
        r"\mathbf{s}_t": Derived(_last_state, doc="s_T"),
        r"\mathbf{y}": Derived(lambda xp, Y: Y[:, -1], doc="the last token's label"),
        r"\mathbf{V}_j\mathbf{s}_t": Derived(_row_logit, doc="V_j s_t, row j of V times s_T: logit j"),
    },
)


def _row_logit_at(xp, U, W, V, s0, X, act, j, t):
    return dot(xp, V[:, j - 1, :], hidden_states(xp, U, W, s0, X, act)[t])


#: seed 000's handwritten line: S_t the state at step t, ^T a transpose; V_{j,:}^T S_t, which transposes a
#: row, read as the logit V_{j,:} s_t (loss.ce_rewrite_hw's notes)
HANDWRITTEN = SEQUENCE_LOSS.extend(
    "checks/loss/rewrite.py (HANDWRITTEN)",
    {
        "S": Derived(_states, doc="s_1..s_T"),
        "V_{j,:}^TS_t": Derived(_row_logit_at, doc="V_{j,:} s_t, the row's transpose read as the row"),
    },
    transpose_letters=("T",),
)
claim_symbols = {
    "loss.ce_rewrite_hw.literal": HANDWRITTEN,
    "loss.token_loss_eq1": TOKEN_EQ1,
    "loss.ce_rewrite": NORMALISED_LABELS,
    "loss.ce_rewrite.unnormalised_labels": SEQUENCE_LOSS,
    "loss.e_split": SEQUENCE_LOSS,
}


REWRITE_TEX = (
    r"E = -\frac1M\sum_{t=1}^M\sum_{i=1}^K y_{t,i}\log o_{t,i} = -\frac1M\sum_{t=1}^M\sum_{i=1}^K "
    r"y_{t,i}\log\frac{e^{V_{i,:}s_t}}{\sum_{j=1}^K e^{V_{j,:}s_t}} = "
    r"\frac1M\sum_{t=1}^M\Big(\log\sum_{j=1}^K e^{V_{j,:}s_t} - y_t^\top V s_t\Big)"
)


@identity(
    "loss.ce_rewrite",
    title="Cross-entropy of the RNN = mean over tokens of log-sum-exp minus the linear part (labels sum to "
    "1)",
    source=S0_LOSS_FN.at("item 1").quote(
        "Obviously, we have that all the entries in y_t sum up to one. We can simplify the "
        "expression of loss function of RNN."
    ),
    statement=REWRITE_TEX,
    expected=Verdict.PROVED,
    inputs=PROB,
    dims=DIMS,
    notes="Holds for any label y_t with 1ᵀy_t = 1 — checked with soft labels (probability vectors), so "
    "one-hot is not needed; SymPy proves it for K = 3, M = 2 with y_{t,3} = 1 − y_{t,1} − y_{t,2}. Without "
    "the sum-to-one hypothesis it fails (loss.ce_rewrite.unnormalised_labels); the general identity "
    "carries (1ᵀy_t)·lse (loss.ce_rewrite.general_labels).",
)
def loss_ce_rewrite(xp, U, W, V, s0, X, Y, act):
    Y = Y / xp.sum(Y, axis=-1)[..., None]
    return _ce_against_rewrite(xp, U, W, V, s0, X, Y, act)


@identity(
    "loss.ce_rewrite.unnormalised_labels",
    title="The same rewrite for labels that do not sum to one (the hypothesis dropped)",
    source=S0_LOSS_FN.at("item 1 (hypothesis removed)").quote(
        "Obviously, we have that all the entries in y_t sum up to one."
    ),
    statement=REWRITE_TEX + r"\quad (y_t\in\mathbb R^K\ \text{arbitrary})",
    expected=Verdict.REFUTED,
    inputs=FREE,
    dims={**DIMS, "H": [1, 2], "K": [2, 3], "T": [1, 2]},
    notes="Shows what the rewrite needs of y_t: the two sides differ by (1/M)Σ_t (1 − 1ᵀy_t)·lse(Vs_t), so "
    "the sum-to-one hypothesis the document calls obvious is exactly what is used (true for one-hot and "
    "for soft labels, false e.g. for multi-label 0/1 targets).",
)
def loss_ce_rewrite_unnormalised(xp, U, W, V, s0, X, Y, act):
    return _ce_against_rewrite(xp, U, W, V, s0, X, Y, act)


@identity(
    "loss.e_split",
    uses=("loss.ce_rewrite",),
    title="E = (f(θ) − g(θ))/M with f = Σ_t lse(Vs_t), g = Σ_t y_tᵀVs_t",
    source=S0_LOSS_FN.at("item 2").quote(
        "We define θ = {U, W, V}, f(θ) = Σ_{t=1}^M log(Σ_{j=1}^K e^{V_{j,:} s_t}) and g(θ) = "
        "Σ_{t=1}^M y_t^T V s_t, so E = 1/M (f(θ) − g(θ))"
    ),
    statement=r"E = \frac1M\big(f(\theta) - g(\theta)\big),\ f(\theta) = \sum_{t=1}^M\log\sum_{j=1}^K "
    r"e^{V_{j,:}s_t},\ g(\theta) = \sum_{t=1}^M y_t^\top V s_t",
    expected=Verdict.HOLDS,
    **_ON_ONEHOT,
    notes="E computed as the cross-entropy −(1/M)Σ y_tᵀ log softmax(Vs_t) (one-hot labels), f and g summed "
    "separately.",
)
def loss_e_split(xp, U, W, V, s0, X, Y, act):
    ss = hidden_states(xp, U, W, s0, X, act)
    T = X.shape[1]
    f = xp.logsumexp(matvec(V, ss[1]), axis=-1)
    g = dot(xp, Y[:, 0], matvec(V, ss[1]))
    for t in range(2, T + 1):
        f = f + xp.logsumexp(matvec(V, ss[t]), axis=-1)
        g = g + dot(xp, Y[:, t - 1], matvec(V, ss[t]))
    return _mean_over_tokens(xp, U, W, V, s0, X, Y, act, cross_entropy), (f - g) / T


@identity(
    "loss.token_loss_eq1",
    title="Eq. (1): the t-th token's contribution to the loss is log-sum-exp minus yᵀVs_t",
    source=S1_A.at("eq. (1)").quote("E_t(Φ) = log Σ_{j=1}^K e^{V_j s_t} − y^T V s_t"),
    statement=r"E_t(\Phi) = \log\sum_{j=1}^K e^{\mathbf V_j\mathbf s_t} - \mathbf y^\top\mathbf V\mathbf "
    r"s_t",
    expected=Verdict.HOLDS,
    same_as=("loss.ce_rewrite",),
    **_ON_ONEHOT,
    notes="Checked as: −yᵀ log softmax(Vs_t) = lse(Vs_t) − yᵀVs_t for the last token with its one-hot "
    "label (V_j is the j-th row of V; y is the label of token t, its index dropped in the text).",
)
def loss_token_loss_eq1(xp, U, W, V, s0, X, Y, act):
    s = hidden_states(xp, U, W, s0, X, act)[-1]
    return cross_entropy(xp, V, s, Y[:, -1]), token_loss(xp, V, s, Y[:, -1])


@identity(
    "loss.ce_rewrite_hw",
    title="Handwritten restatement of the rewrite (seed 000 appendix), parenthesis read as enclosing both "
    "terms",
    source=S0_APPENDIX.at("first line").quote(
        "E = 1/M Σ_{t=1}^M ( log Σ_{j=1}^K e^{V_{j,:}^T S_t} ) − y_t^T V S_t."
    ),
    statement=r"E = \frac1M\sum_{t=1}^M\Big(\log\sum_{j=1}^K e^{V_{j,:}^T S_t}\Big) - y_t^T V S_t",
    expected=Verdict.HOLDS,
    same_as=("loss.ce_rewrite", "loss.token_loss_eq1", "loss.ce_rewrite_hw.literal"),
    **_ON_ONEHOT,
    notes="The reading with the parenthesis as typeset is loss.ce_rewrite_hw.literal. PUZZLE: as "
    "transcribed, the parenthesis closes before '− y_tᵀVS_t' (leaving t unbound outside "
    "the sum) and V_{j,:}ᵀS_t transposes a row. We read it as (1/M)Σ_t (log Σ_j e^{V_{j,:}s_t} − "
    "y_tᵀVs_t), the main text's formula; with that reading it holds (one-hot labels).",
)
def loss_ce_rewrite_hw(xp, U, W, V, s0, X, Y, act):
    return _ce_against_rewrite(xp, U, W, V, s0, X, Y, act)


@identity(
    "loss.ce_rewrite_hw.literal",
    title="Handwritten restatement of the rewrite (seed 000 appendix), parenthesis as typeset: only the "
    "log-sum-exp inside the sum, − y_tᵀVS_t outside it (t = M, the last token)",
    source=S0_APPENDIX.at("first line (parenthesis as typeset)").quote(
        "E = 1/M Σ_{t=1}^M ( log Σ_{j=1}^K e^{V_{j,:}^T S_t} ) − y_t^T V S_t."
    ),
    statement=r"E = \frac1M\sum_{t=1}^M\Big(\log\sum_{j=1}^K e^{V_{j,:}^T S_t}\Big) - y_M^T V S_M",
    expected=Verdict.REFUTED,
    same_as=("loss.ce_rewrite_hw",),
    **_ON_ONEHOT,
    notes="The second reading of the line; loss.ce_rewrite_hw reads the parenthesis as enclosing both "
    "terms. As typeset, '− y_t^T V S_t' stands outside the sum, where t is bound by nothing; we bind it to "
    "the last token t = M (the index the sum ends on) and leave it outside the 1/M. The two readings "
    "agree for one token (M = 1) and differ from M = 2 on.",
)
def loss_ce_rewrite_hw_literal(xp, U, W, V, s0, X, Y, act):
    ss = hidden_states(xp, U, W, s0, X, act)
    T = X.shape[1]
    mean_lse = _mean_over_tokens(
        xp, U, W, V, s0, X, Y, act, lambda xp, V, s, y: xp.logsumexp(matvec(V, s), axis=-1)
    )
    return (
        _mean_over_tokens(xp, U, W, V, s0, X, Y, act, cross_entropy),
        mean_lse - dot(xp, Y[:, T - 1], matvec(V, ss[T])),
    )


def _shape_of_v():
    """Shape V must have for o_t = softmax(V s_t) with s_t ∈ R^H and o_t ∈ R^K: (rows, cols)."""
    import numpy as np

    H, K = 3, 5  # any distinct sizes: the logits V s_t must have K entries
    s, logits_len = np.ones(H), K
    rows, cols = logits_len, s.shape[0]
    return ("K" if rows == K else "H", "H" if cols == H else "K")


value(
    "loss.v_shape",
    computed=_shape_of_v,
    stated=("H", "K"),
    title="Notation: the output connection V is declared H × K, but o_t = softmax(V s_t) needs K × H",
    source=S0_BASICS.at("1. Notation").quote("Output connection: V ∈ R^{H×K}"),
    statement=r"\mathbf V\in\mathbb R^{H\times K}",
    expected=Verdict.REFUTED,
    notes="With s_t ∈ R^H and o_t = softmax(V s_t) ∈ R^K, V s_t is defined only for V ∈ R^{K×H} (or the "
    "document means Vᵀ). Everything downstream (V_{j,:}s_t, ‖ΔV‖_{S∞}) uses V as K × H; so do we.",
)
