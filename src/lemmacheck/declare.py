"""The declarative units content modules use: decorators for numeric checks, calls for the rest.

A malformed declaration never raises at import time: it is recorded in
``REGISTRY.definition_errors`` and reported as an ERROR result naming the claim and the problem, so
one broken claim never takes the run (or the other claims of its module) down.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .claim import (
    REGISTRY,
    ApproximationCheck,
    Claim,
    ComplexityCheck,
    NumericCheck,
    SymbolicDerivation,
    ValueCheck,
    validate_meta,
    validate_relations,
)
from .errors import ClaimDefinitionError
from .inputs import InputSpec
from .verdict import Kind

__all__ = ["inequality", "identity", "approximation", "prop", "value", "complexity", "derivation", "study",
           "StudyResult", "Table", "Plot", "Series", "Study"]

_META_KEYS = ("title", "source", "statement", "expected", "corrects", "same_as", "notes",
              "expected_broken_step", "steps_claimed", "proof_not_asserted", "inconclusive_because", "effort", "tol")


def _caller_module(depth: int = 2) -> str:
    frame = inspect.stack()[depth]
    return frame.frame.f_globals.get("__name__", "?")


def _register(claim_id: str, kind: Kind, meta: Mapping[str, Any], module: str, doc: str = "", **parts) -> None:
    try:
        unknown = set(meta) - set(_META_KEYS)
        if unknown:
            raise ClaimDefinitionError(claim_id, f"unknown keyword(s) {sorted(unknown)}",
                                       f"the metadata keywords are {_META_KEYS}")
        validate_meta(claim_id, meta)
        REGISTRY.add(Claim(
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
            inconclusive_because=str(meta.get("inconclusive_because") or ""),
            effort=float(meta.get("effort", 1.0)),
            tol=meta.get("tol"),
            module=module,
            doc=inspect.cleandoc(doc or ""),
            **parts,
        ))
    except ClaimDefinitionError as exc:
        REGISTRY.definition_errors.append((claim_id, module, str(exc)))


def _validate_inputs(claim_id: str, fn: Callable, inputs, dims) -> None:
    if not isinstance(inputs, Mapping) or not all(isinstance(v, InputSpec) for v in inputs.values()):
        raise ClaimDefinitionError(claim_id, "inputs must map names to InputSpec (Array, Scalar, ...)")
    if not isinstance(dims, Mapping) or any(len(list(v)) == 0 for v in dims.values()):
        raise ClaimDefinitionError(claim_id, "dims must map each dim name to a non-empty list of values")
    params = inspect.signature(fn).parameters
    names = list(params)
    if not names or names[0] != "xp":
        raise ClaimDefinitionError(claim_id, f"{fn.__name__} must take xp as its first argument")
    # A check names the inputs it uses (or takes them all as ``**inputs``); a parameter that is
    # neither an input, a dim nor defaulted would never be passed.
    unknown = [k for k, p in list(params.items())[1:]
               if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.default is p.empty
               and k not in inputs and k not in dims and k != "eps"]
    if unknown:
        raise ClaimDefinitionError(claim_id, f"{fn.__name__} takes {unknown}, which is neither an input nor a dim",
                                   f"declare them in inputs= or dims=, or drop them from the signature")


def _numeric_decorator(kind: Kind, default_relations: tuple[str, ...], *, is_property: bool = False):
    def declare(claim_id: str, *, inputs: Mapping[str, InputSpec], dims: Mapping[str, Sequence] | None = None,
                relations: Sequence[str] | None = None, labels: Sequence[str] = (), where: Callable | None = None,
                exact: bool = False, examples: Sequence[Mapping] = (), **meta):
        def wrap(fn: Callable) -> Callable:
            try:
                _validate_inputs(claim_id, fn, inputs, dims or {})
                rel = validate_relations(claim_id, relations or default_relations)
                if labels and len(labels) != len(rel):
                    raise ClaimDefinitionError(claim_id, f"{len(labels)} labels for {len(rel)} steps")
                for ex in examples:
                    if set(ex) != {"dims", "inputs"} or set(ex["inputs"]) != set(inputs):
                        raise ClaimDefinitionError(claim_id, "each example must be {'dims': {...}, 'inputs': {...}} "
                                                             f"naming every input {sorted(inputs)}")
                check = NumericCheck(fn=fn, inputs=dict(inputs), dims=dict(dims or {}), relations=rel,
                                     labels=tuple(labels), where=where, is_property=is_property, exact=exact,
                                     examples=tuple(examples))
            except ClaimDefinitionError as exc:
                REGISTRY.definition_errors.append((claim_id, fn.__module__, str(exc)))
                return fn
            _register(claim_id, kind, meta, fn.__module__, fn.__doc__ or "", check=check)
            return fn

        return wrap

    return declare


inequality = _numeric_decorator(Kind.INEQUALITY, ("<=",))
inequality.__doc__ = "Declare an inequality (or a chain of relations) checked on sampled instances."
identity = _numeric_decorator(Kind.IDENTITY, ("=",))
identity.__doc__ = "Declare an identity (or a chain of equalities) checked on sampled instances."
prop = _numeric_decorator(Kind.PROPERTY, ("=",), is_property=True)
prop.__doc__ = "Declare a property: the function returns a boolean array, True where it holds."


def approximation(claim_id: str, *, inputs: Mapping[str, InputSpec], dims: Mapping[str, Sequence] | None = None,
                  order: float = 2, relation: str = "<=", eps0: float = 1e-1, levels: int = 8, **meta):
    """Declare a first-order statement; ``fn(xp, eps, **inputs) -> (lhs, rhs)``."""

    def wrap(fn: Callable) -> Callable:
        try:
            _validate_inputs(claim_id, fn, inputs, dims or {})
            if list(inspect.signature(fn).parameters)[1:2] != ["eps"]:
                raise ClaimDefinitionError(claim_id, f"{fn.__name__} must take (xp, eps, ...)")
            validate_relations(claim_id, [relation])
            if not (order > 0 and eps0 > 0 and levels >= 4):
                raise ClaimDefinitionError(claim_id, "need order > 0, eps0 > 0 and levels >= 4")
            check = ApproximationCheck(fn=fn, inputs=dict(inputs), dims=dict(dims or {}), order=order,
                                       relation=relation, eps0=eps0, levels=levels)
        except ClaimDefinitionError as exc:
            REGISTRY.definition_errors.append((claim_id, fn.__module__, str(exc)))
            return fn
        _register(claim_id, Kind.APPROXIMATION, meta, fn.__module__, fn.__doc__ or "", check=check)
        return fn

    return wrap


def value(claim_id: str, *, computed: Callable[[], Any], stated: Any, places: int | None = None, **meta) -> None:
    """Declare a worked number: ``computed()`` against what the document states."""
    module = _caller_module()
    if not callable(computed):
        REGISTRY.definition_errors.append(
            (claim_id, module, f"claim {claim_id!r}: computed must be a callable returning the value"))
        return
    _register(claim_id, Kind.WORKED_EXAMPLE, meta, module, computed.__doc__ or "",
              check=ValueCheck(computed=computed, stated=stated, places=places))


def complexity(claim_id: str, *, cost: Callable[..., float], grid: Mapping[str, Sequence[float]],
               stated: Mapping[str, float], **meta) -> None:
    """Declare a growth claim: fitted log-log exponents of ``cost`` against the stated ones."""
    module = _caller_module()
    if set(grid) != set(stated) or any(len(v) < 3 for v in grid.values()):
        REGISTRY.definition_errors.append(
            (claim_id, module, f"claim {claim_id!r}: grid and stated must name the same variables, "
                               "each with at least 3 grid values"))
        return
    _register(claim_id, Kind.COMPLEXITY, meta, module, cost.__doc__ or "",
              check=ComplexityCheck(cost=cost, grid=dict(grid), stated=dict(stated)))


def derivation(claim_id: str, *, chain: Sequence[Any], labels: Sequence[str] = (),
               domain: Mapping[Any, tuple[float, float]] | None = None, kind: Kind | None = None, **meta) -> None:
    """Declare a SymPy derivation ``[e0, R1, e1, R2, e2, ...]``.

    Without metadata it attaches to the claim of the same id declared in ``checks/``; with metadata
    it declares the claim itself.
    """
    module = _caller_module()
    try:
        exprs, rels = tuple(chain[0::2]), tuple(chain[1::2])
        if len(exprs) != len(rels) + 1 or len(exprs) < 2:
            raise ClaimDefinitionError(claim_id, "chain must alternate expression, relation, expression ...")
        rels = validate_relations(claim_id, rels)
        if labels and len(labels) != len(rels):
            raise ClaimDefinitionError(claim_id, f"{len(labels)} labels for {len(rels)} steps")
        d = SymbolicDerivation(exprs=exprs, relations=rels, labels=tuple(labels), domain=dict(domain or {}),
                               module=module)
        if meta:
            if kind is None:
                kind = Kind.IDENTITY if all(r == "=" for r in rels) else Kind.INEQUALITY
            _register(claim_id, kind, meta, module, "", derivation=d)
        else:
            REGISTRY.attach_derivation(claim_id, d)
    except ClaimDefinitionError as exc:
        REGISTRY.definition_errors.append((claim_id, module, str(exc)))


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
        REGISTRY.studies[study_id] = Study(id=study_id, title=title, source=source, fn=fn,
                                           related=tuple(related), module=fn.__module__)
        return fn

    return wrap
