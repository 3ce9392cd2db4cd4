"""Keep a claim's search independent of what else the process has imported.

Hypothesis (since 6.131) mixes into its draws the literal constants of every *local* module loaded in
the process (``hypothesis.internal.conjecture.providers._get_local_constants``).  The same claim and
seed then draw different examples in a full run (every content module loaded), in ``-k`` (one module),
in a worker process and under pytest (test modules loaded): measured on ``dropout.s003.rows_penalised``
with seed 5, 6292 violations in a full run against 6291 alone.  Pinning that pool to empty makes the
Hypothesis phase a function of the claim and its seed only (Hypothesis's own global constants stay).
"""

from __future__ import annotations

import contextlib

__all__ = ["pinned_hypothesis_constants"]


@contextlib.contextmanager
def pinned_hypothesis_constants():
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # a Hypothesis without the mechanism: nothing to pin
        yield
        return
    if not hasattr(providers, "_get_local_constants") or not hasattr(providers, "Constants"):
        yield
        return
    empty = providers.Constants()
    saved = providers._get_local_constants
    cache = getattr(providers, "CONSTANTS_CACHE", None)
    providers._get_local_constants = lambda: empty
    if cache is not None:  # entries computed from an earlier, non-empty pool
        cache.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = saved
        if cache is not None:
            cache.cache.clear()
