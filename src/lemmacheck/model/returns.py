"""What a check returns, validated before anything compares it.

A side is a real float64 array of shape ``(batch,)``, finite; a property is a boolean array of that shape.
Anything else is a :class:`CheckError` naming the claim, the side and what to return instead -- never a
verdict: ``np.asarray(z, dtype=float)`` drops an imaginary part with only a warning (HOLDS on complex
sides), and a float read as a boolean is True unless it is exactly 0 (a property returning ``y - x``
is judged on the sign of nothing).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import CheckError
from .claim import NumericCheck

__all__ = ["validated_chain", "real_side", "validated_where"]

_REDUCE = "reduce every non-batch axis (sum/max/norm over axis=-1 ...)"


def validated_chain(
    claim_id: str,
    check: NumericCheck,
    out: Any,
    inputs: Mapping[str, Any],
    dims: Mapping[str, Any],
    batch: int,
) -> list[np.ndarray]:
    """``out`` of a check as the chain e0..ek of float arrays of shape (batch,), or a property's one
    boolean array; raises :class:`CheckError` on anything else."""
    if check.is_property:
        return [_truth_values(claim_id, out, batch)]
    if not isinstance(out, (tuple, list)):
        raise CheckError(claim_id, f"the check must return a tuple (e0, ..., ek), got {type(out).__name__}")
    want = len(check.relations) + 1
    if len(out) != want:
        raise CheckError(
            claim_id,
            f"the check returned {len(out)} expressions; its relations {check.relations} need {want}",
        )
    return [real_side(claim_id, f"expression e{i}", e, batch, dims, inputs) for i, e in enumerate(out)]


def _batch_shaped(claim_id: str, label: str, value: Any, batch: int) -> np.ndarray:
    a = np.asarray(value)
    if a.shape == () and batch == 1:
        a = a.reshape(1)
    if a.shape == ():
        # One value for a batch of many: a constant written as an array, or a reduction that took the
        # batch axis too (xp.sum(x) without axis=). Which one only the author knows, so say both.
        raise CheckError(
            claim_id,
            f"{label} is one value ({a.reshape(-1)[0]!r}) for a batch of {batch}; a constant side is "
            "written as a Python number (return lhs, 1.0) or xp.full_like(lhs, c); a reduction must "
            "keep the batch axis (xp.sum(x, axis=-1), not xp.sum(x))",
        )
    if a.shape != (batch,):
        raise CheckError(claim_id, f"{label} has shape {a.shape}; expected ({batch},) — {_REDUCE}")
    return a


def validated_where(claim_id: str, out: Any, batch: int) -> np.ndarray:
    """A claim's ``where`` as a boolean array of shape (batch,): a float mask such as ``x - 1`` would
    otherwise keep every instance where it is not exactly 0, which is not what the author wrote."""
    a = np.asarray(out)
    if a.shape == () and a.dtype == np.bool_:  # a condition on the dims alone holds for the whole batch
        a = np.full(batch, bool(a))
    a = _batch_shaped(claim_id, "where()", a, batch)
    if a.dtype != np.bool_:
        raise CheckError(
            claim_id,
            f"where() returned {a.dtype} values (e.g. {a.reshape(-1)[:1].tolist()}), not booleans; "
            "return a comparison such as x > 1 (xp.logical_and(...) for several), not a number",
        )
    return a


def _truth_values(claim_id: str, out: Any, batch: int) -> np.ndarray:
    a = _batch_shaped(claim_id, "the property", out, batch)
    if a.dtype != np.bool_:
        raise CheckError(
            claim_id,
            f"the property returned {a.dtype} values (e.g. {a.reshape(-1)[:1].tolist()}), not booleans; "
            "a prop returns booleans, True where it holds: return x <= y (xp.logical_and(...) for "
            "several), not a number such as y - x; a numeric relation is an @inequality or @identity",
        )
    return a


def real_side(
    claim_id: str,
    label: str,
    value: Any,
    batch: int,
    dims: Mapping[str, Any],
    inputs: Mapping[str, Any],
    at: str = "",
) -> np.ndarray:
    """One side as a finite float array of shape (batch,); ``at`` says where it was evaluated.  A Python
    number is a constant side, the same for every instance (``return lhs, 1.0``), and is broadcast."""
    if type(value) in (int, float):  # not np.float64, a float too: xp.sum(x) over the whole batch is one
        value = np.full(batch, float(value))
    a = _batch_shaped(claim_id, label, value, batch)
    if a.dtype.kind == "c":
        raise CheckError(
            claim_id,
            f"{label} is complex ({a.dtype}), even where its imaginary part is 0; a side is a real "
            "number: return xp.real(z) (or abs(z)) explicitly, where the mathematics says it is real",
        )
    if a.dtype.kind == "b" or a.dtype.kind not in "iufO":
        raise CheckError(
            claim_id,
            f"{label} is {a.dtype}, not a number; a check returning booleans is a @prop",
        )
    try:
        a = a.astype(float)
    except (TypeError, ValueError) as exc:
        raise CheckError(claim_id, f"{label} is not real numbers ({exc})") from None
    bad = ~np.isfinite(a)
    if bad.any():
        j = int(np.argmax(bad))
        sample = {k: np.asarray(v)[j].tolist() for k, v in inputs.items()}
        raise CheckError(
            claim_id,
            f"{label} is {a[j]} (not finite) at dims {dims}{at}, instance {sample}; NaN and inf never "
            "pass silently: narrow the sampler or guard the formula",
        )
    return a
