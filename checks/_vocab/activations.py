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
    #: (xp, z) -> (σ′(z), σ″(z)) from one evaluation of the function both are polynomials of (the same
    #: operations as ``d1`` and ``d2``, so the same values); None: each is evaluated on its own
    d1_d2: Callable | None = None
    #: s -> (σ′(z), σ″(z)) from the value s = σ(z) itself, where both are polynomials of σ: a forward pass
    #: that has s_t = σ(z_t) already is spared evaluating σ(z_t) again (the same function of the same z,
    #: so the same values); None: they need z
    d1_d2_of_value: Callable | None = None
    #: s -> σ′(z) from the value s = σ(z), where σ′ is a polynomial of σ (as ``d1_d2_of_value``)
    d1_of_value: Callable | None = None


def _polynomial_in_sigma(name: str, *, d1, d2, curvature, sup_d1: float, sup_d2: float) -> Activation:
    """An activation whose derivatives are polynomials of σ itself (tanh, sigmoid): σ = ``xp.<name>``, and
    ``d1``, ``curvature`` map the value s = σ(z) to σ′(z), σ″/σ′; ``d2`` maps (s, σ′(z)) to σ″(z), a
    product with σ′ written as one, so that σ′ is formed once when both are wanted (the same operations
    in the same order as forming it again, so the same values)."""

    def of_sigma(p):
        return lambda xp, z: p(getattr(xp, name)(z))

    def both(s):
        d1s = d1(s)
        return d1s, d2(s, d1s)

    return Activation(
        of_sigma(lambda s: s),
        of_sigma(d1),
        of_sigma(lambda s: d2(s, d1(s))),
        sup_d1,
        sup_d2,
        curvature=of_sigma(curvature),
        d1_d2=of_sigma(both),
        d1_d2_of_value=both,
        d1_of_value=d1,
    )


_TANH = _polynomial_in_sigma(
    "tanh",
    d1=lambda t: 1 - t * t,
    d2=lambda t, d1: -2 * t * d1,
    curvature=lambda t: -2 * t,
    sup_d1=1.0,
    sup_d2=4 / (3 * math.sqrt(3)),
)


def _sigmoid_d1(s):
    """sigmoid′ as a polynomial of the value s = sigmoid(z)."""
    return s * (1 - s)


_SIGMOID = _polynomial_in_sigma(
    "sigmoid",
    d1=_sigmoid_d1,
    d2=lambda s, d1: d1 * (1 - 2 * s),
    curvature=lambda s: 1 - 2 * s,
    sup_d1=0.25,
    sup_d2=1 / (6 * math.sqrt(3)),
)


def _softplus_d1_d2(xp, z):
    """softplus′ = sigmoid and softplus″ = sigmoid′, from one sigmoid."""
    s = xp.sigmoid(z)
    return s, _sigmoid_d1(s)


def _softsign_d1(xp, z):
    a = 1 + xp.abs(z)
    return 1 / (a * a)


ACTIVATIONS: dict[str, Activation] = {
    "tanh": _TANH,
    "sigmoid": _SIGMOID,
    "softplus": Activation(
        lambda xp, z: xp.softplus(z),
        _SIGMOID.sigma,
        _SIGMOID.d1,
        1.0,
        0.25,
        curvature=lambda xp, z: 1 - xp.sigmoid(z),
        d1_d2=_softplus_d1_d2,
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


def d1_d2(xp, name: str, z):
    """``(σ′(z), σ″(z))`` (σ″ None where it does not exist), sharing one evaluation of σ where the table
    has the form: the sensitivity recursions need both at every step."""
    a = _get(name)
    if a.d1_d2 is not None:
        return a.d1_d2(xp, z)
    return a.d1(xp, z), None if a.d2 is None else a.d2(xp, z)


def d1_at(xp, name: str, z, s):
    """σ′(z) where s = σ(z) is known, as :func:`d1_d2_at` (from s where σ′ is a polynomial of σ)."""
    a = _get(name)
    return a.d1_of_value(s) if a.d1_of_value is not None else a.d1(xp, z)


def d1_d2_at(xp, name: str, z, s):
    """:func:`d1_d2` at z where s = σ(z) is known (a forward pass's state): from s where the derivatives
    are polynomials of σ, from z otherwise.  ``s`` must be σ(z) as this table computes it."""
    a = _get(name)
    if a.d1_d2_of_value is not None:
        return a.d1_d2_of_value(s)
    return d1_d2(xp, name, z)


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
