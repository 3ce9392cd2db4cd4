"""The activations of the documents, one table: σ, σ′, σ″ and the bounds the documents use.

``sup_d1`` is sup|σ′| (seed 000's "max_x σ'(x)", the γ of seeds 002–004); ``sup_d2`` is sup|σ″|
(``None`` where σ″ does not exist).  σ′ of relu and abs takes the one-sided value 0 / sign at the kink.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Activation:
    sigma: Callable  # (xp, z) -> σ(z)
    d1: Callable  # (xp, z) -> σ′(z)
    d2: Callable | None  # (xp, z) -> σ″(z); None where σ is not twice differentiable
    sup_d1: float
    sup_d2: float | None
    #: σ''/σ' written without the division (σ' > 0), for the curvature factors of seed 001
    curvature: Callable | None = None


def _sig_d1(xp, z):
    s = xp.sigmoid(z)
    return s * (1 - s)


def _sig_d2(xp, z):
    s = xp.sigmoid(z)
    return s * (1 - s) * (1 - 2 * s)


def _tanh_d1(xp, z):
    t = xp.tanh(z)
    return 1 - t * t


def _tanh_d2(xp, z):
    t = xp.tanh(z)
    return -2 * t * (1 - t * t)


def _softsign_d1(xp, z):
    a = 1 + xp.abs(z)
    return 1 / (a * a)


ACTIVATIONS: dict[str, Activation] = {
    "tanh": Activation(
        lambda xp, z: xp.tanh(z),
        _tanh_d1,
        _tanh_d2,
        1.0,
        4 / (3 * math.sqrt(3)),
        curvature=lambda xp, z: -2 * xp.tanh(z),
    ),
    "sigmoid": Activation(
        lambda xp, z: xp.sigmoid(z),
        _sig_d1,
        _sig_d2,
        0.25,
        1 / (6 * math.sqrt(3)),
        curvature=lambda xp, z: 1 - 2 * xp.sigmoid(z),
    ),
    "softplus": Activation(
        lambda xp, z: xp.softplus(z),
        lambda xp, z: xp.sigmoid(z),
        _sig_d1,
        1.0,
        0.25,
        curvature=lambda xp, z: 1 - xp.sigmoid(z),
    ),
    "softsign": Activation(lambda xp, z: z / (1 + xp.abs(z)), _softsign_d1, None, 1.0, None),
    "relu": Activation(
        lambda xp, z: xp.where(z > 0, z, 0 * z),
        lambda xp, z: xp.where(z > 0, 0 * z + 1, 0 * z),
        None,
        1.0,
        None,
    ),
    "abs": Activation(
        lambda xp, z: xp.abs(z), lambda xp, z: xp.where(z > 0, 0 * z + 1, 0 * z - 1), None, 1.0, None
    ),
    "linear": Activation(lambda xp, z: z, lambda xp, z: 0 * z + 1, lambda xp, z: 0 * z, 1.0, 0.0),
}

#: every activation of the table, in table order
ALL = tuple(ACTIVATIONS)
#: the activations of the RNN documents (C^∞, σ' > 0): the only ones central differences and σ''-bounds apply
#: to
SMOOTH = ("tanh", "sigmoid", "softplus")
#: sup|σ'| by name (the γ of seeds 002–004, the max σ' of seed 000)
SUP_D1 = {name: a.sup_d1 for name, a in ACTIVATIONS.items()}


def _get(name: str) -> Activation:
    try:
        return ACTIVATIONS[name]
    except KeyError:
        raise ValueError(f"unknown activation {name!r}; choose one of {ALL}") from None


def activation(xp, name: str):
    """``(σ, σ′, σ″)`` as one-argument functions of the pre-activation, bound to ``xp``."""
    a = _get(name)
    d2 = None if a.d2 is None else (lambda z: a.d2(xp, z))
    return (lambda z: a.sigma(xp, z)), (lambda z: a.d1(xp, z)), d2


def act(xp, name: str, z):
    """σ(z) elementwise."""
    return _get(name).sigma(xp, z)


def dact(xp, name: str, z):
    """σ′(z) elementwise."""
    return _get(name).d1(xp, z)


def curvature_ratio(xp, z, name: str):
    """σ''(z)/σ'(z), written without the division."""
    a = _get(name)
    if a.curvature is None:
        raise ValueError(f"curvature ratio undefined for {name!r}; choose one of {SMOOTH}")
    return a.curvature(xp, z)
