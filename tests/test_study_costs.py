"""The studies' own mathematics done once where it was done again on the same inputs (issue 35).

That each study's figures stay the same bits is the gate's: its "studies" in results.json against the
reference run's (docs/performance.md, the eighth round's rep8 section)."""

from __future__ import annotations

import collections
import hashlib

import numpy as np
from checks.loss import vbound

from lemmacheck.run.studies import _StudyProfile
from lemmacheck.search.profile import QUICK


def _profile(seed: int = 7) -> _StudyProfile:
    return _StudyProfile(QUICK.name, np.random.default_rng(seed), seed)


def test_v_bound_tightness_takes_no_norm_twice_of_the_same_matrices(monkeypatch):
    # ‖V‖_{S∞} (a batch of SVDs) was computed again for each of the four step sizes of one batch
    taken: collections.Counter[str] = collections.Counter()
    norm = np.linalg.norm

    def counted(x, *args, **kwargs):
        taken[hashlib.sha256(np.ascontiguousarray(x).tobytes()).hexdigest()] += 1
        return norm(x, *args, **kwargs)

    monkeypatch.setattr(np.linalg, "norm", counted)
    vbound.v_bound_tightness(_profile())
    again = [n for n in taken.values() if n > 1]
    assert taken, "the study took no norm: the test lost its subject"
    assert not again, f"{len(again)} batches of matrices had their norm taken again ({again} times)"
