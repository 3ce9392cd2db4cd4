"""``lemmacheck diff before.json after.json``: what changed between two reports, claim by claim.

Verdicts, proof statuses and broken steps (:func:`lemmacheck.report.changes.diff`), and the evidence a reader
compares: the tightness (largest lhs/rhs seen) and the certified counterexample.  Claims present in
only one of the two are listed as new or removed.  Exit code 1 when anything changed, as ``diff`` does.
"""

from __future__ import annotations

import json
from pathlib import Path

from ..cli.terminal import printable_line

__all__ = ["evidence_changes", "diff_documents", "diff_files"]

#: tightness changes smaller than this (relative) are the search's noise between seeds, not a change
TIGHTNESS_RTOL = 1e-9


def _tightness(claim: dict):
    value = (claim.get("evidence") or {}).get("tightness")
    return value if isinstance(value, (int, float)) else None


def _counterexample(claim: dict):
    ev = claim.get("evidence") or {}
    cx = ev.get("counterexample") or (claim.get("proof") or {}).get("counterexample")
    if not isinstance(cx, dict):
        return None
    return {k: cx[k] for k in ("dims", "inputs", "step", "detail") if k in cx} or cx


def evidence_changes(old: dict, new: dict) -> list[tuple[str, object, object]]:
    """``(what, before, after)`` for the tightness and the counterexample of one claim."""
    out: list[tuple[str, object, object]] = []
    a, b = _tightness(old), _tightness(new)
    if (a is None) != (b is None) or (
        a is not None and b is not None and abs(a - b) > TIGHTNESS_RTOL * max(abs(a), abs(b), 1e-300)
    ):
        out.append(("tightness", a, b))
    ca, cb = _counterexample(old), _counterexample(new)
    if ca != cb:
        show = lambda cx: "none" if cx is None else json.dumps(cx, ensure_ascii=False)[:160]  # noqa: E731
        out.append(("counterexample", show(ca), show(cb)))
    return out


def diff_documents(before: dict, after: dict) -> list[tuple[str, str, object, object]]:
    """Every change ``(claim id, what, before, after)`` from ``before`` to ``after``."""
    from .changes import diff

    rows = [(t.claim_id, t.what, t.before, t.after) for t in diff(before, after)]
    old = {c["id"]: c for c in before.get("claims", [])}
    for claim in after.get("claims", []):
        if claim["id"] in old:
            rows += [(claim["id"], *change) for change in evidence_changes(old[claim["id"]], claim)]
    return rows


def _version_note(name: Path, doc: dict) -> str | None:
    """What a file of an earlier schema version does not record, so its absence is not read as a change."""
    if doc.get("schema_version", 1) >= 2:
        return None
    return f"  ({name} is schema version 1, which records no proof status: proof statuses are not compared)"


def diff_files(before: Path, after: Path) -> tuple[str, bool]:
    """The terminal text of the changes between two results files, and whether anything changed."""
    from ..schema import load_results

    a, b = load_results(before), load_results(after)
    rows = diff_documents(a, b)
    seeds = f"seed {a['run'].get('seed')} → {b['run'].get('seed')}"
    notes = [n for n in (_version_note(before, a), _version_note(after, b)) if n is not None]
    if not rows:
        return "\n".join([f"no claim changed ({len(b['claims'])} claims; {seeds})", *notes]), False
    lines = [f"{len(rows)} change(s) from {before} to {after} ({seeds}):", *notes]
    lines += [f"  {printable_line(cid)}: {what}: {x} → {y}" for cid, what, x, y in rows]
    return "\n".join(lines), True
