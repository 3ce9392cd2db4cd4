"""Shared numerics for the optimiser and normalisation claims (momentum, EMA, Adam, weight norm).

Every function that does arithmetic takes the array namespace `xp` first, so the same code runs on
float64 NumPy batches and on object arrays of mpmath numbers (high-precision re-verification). Arrays carry
a leading batch axis. The `*_transform` functions are NumPy-only input transforms (structure of the
sampled instances), and the `*_support` functions build constant NumPy tables.
"""

import itertools

import numpy as np

from checks._vocab.linalg import dot, matvec

# ---------------------------------------------------------------- input transforms (NumPy only)


def contraction_spd_transform(raw):
    """Map a raw (batch, n, n) sample to an SPD matrix with spectrum in (0, 1).

    A quadratic loss with such a Hessian keeps short momentum / weight-decay trajectories bounded
    whatever the sampled scale, so that trajectory identities compare finite numbers."""
    gram = raw @ np.swapaxes(raw, -1, -2)
    frob2 = np.sum(raw * raw, axis=(-2, -1))[..., None, None]
    n = raw.shape[-1]
    return (gram + 1e-3 * np.eye(n)) / (frob2 + 1e-3 * n + 1e-300)


def symmetric_transform(raw):
    """Symmetric part of a raw (batch, n, n) sample: a Hessian, possibly indefinite."""
    return 0.5 * (raw + np.swapaxes(raw, -1, -2))


def unit_rows_transform(raw):
    """Rows scaled to unit norm: x = L r with Rademacher r then has Var(x_i) = 1 but correlated entries."""
    norm = np.sqrt(np.sum(raw * raw, axis=-1, keepdims=True))
    unit = np.broadcast_to(np.eye(raw.shape[-1]), raw.shape)  # a zero row becomes a coordinate vector
    return np.where(norm > 1e-100, raw / np.where(norm > 1e-100, norm, 1.0), unit)


# ---------------------------------------------------------------- constant tables


def rademacher_support(n):
    """All 2**n sign vectors, shape (2**n, n).

    A Rademacher vector r (independent ±1 entries) has E[r] = 0 and E[r rᵀ] = I exactly, so an
    expectation over it is an exact finite average over this table: no Monte-Carlo error."""
    return np.array(list(itertools.product((-1.0, 1.0), repeat=n)))


# ---------------------------------------------------------------- batched linear algebra via xp


def probe(xp, c, vec):
    """A random linear functional c·vec: two vectors are equal iff c·a = c·b for almost every c."""
    return dot(xp, c, vec)


def quadratic_gradient(xp, A, b, theta):
    """Gradient of ½θᵀAθ − bᵀθ (A symmetric)."""
    return matvec(A, theta) - b


# ---------------------------------------------------------------- optimiser trajectories


def momentum_trajectory(xp, A, b, theta0, alpha, eps, steps):
    """SGD with momentum on ½θᵀAθ − bᵀθ: v_t = α v_{t-1} + ε g_t, θ_t = θ_{t-1} − v_t, v_0 = 0."""
    theta = theta0
    v = theta0 * 0
    for _ in range(steps):
        g = quadratic_gradient(xp, A, b, theta)
        v = alpha[:, None] * v + eps[:, None] * g
        theta = theta - v
    return theta


def running_average_trajectory(xp, A, b, theta0, beta, delta, steps):
    """SGD with a running average: v_t = β v_{t-1} + (1−β) g_t, θ_t = θ_{t-1} − δ v_t, v_0 = 0."""
    theta = theta0
    v = theta0 * 0
    for _ in range(steps):
        g = quadratic_gradient(xp, A, b, theta)
        v = beta[:, None] * v + (1 - beta[:, None]) * g
        theta = theta - delta[:, None] * v
    return theta


def ema_recursive(xp, g, beta, v0):
    """v_t = β v_{t-1} + (1−β) g_t for t = 1..T; g has shape (batch, T, n); returns v_T."""
    v = v0
    b = beta[:, None]
    for t in range(g.shape[1]):
        v = b * v + (1 - b) * g[:, t, :]
    return v


