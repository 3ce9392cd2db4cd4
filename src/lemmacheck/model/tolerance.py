"""The tolerance policy: one table, one place.  Every number the docs quote comes from here.

**Candidates (float64).**  A relation ``lhs R rhs`` is evaluated in float64 with a purely relative slack

    slack = rtol * (|lhs| + |rhs|)          (+ atol, which is 0 unless a claim overrides it)

so ``lhs <= rhs`` is a *candidate* violation when ``lhs - rhs > slack``, ``lhs = rhs`` when
``|lhs - rhs| > slack``, and a strict ``lhs < rhs`` already when ``lhs - rhs >= -slack``.  There is no
absolute floor: a violation on inputs of size 1e-60 is as visible as one on inputs of size 1e+60.

**Rounding sensitivity.**  Each candidate is evaluated again on its inputs perturbed by
``NOISE_ULPS`` ulps (relative, random sign), ``NOISE_REPEATS`` times; the largest change of a side is
that evaluation's observed rounding sensitivity.  A candidate's *significance* is its violation over
that sensitivity.  It orders the candidates (genuine violations first) and decides which ones *must* be
settled: every candidate whose significance exceeds ``SIGNIFICANCE`` (it cannot be rounding of the
float64 evaluation), plus the ``SETTLE_PER_DIMS`` strongest of every dims combination.

**Tightness.**  The largest lhs/rhs of a relation that holds is taken over instances whose float64 ratio
is *resolved*: each side exceeds its rounding sensitivity (measured as above) ``SIGNIFICANCE`` times, so a
remainder of 7e-17 made by cancellation from terms of size 1 never sets the figure.  The highest resolved
instances are then re-evaluated at ``REVERIFY_DPS`` digits until one confirms its float64 ratio; the figure
reported is that settled value, with the instance attaining it (:mod:`lemmacheck.search.tightness`).

**Settling (high precision).**  A candidate is settled by evaluating the same function on the exactly
converted inputs at ``REVERIFY_DPS`` digits *beyond the dynamic range of the inputs and 1* (``log10`` of the
largest over the smallest nonzero magnitude: ``1 + 1e-256`` must not be absorbed at high precision as it is
in float64) and again at ``EXTRA_DPS`` more:

- *confirmed* (a counterexample; the claim is REFUTED) when, at both precisions, the violation exceeds
  the same relative slack computed from the high-precision sides, the two amounts agree to ``STABILITY``
  relative (a true violation converges as the precision grows; a rounding artefact moves with it), and the
  same holds at twice the precision (an absorbed constant gives the same artefact at nearby precisions).
  A strict relation is confirmed already by equality to ``MP_RTOL`` relative;
- *rejected* (rounding) when the violation counts at neither precision, or shrinks by ``VANISHING`` or
  more between them (the noise of an exactly zero difference scales as 10^-digits);
- anything between (it counts at one only, or has not converged) means the precision is not enough: it
  is doubled, up to ``ESCALATIONS`` times; a candidate still undecided is *unsettled*, never rounding.

HOLDS needs every candidate that must be settled to be settled and rejected.  When the profile's settling
budget runs out first, or high precision cannot evaluate the check, the verdict is INCONCLUSIVE.

Claims may override the float64 row with ``Tolerance(rtol, atol, reason=...)``; the reason is shown in the
report.  The table is keyed by dtype in the manner of JAX's ``public_test_util``.
"""

from __future__ import annotations

import dataclasses
import math
import numbers

import numpy as np

__all__ = [
    "Tolerance",
    "DEFAULT_TOLERANCES",
    "REVERIFY_DPS",
    "EXTRA_DPS",
    "ESCALATIONS",
    "VANISHING",
    "MP_RTOL",
    "STABILITY",
    "NOISE_ULPS",
    "NOISE_REPEATS",
    "SIGNIFICANCE",
    "SETTLE_PER_DIMS",
    "ORDER_SLACK",
    "EXPONENT_SLACK",
    "tolerance_for",
    "slack",
]


@dataclasses.dataclass(frozen=True)
class Tolerance:
    rtol: float
    atol: float = 0.0
    reason: str = ""

    def problem(self) -> str:
        """What makes this override unusable ('' when nothing does); checked where a claim declares it.

        A negative or NaN slack makes equal sides a violation, an infinite one or ``rtol >= 1`` makes
        every pair of sides pass (``|lhs - rhs| <= |lhs| + |rhs|`` always): either way the verdict would
        say nothing about the claim."""
        for name in ("rtol", "atol"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v) or v < 0:
                return f"{name}={v!r}: a tolerance is a finite number >= 0"
        if self.rtol >= 1:
            return (
                f"rtol={self.rtol!r}: a relative slack of 1 or more, rtol * (|lhs| + |rhs|), "
                "covers every difference of the sides, so no instance could fail"
            )
        if not isinstance(self.reason, str) or not self.reason.strip():
            return "a tolerance override needs a reason"
        return ""


DEFAULT_TOLERANCES: dict[np.dtype, Tolerance] = {
    # rtol: 10**7 ulps of the sides -- far above the rounding of a well-conditioned float64 evaluation, far
    # below any violation worth a paper.  No atol: an absolute floor would hide violations at small scale.
    np.dtype(np.float64): Tolerance(rtol=1e-9, atol=0.0, reason="float64 default"),
    np.dtype(np.float32): Tolerance(rtol=1e-4, atol=0.0, reason="float32 default"),
}

#: digits used to settle every numeric candidate (and to certify every refutation)
REVERIFY_DPS = 60
#: a violation must also stand at REVERIFY_DPS + EXTRA_DPS digits
EXTRA_DPS = 20
#: ... and agree between the two precisions to this relative amount
STABILITY = 1e-6
#: a violation that counts at one precision only, or has not converged, doubles the precision up to this often
ESCALATIONS = 3
#: a violation that shrinks by this factor or more over EXTRA_DPS more digits is rounding (noise scales as
#: 10^-digits, about 1e-20 over EXTRA_DPS; a genuine violation converges to a nonzero amount)
VANISHING = 1e-10
#: a strict relation (<, >) is violated by equality to this relative amount at high precision
MP_RTOL = 1e-40
#: relative size, in ulps, of the input perturbation that measures a candidate's rounding sensitivity
NOISE_ULPS = 4
#: perturbed re-evaluations per candidate (the largest change counts)
NOISE_REPEATS = 2
#: a candidate whose violation exceeds this many times its rounding sensitivity must be settled
SIGNIFICANCE = 64.0
#: the strongest candidates of every dims combination settled before HOLDS (the rest are counted)
SETTLE_PER_DIMS = 4
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
