"""Refutations proved by interval enclosure: the check evaluated on balls at the candidate's exact inputs.

The candidate's float64 inputs are exact dyadic rationals; as balls of radius 0 (with the structure their
spec declares made exact, :meth:`InputSpec.exact`) they go through the *same* check function on
:data:`~lemmacheck.xp.ball_xp`, every operation rounded outward.  The relation's margin -- the amount by
which it fails beyond the tolerance policy's slack, as :func:`~lemmacheck.settling.highprec.confirms`
defines it -- is then a ball that contains its exact value:

* strictly on the violating side: the violation is **proved** (margin [a, b] with 0 < a);
* strictly on the holding side: the float64 violation was rounding, and is rejected;
* straddling 0: the precision is doubled, up to ``ESCALATIONS`` times, and then the candidate is unsettled.

What balls cannot evaluate (a function without a ball form, an undecided comparison inside the check, an
input structure made exact only in mpmath) raises :class:`EnclosureUnavailable` with the reason, and the
caller uses mpmath and says why.
"""

from __future__ import annotations

import dataclasses
import decimal

import mpmath
import numpy as np
from flint import arb

from ..model.claim import NumericCheck
from ..model.inputs import call_with_inputs
from ..model.tolerance import ESCALATIONS, MP_RTOL, Tolerance
from ..search.candidates import Instance
from ..xp import Ball, NotEnclosable, Undecided, ball_precision, ball_xp, bits_for, mp_precision, to_ball
from ..xp.ball_ns import collecting_discretisations
from .memo import remembered

__all__ = [
    "Enclosure",
    "EnclosureUnavailable",
    "enclose",
    "decide_property",
    "ball_chain",
    "interval_of",
    "margin_of",
    "STRICT",
]

#: relations whose equality already violates them
STRICT = ("<", ">")


class EnclosureUnavailable(Exception):
    """Balls cannot evaluate this check on this candidate; the message says why."""


class ChainValues(list):
    """The chain's values on balls, and what the check approximated by a discretisation to compute them
    (``xp.discretised``: a derivative by a difference, an integral by a rule), whose own error the balls
    do not enclose."""

    def __init__(self, values, discretisations: tuple[str, ...] = ()):
        super().__init__(values)
        self.discretisations = discretisations


@dataclasses.dataclass
class Enclosure:
    """The decided (or undecided) sign of one relation's margin on balls."""

    violated: bool | None  # True: proved violated; False: proved holding (rounding); None: straddles 0
    lhs: Ball
    rhs: Ball
    difference: Ball  # the signed violation amount (positive: fails), without the slack
    margin: Ball  # the violation beyond the slack: > 0 (>= 0 for a strict relation) means violated
    bits: int
    discretisations: tuple[str, ...] = ()  # what the check approximated: proved for the check as computed

    def interval(self) -> list[str]:
        """The margin's enclosure [a, b] as decimal strings rounded outward."""
        return interval_of(self.margin)


def interval_of(x: Ball, digits: int = 12) -> list[str]:
    """A ball's enclosure [a, b] as decimal strings of ``digits`` significant digits, rounded outward."""
    return [_decimal(x.a.lower(), up=False, digits=digits), _decimal(x.a.upper(), up=True, digits=digits)]


def certain_digits(x: Ball, digits: int) -> str:
    """``x`` with the digits its ball certifies, at most ``digits`` (Arb prints none it is unsure of),
    trailing zeros dropped as mpmath prints; a ball about 0 that is not exactly 0 keeps Arb's form
    (``0e-69``: no digit is certain, the exponent says how small it is)."""
    s = x.a.str(digits, radius=False)
    if x.a.rad() != 0 and x.a.contains(0):
        return s
    with mp_precision(digits + 10):
        return mpmath.nstr(mpmath.mpf(s), digits)


