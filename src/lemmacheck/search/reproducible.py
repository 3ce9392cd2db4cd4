"""Keep a claim's search independent of what else the process has imported, and the global generators
seeded once a search rather than once an example (:func:`seeded_once`).

Hypothesis (since 6.131) mixes into its draws the literal constants of every *local* module loaded in
the process (``hypothesis.internal.conjecture.providers._get_local_constants``).  The same claim and
seed then draw different examples in a full run (every content module loaded), in ``-k`` (one module),
in a worker process and under pytest (test modules loaded): measured on ``dropout.s003.rows_penalised``
with seed 5, 6292 violations in a full run against 6291 alone.  Pinning that pool to empty makes the
Hypothesis phase a function of the claim and its seed only (Hypothesis's own global constants stay).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator

__all__ = ["pinned_hypothesis_constants", "seeded_once"]


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


#: the Hypothesis functions :func:`seeded_once` stands in for while a search runs, and how many searches
#: run in the process now (a Dask worker's threads may overlap two): the originals are put back when the
#: last one ends, whatever order they end in
_PER_EXAMPLE: dict[tuple[object, str], object] = {}
_ACTIVE = [0]
_LOCK = threading.Lock()


@contextlib.contextmanager
def _unchanged() -> Iterator[None]:
    yield


def _quiet(*_args, **_kwargs) -> contextlib.AbstractContextManager[None]:
    return _unchanged()


def _per_example_hooks() -> list[tuple[object, str]]:
    try:
        import hypothesis.control
        import hypothesis.core
    except ImportError:
        return []
    hooks = [(hypothesis.core, "deterministic_PRNG"), (hypothesis.control, "deprecate_random_in_strategy")]
    return [(module, name) for module, name in hooks if hasattr(module, name)]


@contextlib.contextmanager
def seeded_once() -> Iterator[None]:
    """The global generators (``random``, ``numpy.random``) seeded once for the whole search, not around
    every example.

    Hypothesis seeds them to 0 before each example and restores them after (``deterministic_PRNG``), and
    reads ``random``'s state before and after each draw to warn of a strategy that uses it: state
    copies of 2.5-5 kB, about 115 us an example (measured on Hypothesis 6.170).  Its own
    choices come from the runner's ``Random`` seeded by ``@seed``, never from those generators, and no
    check, strategy or settling step reads them (they draw from seeded ``numpy.random.Generator``s), so
    the examples are the same.  They are still seeded (to Hypothesis's 0) and restored around the
    search, so a function that did read them would still replay from the claim and its seed."""
    hooks = _per_example_hooks()
    if not hooks:
        yield
        return
    from hypothesis.internal.entropy import deterministic_PRNG

    with _LOCK:
        if _ACTIVE[0] == 0:
            for module, name in hooks:
                _PER_EXAMPLE[(module, name)] = getattr(module, name)
                setattr(module, name, _quiet)
        _ACTIVE[0] += 1
    try:
        with deterministic_PRNG():
            yield
    finally:
        with _LOCK:
            _ACTIVE[0] -= 1
            if _ACTIVE[0] == 0:
                for (module, name), original in _PER_EXAMPLE.items():
                    setattr(module, name, original)
                _PER_EXAMPLE.clear()
