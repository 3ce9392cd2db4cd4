"""What the array namespaces share: NumPy's structural operations, which work alike on float64 arrays and
on object arrays (of mpmath numbers or of balls), and the norms written once in terms of a namespace."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

__all__ = ["Namespace", "SHARED", "finish", "swap", "outer"]

Namespace = SimpleNamespace


def swap(a):
    return np.swapaxes(a, -1, -2)


def _diagonal(a):
    return np.diagonal(a, axis1=-2, axis2=-1)


def _trace(a):
    return np.sum(_diagonal(a), axis=-1)


def outer(u, v):
    return u[..., :, None] * v[..., None, :]


def _diag_embed(v):
    v = np.asarray(v)
    out = np.zeros(v.shape + (v.shape[-1],), dtype=v.dtype)
    if v.dtype == object:
        out[...] = 0 * v[..., :1, None]  # the backend's own zero (an mpf, a ball), broadcast
    idx = np.arange(v.shape[-1])
    out[..., idx, idx] = v
    return out


def _root(ns: Namespace, s, p):
    """``s ** (1/p)`` with ``1/p`` in the backend's own numbers (exact where the backend is)."""
    return s ** (ns.one / p)


def _vector_norm(ns: Namespace, x, ord=2, axis=-1):
    a = ns.abs(x)
    if ord == math.inf:
        return ns.max(a, axis=axis)
    if ord == -math.inf:
        return ns.min(a, axis=axis)
    if ord == 1:
        return ns.sum(a, axis=axis)
    if ord == 2:
        return ns.sqrt_nonneg(ns.sum(a * a, axis=axis))
    return _root(ns, ns.sum(a**ord, axis=axis), ord)


def _schatten(ns: Namespace, m, p):
    s = ns.svdvals(m)
    if p == math.inf:
        return ns.max(s, axis=-1)
    return _root(ns, ns.sum(s**p, axis=-1), p)


#: structural operations that NumPy performs identically on float64 and on object arrays
SHARED = dict(
    abs=np.abs,
    sum=np.sum,
    prod=np.prod,
    where=np.where,
    matmul=np.matmul,
    transpose=swap,
    diag_embed=_diag_embed,
    diagonal=_diagonal,
    trace=_trace,
    stack=np.stack,
    concatenate=np.concatenate,
    outer=outer,
    # a truth value over axes (`xp.all(x > 0, axis=-1)` in a prop); on object arrays NumPy reduces the
    # elements' own truth values, which balls decide or refuse (Undecided), never guess
    all=np.all,
    any=np.any,
    inf=math.inf,
)


def finish(ns: Namespace) -> Namespace:
    """Add the functions written once in terms of the namespace itself."""
    ns.vector_norm = lambda x, ord=2, axis=-1: _vector_norm(ns, x, ord, axis)
    ns.schatten_norm = lambda m, p: _schatten(ns, m, p)
    ns.full_like = lambda a, v: ns.full(np.shape(a), v)  # a constant side of a batch: xp.full_like(lhs, 1)
    return ns