def _decimal(x: arb, *, up: bool, digits: int = 12) -> str:
    """An exact endpoint as a decimal rounded outward (down for a lower end, up for an upper one)."""
    if not x.is_finite():
        return "inf" if up else "-inf"  # a margin balls could not bound (NaN or an infinite radius)
    man, exp = (int(v) for v in x.mid().man_exp())
    if abs(exp) > HUGE_EXPONENT:
        return _decimal_far(man, exp, up=up, digits=digits)
    if exp >= 0:
        # exact: Decimal's constructor never rounds (a product in the default context rounded a midpoint of
        # more than 28 digits to nearest, and 10^40·2^20 + 1's upper end came out below it, 1.04857600000E+46)
        value = decimal.Decimal(man << exp)
    else:
        # man / 2^k cut to a few digits more than printed, the last one moved off 0 and 5 when anything was
        # cut (ROUND_05UP): it lies strictly between the same two printed neighbours as the exact quotient,
        # so the outward rounding below is the exact quotient's.  The quotient at the precision that holds
        # it exactly took thousands of digits at thousands of bits (140 µs an end at 2,400 bits, 33 now).
        with decimal.localcontext() as c:
            c.prec, c.rounding = digits + 3, decimal.ROUND_05UP
            value = decimal.Decimal(man) / decimal.Decimal(1 << -exp)
    with decimal.localcontext() as c:
        c.prec, c.rounding = digits, (decimal.ROUND_CEILING if up else decimal.ROUND_FLOOR)
        return str(+value)


#: binary exponents beyond this are written through mpmath (:func:`_decimal_far`): ``decimal`` would need
#: a precision of about the exponent's size (e^(-2·10^20) overflowed it, and the claim became ERROR)
HUGE_EXPONENT = 10_000


def _decimal_far(man: int, exp: int, *, up: bool, digits: int) -> str:
    """``man·2^exp`` as a ``digits``-digit decimal rounded outward, for an exponent of any size: mpmath
    holds the number exactly and writes its nearest decimal, which is then moved one unit in its last
    place outward when it fell inside."""
    with mpmath.workprec(max(64, man.bit_length() + 8)):
        exact = mpmath.mpf((man, exp))
        text = mpmath.nstr(exact, digits, min_fixed=1, max_fixed=0)
        written = mpmath.mpf(text)
        if (written < exact) if up else (written > exact):
            mantissa, _, power = text.partition("e")
            step = decimal.Decimal(1).scaleb(-(digits - 1))
            moved = decimal.Decimal(mantissa) + (step if up else -step)
            text = f"{moved}e{power}" if power else str(moved)
    return text


def _as_ball(claim_id: str, v) -> Ball:
    a = np.asarray(v, dtype=object).reshape(-1)
    if a.size != 1:
        raise EnclosureUnavailable(
            f"{claim_id}: the check returned shape {np.shape(v)} on balls, not one value"
        )
    x = a[0]
    if isinstance(x, (bool, np.bool_)):
        return Ball(int(x))
    try:
        return to_ball(x)
    except NotEnclosable as exc:
        raise EnclosureUnavailable(f"the check returned {type(x).__name__}: {exc}") from exc


def exact_ball_inputs(check: NumericCheck, inputs: dict) -> dict:
    """The instance's inputs as exact balls, each with its spec's structure made exact in ball arithmetic."""
    out = {}
    for name, v in inputs.items():
        values = to_ball(np.asarray(v))
        spec = check.inputs.get(name)
        if spec is None:
            out[name] = values
            continue
        try:
            out[name] = spec.exact(values)
        except (TypeError, NotEnclosable, AttributeError) as exc:
            raise EnclosureUnavailable(
                f"input {name!r} ({type(spec).__name__}) makes its structure exact only in mpmath ({exc})"
            ) from exc
    return out


