"""First-order statements (``@approximation``): the order of the remainder by a Taylor test, and how often
the written relation fails.

For a first-order statement ``lhs ≈ rhs`` (often written as ``≤``) with step size ``eps``, the remainder
``|lhs - rhs|`` is computed at ``eps0 / 2**k`` (a Taylor test).  Its order is the least-squares slope of
``log remainder`` against ``log eps`` over the levels above the float64 noise floor.  An approximation
whose remainder decays slower than the claimed order is refuted, after the slope is re-measured at
60 digits on the worst instance.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import mpmath
import numpy as np

from ..errors import CheckError, ClaimDefinitionError
from ..model.claim import ApproximationCheck, Claim, validate_relations
from ..model.declare import declaration_failed, register_claim, validate_inputs
from ..model.fields import check_positive
from ..model.inputs import InputSpec, call_with_inputs
from ..model.returns import real_side
from ..model.tolerance import ORDER_SLACK, REVERIFY_DPS, Tolerance
from ..model.verdict import Kind, Verdict
from ..search.violations import _draw, dims_combinations, violated
from ..settling.highprec import exact_mp_inputs
from ..xp import mp_precision, mpmath_xp, numpy_xp
from .base import Context, MutationTargets, Outcome, declaration_unit, register

__all__ = [
    "approximation",
    "ApproxOutcome",
    "ApproximationEvidence",
    "ApproximationChecker",
    "measure_approximation",
]

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


def _remainders(
    claim_id: str,
    check: ApproximationCheck,
    inputs: dict,
    dims: dict,
    n: int,
    eps: np.ndarray,
    tol: Tolerance,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per level and instance the remainder |lhs - rhs| and its scale |lhs| + |rhs|; per level, how many
    of the ``n`` instances fail the written relation."""
    rem = np.empty((check.levels, n))
    scale = np.empty((check.levels, n))
    fails = np.zeros(check.levels)
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
        fails[k] = np.count_nonzero(violated(lhs, rhs, check.relation, tol))
    return rem, scale, fails


def _worse(worst: dict | None, slopes: np.ndarray, dims: dict, inputs: dict) -> dict | None:
    """The instance of least finite order so far: ``worst``, or one of these if lower."""
    finite = np.isfinite(slopes)
    if not finite.any():
        return worst
    j = int(np.nanargmin(np.where(finite, slopes, np.nan)))
    if worst is not None and slopes[j] >= worst["order"]:
        return worst
    return {
        "order": float(slopes[j]),
        "dims": dims,
        "inputs": {k: np.asarray(v)[j : j + 1] for k, v in inputs.items()},
    }


def measure_approximation(
    claim_id: str, check: ApproximationCheck, n: int, rng, tol: Tolerance
) -> ApproxOutcome:
    eps = check.eps0 / 2.0 ** np.arange(check.levels)
    all_orders: list[np.ndarray] = []
    fails = np.zeros(check.levels)
    worst: dict[str, Any] | None = None
    rem_stack: list[np.ndarray] = []
    for dims in dims_combinations(check.dims):
        inputs = _draw(claim_id, check, rng, n, dims)
        rem, scale, dims_fails = _remainders(claim_id, check, inputs, dims, n, eps, tol)
        fails += dims_fails
        slopes = _slopes(eps, rem, scale)
        all_orders.append(slopes)
        rem_stack.append(rem)
        worst = _worse(worst, slopes, dims, inputs)
    orders = np.concatenate(all_orders)
    finite = orders[np.isfinite(orders)]
    med = float(np.median(finite)) if finite.size else math.inf
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
    total = n * len(rem_stack)
    return ApproxOutcome(
        eps=eps.tolist(),
        median_remainder=np.median(np.concatenate(rem_stack, axis=1), axis=1).tolist(),
        failure_rate=(fails / total).tolist(),
        order_median=med,
        order_p10=float(np.percentile(finite, 10)) if finite.size else math.inf,
        instances=total,
        exact_instances=int(np.isinf(orders).sum()),
        worst=worst_ev,
        refuted=bool(refuted),
        mp_order=mp_order,
    )


@dataclasses.dataclass
class ApproximationEvidence(ApproxOutcome):
    order_claimed: float = 0.0
    relation: str = ""


class ApproximationChecker:
    spec: ClassVar[type] = ApproximationCheck
    name: ClassVar[str] = "approximation"
    claim_kinds: ClassVar[dict[str, str]] = {"APPROXIMATION": "approximation"}
    evidence_schema: ClassVar[dict] = {}

    def run(self, claim: Claim, check: ApproximationCheck, ctx: Context) -> Outcome:
        out = measure_approximation(claim.id, check, ctx.profile.approx_instances, ctx.rng, ctx.tol)
        ev = ApproximationEvidence(
            **dataclasses.asdict(out), order_claimed=check.order, relation=check.relation
        )
        return Outcome(Verdict.REFUTED if out.refuted else Verdict.APPROXIMATE, ev)

    def mutation_targets(self, check: ApproximationCheck) -> MutationTargets:
        return MutationTargets(
            function=("fn", check.fn),
            relations=(check.relation,),
            with_relations=lambda rels: dataclasses.replace(check, relation=rels[0]),
            relations_equivalent=_APPROXIMATION_RELATION,
        )


# An approximation states lhs = rhs + O(eps^order), and that is what its verdict measures; the relation
# it is written with only says how often the exact relation fails (the ignored higher-order terms).  With
# the remainder term, lhs <= rhs + O(eps^k) and lhs >= rhs + O(eps^k) state the same thing.
_APPROXIMATION_RELATION = (
    "an approximation claims lhs = rhs + O(eps^order); with the remainder term a flipped relation states "
    "the same (the written relation is measured only as the failure rate of the exact relation)"
)


register(ApproximationChecker())


# --------------------------------------------------------------------------- declaration


@declaration_unit
def approximation(
    claim_id: str,
    *,
    inputs: Mapping[str, InputSpec],
    dims: Mapping[str, Sequence] | None = None,
    order: float = 2,
    relation: str = "<=",
    eps0: float = 1e-1,
    levels: int = 8,
    **meta,
):
    """Declare a first-order statement; ``fn(xp, eps, **inputs) -> (lhs, rhs)``."""

    def wrap(fn: Callable) -> Callable:
        try:
            validate_inputs(claim_id, fn, inputs, dims or {})
            if list(inspect.signature(fn).parameters)[1:2] != ["eps"]:
                raise ClaimDefinitionError(claim_id, f"{fn.__name__} must take (xp, eps, ...)")
            if not isinstance(relation, str):
                raise ClaimDefinitionError(
                    claim_id, f"relation={relation!r} must be one relation", "relation='<='"
                )
            validate_relations(claim_id, [relation])
            check_positive(claim_id, "order", order, "order=2: the remainder is O(eps^2)")
            check_positive(claim_id, "eps0", eps0, "eps0=0.1, the largest step of the fit")
            check_positive(claim_id, "levels", levels, "levels=8 halvings of eps0", whole=True)
            if levels < 4:
                raise ClaimDefinitionError(claim_id, f"levels={levels}: too few to fit an order", "levels=8")
            check = ApproximationCheck(
                fn=fn,
                inputs=dict(inputs),
                dims=dict(dims or {}),
                order=order,
                relation=relation,
                eps0=eps0,
                levels=levels,
            )
        except Exception as exc:
            declaration_failed(claim_id, getattr(fn, "__module__", "?"), exc)
            return fn
        register_claim(claim_id, Kind("approximation"), meta, fn.__module__, fn.__doc__ or "", check=check)
        return fn

    return wrap
