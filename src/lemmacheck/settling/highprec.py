"""High-precision re-verification: no numeric refutation is reported before mpmath confirms it.

The float64 inputs of a candidate are converted exactly to ``mpmath.mpf`` and the *same* check function
runs on the mpmath namespace at :data:`~lemmacheck.model.tolerance.REVERIFY_DPS` digits and again at 20 more;
the violation is confirmed only when, in those exact values, it exceeds the tolerance policy's slack at
both precisions and the two amounts agree (see :func:`confirms` and :mod:`lemmacheck.model.tolerance`).
"""

from __future__ import annotations

import dataclasses
import math

import mpmath
import numpy as np

from ..errors import CheckError
from ..model.claim import NumericCheck
from ..model.inputs import call_with_inputs
from ..model.tolerance import ESCALATIONS, EXTRA_DPS, MP_RTOL, REVERIFY_DPS, STABILITY, VANISHING, Tolerance
from ..search.candidates import Instance
from ..xp import Ball, ball_precision, mp_precision, mpmath_xp, to_mp
from .enclosure import Enclosure, EnclosureUnavailable, certain_digits, decide_property, enclose
from .memo import remembered

__all__ = [
    "Confirmation",
    "reverify",
    "mp_chain",
    "confirms",
    "violation_amount",
    "side_ratio",
    "ratio_sides",
    "working_dps",
    "exact_mp_inputs",
    "reverify_mpmath",
    "certified_by",
]


@dataclasses.dataclass
class Confirmation:
    confirmed: bool
    lhs: str
    rhs: str
    difference: str
    dps: int
    exact: bool = False
    ratio: float | None = None  # high-precision lhs/rhs (rhs/lhs for >=): a rejected candidate's settled
    # tightness, or a confirmed counterexample's ratio (None where undefined, or for rounding noise)
    undecided: bool = False  # the violation did not converge even at the highest precision tried
    # how it was settled: "enclosure" (balls: the margin's sign proved), "mpmath" (two precisions agree),
    # "exact"; for mpmath, why balls were not used
    route: str = "mpmath"
    route_reason: str = ""
    margin: list[str] | None = None  # the enclosure of the margin beyond the slack, [a, b] rounded outward
    bits: int | None = None  # the ball precision that decided it
    # what the check approximated by a discretisation: the enclosure proves the check as computed
    discretisations: tuple[str, ...] = ()

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


def _scalar(v):
    a = np.asarray(v, dtype=object).reshape(-1)
    if a.size != 1:
        raise CheckError("?", f"high-precision evaluation returned shape {np.shape(v)}, expected one value")
    return a[0]


def exact_mp_inputs(check, inputs) -> dict:
    """The instance's inputs converted exactly to mpmath, each with its spec's structure made exact."""
    out = {}
    for name, v in inputs.items():
        values = to_mp(np.asarray(v))
        spec = check.inputs.get(name)
        out[name] = spec.exact(values) if spec is not None else values
    return out


@remembered(CheckError)
def mp_chain(claim_id: str, check: NumericCheck, inst: Instance, dps: int) -> list:
    """The chain e0..ek of one instance, evaluated at ``dps`` digits."""
    with mp_precision(dps):
        inputs = exact_mp_inputs(check, inst.inputs)
        try:
            out = call_with_inputs(check.fn, mpmath_xp, inputs, inst.dims)
        except Exception as exc:
            raise CheckError(
                claim_id,
                f"high-precision re-evaluation failed ({type(exc).__name__}: {exc}); "
                "use xp.* functions only, so the check also runs on mpmath",
            ) from exc
        if check.is_property:
            return [bool(_scalar(out))]
        vals = []
        for e in out:
            x = _scalar(e)
            if not isinstance(x, mpmath.mpf):
                x = mpmath.mpf(x)  # exact ints, floats from constants
            vals.append(x)
        return vals


def violation_amount(a, b, relation: str):
    """Signed amount by which ``a relation b`` fails (positive: fails)."""
    if relation in ("<=", "<"):
        return a - b
    if relation in (">=", ">"):
        return b - a
    return abs(a - b)


