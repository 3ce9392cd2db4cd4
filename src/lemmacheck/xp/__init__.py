"""Array namespaces: one check function runs on float64 NumPy batches and on mpmath object arrays.

A check is written once against ``xp`` (the Array-API convention).  :data:`numpy_xp` evaluates it on
float64 batches for search; :func:`mpmath_xp` evaluates the *same* function on object arrays of
``mpmath.mpf`` at 50+ digits to re-verify a counterexample.  Both are batched along leading axes.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Iterator
from types import SimpleNamespace

import mpmath
import numpy as np

__all__ = ["numpy_xp", "mpmath_xp", "to_mp", "mp_precision", "Namespace"]

Namespace = SimpleNamespace


def _swap(a):
    return np.swapaxes(a, -1, -2)


def _diag_embed(v):
    v = np.asarray(v)
    out = np.zeros(v.shape + (v.shape[-1],), dtype=v.dtype)
    if v.dtype == object:
        out[...] = mpmath.mpf(0)
    idx = np.arange(v.shape[-1])
    out[..., idx, idx] = v
    return out


def _diagonal(a):
    return np.diagonal(a, axis1=-2, axis2=-1)


def _trace(a):
    return np.sum(_diagonal(a), axis=-1)


def _outer(u, v):
    return u[..., :, None] * v[..., None, :]


def _schatten_from_svals(xp, s, p):
    if p == math.inf:
        return xp.max(s, axis=-1)
    return xp.sum(s**p, axis=-1) ** (1.0 / p if xp.backend == "numpy" else mpmath.mpf(1) / p)


def _vector_norm_generic(xp, x, ord=2, axis=-1):
    a = xp.abs(x)
    if ord == math.inf:
        return xp.max(a, axis=axis)
    if ord == -math.inf:
        return xp.min(a, axis=axis)
    if ord == 1:
        return xp.sum(a, axis=axis)
    if ord == 2:
        return xp.sqrt(xp.sum(a * a, axis=axis))
    return xp.sum(a**ord, axis=axis) ** (1.0 / ord if xp.backend == "numpy" else mpmath.mpf(1) / ord)


# Structural operations that NumPy performs identically on float64 and on object (mpf) arrays.
_SHARED = dict(
    abs=np.abs,
    sum=np.sum,
    prod=np.prod,
    max=np.max,
    min=np.min,
    maximum=np.maximum,
    minimum=np.minimum,
    where=np.where,
    matmul=np.matmul,
    transpose=_swap,
    diag_embed=_diag_embed,
    diagonal=_diagonal,
    trace=_trace,
    stack=np.stack,
    concatenate=np.concatenate,
    clip=np.clip,
    outer=_outer,
)


def _finish(ns: Namespace) -> Namespace:
    ns.vector_norm = lambda x, ord=2, axis=-1: _vector_norm_generic(ns, x, ord, axis)
    ns.schatten_norm = lambda m, p: _schatten_from_svals(ns, ns.svdvals(m), p)
    return ns


# --------------------------------------------------------------------------- NumPy, float64


def _np_logsumexp(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    return np.squeeze(m, axis=axis) + np.log(np.sum(np.exp(x - m), axis=axis))


def _np_softmax(x, axis=-1):
    z = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)


def _np_sigmoid(x):
    # Branch-free and overflow-free: exp of a non-positive number only.
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def _np_softplus(x):
    return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))


def _build_numpy() -> Namespace:
    ns = Namespace(
        **_SHARED,
        backend="numpy",
        pi=np.pi,
        inf=np.inf,
        exp=np.exp,
        log=np.log,
        log1p=np.log1p,
        sqrt=np.sqrt,
        tanh=np.tanh,
        sigmoid=_np_sigmoid,
        softplus=_np_softplus,
        sign=np.sign,
        mean=np.mean,
        einsum=np.einsum,
        eye=lambda n: np.eye(n),
        zeros=lambda shape: np.zeros(shape),
        ones=lambda shape: np.ones(shape),
        full=lambda shape, v: np.full(shape, float(v)),
        asarray=lambda a: np.asarray(a, dtype=float),
        logsumexp=_np_logsumexp,
        softmax=_np_softmax,
        svdvals=lambda a: np.linalg.svd(a, compute_uv=False),
        eigvalsh=np.linalg.eigvalsh,
        det=np.linalg.det,
        inv=np.linalg.inv,
        isfinite=np.isfinite,
    )
    return _finish(ns)


numpy_xp = _build_numpy()


# --------------------------------------------------------------------------- mpmath, object arrays


def _elementwise(fn: Callable) -> Callable:
    vec = np.frompyfunc(fn, 1, 1)

    def apply(x):
        out = vec(x)
        return out if isinstance(out, np.ndarray) else np.asarray(out, dtype=object)[()]

    return apply


def to_mp(a):
    """Convert floats (exactly: every float64 is an mpf) or arrays of them to mpmath objects."""
    if isinstance(a, np.ndarray):
        if a.dtype == object:
            return np.frompyfunc(lambda v: v if isinstance(v, mpmath.mpf) else mpmath.mpf(v), 1, 1)(a)
        if a.dtype.kind in "fiu":
            return np.frompyfunc(lambda v: mpmath.mpf(float(v)), 1, 1)(a.astype(float))
        return a  # bool / str arrays pass through
    if isinstance(a, (float, np.floating)):
        return mpmath.mpf(float(a))
    return a


def _mp_logsumexp(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    s = np.sum(_elementwise(mpmath.exp)(x - m), axis=axis)
    return np.squeeze(m, axis=axis) + _elementwise(mpmath.log)(s)


def _mp_softmax(x, axis=-1):
    e = _elementwise(mpmath.exp)(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _per_matrix(fn: Callable) -> Callable:
    """Lift a function of one mpmath matrix to a stack of them (leading batch axes)."""

    def apply(a):
        a = np.asarray(a, dtype=object)
        lead = a.shape[:-2]
        outs = (
            [fn(mpmath.matrix(a[idx].tolist())) for idx in np.ndindex(*lead)]
            if lead
            else [fn(mpmath.matrix(a.tolist()))]
        )
        res = np.empty(len(outs), dtype=object)
        for i, o in enumerate(outs):
            res[i] = o
        if res.size and isinstance(res[0], list):
            res = np.array([list(o) for o in outs], dtype=object)
        return res.reshape(lead + res.shape[1:]) if lead else res[0]

    return apply


def _mp_svdvals(m: mpmath.matrix) -> list:
    if m.rows == 0 or m.cols == 0:
        return []
    s = mpmath.svd_r(m, compute_uv=False)
    return sorted((s[i] for i in range(min(m.rows, m.cols))), reverse=True)


def _mp_eigvalsh(m: mpmath.matrix) -> list:
    e, _ = mpmath.eigsy(m)
    return sorted(e[i] for i in range(m.rows))


def _mp_constant_array(shape, v) -> np.ndarray:
    out = np.empty(shape, dtype=object)
    out[...] = mpmath.mpf(v)
    return out


def _mp_eye(n):
    out = _mp_constant_array((n, n), 0)
    for i in range(n):
        out[i, i] = mpmath.mpf(1)
    return out


def _build_mpmath() -> Namespace:
    mexp = _elementwise(mpmath.exp)
    ns = Namespace(
        **_SHARED,
        backend="mpmath",
        pi=mpmath.pi,
        inf=math.inf,
        exp=mexp,
        log=_elementwise(mpmath.log),
        log1p=_elementwise(mpmath.log1p),
        sqrt=_elementwise(mpmath.sqrt),
        tanh=_elementwise(mpmath.tanh),
        sigmoid=_elementwise(lambda v: 1 / (1 + mpmath.exp(-v))),
        softplus=_elementwise(lambda v: mpmath.log1p(mpmath.exp(v))),
        sign=_elementwise(mpmath.sign),
        mean=lambda x, axis=None: np.sum(x, axis=axis) / (np.size(x) if axis is None else np.shape(x)[axis]),
        einsum=lambda spec, *ops: np.einsum(spec, *ops, optimize=False),
        eye=_mp_eye,
        zeros=lambda shape: _mp_constant_array(shape, 0),
        ones=lambda shape: _mp_constant_array(shape, 1),
        full=lambda shape, v: _mp_constant_array(shape, v),
        asarray=lambda a: to_mp(np.asarray(a, dtype=float)) if not isinstance(a, np.ndarray) else to_mp(a),
        logsumexp=_mp_logsumexp,
        softmax=_mp_softmax,
        svdvals=_per_matrix(_mp_svdvals),
        eigvalsh=_per_matrix(_mp_eigvalsh),
        det=_per_matrix(mpmath.det),
        inv=_per_matrix(lambda m: (m**-1).tolist()),
        isfinite=_elementwise(lambda v: bool(mpmath.isfinite(v))),
    )
    return _finish(ns)


mpmath_xp = _build_mpmath()


@contextlib.contextmanager
def mp_precision(dps: int) -> Iterator[None]:
    """Scoped mpmath precision, always restored (SciPy ``_mptestutils`` style)."""
    old = mpmath.mp.dps
    mpmath.mp.dps = dps
    try:
        yield
    finally:
        mpmath.mp.dps = old
