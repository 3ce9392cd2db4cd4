"""Verdicts and claim kinds."""

from __future__ import annotations

import enum

__all__ = ["Verdict", "Kind"]


class Verdict(str, enum.Enum):
    """The computed outcome of checking one claim.

    PROVED      SymPy (or exact arithmetic) shows it exactly.
    HOLDS       no violation over sampled and adversarially searched instances.
    REFUTED     a counterexample, re-verified at >= 50 digits (or exact arithmetic).
    APPROXIMATE a first-order statement: measured remainder order and failure rate.
    ERROR       the check itself broke; the message names the claim and the cause.
    """

    PROVED = "PROVED"
    HOLDS = "HOLDS"
    REFUTED = "REFUTED"
    APPROXIMATE = "APPROXIMATE"
    ERROR = "ERROR"

    def __str__(self) -> str:
        return self.value


class Kind(str, enum.Enum):
    IDENTITY = "identity"
    INEQUALITY = "inequality"
    APPROXIMATION = "approximation"
    PROPERTY = "property"
    WORKED_EXAMPLE = "worked example"
    COMPLEXITY = "complexity"

    def __str__(self) -> str:
        return self.value
