"""Search for violations of a relation chain: the vectorised sweep, Hypothesis, local refinement and
optimisation.

The sweep (:mod:`.sweep`) evaluates whole batches of instances; Hypothesis (:mod:`.adversarial`) then
searches adversarially, steered by ``target()`` towards the largest normalised violation, and shrinks a
failure to the smallest dims and simplest values; the worst instance is refined by vectorised random
perturbation (:mod:`.refine`); finally an inequality's margin is climbed towards its supremum by a local
optimiser from the strongest instances (:mod:`.optimise`).  What they see is tracked relation by
relation (:mod:`.tracker`).
Candidates are *not* verdicts: :mod:`lemmacheck.settling` settles them in high precision.

The names the kinds use from the search's modules are importable from here too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ..errors import CheckError
from .adversarial import hypothesis_search
from .candidates import Instance
from .context import CheckContext
from .draw import apply_where, dims_combinations, draw, draw_with_raw, where_mask
from .optimise import optimise
from .profile import Profile
from .refine import refine as refine_worst
from .relations import compose, evaluate_chain, excess, gap, perturbed, ratio, violated
from .sweep import (
    CHUNK_INSTANCES,
    SweepChunk,
    SweepPart,
    SweepRunner,
    explicit_examples,
    run_sweep,
    sweep_chunk,
    sweep_plan,
)
from .tracker import StepStats, Tracker

__all__ = [
    "CheckContext",
    "StepStats",
    "SweepOutcome",
    "dims_combinations",
    "draw",
    "draw_with_raw",
    "where_mask",
    "apply_where",
    "evaluate_chain",
    "gap",
    "violated",
    "excess",
    "ratio",
    "compose",
    "perturbed",
    "search_numeric",
    "SweepChunk",
    "SweepPart",
    "SweepRunner",
    "sweep_plan",
    "sweep_chunk",
    "CHUNK_INSTANCES",
]

# the names kinds/approx.py imported before the search was split (another branch owns it)
_draw = draw


@dataclasses.dataclass
class SweepOutcome:
    steps: list[StepStats]
    end: StepStats
    instances: int = 0
    hypothesis_examples: int = 0
    kept_fraction: float = 1.0
    worst: Instance | None = None  # the instance with the largest end-to-end gap seen
    shrunk: Instance | None = None  # Hypothesis's shrunk failing example (end to end), if any
    explored: dict = dataclasses.field(default_factory=dict)  # Tracker.explored()


def search_numeric(
    ctx: CheckContext,
    profile: Profile,
    rng,
    seed: int,
    *,
    use_hypothesis: bool = True,
    refine: bool = True,
    verify: Callable[[Instance], bool] | None = None,
    refuted_by_sweep: Callable[[StepStats], bool] | None = None,
    sweep_runner: SweepRunner | None = None,
) -> SweepOutcome:
    """Sweep, then (unless ``refuted_by_sweep`` already certifies a counterexample among the sweep's
    candidates, in which case the adversarial search has nothing left to find) Hypothesis and refinement."""
    check = ctx.check
    tracker = Tracker(ctx)
    with ctx.timed("sweep"):
        explicit_examples(tracker)
        drawn, kept = run_sweep(tracker, profile, seed, sweep_runner)
    if drawn and kept == 0:
        raise CheckError(
            ctx.claim_id, "where() rejected every sampled instance: build valid instances directly"
        )
    kept_fraction = kept / drawn if drawn else 1.0
    if refuted_by_sweep is not None:
        with ctx.timed("settle"):  # the sweep's strongest candidates, in high precision
            refuted = refuted_by_sweep(tracker.end)
        if refuted:
            return SweepOutcome(
                tracker.steps,
                tracker.end,
                tracker.instances,
                0,
                kept_fraction,
                tracker.worst,
                None,
                tracker.explored(),
            )
    # A claim without inputs is a function of its dims alone, which the sweep has enumerated.
    hyp = 0
    if use_hypothesis and profile.hypothesis_examples and check.inputs:
        with ctx.timed("hypothesis"):
            hyp = hypothesis_search(tracker, profile, seed, verify)
    if refine and not check.is_property:
        with ctx.timed("refine"):
            refine_worst(tracker, profile, rng)
        with ctx.timed("optimise"):
            optimise(tracker, profile, seed)
    return SweepOutcome(
        tracker.steps,
        tracker.end,
        tracker.instances,
        hyp,
        kept_fraction,
        tracker.worst,
        tracker.last_failure,
        tracker.explored(),
    )
