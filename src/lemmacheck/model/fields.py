"""Checks of single declaration fields, run where a claim is declared (Hypothesis's ``validation`` style).

Each raises :class:`ClaimDefinitionError` naming the claim, the field, the value and what to write
instead; the declaring decorator records it as that claim's ERROR, so the module still imports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ..errors import ClaimDefinitionError
from .scalars import is_finite_real, is_size

if TYPE_CHECKING:
    from .inputs import InputSpec

__all__ = [
    "check_statement",
    "check_input_specs",
    "check_shape_dims",
    "check_positive",
    "check_domain",
    "check_growth",
    "statement_problem",
    "known_to_convert",
    "converted_statements",
]

# A backslash escape (``\{``, ``\\``, ``\frac``) is one token, so an escaped brace is not a group brace.
_BRACE_TOKENS = re.compile(r"\\(?:[A-Za-z]+|.)|[{}]", re.DOTALL)


def _brace_problem(latex: str) -> str:
    opened: list[int] = []
    for m in _BRACE_TOKENS.finditer(latex):
        if m.group() == "{":
            opened.append(m.start())
        elif m.group() == "}":
            if not opened:
                return f"'}}' at column {m.start() + 1} closes no '{{' ({latex[: m.start() + 1]!r})"
            opened.pop()
    if opened:
        return f"the '{{' at column {opened[-1] + 1} is never closed ({latex[opened[-1] :]!r})"
    return ""


# Statements latex2mathml has converted, here or in the content index's interpreter (which declares every
# claim, so converts every statement): without it each worker of a run converts them all again at
# declaration (0.3 s a process).  Only a text that converted is kept, so one that does not is converted,
# and refused, wherever it is declared.
_CONVERTED: set[str] = set()


def known_to_convert(texts: Iterable[str]) -> None:
    """``texts`` converted by the installed latex2mathml (the content index's record of them)."""
    _CONVERTED.update(texts)


def converted_statements() -> set[str]:
    return set(_CONVERTED)


def statement_problem(latex: str) -> str:
    """Why ``latex`` will not render as the report renders it ('' when it will).

    The report converts a statement with latex2mathml, which raises on some malformed input (a
    ``\\left`` without ``\\right``, a dangling ``^``) and silently closes a missing ``}``
    (``\\frac{a}{b`` renders as a fraction), so braces are counted here first.
    """
    problem = _brace_problem(latex)
    if problem or latex in _CONVERTED:
        return problem
    from latex2mathml.converter import convert

    try:
        convert(latex, display="block")
    except Exception as exc:  # the converter's own error classes vary by version
        return f"latex2mathml cannot convert it ({type(exc).__name__}{': ' + str(exc) if str(exc) else ''})"
    _CONVERTED.add(latex)
    return ""


def check_statement(claim_id: str, statement: str) -> None:
    problem = statement_problem(statement)
    if problem:
        raise ClaimDefinitionError(
            claim_id,
            f"statement={_raw(statement)} is not LaTeX the report can render: {problem}",
            "balance every { with } and \\left with \\right (a raw string: statement=r'\\frac{a}{b}')",
        )


def _raw(text: str) -> str:
    """``text`` as the user wrote it in a raw string (no doubled backslashes), when it can be."""
    return f"r'{text}'" if "'" not in text and "\n" not in text else repr(text)


def check_input_specs(claim_id: str, inputs: Mapping[str, InputSpec]) -> None:
    for name, spec in inputs.items():
        if spec.problem():
            raise ClaimDefinitionError(claim_id, f"input {name!r}: {spec.problem()}", spec.fix())


def check_shape_dims(claim_id: str, inputs: Mapping[str, InputSpec], dims: Mapping[str, Any]) -> None:
    """A dim that sizes an input takes positive whole numbers (``int(2.5)`` would silently run at 2).
    Dims no shape names are free parameters of the check (an activation's name, an exponent)."""
    sizing = {d for spec in inputs.values() for d in spec.shape if isinstance(d, str)}
    for name in sorted(sizing & set(dims)):
        bad = [v for v in dims[name] if not is_size(v)]
        if bad:
            raise ClaimDefinitionError(
                claim_id,
                f"dims[{name!r}] = {list(dims[name])!r}: {bad[0]!r} sizes an input's axis, "
                "so it must be a positive whole number",
                f"dims={{{name!r}: [1, 2, 3]}}",
            )


def check_positive(claim_id: str, field: str, value: Any, fix: str, *, whole: bool = False) -> None:
    """``field=value`` is a finite number > 0 (a whole one with ``whole``)."""
    ok = is_size(value) if whole else is_finite_real(value) and value > 0
    if not ok:
        kind = "a positive whole number" if whole else "a finite number > 0"
        raise ClaimDefinitionError(claim_id, f"{field}={value!r} must be {kind}", fix)


def check_domain(claim_id: str, domain: Mapping[Any, Any]) -> None:
    """A derivation's numeric fallback samples each symbol uniformly on its range: finite, lo < hi."""
    if not isinstance(domain, Mapping):
        raise ClaimDefinitionError(claim_id, f"domain={domain!r} is not a mapping", "domain={x: (0.1, 10)}")
    for sym, rng in domain.items():
        ok = isinstance(rng, (tuple, list)) and len(rng) == 2 and all(is_finite_real(v) for v in rng)
        if not ok or not rng[0] < rng[1]:
            raise ClaimDefinitionError(
                claim_id,
                f"domain[{sym}] = {rng!r} must be a range (lo, hi) of finite numbers with lo < hi",
                f"domain={{{sym}: (0.1, 10)}}",
            )


def check_growth(claim_id: str, grid: Mapping[str, Any], stated: Mapping[str, Any]) -> None:
    """A complexity fit is log-log: grid points finite and > 0, stated exponents finite."""
    for name, points in grid.items():
        bad = [v for v in points if not (is_finite_real(v) and v > 0)]
        if bad:
            raise ClaimDefinitionError(
                claim_id,
                f"grid[{name!r}] holds {bad[0]!r}; exponents are fitted on log-log, "
                "so every point is finite and > 0",
                f"grid={{{name!r}: [8, 16, 32]}}",
            )
    bad_stated = {k: v for k, v in stated.items() if not is_finite_real(v)}
    if bad_stated:
        raise ClaimDefinitionError(
            claim_id, f"stated={dict(stated)!r}: exponents are finite numbers", "stated={'n': 2}"
        )
