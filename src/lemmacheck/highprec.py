"""High-precision re-verification: no numeric refutation is reported before mpmath confirms it.

The float64 inputs of a candidate are converted exactly to ``mpmath.mpf`` and the *same* check function
runs on the mpmath namespace at :data:`~lemmacheck.tolerance.REVERIFY_DPS` digits and again at 20 more;
the violation is confirmed only when, in those exact values, it exceeds the tolerance policy's slack at
both precisions and the two amounts agree (see :func:`confirms`).
"""

from __future__ import annotations

import dataclasses

import mpmath
import numpy as np

from .claim import NumericCheck
from .errors import CheckError
from .search import Instance, _call
from .tolerance import MP_RTOL, REVERIFY_DPS, Tolerance
from .xp import mp_precision, mpmath_xp, to_mp

__all__ = ["Confirmation", "reverify", "mp_chain", "confirms", "STABILITY"]

#: the violation at REVERIFY_DPS and at REVERIFY_DPS + 20 digits must agree to this relative amount
STABILITY = 1e-6


@dataclasses.dataclass
class Confirmation:
    confirmed: bool
    lhs: str
    rhs: str
    difference: str
    dps: int
    exact: bool = False

    def as_dict(self) -> dict:
        return dataclasses.asdict(self)


def _scalar(v):
    a = np.asarray(v, dtype=object).reshape(-1)
    if a.size != 1:
        raise CheckError("?", f"high-precision evaluation returned shape {np.shape(v)}, expected one value")
    return a[0]


def mp_chain(claim_id: str, check: NumericCheck, inst: Instance, dps: int) -> list:
    """The chain e0..ek of one instance, evaluated at ``dps`` digits."""
    with mp_precision(dps):
        inputs = {k: to_mp(np.asarray(v)) for k, v in inst.inputs.items()}
        try:
            out = _call(check.fn, mpmath_xp, inputs, inst.dims)
        except Exception as exc:
            raise CheckError(claim_id, f"high-precision re-evaluation failed ({type(exc).__name__}: {exc}); "
                                       "use xp.* functions only, so the check also runs on mpmath") from exc
        if check.is_property:
            return [bool(_scalar(out))]
        vals = []
        for e in out:
            x = _scalar(e)
            if not isinstance(x, mpmath.mpf):
                x = mpmath.mpf(x)  # exact ints, floats from constants
            vals.append(x)
        return vals


def _violation(a, b, relation: str):
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


def reverify(claim_id: str, check: NumericCheck, inst: Instance, step: int | None, relation: str,
             tol: Tolerance) -> Confirmation:
    """Re-verify a candidate violation of step ``step`` (1-based) or, with ``None``, of e0 R ek.

    Confirmed only when the violation counts (:func:`confirms`) at ``REVERIFY_DPS`` digits and at 20
    more, and the two amounts agree to ``STABILITY`` relative: a true violation converges as the
    precision grows, a rounding artefact shrinks with it.
    """
    if check.is_property:
        if check.exact:
            return Confirmation(True, "False", "True", "property fails", 0, exact=True)
        ok = mp_chain(claim_id, check, inst, REVERIFY_DPS)[0]
        return Confirmation(not ok, str(ok), "True", "property fails" if not ok else "holds", REVERIFY_DPS)
    results = []
    for dps in (REVERIFY_DPS, REVERIFY_DPS + 20):
        chain = mp_chain(claim_id, check, inst, dps)
        a, b = (chain[0], chain[-1]) if step is None else (chain[step - 1], chain[step])
        with mp_precision(dps):
            d = _violation(a, b, relation)
            results.append((bool(confirms(a, b, d, relation, tol)), a, b, d))
    (ok1, a, b, d1), (ok2, _, _, d2) = results
    with mp_precision(REVERIFY_DPS + 20):
        stable = relation in ("<", ">") or abs(d1 - d2) <= STABILITY * abs(d2)
    ok = ok1 and ok2 and stable
    return Confirmation(bool(ok), mpmath.nstr(a, 40), mpmath.nstr(b, 40), mpmath.nstr(d1, 20), REVERIFY_DPS)
