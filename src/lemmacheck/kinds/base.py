"""The interface every kind of claim implements, and the registry the engine dispatches through.

A checker takes one kind of check spec (``NumericCheck``, ``ApproximationCheck`` …) and returns an
:class:`Outcome`: the verdict of the statement, a typed evidence record, and the chain's steps.  The engine
knows this interface and the registry, never the kinds (as Hypothesis's shrinker passes know only their
base class).  A kind's module owns everything about it: its declaration unit (the decorator or call content
uses), its spec, its checker, its evidence record, its mutation targets and the JSON-schema fragment of its
evidence; :func:`register` adds the claim kinds it declares to :class:`~lemmacheck.model.verdict.Kind`, and
the results schema's list of checkers is generated from :data:`CHECKERS` (:mod:`lemmacheck.schema`).
Adding a kind is one module here and one template partial in the report (docs/authoring.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar, Protocol

import numpy as np

from ..errors import LemmacheckError
from ..model.claim import Claim
from ..model.tolerance import Tolerance
from ..model.verdict import Kind, Verdict
from ..run.results import StepResult
from ..search.profile import Profile
from ..search.violations import SweepRunner
from ..settling.settle import Budget

__all__ = [
    "Context",
    "Outcome",
    "Checker",
    "MutationTargets",
    "register",
    "checker_for",
    "merge_backing",
    "evidence_kinds",
    "declaration_unit",
    "CHECKERS",
    "DECLARATIONS",
]


@dataclasses.dataclass
class Context:
    """What every checker may use: the profile, the claim's seed and generator, tolerance, settling budget."""

    profile: Profile
    seed: int
    rng: np.random.Generator
    tol: Tolerance
    budget: Budget
    sweep_runner: SweepRunner | None = None  # runs a sweep's chunks elsewhere (None: here, in order)


@dataclasses.dataclass
class Outcome:
    verdict: Verdict
    evidence: Any  # a typed evidence record of the kind (a dataclass), serialised by results.record_to_json
    steps: list[StepResult] = dataclasses.field(default_factory=list)
    first_broken: int | None = None
    step_counterexamples: dict[int, dict] = dataclasses.field(default_factory=dict)
    reason: str = ""  # why the verdict is INCONCLUSIVE
    derivation: Any = None  # the SymPy derivation's record, when the claim has one
    kind: str = ""  # the checker's name, which the report uses to pick the evidence partial
    phase_seconds: dict[str, float] = dataclasses.field(default_factory=dict)  # wall seconds by phase


@dataclasses.dataclass(frozen=True)
class MutationTargets:
    """What of a check the mutation run (:mod:`lemmacheck.mutate`) may change.

    ``function``: the spec's field that holds Python code, and the function; ``relations``: the chain's
    relations, ``with_relations`` the spec rebuilt with others, ``relations_equivalent`` why any change of
    them states the same claim (or None).
    """

    function: tuple[str, Callable] | None = None
    relations: tuple[str, ...] = ()
    with_relations: Callable[[tuple[str, ...]], Any] | None = None
    relations_equivalent: str | None = None


class Checker(Protocol):
    spec: ClassVar[type]  # the check spec this checker handles
    name: ClassVar[str]  # the evidence partial the report uses for it (results.json's evidence_kind)
    # the claim kinds its declaration units record: {"IDENTITY": "identity"} makes Kind.IDENTITY
    claim_kinds: ClassVar[dict[str, str]]
    # JSON-schema properties of its evidence record, merged into results.schema.json's evidence
    evidence_schema: ClassVar[dict[str, Any]]

    def run(self, claim: Claim, spec: Any, ctx: Context) -> Outcome: ...

    def mutation_targets(self, spec: Any) -> MutationTargets | None:
        """What of ``spec`` may be mutated; None when the kind offers nothing (the mutation run says so)."""
        ...


CHECKERS: dict[type, Checker] = {}
#: the declaration units content uses (``inequality``, ``value`` …), by name: the ``lemmacheck`` façade
#: exports every one
DECLARATIONS: dict[str, Callable] = {}


def declaration_unit(unit: Callable, name: str = "") -> Callable:
    """Make ``unit`` a declaration unit of the ``lemmacheck`` façade, under ``name`` (its own by default)."""
    name = name or unit.__name__
    if DECLARATIONS.get(name, unit) is not unit:
        raise ValueError(f"two declaration units named {name!r}")
    DECLARATIONS[name] = unit
    return unit


def register(checker: Checker) -> Checker:
    """Make ``checker`` the one for its spec, and its claim kinds members of :class:`Kind`."""
    for name, value in checker.claim_kinds.items():
        Kind.register(name, value)
    CHECKERS[checker.spec] = checker
    return checker


def checker_for(spec: Any) -> Checker:
    try:
        return CHECKERS[type(spec)]
    except KeyError:
        raise TypeError(
            f"no checker for {type(spec).__name__}; kinds: {sorted(t.__name__ for t in CHECKERS)}"
        ) from None


def evidence_kinds() -> list[str]:
    """The checkers' names in registration order, each once (results.json's ``evidence_kind``)."""
    return list(dict.fromkeys(c.name for c in CHECKERS.values()))


def merge_backing(claim: Claim, outcome: Outcome, ctx: Context) -> Outcome:
    """A claim whose check is backed by a second spec (``claim.derivation``): that spec's checker merges
    its own outcome into the check's (a kind that can back a check has a ``merge`` method)."""
    backing = checker_for(claim.derivation)
    merge = getattr(backing, "merge", None)
    if merge is None:
        raise LemmacheckError(f"claim {claim.id!r}: a {backing.name} spec cannot back a check")
    return merge(claim, outcome, ctx)
