"""The instances a statement and its check are compared on: the claim's own inputs and dims (a fixed
sample per dims combination, seeded from the claim's seed) and every instance its evidence reports
(counterexample, tightness witness)."""

from __future__ import annotations

import numpy as np

from ..model.claim import Claim, NumericCheck
from ..search.draw import apply_where, dims_combinations, draw

__all__ = ["check_instances", "PER_DIMS", "MAX_COMBOS"]

PER_DIMS = 4  # instances drawn per dims combination
MAX_COMBOS = 12  # dims combinations sampled, spread over the list (smallest first)


def check_instances(
    claim: Claim, check: NumericCheck, evidence: dict, seed: int, per_dims: int = PER_DIMS
) -> list[tuple[dict, dict]]:
    combos = dims_combinations(check.dims)
    if len(combos) > MAX_COMBOS:
        step = len(combos) / MAX_COMBOS
        combos = [combos[int(i * step)] for i in range(MAX_COMBOS)]
    rng = np.random.default_rng([seed, 34])
    out = []
    for dims in combos:
        inputs, kept = apply_where(claim.id, check, draw(claim.id, check, rng, per_dims, dims), dims)
        if kept:
            out.append((dims, inputs))
    for key in ("counterexample", "tightness_witness"):
        inst = evidence.get(key)
        if isinstance(inst, dict) and isinstance(inst.get("inputs"), dict) and "dims" in inst:
            reported = {k: np.asarray(v, dtype=float)[None] for k, v in inst["inputs"].items()}
            if set(reported) == set(check.inputs):
                out.append((dict(inst["dims"]), reported))
    return out
