r"""Model helpers for the loss-bound claims (seed 000 "Loss Function"/"Loss Bounded w.r.t. V", seed 001 §A).

Everything is written once against ``xp`` (float64 batches and mpmath object arrays) on top of
:mod:`checks._vocab.rnn`.  With :math:`\Phi = \{U, W, V, s_0\}` and a perturbation :math:`\Delta\Phi`:

* :func:`states_and_tangents` runs the RNN forward together with its forward-mode derivative
  :math:`\dot s_t = \langle\nabla_\Phi s_t(\Phi), \Delta\Phi\rangle` (JVP);
* :func:`backprop_logits` computes :math:`\nabla_\Phi \sum_t c_t^\top V s_t` by back-propagation through
  time (reverse mode).  The two modes are computed independently on purpose: the chain-rule step of
  eq. (4) (``⟨∇_{Vs_t} f_t, ⟨∇_Φ Vs_t, ΔΦ⟩⟩ = ⟨∇_Φ f_t, ΔΦ⟩``) pairs a forward-mode quantity with a
  reverse-mode gradient, so checking it numerically is not a tautology;
* :func:`token_terms` gathers, for token ``t``, the logits ``z = V s_t(Φ)``, the perturbed logits
  ``z⁺ = (V+ΔV) s_t(Φ+ΔΦ)``, the JVP ``ż = ΔV s_t + V ṡ_t`` and the remainder ``r = z⁺ − z − ż``
  of seed 001 §A.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from checks._vocab.activations import SMOOTH, activation, d1_at
from checks._vocab.linalg import dot, frob, inf_norm, matvec
from checks._vocab.rnn import hidden_states
from lemmacheck import Table

#: dims of the RNN instances: small (2 shared cores), every activation of the model
LOSS_RNN_DIMS = {"H": [1, 4], "N": [2], "K": [2, 3], "T": [1, 3], "act": list(SMOOTH)}
#: smaller dims for claims expected to be refuted: Hypothesis shrinks a failure over every input entry, and
#: with ten RNN arrays the shrink phase dominates the run time (a counterexample needs no large dims)
LOSS_RNN_DIMS_SMALL = {"H": [1, 2], "N": [1], "K": [2, 3], "T": [1, 2], "act": list(SMOOTH)}


def loss_rnn_inputs(labels: str = "onehot") -> dict:
    """Input specs of one RNN instance and one perturbation ΔΦ = (ΔU, ΔW, ΔV, Δs₀).

    Weights of scale 10⁻¹…3 (from nearly linear to saturated units); perturbations of scale 10⁻³…1
    (from the first-order regime to steps as large as the weights).
    """
    from lemmacheck import Array, OneHot

    w, d = (1e-1, 3.0), (1e-3, 1.0)
    spec = {
        "U": Array("H", "N", scale=w),
        "W": Array("H", "H", scale=w),
        "V": Array("K", "H", scale=w),
        "s0": Array("H", scale=w),
        "X": Array("T", "N", scale=(1e-1, 3.0)),
        "dU": Array("H", "N", scale=d),
        "dW": Array("H", "H", scale=d),
        "dV": Array("K", "H", scale=d),
        "ds0": Array("H", scale=d),
    }
    if labels == "onehot":
        spec["Y"] = OneHot("T", "K")
    elif labels == "prob":
        spec["Y"] = Array("T", "K", low=-3.0, high=3.0, transform=softmax_rows)
    return spec


#: the setting of a claim checked on one RNN instance with one-hot labels and a perturbation ΔΦ: its inputs
#: and dims; claims expected to be refuted take the small dims
ON_RNN = dict(inputs=loss_rnn_inputs("onehot"), dims=LOSS_RNN_DIMS)
ON_SMALL_RNN = dict(ON_RNN, dims=LOSS_RNN_DIMS_SMALL)


def softmax_rows(raw: np.ndarray) -> np.ndarray:
    """Softmax along the last axis of a float64 array (a transform of sampled inputs; studies)."""
    e = np.exp(raw - raw.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def states_and_tangents(xp, U, W, s0, X, dU, dW, ds0, act):
    """Pre-activations ``a_1..a_T``, states ``s_0..s_T`` and JVPs ``ṡ_0..ṡ_T`` in direction (ΔU, ΔW, Δs₀)."""
    sigma, _, _ = activation(xp, act)
    pre, states, tangents = [], [s0], [ds0]
    for t in range(X.shape[1]):
        x = X[:, t]
        a = matvec(U, x) + matvec(W, states[-1])
        da = matvec(dU, x) + matvec(dW, states[-1]) + matvec(W, tangents[-1])
        pre.append(a)
        states.append(sigma(a))
        tangents.append(d1_at(xp, act, a, states[-1]) * da)
    return pre, states, tangents


def backprop_logits(xp, U, W, V, s0, X, C, act, forward=None):
    r"""Reverse-mode gradient of :math:`\sum_t c_t^\top V s_t` w.r.t. (U, W, V, s₀); the c_t are constants.

    ``C`` is a list of T upstream vectors (B, K) (``None`` for a token that does not contribute);
    ``forward`` optionally passes ``(pre-activations, states)`` already computed for the same Φ.
    """
    pre, ss = (
        forward
        if forward is not None
        else states_and_tangents(xp, U, W, s0, X, U * 0, W * 0, s0 * 0, act)[:2]
    )
    T = X.shape[1]
    gU, gW, gV = U * 0, W * 0, V * 0
    delta = s0 * 0  # ∂/∂s_t of the part of the sum that depends on s_t
    for t in range(T, 0, -1):
        c = C[t - 1]
        if c is not None:
            gV = gV + xp.outer(c, ss[t])
            delta = delta + matvec(xp.transpose(V), c)
        da = delta * d1_at(xp, act, pre[t - 1], ss[t])
        gU = gU + xp.outer(da, X[:, t - 1])
        gW = gW + xp.outer(da, ss[t - 1])
        delta = matvec(xp.transpose(W), da)
    return gU, gW, gV, delta


def pair_grad(xp, grads, dU, dW, dV, ds0):
    """⟨∇_Φ(·), ΔΦ⟩ for Φ = (U, W, V, s₀)."""
    gU, gW, gV, gs0 = grads
    return frob(xp, gU, dU) + frob(xp, gW, dW) + frob(xp, gV, dV) + dot(xp, gs0, ds0)


def token_terms(xp, U, W, V, s0, X, dU, dW, dV, ds0, act, t=None):
    """Logits, perturbed logits, JVP and remainder r of token ``t`` (default: the last token)."""
    t = X.shape[1] if t is None else t
    pre, ss, ds = states_and_tangents(xp, U, W, s0, X, dU, dW, ds0, act)
    ss_new = hidden_states(xp, U + dU, W + dW, s0 + ds0, X, act)
    z = matvec(V, ss[t])
    z_new = matvec(V + dV, ss_new[t])
    jvp = matvec(dV, ss[t]) + matvec(V, ds[t])
    return {
        "s": ss[t],
        "z": z,
        "z_new": z_new,
        "jvp": jvp,
        "r": z_new - z - jvp,
        "t": t,
        "forward": (pre, ss),
    }


def token_gradient(xp, U, W, V, s0, X, c, act, t=None, forward=None):
    """∇_Φ (cᵀ V s_t) by back-propagation (``c`` a (B, K) constant), for token ``t`` (default last)."""
    T = X.shape[1]
    t = T if t is None else t
    C = [None] * T
    C[t - 1] = c
    return backprop_logits(xp, U, W, V, s0, X, C, act, forward)


def regime_table(title: str, measured: list, rows: list) -> Table:
    """A study's table with one row per regime (activation, hidden size H, classes K) and step, then the
    figures measured there: ``measured`` names the step's column and the figures'."""
    return Table(title=title, columns=["activation", "H", "K", *measured], rows=rows)


def float_errors_raise() -> bool:
    """Whether NumPy raises on floating-point errors, as when the search asks which rows float64 evaluates
    faithfully (docs/search.md, "Rounding is no way up"): a row whose evaluation raises anywhere, even in a
    term the check does not read, is dropped. Where it does, a check computes the terms it used to compute
    and no longer reads, so the rows dropped, and every figure after them, stay the same."""
    return "raise" in np.geterr().values()


class _Terms(Mapping):
    """The terms of :func:`lemma_terms`, the back-propagated pairings computed when first read, each once:
    most checks read one of ⟨∇_Φ f_t, ΔΦ⟩ and ⟨∇_Φ g_t, ΔΦ⟩ or neither, and a back-propagation is about a
    quarter of the terms' cost."""

    def __init__(self, values: dict, lazy: dict):
        self._values, self._lazy = values, lazy

    def __getitem__(self, key):
        if key not in self._values:
            self._values[key] = self._lazy.pop(key)()
        return self._values[key]

    def __iter__(self):
        return iter([*self._values, *self._lazy])

    def __len__(self) -> int:
        return len(self._values) + len(self._lazy)


