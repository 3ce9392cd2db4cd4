"""The mpmath namespace: object arrays of ``mpmath.mpf`` at the precision in force (:func:`mp_precision`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from fractions import Fraction

import mpmath
import numpy as np

from ._common import SHARED, Namespace, finish

__all__ = ["mpmath_xp", "to_mp", "mp_precision", "elementwise", "per_matrix"]


def elementwise(fn: Callable) -> Callable:
    vec = np.frompyfunc(fn, 1, 1)

    def apply(x):
        out = vec(x)
        return out if isinstance(out, np.ndarray) else np.asarray(out, dtype=object)[()]

    return apply


def _mpf(v):
    if isinstance(v, mpmath.mpf):
        return v
    if isinstance(v, Fraction):
        return mpmath.mpf(v.numerator) / v.denominator
    return mpmath.mpf(v)


def to_mp(a):
    """Convert floats (exactly: every float64 is an mpf) or arrays of them to mpmath objects; a rational
    (a certificate's point) is rounded to the working precision, as mpmath rounds every value."""
    if isinstance(a, np.ndarray):
        if a.dtype == object:
            return np.frompyfunc(_mpf, 1, 1)(a)
        if a.dtype.kind in "fiu":
            return np.frompyfunc(lambda v: mpmath.mpf(float(v)), 1, 1)(a.astype(float))
        return a  # bool / str arrays pass through
    if isinstance(a, (float, np.floating)):
        return mpmath.mpf(float(a))
    return a


def _logsumexp(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    s = np.sum(elementwise(mpmath.exp)(x - m), axis=axis)
    return np.squeeze(m, axis=axis) + elementwise(mpmath.log)(s)


def _softmax(x, axis=-1):
    e = elementwise(mpmath.exp)(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def per_matrix(fn: Callable, to_matrix: Callable = lambda m: mpmath.matrix(m.tolist())) -> Callable:
    """Lift a function of one matrix to a stack of them (leading batch axes); ``fn`` returns a scalar,
    a list (one axis) or a nested list (two axes)."""

    def apply(a):
        a = np.asarray(a, dtype=object)
        lead = a.shape[:-2]
        outs = [fn(to_matrix(a[idx])) for idx in np.ndindex(*lead)] if lead else [fn(to_matrix(a))]
        res = np.empty(len(outs), dtype=object)
        for i, o in enumerate(outs):
            res[i] = o
        if res.size and isinstance(res[0], list):
            res = np.array(outs, dtype=object)
        return res.reshape(lead + res.shape[1:]) if lead else res[0]

    return apply


def _svdvals(m: mpmath.matrix) -> list:
    if m.rows == 0 or m.cols == 0:
        return []
    s = mpmath.svd_r(m, compute_uv=False)
    return sorted((s[i] for i in range(min(m.rows, m.cols))), reverse=True)


def _eigvalsh(m: mpmath.matrix) -> list:
    e, _ = mpmath.eigsy(m)
    return sorted(e[i] for i in range(m.rows))


def _eig(m: mpmath.matrix) -> list:
    return list(mpmath.eig(m, left=False, right=False))


def _matrix_rows(m: mpmath.matrix) -> list:
    return [[m[i, j] for j in range(m.cols)] for i in range(m.rows)]


def _solve(a, b):
    """x with a x = b, for b a stack of vectors (one axis fewer than a) or of matrices."""
    vector = np.ndim(b) == np.ndim(a) - 1
    bb = np.asarray(b, dtype=object)[..., None] if vector else np.asarray(b, dtype=object)
    ab = np.concatenate([np.asarray(a, dtype=object), bb], axis=-1)
    n = ab.shape[-2]

    def one(m):
        return _matrix_rows(mpmath.lu_solve(m[:, :n], m[:, n:]))

    x = per_matrix(one)(ab)
    return x[..., 0] if vector else x


def _constant_array(shape, v) -> np.ndarray:
    out = np.empty(shape, dtype=object)
    out[...] = mpmath.mpf(v)
    return out


def _eye(n):
    out = _constant_array((n, n), 0)
    for i in range(n):
        out[i, i] = mpmath.mpf(1)
    return out


def build() -> Namespace:
    sqrt = elementwise(mpmath.sqrt)
    ns = Namespace(
        **SHARED,
        backend="mpmath",
        one=mpmath.mpf(1),
        pi=mpmath.pi,
        max=np.max,
        min=np.min,
        maximum=np.maximum,
        minimum=np.minimum,
        clip=np.clip,
        exp=elementwise(mpmath.exp),
        log=elementwise(mpmath.log),
        log1p=elementwise(mpmath.log1p),
        sqrt=sqrt,
        sqrt_nonneg=sqrt,
        tanh=elementwise(mpmath.tanh),
        erf=elementwise(mpmath.erf),
        sigmoid=elementwise(lambda v: 1 / (1 + mpmath.exp(-v))),
        softplus=elementwise(lambda v: mpmath.log1p(mpmath.exp(v))),
        sign=elementwise(mpmath.sign),
        mean=lambda x, axis=None: np.sum(x, axis=axis) / (np.size(x) if axis is None else np.shape(x)[axis]),
        einsum=lambda spec, *ops: np.einsum(spec, *ops, optimize=False),
        eye=_eye,
        zeros=lambda shape: _constant_array(shape, 0),
        ones=lambda shape: _constant_array(shape, 1),
        full=lambda shape, v: _constant_array(shape, v),
        asarray=lambda a: to_mp(np.asarray(a, dtype=float)) if not isinstance(a, np.ndarray) else to_mp(a),
        logsumexp=_logsumexp,
        softmax=_softmax,
        svdvals=per_matrix(_svdvals),
        eigvalsh=per_matrix(_eigvalsh),
        eig=per_matrix(_eig),
        expm=per_matrix(lambda m: _matrix_rows(mpmath.expm(m))),
        det=per_matrix(mpmath.det),
        inv=per_matrix(lambda m: (m**-1).tolist()),
        solve=_solve,
        isfinite=elementwise(lambda v: bool(mpmath.isfinite(v))),
        workdps=lambda dps: mp_precision(dps),  # defined below; mpmath.workdps, restored the same way
        discretised=lambda what: None,  # only a proof on balls must say what it does not cover
    )
    return finish(ns)


mpmath_xp = build()


@contextlib.contextmanager
def mp_precision(dps: int) -> Iterator[None]:
    """Scoped mpmath precision, always restored (SciPy ``_mptestutils`` style)."""
    old = mpmath.mp.dps
    mpmath.mp.dps = dps
    try:
        yield
    finally:
        mpmath.mp.dps = old
