"""Studies: each one's tables, plots and conclusion, computed while the workers check the claims.

A study runs in the process that drives the run, which otherwise only waits on its workers; run after
the claims, the studies kept one core busy and the other idle for seconds at the end of every run.  They
run on one background thread instead, so their time overlaps the claims'.  Nothing of theirs is shared
with the claims: each draws from its own generator, seeded from the run's seed and its id, so its result
is the same whenever it runs.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Sequence

import numpy as np

from ..search.profile import Profile, claim_seed
from .results import jsonable

__all__ = ["run_study", "StudiesAhead"]


@dataclasses.dataclass(frozen=True)
class _StudyProfile:
    name: str
    rng: np.random.Generator
    seed: int


def run_study(study, profile: Profile) -> dict:
    """One study's result dict; a study that raises is reported with its error, never raised."""
    t0 = time.perf_counter()
    out = {
        "id": study.id,
        "title": study.title,
        "related": list(study.related),
        "module": study.module,
        "source": None
        if study.source is None
        else {"file": study.source.file, "location": study.source.location},
    }
    try:
        rng = np.random.default_rng(claim_seed(profile.seed, study.id))
        res = study.fn(_StudyProfile(profile.name, rng, profile.seed))
        out |= {
            "tables": [dataclasses.asdict(t) for t in res.tables],
            "plots": [dataclasses.asdict(p) for p in res.plots],
            "conclusion": res.conclusion,
            "error": "",
        }
    except Exception as exc:
        out |= {
            "tables": [],
            "plots": [],
            "conclusion": "",
            "error": f"study {study.id!r}: {type(exc).__name__}: {exc}",
        }
    out["seconds"] = time.perf_counter() - t0
    return jsonable(out)


class StudiesAhead:
    """The studies of a run, started before its claims: those the cache holds are read at once, the
    others computed on a daemon thread (an interrupted run does not wait for it).  The cache is only
    read and written here, on the calling thread: its connection belongs to it.  ``on_study`` sees each
    result as it is read or computed (on that thread), and must only read it."""

    def __init__(self, studies: Sequence, profile: Profile, cache=None, on_study=None):
        self.studies, self.profile, self.cache = list(studies), profile, cache
        self._stored = {s.id: cache.stored_study(s, profile) for s in self.studies} if cache else {}
        self._computed: dict[str, dict] = {}
        self._on_study: Callable[[dict], None] = on_study or (lambda result: None)
        for stored in self._stored.values():
            if stored is not None:
                self._on_study(stored)
        todo = [s for s in self.studies if self._stored.get(s.id) is None]
        self._thread = threading.Thread(target=self._compute, args=(todo,), name="studies", daemon=True)
        self._thread.start()

    def _compute(self, todo: list) -> None:
        for s in todo:
            self._computed[s.id] = run_study(s, self.profile)
            self._on_study(self._computed[s.id])  # the report's plots drawn now, not after the claims

    def results(self, progress: Callable[[str, int, int], None] | None, *, first: int, total: int) -> list:
        """Each study's result, in order, counted on after the ``first`` claims; the computed ones kept
        in the cache (unless they report an error)."""
        self._thread.join()
        out = []
        for j, s in enumerate(self.studies):
            if progress:
                progress(s.id, first + j, total)
            stored = self._stored.get(s.id)
            if stored is not None:
                out.append(stored)
                continue
            result = self._computed[s.id]
            if self.cache is not None:
                self.cache.keep_study(s, self.profile, result)
            out.append(result)
        return out
