"""What a numeric claim's search and settling share: the claim, its check and its tolerance (one object
instead of three loose arguments through every function), and the high-precision answers given so far.

The same candidate is asked about more than once in a claim: the sweep's strongest before the
adversarial search, Hypothesis's significant failures, then the settling of the pools they joined.  The
answer is a function of the instance, the step and the relation (:func:`lemmacheck.settling.highprec.reverify`
reads nothing else), so it is computed once and remembered for the claim.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time

from ..errors import CheckError
from ..model.claim import NumericCheck
from ..model.tolerance import Tolerance
from ..settling.highprec import Confirmation, reverify
from .candidates import Instance, instance_key

__all__ = ["CheckContext"]


@dataclasses.dataclass
class CheckContext:
    """One numeric claim being checked: its id, its check and its tolerance."""

    claim_id: str
    check: NumericCheck
    tol: Tolerance
    _answers: dict = dataclasses.field(default_factory=dict, repr=False)
    #: wall-clock seconds per phase of the check (sweep, hypothesis, refine, optimise, settle): how a
    #: claim's time divides, reported beside its evidence and never in it (a time does not replay)
    phase_seconds: dict[str, float] = dataclasses.field(default_factory=dict, repr=False)

    @contextlib.contextmanager
    def timed(self, phase: str):
        """Add the time spent in the ``with`` block to ``phase_seconds[phase]``."""
        t0 = time.perf_counter()
        try:
            yield
        finally:
            elapsed = time.perf_counter() - t0
            self.phase_seconds[phase] = self.phase_seconds.get(phase, 0.0) + elapsed

    def reverify(self, inst: Instance, step: int | None, relation: str) -> Confirmation:
        """:func:`~lemmacheck.settling.highprec.reverify` of ``inst``, remembered for this claim (an
        instance high precision cannot evaluate raises the same CheckError every time it is asked)."""
        key = (instance_key(inst), step, relation)
        if key not in self._answers:
            try:
                self._answers[key] = reverify(self.claim_id, self.check, inst, step, relation, self.tol)
            except CheckError as exc:
                self._answers[key] = exc
        answer = self._answers[key]
        if isinstance(answer, CheckError):
            raise answer
        return answer
