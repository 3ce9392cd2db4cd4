"""The instance attaining a tightness figure, settled: its two sides and their ratio beyond float64.

On balls first: the check at the instance's exact inputs, the ratio's enclosure carried to the evidence,
the precision doubled (up to ``ESCALATIONS`` times) until the ratio's ball pins a float64 value and its
denominator's sign is decided.  Where balls cannot evaluate the check, or the enclosure stays that wide,
mpmath at the working precision, with the reason recorded.
"""

from __future__ import annotations

import mpmath

from ..errors import CheckError
from ..model.claim import NumericCheck
from ..model.tolerance import ESCALATIONS
from ..search.candidates import Instance
from ..xp import ball_precision, bits_for, mp_precision
from .enclosure import EnclosureUnavailable, ball_chain, certain_digits, interval_of
from .highprec import mp_chain, ratio_sides, working_dps

__all__ = ["settled_ratio", "WITNESS_RTOL", "RATIO_DIGITS"]

#: the relative width at which the ratio's enclosure pins its float64 value (a quarter of an ulp)
WITNESS_RTOL = 2.0**-55
#: significant digits the ratio's enclosure is printed with, rounded outward: beyond float64's 17, so the
#: printed interval is as narrow as the figure it encloses
RATIO_DIGITS = 20


def settled_ratio(claim_id: str, check: NumericCheck, inst: Instance, relation: str) -> dict | None:
    """The instance's two sides and their ratio in high precision, with ``route`` (how) and ``dps``; None
    where the bounding side is not positive there, or neither route can evaluate the check."""
    dps = working_dps(inst)
    try:
        return _on_balls(claim_id, check, inst, relation, dps)
    except EnclosureUnavailable as exc:
        settled = _in_mpmath(claim_id, check, inst, relation, dps)
        if settled is not None:
            settled["route_reason"] = str(exc)
        return settled


def _sides(a, b, relation: str) -> tuple:
    sides = ratio_sides(a, b, relation)
    assert sides is not None, f"a tightness figure is of an inequality, not {relation!r}"
    return sides


def _on_balls(claim_id: str, check: NumericCheck, inst: Instance, relation: str, dps: int) -> dict | None:
    bits = bits_for(dps)
    for _ in range(ESCALATIONS + 1):
        chain = ball_chain(claim_id, check, inst, bits, dps)
        a, b = chain[0], chain[-1]
        num, den = _sides(a, b, relation)
        sign = den.compare(0)
        if sign is not None and sign <= 0:
            return None  # no ratio: the bounding side is not positive
        if sign is not None:
            with ball_precision(bits):  # the ratio, and its printed ends, at the precision of the sides
                r = num / den
                if r.a.rad() <= WITNESS_RTOL * abs(r.a.mid()):
                    # each side with the digits its ball certifies (at most 30), the figure at the midpoint
                    # read at float64's 53 bits, set here: the figure is a float, rounded once (never at
                    # whatever global precision a check may have left); 40 digits are plenty for a float,
                    # and dps + 5 of them at inputs of 1e300 (dps in the thousands) exceeded Python's limit
                    # on converting a decimal string to an int
                    with mpmath.workprec(53):
                        ratio = mpmath.mpf(r.a.mid().str(min(dps + 5, 40), radius=False))
                    return {
                        "lhs": certain_digits(a, 30),
                        "rhs": certain_digits(b, 30),
                        "ratio": float(ratio),
                        "ratio_enclosure": interval_of(r, RATIO_DIGITS),
                        "dps": dps,
                        "bits": bits,
                        "route": "enclosure",
                    }
        bits, dps = 2 * bits, 2 * dps
    raise EnclosureUnavailable(
        f"the ratio's enclosure is still wider than float64 resolves at {bits // 2} bits"
    )


def _in_mpmath(claim_id: str, check: NumericCheck, inst: Instance, relation: str, dps: int) -> dict | None:
    try:
        chain = mp_chain(claim_id, check, inst, dps)
    except CheckError:
        return None
    a, b = chain[0], chain[-1]
    with mp_precision(dps):
        num, den = _sides(a, b, relation)
        if den <= 0:
            return None
        ratio = float(num / den)
    return {
        "lhs": mpmath.nstr(a, 30),
        "rhs": mpmath.nstr(b, 30),
        "ratio": ratio,
        "dps": dps,
        "route": "mpmath",
    }
