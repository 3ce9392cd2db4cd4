"""One exception hierarchy: every error names the claim and says what to change."""

from __future__ import annotations

__all__ = [
    "LemmacheckError",
    "ClaimDefinitionError",
    "SamplerError",
    "CheckError",
    "ContentImportError",
    "SelectionError",
    "ReportInputError",
    "OutputError",
    "MissingExtraError",
]


class LemmacheckError(Exception):
    """Base class of every error lemmacheck raises on purpose."""


class ClaimDefinitionError(LemmacheckError):
    """A claim is malformed (missing source, unknown relation, bad expected verdict, duplicate id ...)."""

    def __init__(self, claim_id: str, problem: str, fix: str = ""):
        self.claim_id = claim_id
        self.problem = problem
        msg = f"claim {claim_id!r}: {problem}"
        if fix:
            msg += f"\n  fix: {fix}"
        super().__init__(msg)


class SamplerError(LemmacheckError):
    """A sampler produced something unusable (NaN, inf, wrong shape)."""

    def __init__(self, claim_id: str, problem: str):
        self.claim_id = claim_id
        super().__init__(f"claim {claim_id!r}: sampler problem: {problem}")


class CheckError(LemmacheckError):
    """The check function itself failed: wrong shapes, NaN/inf output, an exception."""

    def __init__(self, claim_id: str, problem: str):
        self.claim_id = claim_id
        super().__init__(f"claim {claim_id!r}: {problem}")


class ContentImportError(LemmacheckError):
    """A content module could not be imported; its claims are reported as ERROR."""


class SelectionError(LemmacheckError, ValueError):
    """A ``-k`` expression that does not parse: the message shows where, as pytest's does."""

    def __init__(self, expression: str, position: int, problem: str):
        self.expression = expression
        self.position = position
        shown = expression if len(expression) <= 80 else f"{expression[:60]}… ({len(expression)} characters)"
        super().__init__(
            f"-k {shown!r}: {problem} at column {position + 1} "
            "(the grammar is pytest's: words, and, or, not, parentheses)"
        )


class ReportInputError(LemmacheckError):
    """``lemmacheck render`` was given something that is not a results.json it can render."""


class OutputError(LemmacheckError):
    """The report folder cannot be written (read-only, not a folder, disk full ...)."""


class MissingExtraError(LemmacheckError, ImportError):
    """A feature needs an optional extra that is not installed: how lemmacheck was installed, not a bug.
    The message names the extra to install (:func:`lemmacheck.extras.require`)."""
