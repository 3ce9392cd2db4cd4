"""The vectorised sweep: every dims combination, drawn in batches that spend the profile's budget.

A check function receives a whole batch of instances (leading batch axis) and returns the chain
``e0 .. ek`` as arrays of shape ``(batch,)``.  The sweep is cut into chunks (:func:`sweep_plan`), each a
function of the claim, its seed and its position alone, so chunks may run anywhere (a cluster) and merge
to the same statistics and candidates.  The instances the claim names, and the counterexamples kept
from earlier runs, are evaluated before it.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence

import numpy as np

from ..errors import CheckError
from ..model.claim import NumericCheck
from ..xp import numpy_xp
from .context import CheckContext
from .draw import dims_combinations, draw_with_raw, where_mask
from .profile import Profile
from .relations import evaluate_chain
from .tracker import SweepPart, Tracker
from .wide import wide_batch

__all__ = [
    "CHUNK_INSTANCES",
    "GROUP_INSTANCES",
    "SweepChunk",
    "SweepPart",
    "SweepRunner",
    "sweep_plan",
    "sweep_chunk",
    "run_sweep",
    "explicit_examples",
]


def explicit_examples(tracker: Tracker) -> None:
    """Instances the claim names (e.g. a counterexample found once and kept so it always replays)."""
    from .examples import stored_examples  # counterexamples earlier runs found, replayed at any seed

    claim_id, check = tracker.claim_id, tracker.check
    stored = stored_examples(claim_id, check)
    for ex in [*check.examples, *stored]:
        inputs = {k: np.asarray(v, dtype=float)[None] for k, v in ex["inputs"].items()}
        try:
            chain = evaluate_chain(claim_id, check, numpy_xp, inputs, ex["dims"], 1)
        except CheckError:
            if ex in stored:  # kept from an earlier version of the claim that it no longer fits
                continue
            raise
        tracker.add(chain, inputs, ex["dims"])


#: instances one chunk of a sweep holds at most.  A chunk is the unit of work a cluster receives: a deep
#: sweep of 10⁷ instances is ~150 tasks, enough to keep many workers busy, and each is ~0.1-1 s of
#: vectorised work, so a scheduler's ~1 ms per task is noise.
CHUNK_INSTANCES = 1 << 16


#: instances a chunk evaluates in one call of the check at most (its batches of one dims combination): the
#: quick profile's batch, so no call is larger than one the sweep already made.  One call per
#: combination of a chunk (up to 65,536 instances) raised the catalogue's peak memory from 234-237 MB to
#: 502 MB, and calls of 2^18 input entries still to 410 MB (a check's intermediates grow with the rows)
GROUP_INSTANCES = 512


@dataclasses.dataclass(frozen=True)
class SweepChunk:
    """Consecutive batches of the sweep, which takes ``per_combo`` batches of every dims combination in
    turn: batch ``i`` belongs to combination ``i // per_combo`` and draws from the generator seeded
    ``[claim seed, i]``, so a chunk's draws do not depend on which other chunks run, where, or when."""

    first: int  # the sweep's batch index this chunk starts at
    batches: int
    batch: int  # instances drawn per batch
    per_combo: int  # batches per dims combination

    @property
    def instances(self) -> int:
        return self.batches * self.batch


#: runs a sweep's chunks (anywhere) and returns their parts in the order given
SweepRunner = Callable[[Sequence[SweepChunk]], Sequence[SweepPart]]


