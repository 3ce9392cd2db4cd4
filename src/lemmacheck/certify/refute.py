"""A route's violation that the claim's own check confirms at that exact point refutes the claim: the
verdict is REFUTED with that counterexample (shrunk, kept, replayable by ``run --certify`` at the same
seed and, once kept, by every later run), never INCONCLUSIVE."""

from __future__ import annotations

from typing import Any

from ..kinds.numeric.check import counterexample_record
from ..model.claim import Claim
from ..model.verdict import Verdict

__all__ = ["refute_with"]


def refute_with(claim: Claim, result, cert: dict[str, Any]) -> None:
    """Make ``result`` REFUTED by the confirmed violation in ``cert`` (taken out of its entry, which
    keeps the text of the point and how it was confirmed)."""
    entry = next(t for t in cert["tried"] if t["status"] == "violation")
    found = entry.pop("counterexample")
    changed = found["changed"]
    minimised = f"found by certification's route {found['route']}" + (
        f", shrunk: {changed} entries simplified" if changed else ", as found"
    )
    record = counterexample_record(found["instance"], found["confirmation"], minimised=minimised)
    if found["step"] is not None:
        record["step"] = found["step"]
    evidence = dict(result.evidence or {})
    evidence["counterexample"] = record
    evidence["tightness"] = None
    result.evidence = evidence
    result.verdict = Verdict.REFUTED
