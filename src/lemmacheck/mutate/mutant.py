"""One mutant of one claim: what it changes, how to build the mutated claim, and whether it is known
equivalent without running it."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable

from ..kinds import MutationTargets, checker_for
from ..model.claim import Claim

__all__ = ["Mutant", "MutantBuildError", "MutantText", "check_function"]

# A mutant's (description, code before, code after): the description may be a callable (SymPy terms are
# slow to print), before and after are AST source or SymPy expressions, made strings by ``Mutant.text``.
MutantText = tuple[str | Callable[[], str], object, object]


class MutantBuildError(Exception):
    """A mutant could not be compiled (it is reported as invalid, never as killed)."""


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One small change of one claim.  ``build()`` returns the mutated claim."""

    claim_id: str
    index: int  # position in the claim's enumeration (stable for the same code)
    operator: str
    target: str  # "check", "relations" or "derivation"
    location: str  # function and file:line, or the derivation expression
    line: int | None
    # (description, code before, code after), printed on demand: printing SymPy terms is slow.
    _text: Callable[[], MutantText] = dataclasses.field(repr=False, compare=False)
    _build: Callable[[], Claim] = dataclasses.field(repr=False, compare=False)
    # Why the mutant is known equivalent without running it (dead code, a term times 0, SymPy equality),
    # computed on demand: SymPy's check is too slow to run on mutants that are not selected.
    _static: Callable[[], str | None] = dataclasses.field(repr=False, compare=False, default=lambda: None)
    # Why the mutated statement is weaker than the original by the shape of its code (a property's
    # comparison moved the way that makes it true more often, :mod:`.polarity`): asked only of a survivor
    # of a true claim, which is then true as well.
    _weaker: Callable[[], str | None] = dataclasses.field(repr=False, compare=False, default=lambda: None)

    @property
    def id(self) -> str:
        return f"{self.claim_id}#{self.index}"

    def build(self) -> Claim:
        return self._build()

    @functools.cached_property
    def text(self) -> tuple[str, str, str]:
        description, before, after = self._text()
        if callable(description):
            description = description()
        return str(description), _short(str(before)), _short(str(after))

    @property
    def description(self) -> str:
        return self.text[0]

    @property
    def before(self) -> str:
        return self.text[1]

    @property
    def after(self) -> str:
        return self.text[2]

    def static_equivalence(self) -> str | None:
        return self._static()

    def weaker_by_code(self) -> str | None:
        return self._weaker()


def check_function(claim: Claim) -> tuple[str, Callable] | None:
    """The field of the claim's check that holds Python code, and the function."""
    targets = kind_targets(claim.check)
    return None if targets is None else targets.function


def kind_targets(spec) -> MutationTargets | None:
    """What the spec's kind offers to mutate (its checker's ``mutation_targets``)."""
    return None if spec is None else checker_for(spec).mutation_targets(spec)


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