def sweep_plan(check: NumericCheck, profile: Profile) -> list[SweepChunk]:
    """The sweep as chunks of about CHUNK_INSTANCES each, a function of the check's dims and the profile."""
    combos = len(dims_combinations(check.dims))
    # Spread the profile's instance budget over the dims combinations, within [64, profile.batch] a batch,
    # and take as many batches of each as spend the budget (at least batches_per_dims): a claim with few
    # combinations is searched as widely as one with many, not capped at batches_per_dims × batch.
    batch = int(min(profile.batch, max(64, profile.instance_budget // (combos * profile.batches_per_dims))))
    per_combo = max(profile.batches_per_dims, math.ceil(profile.instance_budget / (combos * batch)))
    total = combos * per_combo
    per_chunk = max(1, CHUNK_INSTANCES // batch)
    firsts = range(0, total, per_chunk)
    return [SweepChunk(first, min(per_chunk, total - first), batch, per_combo) for first in firsts]


def sweep_chunk(ctx: CheckContext, seed: int, chunk: SweepChunk) -> SweepPart:
    """Draw and evaluate one chunk of the sweep (on any machine: it needs only its arguments).

    The chunk's batches of one dims combination are evaluated in one call of the check (a check's cost
    is mostly per call; up to GROUP_INSTANCES instances a call) and counted in one call of the tracker:
    each batch still draws from its own generator and is its own unit of the rounding estimate, the
    tightness's resolution and the pools, so the figures are those of one call per batch."""
    tracker = Tracker(ctx)
    combos = dims_combinations(ctx.check.dims)
    drawn = kept = 0
    end = chunk.first + chunk.batches
    start = chunk.first
    while start < end:
        # the combination's batches in this chunk, up to GROUP_INSTANCES instances a call
        dims = combos[start // chunk.per_combo]
        stop = min(
            end,
            (start // chunk.per_combo + 1) * chunk.per_combo,
            start + max(1, GROUP_INSTANCES // chunk.batch),
        )
        drawn += chunk.batch * (stop - start)
        kept += _sweep_combination(tracker, seed, chunk, dims, range(start, stop))
        start = stop
    return tracker.part(drawn, kept)


def _sweep_combination(tracker: Tracker, seed: int, chunk: SweepChunk, dims: dict, batches: range) -> int:
    """The sweep batches ``batches`` of one dims combination: the instances kept by ``where``."""
    claim_id, check = tracker.claim_id, tracker.check
    draws = [
        draw_with_raw(claim_id, check, np.random.default_rng([seed, i]), chunk.batch, dims) for i in batches
    ]
    inputs = {k: np.concatenate([d[0][k] for d in draws]) for k in draws[0][0]}
    raw = {k: np.concatenate([d[1][k] for d in draws]) for k in draws[0][1]}
    mask = where_mask(claim_id, check, inputs, dims)
    if mask is None:  # every row is kept: the concatenated batches are the rows, no copy of them
        mask = np.full(chunk.batch * len(batches), bool(inputs))
    else:
        inputs, raw = {k: v[mask] for k, v in inputs.items()}, {k: v[mask] for k, v in raw.items()}
    n = int(mask.sum())
    if n:
        # the batches' kept rows counted in one call, each batch its own unit (estimate, tightness, pools)
        kept_rows = [int(mask[j * chunk.batch : (j + 1) * chunk.batch].sum()) for j in range(len(batches))]
        chain = evaluate_chain(claim_id, check, numpy_xp, inputs, dims, n)
        rows = (chain, inputs, raw, [m for m in kept_rows if m])
        wide = None
        if kept_rows[-1] and batches[-1] % chunk.per_combo == chunk.per_combo - 1:  # the last: its wide share
            wide = wide_batch(tracker, seed, batches[-1], chunk.batch * chunk.per_combo, dims)
        if wide is not None and _joinable(inputs, wide[1]) and _joinable(raw, wide[2]):
            rows, wide = _joined(rows, wide), None
        tracker.add(rows[0], rows[1], dims, raw=rows[2], units=rows[3])
        if wide is not None:
            tracker.add(wide[0], wide[1], dims, raw=wide[2])
    return n


def _joinable(arrays: dict, wide: dict) -> bool:
    """Whether the wide share's arrays (inputs, raw values) concatenate to the sweep's without a change of
    type, which would change what the tracker measures of them and the instances it keeps."""
    return arrays.keys() == wide.keys() and all(v.dtype == wide[k].dtype for k, v in arrays.items())


def _joined(rows: tuple, wide: tuple) -> tuple:
    """The sweep group's rows and, after them, the wide share's as one more unit: one call of the tracker
    counts the same as two in that order (counts add, extremes take the larger, the worst instance is
    the first of equals, and each unit keeps its own estimate, tightness resolution and candidates)."""
    chain, inputs, raw, units = rows
    joined_chain = [np.concatenate([a, b]) for a, b in zip(chain, wide[0], strict=True)]
    joined_inputs = {k: np.concatenate([v, wide[1][k]]) for k, v in inputs.items()}
    joined_raw = {k: np.concatenate([v, wide[2][k]]) for k, v in raw.items()}
    return joined_chain, joined_inputs, joined_raw, [*units, len(wide[0][0])]


def run_sweep(tracker: Tracker, profile: Profile, seed: int, runner: SweepRunner | None) -> tuple[int, int]:
    """The sweep's chunks, run by ``runner`` (default: here, in order), merged in plan order: however
    they are split among workers, the merged statistics and candidates are the same."""
    chunks = sweep_plan(tracker.check, profile)
    if runner is None:
        parts: Sequence[SweepPart] = [sweep_chunk(tracker.ctx, seed, c) for c in chunks]
    else:
        parts = runner(chunks)
    drawn = kept = 0
    for part in parts:
        tracker.absorb(part)
        drawn += part.drawn
        kept += part.kept
    return drawn, kept