def confirms(a, b, d, relation: str, tol: Tolerance) -> bool:
    """Whether a high-precision violation ``d`` of ``a relation b`` counts.

    Non-strict relations: ``d`` must exceed the same slack the float64 search uses, now computed from
    the exact values -- so a violation that exists only in rounding (both sides mathematically equal, or
    tiny next to the intermediates that produced them) never confirms.  Strict relations: equality
    (to ``MP_RTOL``) already violates them.
    """
    scale = abs(a) + abs(b)
    if relation in ("<", ">"):
        return d >= -MP_RTOL * scale
    return d > tol.rtol * scale + tol.atol


def ratio_sides(a, b, relation: str) -> tuple | None:
    """(bounded side, bound) of an inequality: (lhs, rhs) of an upper bound, (rhs, lhs) of a lower one;
    None for a relation without a ratio (``=``)."""
    if relation in ("<=", "<"):
        return a, b
    if relation in (">=", ">"):
        return b, a
    return None


def side_ratio(a, b, relation: str) -> float | None:
    """lhs/rhs of an upper bound (rhs/lhs of a lower one) where the bounding side is positive."""
    sides = ratio_sides(a, b, relation)
    if sides is None or not sides[1] > 0:
        return None
    return float(sides[0] / sides[1])


def working_dps(inst: Instance) -> int:
    """REVERIFY_DPS digits *beyond* the dynamic range of the instance's inputs and of 1.

    At a fixed precision, ``1 + 1e-256`` is absorbed exactly as in float64 and the artefact is the same at
    every fixed precision, so no stability test can tell it from a violation; carrying as many extra digits
    as the inputs span, together with the unit that a formula's constants are measured against (log10 of
    the largest over the smallest nonzero magnitude), keeps every input significant next to them.
    """
    parts = [
        np.abs(np.asarray(v, dtype=float)).ravel()
        for v in inst.inputs.values()
        if np.asarray(v).dtype.kind in "fc"
    ]
    mags = np.concatenate([*parts, [1.0]])
    mags = mags[(mags > 0) & np.isfinite(mags)]
    span = 0 if mags.size == 0 else math.ceil(math.log10(mags.max()) - math.log10(mags.min()))
    return REVERIFY_DPS + span


def _violation_at(claim_id, check, inst, step, relation, tol, dps: int):
    """``(counts, lhs, rhs, violation)`` of the relation, evaluated at ``dps`` digits."""
    chain = mp_chain(claim_id, check, inst, dps)
    a, b = (chain[0], chain[-1]) if step is None else (chain[step - 1], chain[step])
    with mp_precision(dps):
        d = violation_amount(a, b, relation)
        return bool(confirms(a, b, d, relation, tol)), a, b, d


def _agreed(x1, x2, digits: int) -> str:
    """``x2`` (the higher precision's value) with the leading digits it shares with ``x1``, at most
    ``digits``: all that two precisions show of a value, where no ball bounds its error."""
    if x1 == x2:
        return mpmath.nstr(x2, digits)
    if not (mpmath.isfinite(x1) and mpmath.isfinite(x2)):
        return mpmath.nstr(x2, 1)  # an infinity or NaN at one precision only: no digit is shared
    gap = abs(x1 - x2) / max(abs(x1), abs(x2))
    return mpmath.nstr(x2, max(1, min(digits, int(-mpmath.log10(gap)))))


def _survives_doubling(claim_id, check, inst, step, relation, tol, dps: int, d) -> bool:
    """A confirmation must also stand at twice the precision: an absorbed constant (``(x + 1e8) - 1e8`` with
    a tiny x) gives the same artefact at ``dps`` and ``dps + EXTRA_DPS``, but not once x is representable."""
    p = 2 * dps + EXTRA_DPS
    ok, _, _, d3 = _violation_at(claim_id, check, inst, step, relation, tol, p)
    with mp_precision(p):
        return ok and (relation in ("<", ">") or abs(d3 - d) <= STABILITY * abs(d3))


