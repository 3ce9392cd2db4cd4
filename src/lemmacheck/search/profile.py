"""Search profiles and seeds: every random result replays from the run seed it prints."""

from __future__ import annotations

import dataclasses
import os
import zlib

import numpy as np

from ..model.scalars import is_finite_real

__all__ = ["Profile", "QUICK", "DEEP", "claim_seed", "profile_named"]


@dataclasses.dataclass(frozen=True)
class Profile:
    """How hard to look.  ``quick`` is what CI and the default run use; ``deep`` is for long searches."""

    name: str
    batch: int  # instances per vectorised batch
    batches_per_dims: int  # batches per combination of dims, at least (more where the budget needs them)
    instance_budget: int  # instances per claim in the sweep, spread over the dims combinations, all spent
    hypothesis_examples: int  # examples per claim for the adversarial search
    shrink_calls: int  # calls Hypothesis may spend shrinking a failure (a count, so the result replays)
    refine_rounds: int  # rounds of local refinement of the worst instance
    refine_width: int  # perturbations per round (one vectorised batch)
    # local optimisation of an inequality's margin (lemmacheck.search.optimise): climbs from this many of
    # the strongest instances, each at most optimise_calls objective evaluations (one batch of size + 1
    # instances each, for the gradient)
    optimise_starts: int
    optimise_calls: int
    approx_instances: int  # instances per dims combination for remainder-order fits
    symbolic_points: int  # sample points for a derivation step not proved symbolically
    # Counts, never seconds: a budget in seconds would make a verdict depend on the machine's load, and
    # every result must replay from its seed (a claim that never returns is stopped by the run's timeout).
    settle_count: int  # high-precision settlements a claim may spend (past it: INCONCLUSIVE)
    shrink_trials: int  # float64 trials to simplify a certified counterexample
    seed: int = 0
    certify: bool = False  # after a HOLDS, try to prove it at small dims (lemmacheck.certify)

    def with_seed(self, seed: int) -> Profile:
        return dataclasses.replace(self, seed=int(seed))

    def scaled(self, effort: float) -> Profile:
        """More (or less) search: budgets and example counts times ``effort`` (a claim's effort, or
        ``LEMMACHECK_SCALE`` for a whole run)."""
        if effort == 1:
            return self
        if not is_finite_real(effort) or effort <= 0:  # round(inf * budget) would raise mid-run
            raise ValueError(f"effort={effort!r}: a search is scaled by a finite number > 0")
        return dataclasses.replace(
            self,
            instance_budget=max(256, round(self.instance_budget * effort)),
            batches_per_dims=max(1, round(self.batches_per_dims * effort)),
            hypothesis_examples=max(10, round(self.hypothesis_examples * effort)),
            refine_rounds=max(1, round(self.refine_rounds * effort)),
            optimise_calls=max(8, round(self.optimise_calls * effort)),
            approx_instances=max(8, round(self.approx_instances * effort)),
        )

    def rng(self, claim_id: str) -> np.random.Generator:
        return np.random.default_rng(claim_seed(self.seed, claim_id))


QUICK = Profile(
    "quick",
    batch=512,
    batches_per_dims=2,
    instance_budget=16384,
    hypothesis_examples=60,
    shrink_calls=200,
    refine_rounds=25,
    refine_width=128,
    optimise_starts=4,
    optimise_calls=60,
    approx_instances=32,
    symbolic_points=400,
    settle_count=1000,
    shrink_trials=500,
)
DEEP = Profile(
    "deep",
    batch=4096,
    batches_per_dims=8,
    instance_budget=400_000,
    hypothesis_examples=1500,
    shrink_calls=2000,
    refine_rounds=200,
    refine_width=512,
    optimise_starts=12,
    optimise_calls=200,
    approx_instances=256,
    symbolic_points=5000,
    settle_count=10_000,
    shrink_trials=5000,
)


def profile_named(name: str) -> Profile:
    """``quick`` or ``deep``; ``LEMMACHECK_SCALE`` multiplies the sample counts, as a claim's effort does."""
    scale = os.environ.get("LEMMACHECK_SCALE") or "1"  # empty is unset, as for every variable of ours
    try:
        return {"quick": QUICK, "deep": DEEP}[name].scaled(float(scale))
    except ValueError:
        raise ValueError(f"LEMMACHECK_SCALE={scale!r} must be a finite number > 0, like 4 or 0.5") from None


def claim_seed(run_seed: int, claim_id: str) -> int:
    """A per-claim seed derived from the run seed, so ``-k one.claim`` replays it exactly."""
    return zlib.crc32(f"{run_seed}:{claim_id}".encode()) & 0x7FFFFFFF
