"""Approximations: measure the order of the remainder, and how often the written relation fails.

For a first-order statement ``lhs ≈ rhs`` (often written as ``≤``) with step size ``eps``, the remainder
``|lhs - rhs|`` is computed at ``eps0 / 2**k`` (a Taylor test).  Its order is the least-squares slope of
``log remainder`` against ``log eps`` over the levels above the float64 noise floor.  An approximation
whose remainder decays slower than the claimed order is refuted, after the slope is re-measured at
60 digits on the worst instance.
"""

from __future__ import annotations

import dataclasses
import math
import warnings
from typing import Any

import mpmath
import numpy as np

from ..errors import CheckError
from ..model.claim import ApproximationCheck
from ..model.inputs import call_with_inputs
from ..model.returns import real_side
from ..model.tolerance import ORDER_SLACK, REVERIFY_DPS, Tolerance
from ..search.violations import _draw, dims_combinations, violated
from ..settling.highprec import exact_mp_inputs
from ..xp import mp_precision, mpmath_xp, numpy_xp

__all__ = ["ApproxOutcome", "measure_approximation"]

_NOISE = 1e3 * np.finfo(float).eps


@dataclasses.dataclass
class ApproxOutcome:
    eps: list[float]
    median_remainder: list[float]
    failure_rate: list[float]
    order_median: float
    order_p10: float
    instances: int
    exact_instances: int
    worst: dict | None
    refuted: bool
    mp_order: float | None = None

    def as_evidence(self) -> dict:
        return dataclasses.asdict(self)


def _slopes(eps: np.ndarray, rem: np.ndarray, scale: np.ndarray) -> np.ndarray:
    """Per-instance slope of log rem vs log eps over levels above the noise floor (NaN: too few)."""
    out = np.full(rem.shape[1], np.nan)
    le = np.log(eps)
    for j in range(rem.shape[1]):
        ok = rem[:, j] > _NOISE * scale[:, j]
        if ok.sum() >= 3:
            out[j] = np.polyfit(le[ok], np.log(rem[ok, j]), 1)[0]
        elif not (rem[:, j] > _NOISE * scale[:, j]).any():
            out[j] = np.inf  # exact to rounding at every level
    return out


def _mp_order(claim_id, check: ApproximationCheck, inputs: dict, dims: dict, eps: np.ndarray) -> float:
    with mp_precision(REVERIFY_DPS):
        mp_inputs = exact_mp_inputs(check, inputs)
        rems = []
        for e in eps[-4:]:
            lhs, rhs = call_with_inputs(check.fn, mpmath_xp, mp_inputs, dims, mpmath.mpf(float(e)))
            rems.append(
                abs(
                    np.asarray(lhs, dtype=object).reshape(-1)[0]
                    - np.asarray(rhs, dtype=object).reshape(-1)[0]
                )
            )
        if min(rems) == 0:
            return math.inf
        logs = [float(mpmath.log(r)) for r in rems]
    return float(np.polyfit(np.log(eps[-4:]), logs, 1)[0])


def measure_approximation(
    claim_id: str, check: ApproximationCheck, n: int, rng, tol: Tolerance
) -> ApproxOutcome:
    eps = check.eps0 / 2.0 ** np.arange(check.levels)
    all_orders: list[np.ndarray] = []
    fails = np.zeros(check.levels)
    exact = 0
    total = 0
    worst: dict[str, Any] | None = None
    rem_stack: list[np.ndarray] = []
    for dims in dims_combinations(check.dims):
        inputs = _draw(claim_id, check, rng, n, dims)
        rem = np.empty((check.levels, n))
        scale = np.empty((check.levels, n))
        for k, e in enumerate(eps):
            try:
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    lhs, rhs = call_with_inputs(check.fn, numpy_xp, inputs, dims, float(e))
            except Exception as exc:
                raise CheckError(
                    claim_id, f"the approximation raised {type(exc).__name__}: {exc} (dims {dims}, eps {e:g})"
                ) from exc
            lhs = real_side(claim_id, "lhs", lhs, n, dims, inputs, f", eps {e:g}")
            rhs = real_side(claim_id, "rhs", rhs, n, dims, inputs, f", eps {e:g}")
            rem[k] = np.abs(lhs - rhs)
            scale[k] = np.abs(lhs) + np.abs(rhs)
            fails[k] += np.count_nonzero(violated(lhs, rhs, check.relation, tol))
        slopes = _slopes(eps, rem, scale)
        exact += int(np.isinf(slopes).sum())
        all_orders.append(slopes)
        rem_stack.append(rem)
        total += n
        finite = np.isfinite(slopes)
        if finite.any():
            j = int(np.nanargmin(np.where(finite, slopes, np.nan)))
            if worst is None or slopes[j] < worst["order"]:
                worst = {
                    "order": float(slopes[j]),
                    "dims": dims,
                    "inputs": {k: np.asarray(v)[j : j + 1] for k, v in inputs.items()},
                }
    orders = np.concatenate(all_orders)
    finite = orders[np.isfinite(orders)]
    med = float(np.median(finite)) if finite.size else math.inf
    p10 = float(np.percentile(finite, 10)) if finite.size else math.inf
    rem_all = np.concatenate(rem_stack, axis=1)
    refuted = med < check.order - ORDER_SLACK
    mp_order = None
    if refuted and worst is not None:
        mp_order = _mp_order(claim_id, check, worst["inputs"], worst["dims"], eps)
        refuted = mp_order < check.order - ORDER_SLACK
    worst_ev = None
    if worst is not None:
        worst_ev = {
            "order": worst["order"],
            "dims": worst["dims"],
            "inputs": {k: v[0].tolist() for k, v in worst["inputs"].items()},
        }
    return ApproxOutcome(
        eps=eps.tolist(),
        median_remainder=np.median(rem_all, axis=1).tolist(),
        failure_rate=(fails / total).tolist(),
        order_median=med,
        order_p10=p10,
        instances=total,
        exact_instances=exact,
        worst=worst_ev,
        refuted=bool(refuted),
        mp_order=mp_order,
    )
