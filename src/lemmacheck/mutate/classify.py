"""How a mutant's result compares with the unmutated claim's: killed, survived, equivalent, still false,
or invalid.  The rules are stated in ``docs/mutation.md``; this module is their one implementation.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = [
    "KILLED",
    "SURVIVED",
    "EQUIVALENT",
    "STILL_FALSE",
    "INVALID",
    "STATUSES",
    "outcome_key",
    "kill_reason",
    "genuine_error",
    "identical",
    "digest",
]

KILLED, SURVIVED, EQUIVALENT, STILL_FALSE, INVALID = (
    "killed",
    "survived",
    "equivalent",
    "still_false",
    "invalid",
)
STATUSES = (KILLED, SURVIVED, EQUIVALENT, STILL_FALSE, INVALID)

# Fields of a result whose change is a detection: the verdict, the first broken step, and whatever
# proof status the engine reports (the keys are read if present, so a newer engine's status counts too).
_OUTCOME_FIELDS = ("verdict", "first_broken_step", "proof", "proof_status")

# An ERROR that is the check noticing something, not the mutant being malformed: a non-finite value,
# a shape that does not fit, or the SymPy derivation and the numeric check disagreeing.
_GENUINE = re.compile(
    r"not finite|finite real values|\bnan\b|\binf\b|shape|broadcast|subscripts|"
    r"mismatch in its core dimension|disagree|proves what the numeric check refutes",
    re.IGNORECASE,
)

# Evidence fields that vary with the wall clock or the mutation's code, never with the values computed.
_VOLATILE = frozenset({"seconds", "module", "replay"})


def _counterexample_status(result: dict) -> tuple[bool, Any]:
    cex = (result.get("evidence") or {}).get("counterexample")
    return (bool(cex), cex.get("step") if isinstance(cex, dict) else None)


def outcome_key(result: dict) -> tuple:
    """What a mutant must change to be killed: verdict, first broken step, proof and counterexample status."""
    return tuple(result.get(f) for f in _OUTCOME_FIELDS) + _counterexample_status(result)


def kill_reason(baseline: dict, mutant: dict) -> str | None:
    """Why the mutant counts as killed, or None when its outcome equals the baseline's."""
    changes = []
    for f in _OUTCOME_FIELDS:
        if baseline.get(f) != mutant.get(f):
            changes.append(f"{f} {baseline.get(f)} → {mutant.get(f)}")
    if not changes and _counterexample_status(baseline) != _counterexample_status(mutant):
        b, m = _counterexample_status(baseline), _counterexample_status(mutant)
        changes.append(
            f"counterexample {'at step ' + str(b[1]) if b[0] else 'none'} → "
            f"{'at step ' + str(m[1]) if m[0] else 'none'}"
        )
    return "; ".join(changes) or None


def genuine_error(message: str) -> bool:
    return bool(_GENUINE.search(message or ""))


def _strip(obj):
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items() if k not in _VOLATILE}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    return obj


def identical(baseline: dict, mutant: dict) -> bool:
    """Same verdict, evidence and steps: on the same seed the search drew the same instances and the
    mutant computed the same values on every one of them (its tightness, deviations and counts agree)."""
    return all(_strip(baseline.get(k)) == _strip(mutant.get(k)) for k in ("verdict", "evidence", "steps"))


def digest(result: dict) -> dict:
    """The few evidence numbers a reader needs to judge a survivor."""
    ev = result.get("evidence") or {}
    keep = (
        "tightness",
        "max_relative_deviation",
        "failures",
        "violations",
        "unconfirmed_candidates",
        "instances",
        "order_median",
        "fitted_exponents",
        "mismatches",
    )
    out = {k: ev[k] for k in keep if k in ev}
    if "derivation" in ev and isinstance(ev["derivation"], dict):
        out["derivation"] = ev["derivation"].get("end_status")
    if "comparison" in ev:
        out["computed"] = [row.get("computed") for row in ev["comparison"]][:4]
    if result.get("steps"):
        out["steps"] = [f"{s.get('index')}:{s.get('status')}" for s in result["steps"]]
    if result.get("message"):
        out["message"] = result["message"].splitlines()[0][:300]
    return out
