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


def _leaves(stated: Any, computed: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Pair up stated and computed values leaf by leaf (dicts by key, sequences by position)."""
    if isinstance(stated, Mapping):
        keys = list(stated)
        if not isinstance(computed, Mapping):
            return [(path or "value", stated, computed)]
        return [
            leaf for k in keys for leaf in _leaves(stated[k], computed.get(k, "<missing>"), f"{path}[{k!r}]")
        ]
    if isinstance(stated, (list, tuple)) and not isinstance(stated, str):
        if not isinstance(computed, (list, tuple, np.ndarray)) or len(computed) != len(stated):
            return [(path or "value", stated, computed)]
        return [
            leaf
            for i, (s, c) in enumerate(zip(stated, computed, strict=True))
            for leaf in _leaves(s, c, f"{path}[{i}]")
        ]
    return [(path or "value", stated, computed)]


def compare_value(check: ValueCheck) -> tuple[Verdict, dict]:
    computed = check.computed()
    rows, exact_all, all_ok = [], True, True
    for path, s, c in _leaves(check.stated, computed):
        if isinstance(s, (str, bool, np.bool_)) or isinstance(c, (str, bool, np.bool_)):
            ok, exact = s == c, True
            diff = None
        else:
            try:
                S, C = _to_sympy(s), _to_sympy(c)
            except (sp.SympifyError, TypeError):
                S = C = None
            if S is None or C is None:
                ok, exact, diff = s == c, True, None
            else:
                exact = _is_exact(s) and _is_exact(c) and check.places is None
                if exact:
                    ok = bool(S == C or sp.simplify(S - C) == 0)
                    diff = sp.nsimplify(S - C)
                else:
                    d = sp.N(C - S, REVERIFY_DPS)
                    diff = float(d)
                    if check.places is not None:
                        ok = abs(d) <= sp.Rational(1, 2) * sp.Rational(1, 10**check.places) * (
                            1 + sp.Rational(1, 10**9)
                        )
                    else:
                        tol = tolerance_for()
                        ok = abs(d) <= tol.rtol * (abs(sp.N(S)) + abs(sp.N(C))) + tol.atol
        exact_all &= exact
        all_ok &= bool(ok)
        rows.append(
            {
                "where": path,
                "stated": _show(s),
                "computed": _show(c),
                "match": bool(ok),
                "difference": None if diff is None else str(diff),
            }
        )
    if all_ok:
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
