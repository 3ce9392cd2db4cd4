"""Drawing a batch of instances from a check's input specs, and the claim's ``where`` filter on it."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import CheckError, SamplerError
from ..model.claim import ApproximationCheck, NumericCheck
from ..model.inputs import call_with_inputs, resolve_shape
from ..model.returns import validated_where
from ..xp import numpy_xp

__all__ = ["dims_combinations", "draw", "draw_with_raw", "where_mask", "apply_where"]


def dims_combinations(dims: Mapping[str, Sequence[Any]]) -> list[dict]:
    """Every combination of dims, smallest first (by the sum of the positions in each list)."""
    names = list(dims)
    combos = list(itertools.product(*[list(enumerate(dims[n])) for n in names]))
    combos.sort(key=lambda c: sum(i for i, _ in c))
    return [{n: v for n, (_, v) in zip(names, c, strict=True)} for c in combos] or [{}]


def draw(
    claim_id: str, check: NumericCheck | ApproximationCheck, rng, batch: int, dims: Mapping[str, Any]
) -> dict:
    return draw_with_raw(claim_id, check, rng, batch, dims)[0]


def draw_with_raw(
    claim_id: str, check: NumericCheck | ApproximationCheck, rng, batch: int, dims: Mapping[str, Any]
) -> tuple[dict, dict]:
    """A batch of inputs, and the untransformed values of those drawn through a transform (the same
    draws as ``spec.draw``: the transform consumes no randomness)."""
    inputs, raw = {}, {}
    for name, spec in check.inputs.items():
        try:
            r = spec.raw_draw(rng, batch, resolve_shape(spec.shape, dims))
            if spec.transform is not None:
                raw[name] = np.asarray(r)
            a = np.asarray(spec.finish(r))
        except Exception as exc:
            raise SamplerError(claim_id, f"input {name!r} failed to draw at dims {dims}: {exc}") from exc
        if a.shape[:1] != (batch,):
            raise SamplerError(
                claim_id, f"input {name!r} has shape {a.shape}; the first axis must be the batch ({batch})"
            )
        if a.dtype.kind == "f" and not np.all(np.isfinite(a)):
            raise SamplerError(
                claim_id, f"input {name!r} contains NaN or inf at dims {dims}; fix its transform or scale"
            )
        inputs[name] = a
    return inputs, raw


def where_mask(claim_id: str, check: NumericCheck, inputs: dict, dims) -> np.ndarray | None:
    """Which instances satisfy the claim's ``where`` (None: it has none)."""
    if check.where is None:
        return None
    try:
        out = call_with_inputs(check.where, numpy_xp, inputs, dims)
    except Exception as exc:
        raise CheckError(claim_id, f"where() raised {type(exc).__name__}: {exc}") from exc
    batch = len(next(iter(inputs.values()))) if inputs else 1
    return validated_where(claim_id, out, batch)


def apply_where(claim_id: str, check: NumericCheck, inputs: dict, dims) -> tuple[dict, int]:
    mask = where_mask(claim_id, check, inputs, dims)
    if mask is None:
        return inputs, len(next(iter(inputs.values()))) if inputs else 0
    return {k: v[mask] for k, v in inputs.items()}, int(mask.sum())
