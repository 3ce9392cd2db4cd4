"""The tolerance policy: one table, one place.

A numeric relation ``lhs R rhs`` is evaluated in float64 with a slack

    slack = rtol * (|lhs| + |rhs|) + atol

so ``lhs <= rhs`` counts as violated only when ``lhs - rhs > slack``, and ``lhs = rhs`` only when
``|lhs - rhs| > slack``.  The slack only decides which float64 instances are *candidates*: a candidate
is reported as a counterexample only after the same function, evaluated at ``REVERIFY_DPS`` digits on
the same (exactly converted) inputs, violates the relation by more than ``MP_RTOL`` relative.  A
candidate that high precision does not confirm is counted as rounding noise and never refutes.

Claims may override the float64 row with ``Tolerance(rtol, atol, reason=...)``; the reason is shown in
the report.  The table is keyed by dtype in the manner of JAX's ``public_test_util``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

__all__ = ["Tolerance", "DEFAULT_TOLERANCES", "REVERIFY_DPS", "MP_RTOL", "ORDER_SLACK", "EXPONENT_SLACK",
           "tolerance_for", "slack"]


@dataclasses.dataclass(frozen=True)
class Tolerance:
    rtol: float
    atol: float
    reason: str = ""


DEFAULT_TOLERANCES: dict[np.dtype, Tolerance] = {
    np.dtype(np.float64): Tolerance(rtol=1e-9, atol=1e-12, reason="float64 default"),
    np.dtype(np.float32): Tolerance(rtol=1e-4, atol=1e-6, reason="float32 default"),
}

#: digits used to re-verify every numeric refutation
REVERIFY_DPS = 60
#: a relation violated by less than this, relative to |lhs| + |rhs|, at REVERIFY_DPS is not confirmed
MP_RTOL = 1e-40
#: an approximation whose fitted remainder order is below ``order - ORDER_SLACK`` is refuted
ORDER_SLACK = 0.3
#: a complexity claim holds when every fitted exponent is within this of the stated one
EXPONENT_SLACK = 0.25


def tolerance_for(dtype=np.float64, override: Tolerance | None = None) -> Tolerance:
    if override is not None:
        return override
    return DEFAULT_TOLERANCES[np.dtype(dtype)]


def slack(lhs, rhs, tol: Tolerance):
    return tol.rtol * (np.abs(lhs) + np.abs(rhs)) + tol.atol