def certified_by(conf: Confirmation) -> dict:
    """The route that settled a counterexample, in words and as data (a result's ``certified_by``)."""
    if conf.route == "enclosure" and conf.margin is not None:
        lo, hi = conf.margin
        words = f"proved by interval enclosure, margin [{lo}, {hi}] at {conf.bits} bits"
        if not conf.discretisations:
            return {"route": "enclosure", "certified_by": words, "margin": conf.margin, "bits": conf.bits}
        approximated = "; ".join(conf.discretisations)
        words += f", for the check as computed: {approximated}, whose own error no ball encloses"
        return {
            "route": "enclosure",
            "certified_by": words,
            "margin": conf.margin,
            "bits": conf.bits,
            "discretisations": list(conf.discretisations),
        }
    if conf.route == "enclosure":  # a property: no margin, every comparison decided on balls
        words = f"proved by interval enclosure: every comparison of the property decided at {conf.bits} bits"
        return {"route": "enclosure", "certified_by": words, "bits": conf.bits}
    if conf.route == "exact":
        return {"route": "exact", "certified_by": "exact arithmetic"}
    digits = f"{conf.dps} and {conf.dps + EXTRA_DPS} digits"
    words = f"mpmath: two precisions agree ({digits}), because {conf.route_reason}"
    return {"route": "mpmath", "certified_by": words, "route_reason": conf.route_reason}


def _from_enclosure(enc: Enclosure, relation: str, dps: int) -> Confirmation:
    # Each side, the difference and the ratio with the digits their balls certify (Arb prints no digit it
    # is unsure of): a side that only a wide ball encloses (a margin far from 0 is proved all the same) is
    # not printed to 40 digits of its midpoint, which moved in the 9th when an enclosure tightened.
    with ball_precision(enc.bits):
        return Confirmation(
            confirmed=bool(enc.violated),
            lhs=certain_digits(enc.lhs, 40),
            rhs=certain_digits(enc.rhs, 40),
            difference=certain_digits(enc.difference, 20),
            dps=dps,
            ratio=_ball_ratio(enc.lhs, enc.rhs, relation),
            route="enclosure",
            margin=enc.interval(),
            bits=enc.bits,
            discretisations=enc.discretisations,
        )


def _ball_ratio(a: Ball, b: Ball, relation: str) -> float | None:
    """:func:`side_ratio` on balls: the digits of the ratio's ball that are certain, None where the
    bounding side is not certainly positive or no digit of the ratio is certain."""
    sides = ratio_sides(a, b, relation)
    if sides is None or sides[1].compare(0) != 1:
        return None
    r = sides[0] / sides[1]
    return float(r.a.str(25, radius=False)) if not r.a.contains(0) else None


def _property_confirmation(dps: int, *, holds: bool, **how) -> Confirmation:
    """A property's settled truth value as a confirmation (a violation when it does not hold)."""
    return Confirmation(not holds, str(holds), "True", "holds" if holds else "property fails", dps, **how)


def reverify(
    claim_id: str, check: NumericCheck, inst: Instance, step: int | None, relation: str, tol: Tolerance
) -> Confirmation:
    """Settle a candidate violation of step ``step`` (1-based) or, with ``None``, of e0 R ek.

    First by interval enclosure (:mod:`lemmacheck.settling.enclosure`): the check on balls at the
    candidate's exact inputs, decided by the sign of the margin's ball.  Where balls cannot evaluate the
    check, or their margin still straddles 0 at the highest precision tried, by mpmath
    (:func:`reverify_mpmath`), with the reason recorded in ``route_reason``.
    """
    dps = working_dps(inst)
    if check.is_property and not check.exact:
        try:
            holds, bits = decide_property(claim_id, check, inst, dps)
        except EnclosureUnavailable as exc:
            reason = f"balls cannot decide the property: {exc}"
        else:
            return _property_confirmation(dps, holds=holds, route="enclosure", bits=bits)
    elif not check.is_property:
        try:
            enc = enclose(claim_id, check, inst, step, relation, tol, dps)
            if enc.violated is not None:
                return _from_enclosure(enc, relation, dps)
            lo, hi = enc.interval()
        except EnclosureUnavailable as exc:
            reason = f"balls cannot evaluate the check: {exc}"
        except OverflowError as exc:  # an exponent beyond what a conversion holds: undecided, no crash
            reason = f"a ball's exponent overflows a conversion ({exc})"
        else:
            reason = f"the enclosure of the margin, [{lo}, {hi}], still contains 0 at {enc.bits} bits"
    else:
        reason = "its check is exact"
    try:
        conf = reverify_mpmath(claim_id, check, inst, step, relation, tol)
    except OverflowError as exc:
        conf = Confirmation(False, "overflow", "overflow", "undecided", dps, undecided=True)  # noqa: FBT003
        reason += f"; mpmath overflows too ({exc})"
    conf.route_reason = reason
    return conf


