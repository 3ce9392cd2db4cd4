"""Which dims combinations a certification tries, in order: the smallest size combination the claim's
dims table declares, then every one where each size is ≥ 2 up to :data:`MAX_SIZE` (and the smallest of
those, whatever its sizes),
each with every value the table declares for its other dims (an activation, a β, a (p, q) pair), so a
certificate says which values were proved instead of stopping at the first."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "MAX_SIZE",
    "MAX_COMBINATIONS",
    "MAX_ENTRIES",
    "is_size",
    "sizes_of",
    "parameters_of",
    "plan",
    "too_many_entries",
]

#: sizes tried up to this value ("certified for n ≤ 4"), beyond the smallest where every size is ≥ 2
MAX_SIZE = 4
#: dims combinations tried per claim at most (the rest are listed as not tried)
MAX_COMBINATIONS = 12
#: input entries (one symbol each) at most for a combination to be run on symbols: a budget of work
#: fixed before any is spent (a recurrence at n = 2, T = 3 took 30 s to trace and prove nothing, so
#: the claim's wall-clock safety net decided what was certified)
MAX_ENTRIES = 24


def is_size(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def sizes_of(dims: Mapping[str, Any]) -> tuple[int, ...]:
    return tuple(v for v in dims.values() if is_size(v))


def parameters_of(dims: Mapping[str, Any]) -> dict[str, Any]:
    """The dims that are not sizes (their values, as declared)."""
    return {k: v for k, v in dims.items() if not is_size(v)}


def plan(table: Mapping[str, Sequence[Any]]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The combinations to try (sizes ascending, every parameter value at each) and those left out
    by :data:`MAX_COMBINATIONS`."""
    combos = [dict(zip(table, values, strict=True)) for values in itertools.product(*table.values())]
    if not combos:
        return [{}], []
    by_size: dict[tuple[int, ...], list[dict[str, Any]]] = {}
    for c in combos:
        by_size.setdefault(sizes_of(c), []).append(c)
    order = sorted(by_size, key=lambda t: (max(t, default=0), sum(t), t))
    big = [t for t in order if all(v >= 2 for v in t)]
    kept = [order[0]] + [t for t in big if t != order[0] and (t == big[0] or max(t) <= MAX_SIZE)]
    chosen = [c for t in kept for c in by_size[t]]
    return chosen[:MAX_COMBINATIONS], chosen[MAX_COMBINATIONS:]


def too_many_entries(inputs: Mapping[str, Any], dims: Mapping[str, Any]) -> str:
    """Why ``dims`` is not run on symbols (its inputs have more than :data:`MAX_ENTRIES` entries), or ""."""
    from ..model.inputs import resolve_shape

    try:
        count = sum(math.prod(resolve_shape(spec.shape, dims)) for spec in inputs.values())
    except KeyError:
        return ""  # the declaration's own error, reported where the shape is resolved
    if count <= MAX_ENTRIES:
        return ""
    return f"{count} input entries at these dims, above the {MAX_ENTRIES} a symbolic run is tried on"
