"""Shared pieces for the gradflow claims (activation, vanishing, init, dropout, birnn).

Everything here is written against the array namespace ``xp`` so the same code runs on float64 NumPy
batches and on mpmath object arrays (counterexample re-verification).  Arrays carry a leading batch
axis.  Nothing here registers a claim.
"""

from __future__ import annotations

import itertools

import numpy as np

from checks._vocab.activations import act, dact
from checks._vocab.linalg import matvec, op_norm
from lemmacheck import Array, Tolerance

FD_JACOBIAN_TOL = Tolerance(
    rtol=1e-5,
    reason="sides are 2-point central-difference Jacobians (step 1e-5 in float64): the O(h²) truncation "
    "grows with the third derivatives of the unrolled map and reaches ~1e-6 relative on T = 3 chains; in "
    "high precision the step follows the precision (checks/_vocab/fd.py), so the difference's own error "
    "shrinks as a candidate is settled",
)


def relatively_equal(xp, a, b, rtol=1e-9):
    """True where arrays a, b (batch, ...) agree to ``rtol`` relative to their size: max|a − b| ≤
    rtol·(max|a| + max|b|), no absolute floor.  For properties that compare whole vectors or matrices (a
    relation compares one scalar per instance); the default is the policy's float64 rtol, and a failing
    instance is re-evaluated in high precision before it refutes anything."""
    da, db = a.reshape(a.shape[0], -1), b.reshape(b.shape[0], -1)
    size = xp.max(xp.abs(da), axis=-1) + xp.max(xp.abs(db), axis=-1)
    return xp.max(xp.abs(da - db), axis=-1) <= rtol * size


#: the probe vectors of :func:`probes`, for a claim whose matrices are n × n
JACOBIAN_PROBES = {"c": Array("n", low=-1.0, high=1.0), "d": Array("n", low=-1.0, high=1.0)}


def probes(xp, c, d, *Ms):
    """cᵀMd for each matrix M: a Jacobian compared through random probes c, d (equal matrices give equal
    probes; unequal ones differ for almost every c, d)."""
    return tuple(xp.sum(c * matvec(M, d), axis=-1) for M in Ms)


def lambda_max_gram(xp, W):
    """lambda_1(W^T W), the largest eigenvalue of the Gram matrix."""
    return xp.max(xp.eigvalsh(xp.matmul(xp.transpose(W), W)), axis=-1)


def rescale_to_norm(xp, W, target):
    """W scaled so that ||W|| = target (target shape (batch,))."""
    return W * (target / op_norm(xp, W))[:, None, None]


# --------------------------------------------------------------------------- the two recurrences


def run_h(xp, W, U, b, X, h0, name):
    """h_t = W sigma(h_{t-1}) + U x_t + b for t = 1..T; returns [h_0, ..., h_T]."""
    hs = [h0]
    for t in range(X.shape[1]):
        hs.append(matvec(W, act(xp, name, hs[-1])) + matvec(U, X[:, t]) + b)
    return hs


def run_g(xp, W, U, b, X, g0, name):
    """g_t = sigma(W g_{t-1} + U x_t + b) for t = 1..T; returns [g_0, ..., g_T]."""
    gs = [g0]
    for t in range(X.shape[1]):
        gs.append(act(xp, name, matvec(W, gs[-1]) + matvec(U, X[:, t]) + b))
    return gs


def jac_h_step(xp, W, h_prev, name):
    """Numerator-layout Jacobian dh_t/dh_{t-1} = W diag(sigma'(h_{t-1})) (rows index h_t)."""
    return W * dact(xp, name, h_prev)[:, None, :]


def jac_g_step(xp, W, pre, name):
    """Numerator-layout Jacobian dg_t/dg_{t-1} = diag(sigma'(a_t)) W, a_t the pre-activation."""
    return dact(xp, name, pre)[:, :, None] * W


def chain_product(xp, jacs):
    """J_T ... J_1 for a list [J_1, ..., J_T] of numerator-layout step Jacobians."""
    out = jacs[0]
    for J in jacs[1:]:
        out = xp.matmul(J, out)
    return out


# --------------------------------------------------------------------------- exact discrete expectations


def bernoulli_masks(n, d):
    """All 2^(n d) masks R in {0,1}^{n x d} as a float array (2^(nd), n, d)."""
    return np.array(list(itertools.product((0.0, 1.0), repeat=n * d))).reshape(-1, n, d)


def expect(xp, p, f):
    """E[f] for a discrete law with probabilities p (batch, k) and values f (batch, k)."""
    return xp.sum(p * f, axis=-1)


def standardize(xp, s, p):
    """Support s shifted and scaled so that the law (s, p) has mean 0 and variance 1."""
    m = expect(xp, p, s)
    v = expect(xp, p, (s - m[:, None]) ** 2)
    return (s - m[:, None]) / xp.sqrt(v)[:, None]


def symmetric_law(xp, s, p):
    """A symmetric law with variance 1: atom p[0] at 0 and mass p[i]/2 at +-c s[i] (s > 0)."""
    half = p[:, 1:] / 2
    probs = xp.concatenate([p[:, :1], half, half], axis=-1)
    second = xp.sum(p[:, 1:] * s * s, axis=-1)
    c = 1 / xp.sqrt(second)
    vals = xp.concatenate([0 * s[:, :1], s * c[:, None], -s * c[:, None]], axis=-1)
    return vals, probs


def distinct_support(raw):
    """Transform for Array(k): spread the support so that no law on it is a single atom."""
    return raw + np.arange(raw.shape[-1]) * 0.5


def positive_support(raw):
    """Transform for Array(k): strictly positive support values."""
    return np.abs(raw) + 0.1
