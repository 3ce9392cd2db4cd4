"""The run seed: one fixed default for the CLI, the pytest plugin and the API; ``random`` to explore.

A rerun with nothing changed uses the same seed, so every claim is answered from the result cache; a
new seed is one word away (``--seed random``, ``--lemmacheck-seed random``, ``check(..., seed="random")``)
and is printed so that it replays.  ``LEMMACHECK_SEED`` sets the default for all three.  Counterexamples
found at any seed are replayed at every seed (:mod:`lemmacheck.search.examples`), so a fixed default loses
none.
"""

from __future__ import annotations

import os
import secrets

__all__ = ["DEFAULT_SEED", "RANDOM", "parse_seed", "resolve_seed"]

#: the seed used when none is given
DEFAULT_SEED = 20261125
#: the word that asks for a fresh seed
RANDOM = "random"


def parse_seed(text: str) -> int | str:
    """An integer seed in [0, 2**63), or ``"random"``; ``ValueError`` otherwise."""
    word = str(text).strip().lower()
    if word == RANDOM:
        return RANDOM
    value = int(word)
    if not 0 <= value < 2**63:
        raise ValueError(f"a seed is an integer in [0, 2**63) or 'random', not {text!r}")
    return value


def resolve_seed(value: int | str | None) -> int:
    """The seed to run with: ``value``, else ``LEMMACHECK_SEED``, else :data:`DEFAULT_SEED`; ``"random"``
    draws a fresh one."""
    if value is None:
        value = parse_seed(os.environ.get("LEMMACHECK_SEED") or str(DEFAULT_SEED))
    if value == RANDOM:
        return secrets.randbelow(2**31)
    return int(value)
