"""Batched linear algebra on the array namespace ``xp`` (a leading batch axis on every array)."""

from __future__ import annotations

import math


def matvec(M, v):
    """``M @ v`` for ``M`` (..., m, n) and ``v`` (..., n); ``@`` is ``np.matmul`` on both backends."""
    return (M @ v[..., None])[..., 0]


def dot(xp, a, b):
    """⟨a, b⟩ over the last axis."""
    return xp.sum(a * b, axis=-1)


def frob(xp, A, B):
    """Frobenius pairing ⟨A, B⟩ = tr(Aᵀ B) of stacks of matrices."""
    return xp.sum(xp.sum(A * B, axis=-1), axis=-1)


def norm2(xp, v):
    return xp.vector_norm(v, 2, axis=-1)


def inf_norm(xp, v):
    return xp.max(xp.abs(v), axis=-1)


def l1(xp, M):
    """Entrywise ℓ1 norm of a stack of matrices (the sum of |M_ij|)."""
    return xp.sum(xp.sum(xp.abs(M), axis=-1), axis=-1)


def maxabs(xp, M):
    """Entrywise max norm of a stack of matrices (the largest |M_ij|)."""
    return xp.max(xp.max(xp.abs(M), axis=-1), axis=-1)


def s1(xp, M):
    """Schatten-1 (trace) norm of a stack of matrices."""
    return xp.schatten_norm(M, 1)


def sinf(xp, M):
    """Schatten-∞ (spectral) norm of a stack of matrices."""
    return xp.schatten_norm(M, math.inf)


def op_norm(xp, M):
    """Largest singular value, computed from ``svdvals`` (the spectral norm by another route than
    ``sinf``)."""
    return xp.max(xp.svdvals(M), axis=-1)
