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

from ..errors import ClaimDefinitionError
from .claim import (
    REGISTRY,
    ApproximationCheck,
    Claim,
    ComplexityCheck,
    NumericCheck,
    SymbolicDerivation,
    ValueCheck,
    check_study,
    validate_meta,
    validate_relations,
    validate_step_links,
)
from .fields import (
    check_domain,
    check_growth,
    check_input_specs,
    check_positive,
    check_shape_dims,
    check_statement,
)
from .inputs import InputSpec, resolve_shape
from .verdict import Kind

__all__ = [
    "inequality",
    "identity",
    "approximation",
    "prop",
    "value",
    "complexity",
    "derivation",
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
    "inconclusive_because",
    "effort",
    "tol",
)


def _caller_module(depth: int = 2) -> str:
    frame = inspect.stack()[depth]
    return frame.frame.f_globals.get("__name__", "?")


def _declaration_failed(claim_id: Any, module: str, exc: Exception) -> None:
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


def _register(
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
        _declaration_failed(claim_id, module, exc)


def _validate_inputs(claim_id: str, fn: Callable, inputs, dims) -> None:
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


def _relation_list(claim_id: str, relations) -> Sequence[str]:
    if isinstance(relations, str):  # relations="<=" would read as the chain "<", "="
        raise ClaimDefinitionError(
            claim_id, f"relations={relations!r} is a string, not a list", f"relations=[{relations!r}]"
        )
    return relations


def _validate_examples(claim_id: str, examples, inputs: Mapping[str, InputSpec]) -> None:
    """Each pinned example names every input, and each input's shape is what its dims make it."""
    import numpy as np

    if isinstance(examples, Mapping):
        raise ClaimDefinitionError(claim_id, "examples must be a list of examples", "examples=[{...}]")
    for i, ex in enumerate(examples, start=1):
        if not isinstance(ex, Mapping) or set(ex) != {"dims", "inputs"} or set(ex["inputs"]) != set(inputs):
            raise ClaimDefinitionError(
                claim_id,
                f"example {i} must be {{'dims': {{...}}, "
                f"'inputs': {{...}}}} naming every input {sorted(inputs)}",
            )
        for name, spec in inputs.items():
            try:
                want = resolve_shape(spec.shape, ex["dims"])
                got = np.asarray(ex["inputs"][name], dtype=float).shape
            except (KeyError, ValueError, TypeError) as exc:
                raise ClaimDefinitionError(
                    claim_id,
                    f"example {i}, input {name!r}: {exc}",
                    "give every dim the input's shape names, and numbers",
                ) from None
            if got != want:
                raise ClaimDefinitionError(
                    claim_id,
                    f"example {i}: input {name!r} has shape {got}, but its dims {dict(ex['dims'])} "
                    f"make it {want}",
                    "make the array match the example's dims (or fix the dims)",
                )


def _numeric_decorator(kind: Kind, default_relations: tuple[str, ...], *, is_property: bool = False):
    def declare(
        claim_id: str,
        *,
        inputs: Mapping[str, InputSpec],
        dims: Mapping[str, Sequence] | None = None,
        relations: Sequence[str] | None = None,
        labels: Sequence[str] = (),
        where: Callable | None = None,
        exact: bool = False,
        examples: Sequence[Mapping] = (),
        **meta,
    ):
        def wrap(fn: Callable) -> Callable:
            try:
                _validate_inputs(claim_id, fn, inputs, dims or {})
                rel = validate_relations(claim_id, _relation_list(claim_id, relations or default_relations))
                if labels and len(labels) != len(rel):
                    raise ClaimDefinitionError(claim_id, f"{len(labels)} labels for {len(rel)} steps")
                _validate_examples(claim_id, examples, inputs)
                check = NumericCheck(
                    fn=fn,
                    inputs=dict(inputs),
                    dims=dict(dims or {}),
                    relations=rel,
                    labels=tuple(labels),
                    where=where,
                    is_property=is_property,
                    exact=exact,
                    examples=tuple(examples),
                )
            except Exception as exc:
                _declaration_failed(claim_id, getattr(fn, "__module__", "?"), exc)
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


def approximation(
    claim_id: str,
    *,
    inputs: Mapping[str, InputSpec],
    dims: Mapping[str, Sequence] | None = None,
    order: float = 2,
    relation: str = "<=",
    eps0: float = 1e-1,
    levels: int = 8,
    **meta,
):
    """Declare a first-order statement; ``fn(xp, eps, **inputs) -> (lhs, rhs)``."""

    def wrap(fn: Callable) -> Callable:
        try:
            _validate_inputs(claim_id, fn, inputs, dims or {})
            if list(inspect.signature(fn).parameters)[1:2] != ["eps"]:
                raise ClaimDefinitionError(claim_id, f"{fn.__name__} must take (xp, eps, ...)")
            if not isinstance(relation, str):
                raise ClaimDefinitionError(
                    claim_id, f"relation={relation!r} must be one relation", "relation='<='"
                )
            validate_relations(claim_id, [relation])
            check_positive(claim_id, "order", order, "order=2: the remainder is O(eps^2)")
            check_positive(claim_id, "eps0", eps0, "eps0=0.1, the largest step of the fit")
            check_positive(claim_id, "levels", levels, "levels=8 halvings of eps0", whole=True)
            if levels < 4:
                raise ClaimDefinitionError(claim_id, f"levels={levels}: too few to fit an order", "levels=8")
            check = ApproximationCheck(
                fn=fn,
                inputs=dict(inputs),
                dims=dict(dims or {}),
                order=order,
                relation=relation,
                eps0=eps0,
                levels=levels,
            )
        except Exception as exc:
            _declaration_failed(claim_id, getattr(fn, "__module__", "?"), exc)
            return fn
        _register(claim_id, Kind.APPROXIMATION, meta, fn.__module__, fn.__doc__ or "", check=check)
        return fn

    return wrap


def value(
    claim_id: str, *, computed: Callable[[], Any], stated: Any, places: int | None = None, **meta
) -> None:
    """Declare a worked number: ``computed()`` against what the document states."""
    module = _caller_module()
    if not callable(computed):
        REGISTRY.definition_errors.append(
            (
                str(claim_id),
                module,
                f"claim {claim_id!r}: computed must be a callable returning the value\n"
                "  fix: computed=lambda: ...",
            )
        )
        return
    if places is not None and (isinstance(places, bool) or not isinstance(places, int) or places < 0):
        REGISTRY.definition_errors.append(
            (
                str(claim_id),
                module,
                f"claim {claim_id!r}: places={places!r} must be a number of decimal "
                "places\n  fix: places=4, or leave it out for an exact comparison",
            )
        )
        return
    _register(
        claim_id,
        Kind.WORKED_EXAMPLE,
        meta,
        module,
        computed.__doc__ or "",
        check=ValueCheck(computed=computed, stated=stated, places=places),
    )


def complexity(
    claim_id: str,
    *,
    cost: Callable[..., float],
    grid: Mapping[str, Sequence[float]],
    stated: Mapping[str, float],
    **meta,
) -> None:
    """Declare a growth claim: fitted log-log exponents of ``cost`` against the stated ones."""
    module = _caller_module()
    if (
        not callable(cost)
        or not isinstance(grid, Mapping)
        or not isinstance(stated, Mapping)
        or set(grid) != set(stated)
        or any(len(list(v)) < 3 for v in grid.values())
    ):
        REGISTRY.definition_errors.append(
            (
                str(claim_id),
                module,
                f"claim {claim_id!r}: cost must be a function, and grid and stated must "
                "name the same variables, each with at least 3 grid values\n"
                "  fix: grid={'n': [8, 16, 32]}, stated={'n': 2}",
            )
        )
        return
    try:
        check_growth(claim_id, grid, stated)
    except ClaimDefinitionError as exc:
        _declaration_failed(claim_id, module, exc)
        return
    _register(
        claim_id,
        Kind.COMPLEXITY,
        meta,
        module,
        cost.__doc__ or "",
        check=ComplexityCheck(cost=cost, grid=dict(grid), stated=dict(stated)),
    )


def derivation(
    claim_id: str,
    *,
    chain: Sequence[Any],
    labels: Sequence[str] = (),
    domain: Mapping[Any, tuple[float, float]] | None = None,
    kind: Kind | None = None,
    **meta,
) -> None:
    """Declare a SymPy derivation ``[e0, R1, e1, R2, e2, ...]``.

    Without metadata it attaches to the claim of the same id declared in ``checks/``; with metadata
    it declares the claim itself.
    """
    module = _caller_module()
    try:
        if kind is not None and not isinstance(kind, Kind):
            raise ClaimDefinitionError(
                claim_id,
                f"kind={kind!r} is not a claim kind",
                "use one of " + ", ".join(f"Kind.{k.name}" for k in Kind) + ", or leave it out",
            )
        if isinstance(chain, str) or not isinstance(chain, Sequence):
            raise ClaimDefinitionError(claim_id, "chain must be a list", "chain=[e0, '<=', e1, '=', e2]")
        exprs, rels = tuple(chain[0::2]), tuple(chain[1::2])
        if len(exprs) != len(rels) + 1 or len(exprs) < 2:
            raise ClaimDefinitionError(
                claim_id,
                "chain must alternate expression, relation, expression ...",
                "chain=[e0, '<=', e1, '=', e2]",
            )
        rels = validate_relations(claim_id, rels)
        if labels and len(labels) != len(rels):
            raise ClaimDefinitionError(claim_id, f"{len(labels)} labels for {len(rels)} steps")
        check_domain(claim_id, domain or {})
        d = SymbolicDerivation(
            exprs=exprs, relations=rels, labels=tuple(labels), domain=dict(domain or {}), module=module
        )
        if meta:
            if kind is None:
                kind = Kind.IDENTITY if all(r == "=" for r in rels) else Kind.INEQUALITY
            _register(claim_id, kind, meta, module, "", derivation=d)
        else:
            REGISTRY.attach_derivation(claim_id, d)
    except Exception as exc:
        _declaration_failed(claim_id, module, exc)


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
            _declaration_failed(study_id, module, exc)
        return fn

    return wrap
