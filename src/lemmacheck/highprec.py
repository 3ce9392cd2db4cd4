"""High-precision re-verification: no numeric refutation is reported before mpmath confirms it.

The float64 inputs of a candidate are converted exactly to ``mpmath.mpf`` and the *same* check function
runs on the mpmath namespace at :data:`~lemmacheck.tolerance.REVERIFY_DPS` digits and again at 20 more;
the violation is confirmed only when both agree and exceed ``MP_RTOL`` relative.
"""

from __future__ import annotations

import dataclasses

import mpmath
import numpy as np

from .claim import NumericCheck
from .errors import CheckError
from .search import Instance, _call
from .tolerance import MP_RTOL, REVERIFY_DPS
from .xp import mp_precision, mpmath_xp, to_mp

__all__ = ["Confirmation", "reverify", "mp_chain"]


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


def reverify(claim_id: str, check: NumericCheck, inst: Instance, step: int | None, relation: str) -> Confirmation:
    """Re-verify a candidate violation of step ``step`` (1-based) or, with ``None``, of e0 R ek."""
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
            scale = abs(a) + abs(b)
            threshold = MP_RTOL * scale if scale else mpmath.mpf(0)
            strict = relation in ("<", ">")
            ok = d >= -threshold if strict else d > threshold
            results.append((ok, a, b, d))
    ok = results[0][0] and results[1][0]
    _, a, b, d = results[0]
    return Confirmation(bool(ok), mpmath.nstr(a, 40), mpmath.nstr(b, 40), mpmath.nstr(d, 20), REVERIFY_DPS)