def ema_closed_form(xp, g, beta, v0):
    """β^T v_0 + Σ_{i=1}^T (1−β) β^{T−i} g_i (the unrolled form, T = g.shape[1])."""
    T = g.shape[1]
    b = beta[:, None]
    total = b**T * v0
    for i in range(1, T + 1):
        total = total + (1 - b) * b ** (T - i) * g[:, i - 1, :]
    return total


def sgd_weight_decay_trajectory(xp, A, b, theta0, eta, lam, steps):
    """Seed 004 §3 weight-decay rule as written: θ_{i+1} = θ_i − η ∇L(θ_i) + λ θ_i."""
    theta = theta0
    for _ in range(steps):
        theta = theta - eta[:, None] * quadratic_gradient(xp, A, b, theta) + lam[:, None] * theta
    return theta


def sgd_l2_trajectory(xp, A, b, theta0, eta, gamma, steps):
    """Plain SGD on L(θ) + γ‖θ‖²: θ_{t+1} = θ_t − η (∇L(θ_t) + 2γθ_t)."""
    theta = theta0
    for _ in range(steps):
        theta = theta - eta[:, None] * (quadratic_gradient(xp, A, b, theta) + 2 * gamma[:, None] * theta)
    return theta


# ---------------------------------------------------------------- weight normalisation


def u_nonzero(xp, u, **_):
    """u ≠ 0, the hypothesis of the weight-norm claims (W^⊥, u/‖u‖ and s = γ/‖u‖ need it); the floor keeps
    ‖u‖³ clear of float64 underflow."""
    return dot(xp, u, u) > 1e-100


def weight_from_direction(xp, u, gain):
    """w = γ u / ‖u‖ (gain γ has shape (batch,))."""
    return gain[:, None] * u / xp.sqrt(dot(xp, u, u))[:, None]


def orth_projector(xp, u):
    """W^⊥ = I − u uᵀ / ‖u‖², batched (batch, n, n)."""
    n = u.shape[-1]
    uu = u[:, :, None] * u[:, None, :]
    return xp.eye(n) - uu / dot(xp, u, u)[:, None, None]


# ---------------------------------------------------------------- Adam on a pure-noise loss gradient

ADAM_BETA1 = 0.9
ADAM_BETA2 = 0.999
ADAM_DELTA = 1e-8


def adam_run(
    xp,
    noise,
    sigma,
    theta0,
    eta,
    *,
    l2=None,
    decay=None,
    delta=ADAM_DELTA,
    beta1=ADAM_BETA1,
    beta2=ADAM_BETA2,
):
    """Run Adam on one weight per replica whose loss gradient is σ·ξ_t (zero-mean noise).

    noise: constant table (R, T) or array (batch, R, T); sigma, theta0, eta: (batch,).
    ``l2=γ`` adds γθ to the gradient (seed 004's Adam-L2-reg line, h ← ∇L + γθ), so it enters both
    moment estimates; ``decay=λ`` subtracts λθ after the adaptive step (seed 004's Adam-weight-decay,
    Δθ = −(ε ŝ/(√r̂ + δ) + λθ)). Returns θ_T with shape (batch, R).
    """
    noise = noise if noise.ndim == 3 else noise[None]
    T = noise.shape[2]
    theta = theta0[:, None] + 0 * noise[:, :, 0] * sigma[:, None]
    m = theta * 0
    v = theta * 0
    for t in range(1, T + 1):
        g = sigma[:, None] * noise[:, :, t - 1]
        if l2 is not None:
            g = g + l2[:, None] * theta
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        m_hat = m / (1 - beta1**t)
        v_hat = v / (1 - beta2**t)
        step = eta[:, None] * m_hat / (xp.sqrt(v_hat) + delta)
        if decay is not None:
            step = step + decay[:, None] * theta
        theta = theta - step
    return theta


def gram_schmidt_rows(xp, M):
    """Orthonormalise the rows of a batch of square matrices (batch, n, n) with xp operations.

    The sampled `Orthogonal` inputs are orthogonal only to float64 rounding; redoing Gram–Schmidt in
    the working precision makes them orthogonal to the working precision in the mpmath re-verification too."""
    rows = []
    for i in range(M.shape[-2]):
        r = M[:, i, :]
        for q in rows:
            r = r - q * dot(xp, q, r)[:, None]
        rows.append(r / xp.sqrt(dot(xp, r, r))[:, None])
    return xp.stack(rows, axis=1)
