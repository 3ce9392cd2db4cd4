"""Verdicts and claim kinds."""

from __future__ import annotations

import enum

__all__ = ["Verdict", "Kind", "ProofStatus"]


class Verdict(enum.StrEnum):
    """The computed outcome of checking one claim.

    PROVED        SymPy (or exact arithmetic) shows it exactly.
    HOLDS         no violation over sampled and adversarially searched instances, and every float64
                  candidate that had to be settled was settled in high precision as rounding.
    REFUTED       a counterexample, certified in high precision (or exact arithmetic).
    APPROXIMATE   a first-order statement: measured remainder order and failure rate.
    INCONCLUSIVE  the evidence cannot decide: candidates remain that high precision did not settle
                  (budget spent, or a check high precision cannot evaluate); the reason is given.
    ERROR         the check itself broke; the message names the claim and the cause.
    """

    PROVED = "PROVED"
    HOLDS = "HOLDS"
    REFUTED = "REFUTED"
    APPROXIMATE = "APPROXIMATE"
    INCONCLUSIVE = "INCONCLUSIVE"
    ERROR = "ERROR"

    def __str__(self) -> str:
        return self.value


class Kind(enum.StrEnum):
    IDENTITY = "identity"
    INEQUALITY = "inequality"
    APPROXIMATION = "approximation"
    PROPERTY = "property"
    WORKED_EXAMPLE = "worked example"
    COMPLEXITY = "complexity"

    def __str__(self) -> str:
        return self.value


class ProofStatus(enum.StrEnum):
    """The status of the proof *as written*, beside the verdict of the statement.

    sound         every link the document asserts was checked and holds
    broken        a link fails: the first broken step is named, with its certified counterexample
    none given    the claim comes with no chain of steps
    not asserted  the chain is not the document's (the claim says why); its steps are shown, not judged
    unsettled     no link is broken, but some link has candidates high precision did not settle
    """

    SOUND = "sound"
    BROKEN = "broken"
    NONE = "none given"
    NOT_ASSERTED = "not asserted"
    UNSETTLED = "unsettled"

    def __str__(self) -> str:
        return self.value
