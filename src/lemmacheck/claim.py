"""The claim model: one frozen spec per claim, filled into a registry by declarative units.

A content module declares a claim with one decorator (``@inequality``, ``@identity``,
``@approximation``, ``@prop``) or one call (``value``, ``complexity``, ``derivation``).  Each records a
:class:`Claim` in :data:`REGISTRY`; the engine never needs a central list.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .errors import ClaimDefinitionError
from .inputs import InputSpec
from .tolerance import Tolerance
from .verdict import Kind, Verdict

__all__ = [
    "Source", "Claim", "NumericCheck", "ApproximationCheck", "ValueCheck", "ComplexityCheck",
    "SymbolicDerivation", "Registry", "REGISTRY", "RELATIONS",
]

RELATIONS = ("=", "<=", "<", ">=", ">", "~")
_ID_RE = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")
_EXPECTABLE = (Verdict.PROVED, Verdict.HOLDS, Verdict.REFUTED, Verdict.APPROXIMATE)


@dataclasses.dataclass(frozen=True)
class Source:
    """Where a claim is stated: the seed file and the label the document itself uses."""

    file: str
    location: str
    quote: str = ""

    def __post_init__(self):
        if not self.file or not self.location:
            raise ValueError("Source needs a file name and a location (section / question / equation)")


@dataclasses.dataclass(frozen=True)
class NumericCheck:
    """A relation chain ``e0 R1 e1 ... Rk ek`` evaluated by ``fn(xp, **inputs)`` on sampled instances."""

    fn: Callable
    inputs: Mapping[str, InputSpec]
    dims: Mapping[str, Sequence[Any]]
    relations: tuple[str, ...]
    labels: tuple[str, ...] = ()
    where: Callable | None = None
    examples: tuple = ()  # explicit instances checked on every run: ({"dims": ..., "inputs": ...}, ...)
    is_property: bool = False
    exact: bool = False


@dataclasses.dataclass(frozen=True)
class ApproximationCheck:
    """``fn(xp, eps, **inputs) -> (lhs, rhs)``; ``|lhs - rhs| = O(eps**order)`` is measured."""

    fn: Callable
    inputs: Mapping[str, InputSpec]
    dims: Mapping[str, Sequence[Any]]
    order: float
    relation: str
    eps0: float
    levels: int = 8


@dataclasses.dataclass(frozen=True)
class ValueCheck:
    computed: Callable[[], Any]
    stated: Any
    places: int | None = None


@dataclasses.dataclass(frozen=True)
class ComplexityCheck:
    cost: Callable[..., float]
    grid: Mapping[str, Sequence[float]]
    stated: Mapping[str, float]


@dataclasses.dataclass(frozen=True)
class SymbolicDerivation:
    """A SymPy chain ``e0 R1 e1 ...``; ``domain`` gives sampling ranges for numeric fallback."""

    exprs: tuple[Any, ...]
    relations: tuple[str, ...]
    labels: tuple[str, ...]
    domain: Mapping[Any, tuple[float, float]]
    module: str = ""


@dataclasses.dataclass(frozen=True)
class Claim:
    id: str
    title: str
    source: Source
    statement: str
    kind: Kind
    expected: Verdict
    check: NumericCheck | ApproximationCheck | ValueCheck | ComplexityCheck | None = None
    derivation: SymbolicDerivation | None = None
    corrects: str | None = None
    same_as: tuple[str, ...] = ()
    notes: str = ""
    expected_broken_step: int | None = None
    steps_claimed: bool = False
    effort: float = 1.0
    tol: Tolerance | None = None
    module: str = ""
    doc: str = ""

    @property
    def topic(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def document(self) -> str:
        return self.source.file


def validate_meta(claim_id: str, meta: Mapping[str, Any]) -> None:
    """Validate before anything runs, and say what to change (Hypothesis ``validation`` style)."""
    if not isinstance(claim_id, str) or not _ID_RE.match(claim_id):
        raise ClaimDefinitionError(
            str(claim_id), "the id must be dotted lower-case, like 'lse.bound'", "rename the claim"
        )
    for key in ("title", "source", "statement", "expected"):
        if meta.get(key) in (None, ""):
            raise ClaimDefinitionError(claim_id, f"missing {key!r}", f"pass {key}=... to the declaration")
    if not isinstance(meta["source"], Source):
        raise ClaimDefinitionError(claim_id, "source must be a lemmacheck.Source", "source=Source(file, location)")
    exp = meta["expected"]
    if not isinstance(exp, Verdict) or exp not in _EXPECTABLE:
        raise ClaimDefinitionError(
            claim_id, f"expected={exp!r} is not a verdict a claim can be expected to have",
            "use Verdict.PROVED, HOLDS, REFUTED or APPROXIMATE",
        )
    tol = meta.get("tol")
    if tol is not None and (not isinstance(tol, Tolerance) or not tol.reason):
        raise ClaimDefinitionError(claim_id, "a tolerance override needs a reason",
                                   "tol=Tolerance(rtol=..., atol=..., reason='why')")


def validate_relations(claim_id: str, relations: Sequence[str]) -> tuple[str, ...]:
    rel = tuple(relations)
    bad = [r for r in rel if r not in RELATIONS]
    if bad or not rel:
        raise ClaimDefinitionError(claim_id, f"unknown relation(s) {bad or rel}", f"use one of {RELATIONS}")
    return rel


class Registry:
    """Claims by id, in declaration order.  Duplicate ids are an error naming both modules."""

    def __init__(self) -> None:
        self._claims: dict[str, Claim] = {}
        self._pending_derivations: dict[str, SymbolicDerivation] = {}
        self.studies: dict[str, Any] = {}
        self.definition_errors: list[tuple[str, str, str]] = []  # (claim id, module, message)

    def add(self, claim: Claim) -> Claim:
        existing = self._claims.get(claim.id)
        if existing is not None:
            if existing.check is None and claim.check is not None and claim.derivation is None:
                claim = dataclasses.replace(claim, derivation=existing.derivation)
            elif existing.derivation is None and claim.check is None and claim.derivation is not None:
                claim = dataclasses.replace(existing, derivation=claim.derivation)
            else:
                raise ClaimDefinitionError(
                    claim.id, f"declared twice (in {existing.module} and {claim.module})",
                    "give one of them another id",
                )
        pending = self._pending_derivations.pop(claim.id, None)
        if pending is not None:
            claim = dataclasses.replace(claim, derivation=pending)
        self._claims[claim.id] = claim
        return claim

    def attach_derivation(self, claim_id: str, derivation: SymbolicDerivation) -> None:
        """A derivation without metadata attaches to a claim declared (now or later) in checks/."""
        if claim_id in self._claims:
            c = self._claims[claim_id]
            if c.derivation is not None:
                raise ClaimDefinitionError(claim_id, "has two derivations", "merge them into one chain")
            self._claims[claim_id] = dataclasses.replace(c, derivation=derivation)
        elif claim_id in self._pending_derivations:
            raise ClaimDefinitionError(claim_id, "has two derivations", "merge them into one chain")
        else:
            self._pending_derivations[claim_id] = derivation

    def orphan_derivations(self) -> list[str]:
        return sorted(self._pending_derivations)

    def __iter__(self):
        return iter(self._claims.values())

    def __len__(self) -> int:
        return len(self._claims)

    def __contains__(self, claim_id: str) -> bool:
        return claim_id in self._claims

    def __getitem__(self, claim_id: str) -> Claim:
        return self._claims[claim_id]

    def ids(self) -> list[str]:
        return list(self._claims)

    @contextlib.contextmanager
    def scratch(self) -> Iterator[Registry]:
        """A temporary empty registry state (for tests that plant claims); the real one is restored."""
        saved = (self._claims, self._pending_derivations, self.studies, self.definition_errors)
        self._claims, self._pending_derivations, self.studies, self.definition_errors = {}, {}, {}, []
        try:
            yield self
        finally:
            self._claims, self._pending_derivations, self.studies, self.definition_errors = saved


REGISTRY = Registry()
