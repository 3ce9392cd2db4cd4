"""The float64 NumPy namespace: batched along leading axes, used by the search."""

from __future__ import annotations

import contextlib
import math

import numpy as np

from ._common import SHARED, Namespace, finish

__all__ = ["numpy_xp"]


def _logsumexp(x, axis=-1):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0.0)
    return np.squeeze(m, axis=axis) + np.log(np.sum(np.exp(x - m), axis=axis))


def _softmax(x, axis=-1):
    z = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(z)
    return e / np.sum(e, axis=axis, keepdims=True)


def _sigmoid(x):
    # Branch-free and overflow-free: exp of a non-positive number only.  1/(1+e) where x >= 0 and
    # e/(1+e) elsewhere, as one division of the chosen numerator (the same roundings, half the work).
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0, e) / (1.0 + e)


def _softplus(x):
    return np.maximum(x, 0.0) + np.log1p(np.exp(-np.abs(x)))


_erf = np.vectorize(math.erf, otypes=[float])

#: Taylor terms of exp(A / 2^s) with ‖A / 2^s‖₁ ≤ 1/2: the remainder is below 2^-19 / 19! ≈ 1e-23
_EXPM_TERMS = 18


def _expm(a):
    """exp of a stack of square matrices: scaling, a Taylor polynomial, and squaring."""
    a = np.asarray(a, dtype=float)
    norm = np.max(np.sum(np.abs(a), axis=-2), axis=-1) if a.size else np.zeros(a.shape[:-2])
    s = int(max(0, math.ceil(math.log2(max(float(np.max(norm, initial=0.0)), 1e-300))) + 1))
    b = a / 2.0**s
    eye = np.broadcast_to(np.eye(a.shape[-1]), a.shape)
    term, total = eye.copy(), eye.copy()
    for k in range(1, _EXPM_TERMS + 1):
        term = term @ b / k
        total = total + term
    for _ in range(s):
        total = total @ total
    return total


def _solve(a, b):
    """x with a x = b, for b a stack of vectors (one axis fewer than a) or of matrices."""
    if np.ndim(b) == np.ndim(a) - 1:
        return np.linalg.solve(a, b[..., None])[..., 0]
    return np.linalg.solve(a, b)


def _lapack(routine):
    """``routine`` (LAPACK's, which refuses ``np.longdouble``) for a check evaluated in extended precision
    for its rounding estimate (:mod:`lemmacheck.search.tracker`): longdouble operands are computed in
    float64 and the result returned in longdouble.  Only the routine's own rounding is then float64's;
    every other intermediate of the check stays extended.  Without it such a check had no extended
    evaluation at all, and its estimate missed a cancellation anywhere in it."""

    def apply(*args):
        if not any(getattr(a, "dtype", None) == np.longdouble for a in args):
            return routine(*args)
        out = np.asarray(routine(*(np.asarray(a, dtype=np.float64) for a in args)))
        return out.astype(np.clongdouble if np.iscomplexobj(out) else np.longdouble)

    return apply


def build() -> Namespace:
    ns = Namespace(
        **SHARED,
        backend="numpy",
        one=1.0,
        pi=np.pi,
        max=np.max,
        min=np.min,
        maximum=np.maximum,
        minimum=np.minimum,
        clip=np.clip,
        exp=np.exp,
        log=np.log,
        log1p=np.log1p,
        sqrt=np.sqrt,
        sqrt_nonneg=np.sqrt,
        tanh=np.tanh,
        erf=_erf,
        sigmoid=_sigmoid,
        softplus=_softplus,
        sign=np.sign,
        mean=np.mean,
        einsum=np.einsum,
        eye=lambda n: np.eye(n),
        zeros=lambda shape: np.zeros(shape),
        ones=lambda shape: np.ones(shape),
        full=lambda shape, v: np.full(shape, float(v)),
        asarray=lambda a: np.asarray(a, dtype=float),
        logsumexp=_logsumexp,
        softmax=_softmax,
        svdvals=_lapack(lambda a: np.linalg.svd(a, compute_uv=False)),
        eigvalsh=_lapack(np.linalg.eigvalsh),
        eig=_lapack(np.linalg.eigvals),
        expm=_expm,
        det=_lapack(np.linalg.det),
        inv=_lapack(np.linalg.inv),
        solve=_lapack(_solve),
        isfinite=np.isfinite,
        workdps=lambda dps: contextlib.nullcontext(),  # float64 has the one precision
        discretised=lambda what: None,  # only a proof on balls must say what it does not cover
    )
    return finish(ns)


numpy_xp = build()
