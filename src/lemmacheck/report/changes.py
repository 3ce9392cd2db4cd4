"""What changed since the last run: verdict and proof-status transitions between two results.json.

``diff(previous, current)`` compares two results documents (the dicts ``RunResult.to_dict()`` writes)
claim by claim and returns one :class:`Transition` per change, in the current catalogue order (removed
claims last); ``format_transitions`` renders them for the terminal.
"""

from __future__ import annotations

import dataclasses
from typing import Any

__all__ = ["Transition", "diff", "format_transitions"]


@dataclasses.dataclass(frozen=True)
class Transition:
    claim_id: str
    what: str  # "new" | "removed" | "verdict" | "first broken step" | "step k" | "proof status"
    before: Any
    after: Any

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


def _proof_status(claim: dict) -> Any:
    proof = claim.get("proof")
    if isinstance(proof, dict):
        return proof.get("status")
    return claim.get("proof_status")


def _claim_transitions(cid: str, old: dict, new: dict) -> list[Transition]:
    out = []
    if old.get("verdict") != new.get("verdict"):
        out.append(Transition(cid, "verdict", old.get("verdict"), new.get("verdict")))
    if old.get("first_broken_step") != new.get("first_broken_step"):
        out.append(
            Transition(cid, "first broken step", old.get("first_broken_step"), new.get("first_broken_step"))
        )
    old_steps = {s.get("index"): s for s in old.get("steps") or []}
    for step in new.get("steps") or []:
        before = old_steps.get(step.get("index"))
        if before is not None and before.get("status") != step.get("status"):
            label = f"step {step.get('index')}" + (f" ({step['label']})" if step.get("label") else "")
            out.append(Transition(cid, label, before.get("status"), step.get("status")))
    # A report of schema version 1 records no proof status: absent is "not recorded", never a change
    recorded = _proof_status(old) is not None and _proof_status(new) is not None
    if recorded and _proof_status(old) != _proof_status(new):
        out.append(Transition(cid, "proof status", _proof_status(old), _proof_status(new)))
    return out


def diff(previous: dict | None, current: dict) -> list[Transition]:
    """Every transition from ``previous`` to ``current`` (both results.json documents).  With no
    previous run, nothing is reported (every claim would be "new")."""
    if not previous:
        return []
    old = {c["id"]: c for c in previous.get("claims", [])}
    new = {c["id"]: c for c in current.get("claims", [])}
    out: list[Transition] = []
    for cid, claim in new.items():
        if cid not in old:
            out.append(Transition(cid, "new", None, claim.get("verdict")))
        else:
            out.extend(_claim_transitions(cid, old[cid], claim))
    out.extend(
        Transition(cid, "removed", claim.get("verdict"), None) for cid, claim in old.items() if cid not in new
    )
    return out


def _show(value: Any) -> str:
    return "none" if value is None else str(value)


def format_transitions(
    transitions: list[Transition], *, previous_seed: int | None = None, current_seed: int | None = None
) -> str:
    """Lines for the terminal, one per transition; a note when the seeds differ (a random search with
    another seed may legitimately find what the last one missed)."""
    if not transitions:
        return "no verdict changed since the last run"
    head = f"{len(transitions)} change(s) since the last run"
    if previous_seed is not None and current_seed is not None and previous_seed != current_seed:
        head += f" (seed {previous_seed} then {current_seed})"
    lines = [head + ":"]
    for t in transitions:
        if t.what == "new":
            lines.append(f"  + {t.claim_id}: new, {_show(t.after)}")
        elif t.what == "removed":
            lines.append(f"  - {t.claim_id}: removed (was {_show(t.before)})")
        elif t.what == "verdict":
            lines.append(f"  ~ {t.claim_id}: {_show(t.before)} -> {_show(t.after)}")
        else:
            lines.append(f"  ~ {t.claim_id}: {t.what} {_show(t.before)} -> {_show(t.after)}")
    return "\n".join(lines)
