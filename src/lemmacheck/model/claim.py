"""The claim model: one frozen spec per claim, filled into a registry by declarative units.

A content module declares a claim with one decorator (``@inequality``, ``@identity``,
``@approximation``, ``@prop``) or one call (``value``, ``complexity``, ``derivation``).  Each records a
:class:`Claim` in :data:`REGISTRY`; the engine never needs a central list.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from ..errors import ClaimDefinitionError
from .inputs import InputSpec
from .premises import catalogue_problems, cycle_problem, premises_of
from .sources import SOURCE_KINDS, Source
from .tolerance import Tolerance
from .verdict import Kind, ProofStatus, Verdict

__all__ = [
    "Source",
    "check_study",
    "SOURCE_KINDS",
    "Claim",
    "NumericCheck",
    "ApproximationCheck",
    "ValueCheck",
    "ComplexityCheck",
    "SymbolicDerivation",
    "Registry",
    "REGISTRY",
    "RELATIONS",
]

RELATIONS = ("=", "<=", "<", ">=", ">", "~")
#: a claim's (or study's) id: dotted lower-case, ``topic.name``
ID_PATTERN = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)+$")
_EXPECTABLE = (Verdict.PROVED, Verdict.HOLDS, Verdict.REFUTED, Verdict.APPROXIMATE, Verdict.INCONCLUSIVE)


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
    # the check's own chain in SymPy (a statement compiled from LaTeX): its steps are the check's steps,
    # so a step SymPy proves or refutes is that step of the check's chain
    steps_of_check: bool = False


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
    proof_not_asserted: str = ""  # why the chain is not the document's own (its links are then not judged)
    step_is: tuple[tuple[int, str], ...] = ()  # (k, id): step k of the chain is the statement of claim id
    uses: tuple[str, ...] = ()  # the claims whose statements the document's argument uses (uses=)
    inconclusive_because: str = ""  # why the catalogue expects INCONCLUSIVE
    effort: float = 1.0
    tol: Tolerance | None = None
    module: str = ""
    doc: str = ""

    @property
    def topic(self) -> str:
        return self.id.split(".", 1)[0]

    @property
    def premises(self) -> list[str]:
        """What the claim's argument rests on: its ``uses=`` and the claims its steps are (``step_is=``)."""
        return premises_of(self.uses, self.step_is)

    @property
    def has_chain(self) -> bool:
        """Whether the claim comes with a chain of steps (a proof) as well as its statement."""
        return self.chain_length > 0

    @property
    def expected_proof(self) -> ProofStatus:
        if not self.has_chain:
            return ProofStatus.NONE
        if self.proof_not_asserted:
            return ProofStatus.NOT_ASSERTED
        return ProofStatus.BROKEN if self.expected_broken_step is not None else ProofStatus.SOUND

    @property
    def document(self) -> str:
        return self.source.file

    @property
    def chain_length(self) -> int:
        """How many steps the chain has (0 without a chain): the check's, else the derivation's."""
        if (
            isinstance(self.check, NumericCheck)
            and not self.check.is_property
            and len(self.check.relations) > 1
        ):
            return len(self.check.relations)
        if self.derivation is not None and len(self.derivation.relations) > 1:
            return len(self.derivation.relations)
        return 0


def validate_meta(claim_id: str, meta: Mapping[str, Any]) -> None:
    """Validate before anything runs, and say what to change (Hypothesis ``validation`` style)."""
    if not isinstance(claim_id, str) or not ID_PATTERN.match(claim_id):
        raise ClaimDefinitionError(
            str(claim_id), "the id must be dotted lower-case, like 'lse.bound'", "rename the claim"
        )
    for key in ("title", "source", "statement", "expected"):
        if meta.get(key) in (None, ""):
            raise ClaimDefinitionError(claim_id, f"missing {key!r}", f"pass {key}=... to the declaration")
    if not isinstance(meta["source"], Source):
        raise ClaimDefinitionError(
            claim_id, "source must be a lemmacheck.Source", "source=Source(file, location)"
        )
    if meta["source"].problem():
        raise ClaimDefinitionError(
            claim_id,
            meta["source"].problem(),
            'source=Source("<document>.txt", "§2, eq. (3)") or Source.paper/url/local/project',
        )
    exp = meta["expected"]
    if not isinstance(exp, Verdict) or exp not in _EXPECTABLE:
        raise ClaimDefinitionError(
            claim_id,
            f"expected={exp!r} is not a verdict a claim can be expected to have",
            "use Verdict.PROVED, HOLDS, REFUTED, APPROXIMATE, or INCONCLUSIVE with inconclusive_because=",
        )
    if exp is Verdict.INCONCLUSIVE and not str(meta.get("inconclusive_because") or "").strip():
        raise ClaimDefinitionError(
            claim_id,
            "expected=Verdict.INCONCLUSIVE needs a stated reason",
            "pass inconclusive_because='why the evidence cannot decide'",
        )
    if "proof_not_asserted" in meta and not str(meta["proof_not_asserted"] or "").strip():
        raise ClaimDefinitionError(
            claim_id,
            "proof_not_asserted needs the reason the chain is not the document's",
            "proof_not_asserted='the chain is our derivation of ...'",
        )
    tol = meta.get("tol")
    if tol is not None and (not isinstance(tol, Tolerance) or tol.problem()):
        problem = tol.problem() if isinstance(tol, Tolerance) else f"{tol!r} is not a Tolerance"
        raise ClaimDefinitionError(
            claim_id,
            f"tol: {problem}",
            "tol=Tolerance(rtol=..., reason='why the default is too tight'), "
            "with 0 <= rtol < 1 and atol >= 0, both finite",
        )