def reverify_mpmath(
    claim_id: str, check: NumericCheck, inst: Instance, step: int | None, relation: str, tol: Tolerance
) -> Confirmation:
    """Settle a candidate in mpmath, by agreement of two precisions.

    Evaluated at :func:`working_dps` digits and at ``EXTRA_DPS`` more.  *Confirmed* when the violation
    counts (:func:`confirms`) at both and the two amounts agree to ``STABILITY`` relative (a true violation
    converges as the precision grows), and it stands again at twice the precision; *rejected* as rounding
    when it counts at neither, or when it shrinks with the precision by ``VANISHING`` or more, between two
    precisions or over all the levels tried (rounding noise of an exactly zero difference does; a violation
    converges).  Anything between
    (counts at one precision only, or at both but not yet converged) means the precision itself is not
    enough: it is doubled, up to ``ESCALATIONS`` times, and a candidate still undecided is reported as such
    (``undecided=True``), never as rounding.
    """
    dps = working_dps(inst)
    if check.is_property:
        if check.exact:
            return Confirmation(
                confirmed=True,
                lhs="False",
                rhs="True",
                difference="property fails",
                dps=0,
                exact=True,
                route="exact",
            )
        ok = mp_chain(claim_id, check, inst, dps)[0]
        if mp_chain(claim_id, check, inst, dps + EXTRA_DPS)[0] != ok:  # the truth value moved: unsettled
            return Confirmation(False, str(ok), "True", "undecided", dps, undecided=True)  # noqa: FBT003
        return _property_confirmation(dps, holds=ok)
    largest = []  # the largest violation seen at each precision level
    for _ in range(ESCALATIONS + 1):
        ok1, a1, b1, d1 = _violation_at(claim_id, check, inst, step, relation, tol, dps)
        ok2, a, b, d2 = _violation_at(claim_id, check, inst, step, relation, tol, dps + EXTRA_DPS)
        largest.append(max(abs(d1), abs(d2)))
        with mp_precision(dps + EXTRA_DPS):
            stable = relation in ("<", ">") or abs(d1 - d2) <= STABILITY * abs(d2)
            r = side_ratio(a, b, relation)
            shown = (_agreed(a1, a, 40), _agreed(b1, b, 40), _agreed(d1, d2, 20))
        if ok1 and ok2 and stable:
            if _survives_doubling(claim_id, check, inst, step, relation, tol, dps, d2):
                return Confirmation(True, *shown, dps, ratio=r)  # noqa: FBT003 (the dataclass's first field)
            dps *= 2
            continue
        with mp_precision(dps + EXTRA_DPS):
            # rounding shrinks with the precision (by about 10^-EXTRA_DPS); a violation converges
            vanishing = relation not in ("<", ">") and abs(d2) <= VANISHING * abs(d1)
        if not ok1 and not ok2:
            return Confirmation(False, *shown, dps, ratio=r)  # noqa: FBT003
        if vanishing:  # noise: its lhs/rhs says nothing about how tight the relation is
            return Confirmation(False, *shown, dps)  # noqa: FBT003
        dps *= 2
    with mp_precision(dps):
        # Noise of an exact zero may land on exactly 0 at one precision and not at the next, so no single
        # pair shows it shrinking; over the levels it does (the first to the last), a violation does not.
        if relation not in ("<", ">") and largest[0] > 0 and largest[-1] <= VANISHING * largest[0]:
            return Confirmation(False, *shown, dps // 2)  # noqa: FBT003
    return Confirmation(False, *shown, dps // 2, undecided=True)  # noqa: FBT003
