"""How a mutant's result compares with the unmutated claim's: killed, survived, timed out, equivalent,
still false, or invalid.  The rules are stated in ``docs/mutation.md``; this module is their one
implementation.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

__all__ = [
    "KILLED",
    "SURVIVED",
    "TIMED_OUT",
    "EQUIVALENT",
    "STILL_FALSE",
    "INVALID",
    "STATUSES",
    "outcome_key",
    "kill_reason",
    "genuine_error",
    "crashed",
    "sympy_stopped",
    "UNDECIDED",
    "score",
    "digest",
]

KILLED, SURVIVED, TIMED_OUT, EQUIVALENT, STILL_FALSE, INVALID = (
    "killed",
    "survived",
    "timed_out",
    "equivalent",
    "still_false",
    "invalid",
)
STATUSES = (KILLED, SURVIVED, TIMED_OUT, EQUIVALENT, STILL_FALSE, INVALID)
# The mutants the run did not notice: in the score's denominator with the killed ones.  A mutant that
# timed out is undecided, so it counts against the score like a survivor; it is listed apart.
UNDECIDED = (SURVIVED, TIMED_OUT)

# Fields of a result whose change is a detection: the verdict, the first broken step, every broken step
# (a second false link in a chain broken earlier), and whatever proof status the engine reports (the keys
# are read if present, so a newer engine's status counts too).
_OUTCOME_FIELDS = ("verdict", "first_broken_step", "broken_steps", "proof", "proof_status")

# An ERROR that is the check noticing something, not the mutant being malformed: a non-finite value,
# a shape that does not fit, or the SymPy derivation and the numeric check disagreeing.
_GENUINE = re.compile(
    r"not finite|finite real values|\bnan\b|\binf\b|shape|broadcast|subscripts|"
    r"mismatch in its core dimension|disagree|proves what the numeric check refutes",
    re.IGNORECASE,
)


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


# Errors of Python's own structure: an index past the end, a key or attribute that is not there, an
# operation on the wrong type. Raised by a check while it computes its sides, they say the mutated code
# cannot run, not that a statement is true or false.
_STRUCTURAL = frozenset(
    ("IndexError", "KeyError", "TypeError", "AttributeError", "NameError", "UnboundLocalError")
)
# "claim 'id': the check raised X: ..." (a numeric check's function raised: its sides were never returned,
# so no relation was evaluated) or "claim 'id': X: ...\n<the innermost frames>" (any other kind)
_RAISED = re.compile(r"claim '[^']*': (the check raised )?([A-Za-z_]\w*): ")
_FRAME = re.compile(r'File "([^"]+)", line \d+')
_ENGINE = Path(__file__).resolve().parents[1]


def crashed(message: str) -> str | None:
    """The structural exception the check's own code raised (None when the run failed otherwise).

    Decided from where the run stopped, never from the mutation: the exception must be one of
    ``_STRUCTURAL`` and raised in the content's code (the check, or a helper it calls), not in the
    engine: by the numeric engine's own account ("the check raised", before the sides were returned),
    or by the innermost frame of the traceback lying outside the lemmacheck package."""
    m = _RAISED.match(message or "")
    if m is None or m.group(2) not in _STRUCTURAL:
        return None
    if m.group(1):
        return m.group(2)
    frames = _FRAME.findall(message)
    if frames and _ENGINE not in Path(frames[-1]).resolve().parents:
        return m.group(2)
    return None


def sympy_stopped(result: dict) -> bool:
    """Whether SymPy ran out of its own time on some step (the step was then only sampled)."""
    derivation = (result.get("evidence") or {}).get("derivation")
    steps = list(result.get("steps") or []) + list((derivation or {}).get("steps") or [])
    return any("SymPy stopped" in (s.get("detail") or "") for s in steps)


def score(counts: dict[str, int]) -> float | None:
    """Killed over killed + survived + timed out; equivalent, still-false and invalid mutants are apart."""
    judged = counts[KILLED] + sum(counts[s] for s in UNDECIDED)
    return None if judged == 0 else counts[KILLED] / judged


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
