"""A claim as written and its corrected form, declared as one pair.

The catalogue records a claim as its document writes it, with its computed verdict, and its corrected form
beside it (``corrects=`` the written one). :func:`written_and_corrected` writes what the two declarations
share once and links them::

    EQ17 = written_and_corrected(
        inequality, "sens.eq17", inputs=..., dims=...,           # shared by both declarations
        written=dict(title=..., source=..., expected=Verdict.REFUTED, ...),
        corrected=dict(title=..., source=..., expected=Verdict.HOLDS, ...),
    )

    @EQ17.as_written
    def eq17(xp, ...): ...

    @EQ17.as_corrected
    def eq17_corrected(xp, ...): ...

(``@EQ17.both`` when one function computes both sides). Each is still its own claim, with its own id,
source and expected verdict.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import ClaimDefinitionError

__all__ = ["WrittenAndCorrected", "written_and_corrected"]


@dataclasses.dataclass(frozen=True)
class WrittenAndCorrected:
    """The two declarations of a pair: the kind (``inequality``, ``identity``, …), each id and its keywords
    (``corrected`` holds ``corrects=written_id``)."""

    kind: Callable[..., Callable]
    written_id: str
    corrected_id: str
    written: Mapping[str, Any]
    corrected: Mapping[str, Any]

    def as_written(self, fn: Callable) -> Callable:
        """Declare ``fn`` as the claim as written."""
        return self.kind(self.written_id, **self.written)(fn)

    def as_corrected(self, fn: Callable) -> Callable:
        """Declare ``fn`` as the corrected form."""
        return self.kind(self.corrected_id, **self.corrected)(fn)

    def both(self, fn: Callable) -> Callable:
        """Declare ``fn`` as both: the written and the corrected claim compute the same sides."""
        return self.as_written(self.as_corrected(fn))


def written_and_corrected(
    kind: Callable[..., Callable],
    claim_id: str,
    *,
    written: Mapping[str, Any],
    corrected: Mapping[str, Any],
    corrected_id: str | None = None,
    **shared: Any,
) -> WrittenAndCorrected:
    """The pair ``claim_id`` (as written) and ``corrected_id`` (default ``claim_id + ".corrected"``):
    ``shared`` is what both declare (inputs, dims, relations, …), ``written`` and ``corrected`` what each
    declares besides; the corrected form ``corrects`` the written one."""
    fix = "written=dict(title=..., expected=...), corrected=dict(title=..., expected=...)"
    for name, meta in (("written", written), ("corrected", corrected)):
        if not isinstance(meta, Mapping):
            raise ClaimDefinitionError(claim_id, f"{name}={meta!r} is not a mapping of keywords", fix)
        clash = sorted(set(meta) & set(shared))
        if clash:
            raise ClaimDefinitionError(
                claim_id, f"{name}= repeats {clash}, given for both already", f"give {clash} once"
            )
    if "corrects" in corrected:
        raise ClaimDefinitionError(
            claim_id,
            f"corrected= sets corrects={corrected['corrects']!r}; the pair links it to {claim_id!r} itself",
            "leave corrects= out of corrected=",
        )
    corrected_id = f"{claim_id}.corrected" if corrected_id is None else corrected_id
    if corrected_id == claim_id:
        raise ClaimDefinitionError(claim_id, "corrected_id= is the written claim's own id", "give it its own")
    return WrittenAndCorrected(
        kind,
        claim_id,
        corrected_id,
        {**shared, **written},
        {**shared, **corrected, "corrects": claim_id},
    )
