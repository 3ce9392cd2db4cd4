r"""The RNN of seeds 000 and 001, written once against ``xp`` (float64 batches and mpmath).

.. math::
    s_t = \sigma(U x_t + W s_{t-1}),\qquad o_t = \mathrm{softmax}(V s_t),\qquad
    E = -\frac1M \sum_t y_t^\top \log o_t

Shapes (batch axis first): ``U`` (B, H, N), ``W`` (B, H, H), ``V`` (B, K, H), ``s0`` (B, H),
``X`` (B, T, N), ``Y`` (B, T, K).  Seed 000 writes ``U ∈ R^{H×N}``, ``W ∈ R^{H×H}``, ``V ∈ R^{K×H}``
with ``x_t ∈ R^N`` — consistent with ``U x_t``; its "H×H²" and "H×HN" sensitivity matrices are the
flattened Jacobians ``∂s_t/∂vec(W)`` and ``∂s_t/∂vec(U)``.
"""

from __future__ import annotations

import numpy as np

from checks._vocab.activations import activation
from checks._vocab.linalg import matvec


def preactivations_and_states(xp, U, W, s0, X, act: str, *, drive=None):
    """Lists ``z_1..z_T`` and ``s_0..s_T`` with ``z_t = U x_t + W s_{t-1}``, ``s_t = σ(z_t)``.

    ``drive``: the terms ``U x_t`` (t = 1..T) where the caller has them, e.g. many parameter points that
    share U (they must be ``matvec(U, X[:, t - 1])``: then every value is the one computed here)."""
    sigma, _, _ = activation(xp, act)
    states, pre = [s0], []
    for t in range(X.shape[1]):
        z = (matvec(U, X[:, t]) if drive is None else drive[t]) + matvec(W, states[-1])
        pre.append(z)
        states.append(sigma(z))
    return pre, states


def hidden_states(xp, U, W, s0, X, act: str):
    """``s_0, s_1, …, s_T`` (list of (B, H) arrays)."""
    return preactivations_and_states(xp, U, W, s0, X, act)[1]


def token_loss(xp, V, s, y):
    r"""Seed 001 eq. (1): :math:`E_t = \log\sum_j e^{V_j s_t} - y^\top V s_t`."""
    logits = matvec(V, s)
    return xp.logsumexp(logits, axis=-1) - xp.sum(y * logits, axis=-1)


def cross_entropy(xp, V, s, y):
    r""":math:`-y^\top \log \mathrm{softmax}(V s)` computed from the probabilities."""
    return -xp.sum(y * xp.log(xp.softmax(matvec(V, s), axis=-1)), axis=-1)


def sequence_loss(xp, U, W, V, s0, X, Y, act: str):
    r""":math:`E = \frac1T\sum_{t=1}^T E_t` (the mean over tokens)."""
    states = hidden_states(xp, U, W, s0, X, act)
    total = 0
    for t in range(1, len(states)):
        total = total + token_loss(xp, V, states[t], Y[:, t - 1])
    return total / (len(states) - 1)


def stack_points(a, n: int):
    """``a`` (B, …) repeated for n points and flattened into the batch axis: (n·B, …), point-major.

    The RNN is evaluated at many parameter points (quadrature nodes, steps) in one batched pass instead of
    one pass per point: each row is computed by the same operations, so the values are those of the loop.
    """
    a = np.asarray(a)
    return np.broadcast_to(a, (n,) + a.shape).reshape((n * a.shape[0],) + a.shape[1:])


def merge_points(a):
    """(n, B, …) -> (n·B, …), point-major (the layout of :func:`stack_points`)."""
    a = np.asarray(a)
    return a.reshape((a.shape[0] * a.shape[1],) + a.shape[2:])


def split_points(a, n: int):
    """(n·B, …) -> (n, B, …): the inverse of :func:`merge_points`."""
    return a.reshape((n, a.shape[0] // n) + a.shape[1:])