def lemma_terms(xp, U, W, V, s0, X, dU, dW, dV, ds0, Y, act):
    """Everything Lemma 1/2 talk about, for the last token (y = its one-hot label)."""
    tt = token_terms(xp, U, W, V, s0, X, dU, dW, dV, ds0, act)
    y = Y[:, -1]
    p = xp.softmax(tt["z"], axis=-1)
    fw = tt["forward"]

    def pairing(c):
        return pair_grad(xp, token_gradient(xp, U, W, V, s0, X, c, act, forward=fw), dU, dW, dV, ds0)

    dz = tt["z_new"] - tt["z"]
    values = {
        **tt,
        "y": y,
        "p": p,
        "dz": dz,
        "f": xp.logsumexp(tt["z"], axis=-1),
        "f_new": xp.logsumexp(tt["z_new"], axis=-1),
        "g": -dot(xp, y, tt["z"]),
        "g_new": -dot(xp, y, tt["z_new"]),
        "half_sq": 0.5 * inf_norm(xp, dz) ** 2,
        "r_inf": inf_norm(xp, tt["r"]),
    }
    terms = _Terms(values, {"grad_f": lambda: pairing(p), "grad_g": lambda: pairing(-y)})
    return dict(terms) if float_errors_raise() else terms


def on_terms(sides):
    """A check that computes its sides from the token terms of Lemmas 1–2 (``lemma_terms``) only."""

    def check(xp, act, **inputs):
        return sides(xp, lemma_terms(xp, act=act, **inputs))

    for attr in ("__module__", "__name__", "__qualname__", "__doc__"):
        setattr(check, attr, getattr(sides, attr))
    return check