@remembered(EnclosureUnavailable)
def ball_chain(claim_id: str, check: NumericCheck, inst: Instance, bits: int, dps: int) -> list:
    """The chain e0..ek (or the property's truth) of one instance on balls at ``bits`` bits (mpmath
    constants the check makes, a finite-difference step or a quadrature node, at ``dps`` digits)."""
    with ball_precision(bits), mp_precision(dps), collecting_discretisations() as discretisations:
        inputs = exact_ball_inputs(check, inst.inputs)
        try:
            out = call_with_inputs(check.fn, ball_xp, inputs, inst.dims)
        except NotEnclosable as exc:
            raise EnclosureUnavailable(str(exc)) from exc
        except Exception as exc:  # noqa: BLE001 (whatever the check raises on balls, mpmath is tried next)
            raise EnclosureUnavailable(
                f"the check does not run on balls ({type(exc).__name__}: {exc}); it uses a function or "
                "a conversion that has no ball form"
            ) from exc
        values = [out] if check.is_property else [_as_ball(claim_id, e) for e in out]
    return ChainValues(values, tuple(discretisations))


def margin_of(a: Ball, b: Ball, relation: str, tol: Tolerance) -> tuple[Ball, Ball]:
    """(violation amount, margin beyond the slack) of ``a relation b``, as balls; :func:`confirms`'s rule."""
    if relation in ("<=", "<"):
        d = a - b
    elif relation in (">=", ">"):
        d = b - a
    elif relation == "=":
        d = abs(a - b)
    else:
        raise EnclosureUnavailable(f"relation {relation!r} has no margin on balls")
    scale = abs(a) + abs(b)
    if relation in STRICT:
        return d, d + Ball(MP_RTOL) * scale
    return d, d - (Ball(tol.rtol) * scale + Ball(tol.atol))


def _decide(margin: Ball, relation: str) -> bool | None:
    if not margin.is_finite():
        return None
    c = margin.compare(0)
    if c is None:
        return None
    return c >= 0 if relation in STRICT else c > 0


def enclose(
    claim_id: str,
    check: NumericCheck,
    inst: Instance,
    step: int | None,
    relation: str,
    tol: Tolerance,
    dps: int,
) -> Enclosure:
    """Decide one relation on balls, from ``dps`` digits up, doubling up to ``ESCALATIONS`` times."""
    if check.is_property:
        raise EnclosureUnavailable("a property's truth is decided by decide_property")
    bits = bits_for(dps)
    for _ in range(ESCALATIONS + 1):
        with ball_precision(bits):
            chain = ball_chain(claim_id, check, inst, bits, dps)
            a, b = (chain[0], chain[-1]) if step is None else (chain[step - 1], chain[step])
            d, m = margin_of(a, b, relation, tol)
            verdict = _decide(m, relation)
            if verdict is not None:
                return Enclosure(verdict, a, b, d, m, bits, chain.discretisations)
        bits, dps = 2 * bits, 2 * dps
    return Enclosure(None, a, b, d, m, bits // 2, chain.discretisations)


def decide_property(claim_id: str, check: NumericCheck, inst: Instance, dps: int) -> tuple[bool, int]:
    """A property's truth at the instance's exact inputs, and the bits that decided it: the check run on
    balls, where every comparison is three-valued, so a truth value that comes out is proved.  An
    undecided comparison (overlapping balls) doubles the precision, up to ``ESCALATIONS`` times, and then
    raises :class:`EnclosureUnavailable` with the comparison, as does anything balls cannot evaluate."""
    bits = bits_for(dps)
    for _ in range(ESCALATIONS + 1):
        try:
            (out,) = ball_chain(claim_id, check, inst, bits, dps)
            values = np.asarray(out, dtype=object).reshape(-1)
            if values.size != 1:
                raise EnclosureUnavailable(
                    f"the property returned shape {np.shape(out)}, not one truth value"
                )
            with ball_precision(bits):
                return bool(values[0]), bits
        except EnclosureUnavailable as exc:
            if not isinstance(exc.__cause__, Undecided):
                raise
            undecided = exc
        except Undecided as exc:  # a Ball's truth value asked for outside the check
            undecided = EnclosureUnavailable(str(exc))
        bits, dps = 2 * bits, 2 * dps
    raise EnclosureUnavailable(f"a comparison stays undecided at {bits // 2} bits ({undecided})")
