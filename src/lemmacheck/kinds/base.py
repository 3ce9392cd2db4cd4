"""The interface every kind of claim implements, and the registry the engine dispatches through.

A checker takes one kind of check spec (``NumericCheck``, ``ApproximationCheck`` …) and returns an
:class:`Outcome`: the verdict of the statement, a typed evidence record, and the chain's steps.  The engine
knows this interface and the registry, never the kinds (as Hypothesis's shrinker passes know only their
base class).  Adding a kind is one module here and one template partial in the report.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Protocol

import numpy as np

from ..model.claim import Claim
from ..model.tolerance import Tolerance
from ..model.verdict import Verdict
from ..run.results import StepResult
from ..search.profile import Profile
from ..search.violations import SweepRunner
from ..settling.settle import Budget

__all__ = ["Context", "Outcome", "Checker", "register", "checker_for", "CHECKERS"]


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


class Checker(Protocol):
    spec: ClassVar[type]  # the check spec this checker handles
    name: ClassVar[str]  # the evidence partial the report uses for it

    def run(self, claim: Claim, spec: Any, ctx: Context) -> Outcome: ...


CHECKERS: dict[type, Checker] = {}


def register(checker: Checker) -> Checker:
    CHECKERS[checker.spec] = checker
    return checker


def checker_for(spec: Any) -> Checker:
    try:
        return CHECKERS[type(spec)]
    except KeyError:
        raise TypeError(
            f"no checker for {type(spec).__name__}; kinds: {sorted(t.__name__ for t in CHECKERS)}"
        ) from None
