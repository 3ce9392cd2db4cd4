"""What every declaration unit shares: the claim's metadata checked and recorded, a check function's
inputs and dims checked, and studies.  The units themselves (``@inequality``, ``value(...)`` …) live in
their kinds' modules (:mod:`lemmacheck.kinds`), each beside its checker.

A malformed declaration never raises at import time: it is recorded in
``REGISTRY.definition_errors`` and reported as an ERROR result naming the claim and the problem, so
one broken claim never takes the run (or the other claims of its module) down.
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..errors import ClaimDefinitionError
from .claim import ID_PATTERN, REGISTRY, Claim, check_study, validate_meta, validate_step_links
from .fields import check_input_specs, check_positive, check_shape_dims, check_statement
from .inputs import InputSpec
from .premises import validate_uses
from .verdict import Kind

__all__ = [
    "register_claim",
    "declaration_failed",
    "caller_module",
    "validate_inputs",
    "study",
    "StudyResult",
    "Table",
    "Plot",
    "Series",
    "Study",
]

_META_KEYS = (
    "title",
    "source",
    "statement",
    "expected",
    "corrects",
    "same_as",
    "notes",
    "expected_broken_step",
    "steps_claimed",
    "proof_not_asserted",
    "step_is",
    "uses",
    "inconclusive_because",
    "effort",
    "tol",
)


def caller_module(depth: int = 2) -> str:
    # sys._getframe, not inspect.stack(): the latter reads every frame's source file (0.1-0.5 s a call)
    return sys._getframe(depth).f_globals.get("__name__", "?")


def declaration_failed(claim_id: Any, module: str, exc: Exception) -> None:
    """Record a malformed declaration as an ERROR for that claim; never raise into the content module."""
    if isinstance(exc, ClaimDefinitionError):
        message = str(exc)
    else:  # a declaration that is malformed in a way no check below foresaw: still name the claim
        message = (
            f"claim {claim_id!r}: the declaration failed ({type(exc).__name__}: {exc})\n"
            "  fix: compare it with the examples in docs/authoring.md"
        )
    REGISTRY.definition_errors.append((str(claim_id), module, message))


def _validate_more_meta(claim_id: str, meta: Mapping[str, Any]) -> None:
    """Checks of the optional metadata, so a wrong type is a clear error and not a crash mid-run."""
    for key in ("title", "statement", "notes"):
        if key in meta and not isinstance(meta[key], str):
            raise ClaimDefinitionError(
                claim_id, f"{key} must be text, got {type(meta[key]).__name__}", f"pass {key}='...'"
            )
    if meta.get("corrects") is not None and not isinstance(meta["corrects"], str):
        raise ClaimDefinitionError(
            claim_id,
            "corrects must be the id of the claim this one corrects",
            "corrects='topic.claim_as_written'",
        )
    same_as = meta.get("same_as", ())
    if isinstance(same_as, str) or not all(isinstance(x, str) for x in same_as):
        fix = f"same_as=[{same_as!r}]" if isinstance(same_as, str) else "same_as=['a.b']"
        raise ClaimDefinitionError(claim_id, f"same_as must be a list of claim ids, got {same_as!r}", fix)
    step = meta.get("expected_broken_step")
    if step is not None and (isinstance(step, bool) or not isinstance(step, int) or step < 1):
        raise ClaimDefinitionError(
            claim_id,
            f"expected_broken_step={step!r} is not a step number",
            "use the 1-based index of the first broken step, or leave it out",
        )
    if "steps_claimed" in meta and not isinstance(meta["steps_claimed"], bool):
        raise ClaimDefinitionError(claim_id, "steps_claimed must be True or False")
    check_positive(
        claim_id, "effort", meta.get("effort", 1.0), "effort=1 is the default; 4 searches four times as long"
    )
    check_statement(claim_id, meta["statement"])


def _validate_step_range(claim: Claim) -> None:
    """A linked step must be a step of the chain this declaration gives (a derivation attached later is
    checked with the catalogue: :meth:`Registry.link_problems`)."""
    last = max((k for k, _ in claim.step_is), default=0)
    if last and claim.chain_length and last > claim.chain_length:
        raise ClaimDefinitionError(
            claim.id,
            f"step_is names step {last}, but the chain has {claim.chain_length} step(s)",
            "use a 1-based step number of the chain",
        )


def register_claim(
    claim_id: str, kind: Kind, meta: Mapping[str, Any], module: str, doc: str = "", **parts
) -> None:
    try:
        unknown = set(meta) - set(_META_KEYS)
        if unknown:
            raise ClaimDefinitionError(
                claim_id, f"unknown keyword(s) {sorted(unknown)}", f"the metadata keywords are {_META_KEYS}"
            )
        validate_meta(claim_id, meta)
        if not isinstance(kind, Kind):
            raise ClaimDefinitionError(
                claim_id,
                f"kind={kind!r} is not a claim kind",
                "use one of " + ", ".join(f"Kind.{k.name}" for k in Kind),
            )
        _validate_more_meta(claim_id, meta)
        claim = Claim(
            id=claim_id,
            title=meta["title"],
            source=meta["source"],
            statement=meta["statement"],
            kind=kind,
            expected=meta["expected"],
            corrects=meta.get("corrects"),
            same_as=tuple(meta.get("same_as", ())),
            notes=meta.get("notes", ""),
            expected_broken_step=meta.get("expected_broken_step"),
            steps_claimed=bool(meta.get("steps_claimed", False)),
            proof_not_asserted=str(meta.get("proof_not_asserted") or ""),
            step_is=validate_step_links(claim_id, meta),
            uses=validate_uses(claim_id, meta, ID_PATTERN),
            inconclusive_because=str(meta.get("inconclusive_because") or ""),
            effort=float(meta.get("effort", 1.0)),
            tol=meta.get("tol"),
            module=module,
            doc=inspect.cleandoc(doc or ""),
            **parts,
        )
        _validate_step_range(claim)
        REGISTRY.add(claim)
    except Exception as exc:
        declaration_failed(claim_id, module, exc)


def validate_inputs(claim_id: str, fn: Callable, inputs, dims) -> None:
    if not callable(fn):
        raise ClaimDefinitionError(
            claim_id,
            f"the decorator is applied to {fn!r}, not a function",
            "put the decorator on the def of the check function",
        )
    if not isinstance(inputs, Mapping) or not all(isinstance(v, InputSpec) for v in inputs.values()):
        raise ClaimDefinitionError(
            claim_id, "inputs must map names to InputSpec (Array, Scalar, ...)", "inputs={'x': Array('n')}"
        )
    check_input_specs(claim_id, inputs)
    bad_names = [k for k in inputs if not (isinstance(k, str) and k.isidentifier())]
    if bad_names:
        raise ClaimDefinitionError(
            claim_id,
            f"input names {bad_names} are not Python identifiers",
            "name each input as the check function's parameter is named",
        )
    if not isinstance(dims, Mapping) or not all(
        isinstance(v, (list, tuple, range)) and len(v) > 0 for v in dims.values()
    ):
        raise ClaimDefinitionError(
            claim_id,
            f"dims must map each dim name to a non-empty list of sizes, got {dims!r}",
            "dims={'n': [1, 2, 3, 5]}",
        )
    for name, spec in inputs.items():
        missing = [d for d in spec.shape if isinstance(d, str) and d not in dims]
        if missing:
            raise ClaimDefinitionError(
                claim_id,
                f"input {name!r} has shape {spec.shape}, but dim(s) {missing} are not in dims {sorted(dims)}",
                f"add them to dims=, e.g. dims={{{missing[0]!r}: [1, 2, 3]}}",
            )
    check_shape_dims(claim_id, inputs, dims)
    params = inspect.signature(fn).parameters
    names = list(params)
    if not names or names[0] != "xp":
        raise ClaimDefinitionError(claim_id, f"{fn.__name__} must take xp as its first argument")
    # A check names the inputs it uses (or takes them all as ``**inputs``); a parameter that is
    # neither an input, a dim nor defaulted would never be passed.
    unknown = [
        k
        for k, p in list(params.items())[1:]
        if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        and p.default is p.empty
        and k not in inputs
        and k not in dims
        and k != "eps"
    ]
    if unknown:
        raise ClaimDefinitionError(
            claim_id,
            f"{fn.__name__} takes {unknown}, which is neither an input nor a dim",
            "declare them in inputs= or dims=, or drop them from the signature",
        )


# --------------------------------------------------------------------------- studies


@dataclasses.dataclass(frozen=True)
class Series:
    label: str
    x: Sequence[float]
    y: Sequence[float]


@dataclasses.dataclass(frozen=True)
class Plot:
    title: str
    x_label: str
    y_label: str
    series: Sequence[Series]
    logx: bool = False
    logy: bool = False


@dataclasses.dataclass(frozen=True)
class Table:
    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]


@dataclasses.dataclass(frozen=True)
class StudyResult:
    tables: Sequence[Table] = ()
    plots: Sequence[Plot] = ()
    conclusion: str = ""


@dataclasses.dataclass(frozen=True)
class Study:
    id: str
    title: str
    source: Any
    fn: Callable
    related: tuple[str, ...] = ()
    module: str = ""


def study(study_id: str, *, title: str, source=None, related: Sequence[str] = ()):
    """Declare a measurement study rendered as tables and plots (no verdict)."""

    def wrap(fn: Callable) -> Callable:
        module = getattr(fn, "__module__", "?")
        try:
            if not isinstance(study_id, str) or not study_id or not isinstance(title, str):
                raise ClaimDefinitionError(
                    str(study_id), "a study needs a text id and title", "@study('topic.name', title='...')"
                )
            if study_id in REGISTRY.studies:
                first = REGISTRY.studies[study_id].module
                raise ClaimDefinitionError(
                    study_id, f"study declared twice (in {first} and {module})", "give one of them another id"
                )
            if isinstance(related, str) or not all(isinstance(r, str) for r in related):
                raise ClaimDefinitionError(
                    study_id, f"related={related!r} must be a list of claim ids", "related=['topic.claim']"
                )
            check_study(study_id, title, source)
            REGISTRY.studies[study_id] = Study(
                id=study_id, title=title, source=source, fn=fn, related=tuple(related), module=module
            )
        except Exception as exc:
            declaration_failed(study_id, module, exc)
        return fn

    return wrap
