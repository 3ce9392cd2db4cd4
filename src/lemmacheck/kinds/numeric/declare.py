"""The numeric kinds' declaration units: ``@inequality``, ``@identity`` and ``@prop``, each a relation chain
(or a boolean property) written once against ``xp`` and checked on sampled instances."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ...errors import ClaimDefinitionError
from ...model.claim import NumericCheck, validate_relations
from ...model.declare import declaration_failed, register_claim, validate_inputs
from ...model.inputs import InputSpec, resolve_shape
from ...model.verdict import Kind
from ..base import declaration_unit

__all__ = ["inequality", "identity", "prop"]


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


def _numeric_decorator(kind: str, default_relations: tuple[str, ...], *, is_property: bool = False):
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
                validate_inputs(claim_id, fn, inputs, dims or {})
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
                declaration_failed(claim_id, getattr(fn, "__module__", "?"), exc)
                return fn
            register_claim(claim_id, Kind(kind), meta, fn.__module__, fn.__doc__ or "", check=check)
            return fn

        return wrap

    return declare


inequality = declaration_unit(_numeric_decorator("inequality", ("<=",)), "inequality")
inequality.__doc__ = "Declare an inequality (or a chain of relations) checked on sampled instances."
identity = declaration_unit(_numeric_decorator("identity", ("=",)), "identity")
identity.__doc__ = "Declare an identity (or a chain of equalities) checked on sampled instances."
prop = declaration_unit(_numeric_decorator("property", ("=",), is_property=True), "prop")
prop.__doc__ = "Declare a property: the function returns a boolean array, True where it holds."
