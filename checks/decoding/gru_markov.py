"""Seed 004, Q2.2.f: 'LSTM and GRU … won't satisfy any n-th order Markov property', checked for a GRU."""

from checks.decoding._helpers import BOS
from lemmacheck import Array, Source, Verdict, prop

_GRU = (
    "So LSTM and GRU cannot exploit the Viterbi algorithm because they model the full conditional "
    "p(w_t | w_{1:t-1}) thus they won't satisfy any n^th order Markov property"
)
_MAT = {"scale": (0.3, 1.5)}


def _gru_next_word_probs(xp, Wz, Uz, Wr, Ur, W, U, V, words):
    """GRU language model, h_0 = 0: z = σ(W_z h + U_z e_w), r = σ(W_r h + U_r e_w),
    h ← (1 − z) ⊙ h + z ⊙ tanh(W(r ⊙ h) + U e_w); p(· | w_{0:t}) = softmax(V h_t)."""
    batch, H = W.shape[0], W.shape[-1]
    h = xp.zeros((batch, H, 1))
    for w in words:
        z = xp.sigmoid(xp.matmul(Wz, h) + Uz[:, :, w : w + 1])
        r = xp.sigmoid(xp.matmul(Wr, h) + Ur[:, :, w : w + 1])
        h = (1 - z) * h + z * xp.tanh(xp.matmul(W, r * h) + U[:, :, w : w + 1])
    return xp.softmax(xp.matmul(V, h)[:, :, 0], axis=-1)


def _generic(xp, Wz, Uz, Wr, Ur, W, U, V, **_):
    """Generic parameters: no entry within 0.05 of 0 (a degenerate GRU, e.g. all weights 0, is Markov)."""
    smallest = [xp.min(xp.min(xp.abs(M), axis=-1), axis=-1) for M in (Wz, Uz, Wr, Ur, W, U, V)]
    keep = smallest[0] >= 0.05
    for m in smallest[1:]:
        keep = keep & (m >= 0.05)
    return keep


@prop(
    "viterbi.gru_not_markov",
    title="A GRU language model is not n-th order Markov: the first word still moves p(w_t | w_{0:t-1})",
    source=Source("004_e57a68eb4e5e7a82.txt", "Q2.2.f", quote=_GRU),
    statement=r"\text{GRU LM: } \exists\,\boldsymbol w, \boldsymbol w' \text{ equal on the last } n "
    r"\text{ words with }"
    r" p(\cdot\mid\boldsymbol w) \ne p(\cdot\mid\boldsymbol w')",
    expected=Verdict.HOLDS,
    inputs={
        "Wz": Array("H", "H", **_MAT),
        "Uz": Array("H", "N", **_MAT),
        "Wr": Array("H", "H", **_MAT),
        "Ur": Array("H", "N", **_MAT),
        "W": Array("H", "H", **_MAT),
        "U": Array("H", "N", **_MAT),
        "V": Array("N", "H", **_MAT),
    },
    dims={"n": [1, 2, 3], "H": [2, 3], "N": [2]},
    where=_generic,
    same_as=("viterbi.rnn_markov",),
    notes="Read for generic parameters (the statement is about the model class): instances with an entry "
    "within 0.05 of 0 are set aside, since a degenerate GRU (all weights 0: a constant distribution) is "
    "trivially Markov; the engine reports the fraction kept. Two histories that agree on their last "
    "n words but differ in w_1 give different next-word "
    "distributions, for every n tried: the gated state keeps w_1 (the update gate z is never "
    "exactly 1). Only "
    "the GRU is simulated; the LSTM's cell state carries the history the same way. The same holds for the "
    "vanilla RNN (viterbi.rnn_markov), so the paragraph's contrast between RNN and LSTM/GRU does not hold.",
)
def gru_not_markov(xp, Wz, Uz, Wr, Ur, W, U, V, n):
    common = [1] * n
    p_a = _gru_next_word_probs(xp, Wz, Uz, Wr, Ur, W, U, V, [BOS, 0, *common])
    p_b = _gru_next_word_probs(xp, Wz, Uz, Wr, Ur, W, U, V, [BOS, 1, *common])
    return xp.max(xp.abs(p_a - p_b), axis=-1) > 0
