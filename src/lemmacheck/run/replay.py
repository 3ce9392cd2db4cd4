"""The command that replays a run, a selection or one claim: the same seed, profile and search scale.

``LEMMACHECK_SCALE`` multiplies every search budget of a run (:func:`lemmacheck.search.profile.profile_named`
reads it), so a replay without it draws other instances and examples: every replay line of the engine
(each claim's, the run's printed line and its ``results.json``, ``watch``'s, ``mutate``'s) is built here.
"""

from __future__ import annotations

import os

__all__ = ["SCALE_ENV", "replay_command"]

#: the environment variable scaling every search of a run
SCALE_ENV = "LEMMACHECK_SCALE"


def replay_command(command: str, seed: int, *, deep: bool = False, options: str = "") -> str:
    """``[LEMMACHECK_SCALE=s ]lemmacheck <command> --seed <seed>[ --deep][ <options>]``; the scale is
    the one this process runs with (left out at its default, 1)."""
    scale = os.environ.get(SCALE_ENV) or "1"  # empty is unset, as the search reads it
    env = f"{SCALE_ENV}={scale} " if scale != "1" else ""
    tail = (" --deep" if deep else "") + (f" {options}" if options else "")
    return f"{env}lemmacheck {command} --seed {seed}{tail}"