def validate_step_links(claim_id: str, meta: Mapping[str, Any]) -> tuple[tuple[int, str], ...]:
    """``step_is={k: "other.id"}`` as sorted ``(k, id)`` pairs, or a clear error naming the claim."""
    links = meta.get("step_is") or {}
    fix = 'step_is={3: "topic.claim_id"} (step 3 of this chain is the statement of that claim)'
    if not isinstance(links, Mapping):
        raise ClaimDefinitionError(
            claim_id, f"step_is must map step numbers to claim ids, got {links!r}", fix
        )
    for step, other in links.items():
        if isinstance(step, bool) or not isinstance(step, int) or step < 1:
            raise ClaimDefinitionError(claim_id, f"step_is: {step!r} is not a 1-based step number", fix)
        if not isinstance(other, str) or not ID_PATTERN.match(other) or other == claim_id:
            raise ClaimDefinitionError(
                claim_id, f"step_is: step {step} names {other!r}, not the id of another claim", fix
            )
    if links and meta.get("proof_not_asserted"):
        raise ClaimDefinitionError(
            claim_id, "step_is on a chain that is not asserted: its links are not judged", "drop one of them"
        )
    if links and meta.get("steps_claimed"):
        raise ClaimDefinitionError(
            claim_id,
            "step_is on a steps_claimed chain: the statement itself asserts the step",
            "check the step's reading in the chain itself, or drop steps_claimed",
        )
    return tuple(sorted(links.items()))


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
        # each registered claim's premises, kept: computing every claim's again for each claim declared
        # made declaring a catalogue quadratic (92,000 premises_of calls for 434 claims)
        self._premises: dict[str, Sequence[str]] = {}
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
                    claim.id,
                    f"declared twice (in {existing.module} and {claim.module})",
                    "give one of them another id",
                )
        # every cycle is closed by the last of its claims to be declared, when all the others are here
        premises = claim.premises
        cycle = cycle_problem(claim.id, collections.ChainMap({claim.id: premises}, self._premises))
        if cycle is not None:
            raise cycle
        pending = self._pending_derivations.pop(claim.id, None)
        if pending is not None:
            claim = dataclasses.replace(claim, derivation=pending)
        self._claims[claim.id] = claim
        self._premises[claim.id] = premises
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

    def link_problems(self) -> list[tuple[str, str, str]]:
        """``(claim id, module, message)`` for every ``step_is`` link naming no claim of the catalogue or
        a step the chain does not have (the catalogue is complete only once every module is imported)."""
        out = []
        for c in self._claims.values():
            for step, other in c.step_is:
                if other not in self._claims:
                    problem = f"step {step} is linked (step_is=) to claim {other!r}, which no module declares"
                    fix = "name a declared claim id (lemmacheck list shows them) or remove the link"
                elif step > c.chain_length:
                    problem = (
                        f"step_is links step {step} to claim {other!r}, "
                        f"but the chain has {c.chain_length} step(s)"
                    )
                    fix = "use a 1-based step number of the chain"
                else:
                    continue
                out.append((c.id, c.module, str(ClaimDefinitionError(c.id, problem, fix))))
        claims = self._claims.values()
        out += catalogue_problems(
            {c.id: c.uses for c in claims},
            {c.id: c.premises for c in claims},
            {c.id: c.module for c in claims},
            rejected=(str(cid) for cid, _, _ in self.definition_errors),
        )
        return out

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
        saved = dict(vars(self))
        Registry.__init__(self)  # every field empty, those added later too
        try:
            yield self
        finally:
            vars(self).clear()
            vars(self).update(saved)


REGISTRY = Registry()


def check_study(study_id: str, title: str, source: Any) -> None:
    """A study is named and cited like a claim (its source may be left out)."""
    if not ID_PATTERN.match(study_id):
        raise ClaimDefinitionError(
            study_id, "the id must be dotted lower-case, like 'topic.sweep'", "rename it"
        )
    if not title.strip():
        raise ClaimDefinitionError(study_id, "title='' says nothing", "title='what the study measures'")
    if source is not None and (not isinstance(source, Source) or source.problem()):
        problem = source.problem() if isinstance(source, Source) else f"{source!r} is not a Source"
        raise ClaimDefinitionError(
            study_id, f"source: {problem}", "source=Source(file, location), or leave it out"
        )
