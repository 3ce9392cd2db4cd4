"""The ball namespace: object arrays of :class:`~lemmacheck.xp.ball.Ball` (python-flint ``arb``), every
result an enclosure of the exact value, at the precision in force (:func:`ball_precision`).

Reductions that compare (``max``, ``min``, ``maximum``, ``clip``) return the enclosure of the exact
extreme, not a side picked by a guess; ``where`` and ``sign`` need a decided comparison and raise
:class:`Undecided` otherwise.  Matrix functions go through ``arb_mat`` / ``acb_mat`` (see
:mod:`lemmacheck.xp.ball_linalg`).
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator

import numpy as np
from flint import arb

from . import ball_linalg as linalg
from ._common import SHARED, Namespace, finish
from .ball import Ball, NotEnclosable, ball_precision, bits_for, to_ball
from .mpmath_ns import mp_precision

__all__ = ["ball_xp", "collecting_discretisations"]

#: what the check being evaluated approximates by a discretisation (a derivative by a difference, an
#: integral by a rule), collected while :func:`collecting_discretisations` is open; a context variable, so
#: that claims evaluated on threads of one process never see each other's
_DISCRETISATIONS: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
    "discretisations", default=None
)


def _checked(name: str, fn: Callable) -> Callable:
    """``fn`` on one ball, refusing a result that is not a finite enclosure (log of a ball reaching 0)."""

    def one(v):
        if not isinstance(v, Ball):
            v = Ball(v)
        out = fn(v.a)
        if not out.is_finite():
            raise NotEnclosable(f"{name}({v}) has no finite enclosure")
        return Ball(out)

    return one


def elementwise(name: str, fn: Callable) -> Callable:
    vec = np.frompyfunc(_checked(name, fn), 1, 1)

    def apply(x):
        out = vec(x)
        return out if isinstance(out, np.ndarray) else np.asarray(out, dtype=object)[()]

    return apply


def _extreme(*, larger: bool) -> Callable:
    """The enclosure of max (min) of two balls: a decided side, else Arb's enclosure of the extreme."""

    def pick(x, y):
        x, y = to_ball(x), to_ball(y)
        c = x.compare(y)
        if c is None:
            return Ball(x.a.max(y.a) if larger else x.a.min(y.a))
        return x if (c >= 0) == larger else y

    return pick


_MAX2 = np.frompyfunc(_extreme(larger=True), 2, 1)
_MIN2 = np.frompyfunc(_extreme(larger=False), 2, 1)


def _reduce(ufunc) -> Callable:
    def apply(x, axis=None, keepdims=False):  # noqa: FBT002 (NumPy's signature)
        x = np.asarray(x, dtype=object)
        if axis is None:
            x, axis = x.reshape(-1), 0
        out = ufunc.reduce(x, axis=axis, keepdims=keepdims)
        return out if isinstance(out, np.ndarray) else np.asarray(out, dtype=object)[()]

    return apply


def _pairwise(ufunc) -> Callable:
    def apply(x, y):
        out = ufunc(x, y)
        return out if isinstance(out, np.ndarray) else np.asarray(out, dtype=object)[()]

    return apply


def _sigmoid(a: arb) -> arb:
    return 1 / (1 + (-a).exp())


def _softplus(a: arb) -> arb:
    return a.exp().log1p()  # arb's exponent range is unbounded: e^800 needs no rewriting


def _sign(v) -> Ball:
    c = to_ball(v).compare(0)
    if c is None:
        raise NotEnclosable(f"sign of {v}: the ball contains 0 and other values")
    return Ball(c)


def _shift(x, axis):
    """An exact shift near max(x) along ``axis``: the midpoints' max (any exact shift is correct)."""
    mids = np.frompyfunc(lambda v: Ball(to_ball(v).a.mid()), 1, 1)(x)
    return _reduce(_MAX2)(mids, axis=axis, keepdims=True)


