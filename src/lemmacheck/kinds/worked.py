"""The comparison behind worked numbers (:mod:`.value`): stated against computed, leaf by leaf, exactly where
both are exact.  SymPy is imported with this module, so only when a value claim runs."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import sympy as sp

from ..model.claim import ValueCheck
from ..model.tolerance import REVERIFY_DPS, tolerance_for
from ..model.verdict import Verdict

__all__ = ["compare_value"]


def _is_exact(v: Any) -> bool:
    if isinstance(v, (bool, int, np.integer, Fraction, str)):
        return True
    if isinstance(v, sp.Basic):
        return not v.has(sp.Float)
    return False


def _to_sympy(v: Any):
    if isinstance(v, Fraction):
        return sp.Rational(v.numerator, v.denominator)
    if isinstance(v, (float, np.floating)):
        return sp.Float(float(v), 17)
    return sp.sympify(v)


class _Missing:
    """Stands in for a key of the stated value that the computed one lacks."""

    def __repr__(self) -> str:
        return "<missing>"


_MISSING = _Missing()


def _leaves(stated: Any, computed: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Pair up stated and computed values leaf by leaf (dicts by key, sequences by position); where the
    structures part (:func:`_structure_difference`), the pair at that point is a leaf of its own."""
    if isinstance(stated, Mapping):
        if not isinstance(computed, Mapping):
            return [(path or "value", stated, computed)]
        return [
            leaf for k in stated for leaf in _leaves(stated[k], computed.get(k, _MISSING), f"{path}[{k!r}]")
        ]
    if _is_sequence(stated):
        if not _is_sequence(computed) or len(computed) != len(stated):
            return [(path or "value", stated, computed)]
        return [
            leaf
            for i, (s, c) in enumerate(zip(stated, computed, strict=True))
            for leaf in _leaves(s, c, f"{path}[{i}]")
        ]
    return [(path or "value", stated, computed)]


def _is_sequence(v: Any) -> bool:
    return isinstance(v, (list, tuple)) or (isinstance(v, np.ndarray) and v.ndim > 0)


def _shape(v: Any) -> str:
    if v is _MISSING:
        return "nothing (the key is missing)"
    if isinstance(v, Mapping):
        return f"a {type(v).__name__} with keys {sorted(map(str, v))}"
    if _is_sequence(v):
        return f"a {type(v).__name__} of {len(v)} {'entry' if len(v) == 1 else 'entries'}"
    return f"a single {type(v).__name__}"


def _structure_difference(stated: Any, computed: Any) -> str | None:
    """How a leaf's stated and computed values differ in structure (length, nesting, type), or None when
    both are single values.  :func:`_leaves` descends wherever the structures agree, so a container left at
    a leaf is a difference: the computed value is not what the document states, whatever its numbers."""
    containers = [v is _MISSING or isinstance(v, Mapping) or _is_sequence(v) for v in (stated, computed)]
    if not any(containers):
        return None
    return f"structure differs: stated {_shape(stated)}, computed {_shape(computed)}"


def _compare_leaf(s: Any, c: Any, places: int | None) -> tuple[bool, bool, Any]:
    """(match, exact, difference) of one stated value against its computed one."""
    structure = _structure_difference(s, c)
    if structure is not None:
        return False, True, structure
    if isinstance(s, (str, bool, np.bool_)) or isinstance(c, (str, bool, np.bool_)):
        return s == c, True, None
    try:
        S, C = _to_sympy(s), _to_sympy(c)
    except (sp.SympifyError, TypeError):
        return s == c, True, None
    if _is_exact(s) and _is_exact(c) and places is None:
        return bool(S == C or sp.simplify(S - C) == 0), True, sp.nsimplify(S - C)
    d = sp.N(C - S, REVERIFY_DPS)
    if places is not None:
        ok = abs(d) <= sp.Rational(1, 2) * sp.Rational(1, 10**places) * (1 + sp.Rational(1, 10**9))
    else:
        tol = tolerance_for()
        ok = abs(d) <= tol.rtol * (abs(sp.N(S)) + abs(sp.N(C))) + tol.atol
    return ok, False, float(d)


def compare_value(check: ValueCheck) -> tuple[Verdict, dict]:
    rows, exact_all = [], True
    for path, s, c in _leaves(check.stated, check.computed()):
        ok, exact, diff = _compare_leaf(s, c, check.places)
        exact_all &= exact
        rows.append(
            {
                "where": path,
                "stated": _show(s),
                "computed": _show(c),
                "match": bool(ok),
                "difference": None if diff is None else str(diff),
            }
        )
    if all(r["match"] for r in rows):
        verdict = Verdict.PROVED if exact_all else Verdict.HOLDS
    else:
        verdict = Verdict.REFUTED
    return verdict, {
        "comparison": rows,
        "places": check.places,
        "exact": exact_all,
        "mismatches": sum(not r["match"] for r in rows),
    }


def _show(v: Any) -> str:
    if isinstance(v, sp.Basic) and not v.is_Integer and v.is_number:
        return f"{v} ≈ {sp.N(v, 12)}"
    if isinstance(v, Fraction):
        return f"{v} ≈ {float(v):.12g}"
    return str(v)
