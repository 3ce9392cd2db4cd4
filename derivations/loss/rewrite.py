r"""SymPy derivation of the cross-entropy rewrite (seed 000 §"Loss Function of RNN", item 1).

K = 3 classes and M = 2 tokens with free logits :math:`z_{t,i} = V_{i,:}s_t`.  With labels summing to one
(:math:`y_{t,3} = 1 - y_{t,1} - y_{t,2}`) the rewrite is an identity; with free labels it is not, and the
general identity carries :math:`(\mathbf 1^\top y_t)\,\mathrm{lse}(z_t)`.
"""

import sympy as sp
from checks._vocab.sources import S0_LOSS_FN

from lemmacheck import Verdict, derivation

K, M = 3, 2
z = [[sp.Symbol(f"z_{t}{i}", real=True) for i in range(K)] for t in range(M)]
_free = [[sp.Symbol(f"y_{t}{i}", real=True) for i in range(K - 1)] for t in range(M)]
y_prob = [row + [1 - sum(row)] for row in _free]  # labels that sum to one
y_any = [[sp.Symbol(f"w_{t}{i}", real=True) for i in range(K)] for t in range(M)]  # arbitrary labels
den = [sum(sp.exp(zi) for zi in z[t]) for t in range(M)]


def cross_entropy(y):
    """−(1/M) Σ_t Σ_i y_{t,i} log o_{t,i} with o_t = softmax(z_t) written out."""
    return -sp.Rational(1, M) * sum(
        y[t][i] * sp.log(sp.exp(z[t][i]) / den[t]) for t in range(M) for i in range(K)
    )


def lse_minus_linear(y, *, weight_by_label_sum=False):
    """(1/M) Σ_t (c_t · log Σ_j e^{z_tj} − y_tᵀ z_t), c_t = 1 or 1ᵀy_t."""
    return sp.Rational(1, M) * sum(
        (sum(y[t]) if weight_by_label_sum else 1) * sp.log(den[t]) - sum(y[t][i] * z[t][i] for i in range(K))
        for t in range(M)
    )


derivation(
    "loss.ce_rewrite",
    chain=[cross_entropy(y_prob), "=", lse_minus_linear(y_prob)],
    labels=["log(e^{z_i}/Σ_j e^{z_j}) = z_i − lse(z) and Σ_i y_{t,i} = 1"],
)

derivation(
    "loss.ce_rewrite.unnormalised_labels",
    chain=[cross_entropy(y_any), "=", lse_minus_linear(y_any)],
    labels=["the same step without Σ_i y_{t,i} = 1"],
    domain={s: (-3, 3) for row in z + y_any for s in row},
)

derivation(
    "loss.ce_rewrite.general_labels",
    chain=[cross_entropy(y_any), "=", lse_minus_linear(y_any, weight_by_label_sum=True)],
    labels=["log(e^{z_i}/Σ_j e^{z_j}) = z_i − lse(z)"],
    title="The rewrite for arbitrary labels: lse(Vs_t) is weighted by 1ᵀy_t",
    source=S0_LOSS_FN.at("item 1 (generalised)").quote(
        "Obviously, we have that all the entries in y_t sum up to one."
    ),
    statement=r"-\frac1M\sum_{t}\sum_i y_{t,i}\log o_{t,i} = \frac1M\sum_t\Big((\mathbf 1^\top "
    r"y_t)\log\sum_j e^{V_{j,:}s_t} - y_t^\top V s_t\Big)",
    expected=Verdict.PROVED,
    same_as=("loss.ce_rewrite",),
    notes="Makes precise what the rewrite needs of y_t: exactly 1ᵀy_t = 1 for every t (one-hot is "
    "sufficient, not necessary).",
)