def _logsumexp(x, axis=-1):
    m = _shift(x, axis)
    s = np.sum(_EXP(x - m), axis=axis)
    return np.squeeze(m, axis=axis) + _LOG(s)


def _softmax(x, axis=-1):
    e = _EXP(x - _shift(x, axis))
    return e / np.sum(e, axis=axis, keepdims=True)


def _sqrt_nonneg(a: arb) -> arb:
    """sqrt of a quantity that is ≥ 0 mathematically (a sum of squares): the ball's negative part is
    rounding, and is cut before the root."""
    return a.nonnegative_part().sqrt()


def _constant_array(shape, v) -> np.ndarray:
    out = np.empty(shape, dtype=object)
    out[...] = Ball(v)
    return out


def _eye(n):
    out = _constant_array((n, n), 0)
    for i in range(n):
        out[i, i] = Ball(1)
    return out


_EXP = elementwise("exp", arb.exp)
_LOG = elementwise("log", arb.log)


def _discretised(what: str) -> None:
    notes = _DISCRETISATIONS.get()
    if notes is not None and what not in notes:
        notes.append(what)


@contextlib.contextmanager
def collecting_discretisations() -> Iterator[list[str]]:
    """The discretisations (``xp.discretised``) a check makes while this is open: a ball encloses the value
    the check computes, and the error of such an approximation is no part of it."""
    notes: list[str] = []
    token = _DISCRETISATIONS.set(notes)
    try:
        yield notes
    finally:
        _DISCRETISATIONS.reset(token)


@contextlib.contextmanager
def _workdps(dps: int) -> Iterator[None]:
    """Balls at ``dps`` digits, and mpmath too (the constants a check makes: a finite-difference step)."""
    with ball_precision(bits_for(dps)), mp_precision(dps):
        yield


class _BallNamespace(Namespace):
    @property
    def pi(self):
        return Ball(arb.pi())  # at the precision in force when it is read


def build() -> Namespace:
    ns = _BallNamespace(
        **SHARED,
        backend="ball",
        one=Ball(1),
        max=_reduce(_MAX2),
        min=_reduce(_MIN2),
        maximum=_pairwise(_MAX2),
        minimum=_pairwise(_MIN2),
        clip=lambda x, lo, hi: _pairwise(_MIN2)(_pairwise(_MAX2)(x, lo), hi),
        exp=_EXP,
        log=_LOG,
        log1p=elementwise("log1p", arb.log1p),
        sqrt=elementwise("sqrt", arb.sqrt),
        sqrt_nonneg=elementwise("sqrt", _sqrt_nonneg),
        tanh=elementwise("tanh", arb.tanh),
        erf=elementwise("erf", arb.erf),
        sigmoid=elementwise("sigmoid", _sigmoid),
        softplus=elementwise("softplus", _softplus),
        sign=np.frompyfunc(_sign, 1, 1),
        mean=lambda x, axis=None: np.sum(x, axis=axis) / (np.size(x) if axis is None else np.shape(x)[axis]),
        einsum=lambda spec, *ops: np.einsum(spec, *ops, optimize=False),
        eye=_eye,
        zeros=lambda shape: _constant_array(shape, 0),
        ones=lambda shape: _constant_array(shape, 1),
        full=lambda shape, v: _constant_array(shape, v),
        asarray=lambda a: to_ball(a if isinstance(a, np.ndarray) else np.asarray(a, dtype=float)),
        logsumexp=_logsumexp,
        softmax=_softmax,
        svdvals=linalg.svdvals,
        eigvalsh=linalg.eigvalsh,
        eig=linalg.eig,
        expm=linalg.expm,
        det=linalg.det,
        inv=linalg.inv,
        solve=linalg.solve,
        isfinite=np.frompyfunc(lambda v: to_ball(v).is_finite(), 1, 1),
        workdps=_workdps,
        discretised=_discretised,
    )
    return finish(ns)


ball_xp = build()
