"""Each claim's standing: whether what its document's argument rests on still stands, computed from the
results after the run (never declared).

A claim's own verdict says whether its statement is true; its standing says whether the document
establishes it.  ``stands``: its verdict (PROVED, HOLDS, APPROXIMATE) and its proof as written hold and
every premise stands.  ``rests on refuted``: a premise, or a premise of a premise, is REFUTED or its
proof is broken; the nearest such premise is named with the path to it.  ``rests on unchecked``: no
premise is refuted, but one was not checked (absent from the results, INCONCLUSIVE, ERROR, or its proof
unsettled).  A claim whose own verdict or proof fails is ``refuted``, ``broken`` or ``unchecked``, and
still names what it rests on.  So a conclusion that HOLDS numerically while its argument passes through a
refuted lemma reads as both: true as stated, not established by the document.

Works on result dicts (``results.json``'s claims), so a merged report of several runs gets the standing
of the whole: :func:`with_standing` is called on every results document written.
"""

from __future__ import annotations

import collections
from collections.abc import Iterable

from ..model.premises import premises_of

__all__ = ["with_standing", "standings", "STANDINGS", "colour_of"]

#: every standing, best first (the report's tally and table use this order)
STANDINGS = ("stands", "rests on refuted", "rests on unchecked", "refuted", "broken", "unchecked")
_OK_VERDICTS = ("PROVED", "HOLDS", "APPROXIMATE")
_FAILED, _UNCHECKED = ("refuted", "broken"), "unchecked"


def _own(claim: dict | None) -> tuple[str, str]:
    """``(state, why)``: ``ok``, ``refuted``, ``broken`` or ``unchecked``, from the claim's own result."""
    if claim is None:
        return _UNCHECKED, "not in these results"
    verdict = claim.get("verdict")
    proof = claim.get("proof") or {}
    if verdict == "REFUTED":
        return "refuted", "REFUTED"
    if proof.get("status") == "broken":
        step = f" at step {proof['step']}" if proof.get("step") else ""
        return "broken", f"{verdict}, proof broken{step}"
    if verdict not in _OK_VERDICTS:
        return _UNCHECKED, str(verdict)
    if proof.get("status") == "unsettled":
        return _UNCHECKED, f"{verdict}, proof unsettled"
    return "ok", str(verdict)


def _premises(claim: dict) -> list[str]:
    return premises_of(claim.get("uses") or (), claim.get("step_links") or ())


def _nearest(start: str, by_id: dict[str, dict], want: Iterable[str]) -> list[str] | None:
    """The shortest path ``start -> ... -> p`` to a premise ``p`` whose own state is in ``want``
    (breadth first, premises in declared order, so the path named is the nearest and the same every run)."""
    want = set(want)
    parent: dict[str, str] = {}
    queue = collections.deque([start])
    seen = {start}
    while queue:
        node = queue.popleft()
        claim = by_id.get(node)
        for p in _premises(claim) if claim is not None else ():
            if p in seen:
                continue
            seen.add(p)
            parent[p] = node
            if _own(by_id.get(p))[0] in want:
                path = [p]
                while path[-1] != start:
                    path.append(parent[path[-1]])
                return path[::-1]
            queue.append(p)
    return None


def _standing(claim: dict, by_id: dict[str, dict], dependents: list[str]) -> dict:
    own, why = _own(claim)
    path = _nearest(claim["id"], by_id, _FAILED)
    rests = "rests on refuted" if path else None
    if path is None:
        path = _nearest(claim["id"], by_id, (_UNCHECKED,))
        rests = "rests on unchecked" if path else None
    out: dict = {
        "status": own if own != "ok" else (rests or "stands"),
        "premises": _premises(claim),
        "dependents": dependents,
    }
    if path:
        culprit = path[-1]
        out |= {
            "rests_on": rests,
            "premise": culprit,
            "premise_is": _own(by_id.get(culprit))[1],
            "path": path,
        }
    out["summary"] = _summary(claim, own, why, out)
    return out


def _summary(claim: dict, own: str, why: str, s: dict) -> str:
    """One sentence a reader can take at its word: what is computed, never more."""
    if "premise" not in s:
        if own == "ok":
            return f"{why}; " + ("every premise stands" if s["premises"] else "no recorded premise")
        return f"{why} itself"
    via = " -> ".join(s["path"])
    rest = f"its argument uses {s['premise']}, which is {s['premise_is']} ({via})"
    if own != "ok":
        return f"{why} itself; and {rest}"
    if s["rests_on"] == "rests on refuted":
        return f"{why} as stated, but not established by the document: {rest}"
    return f"{why} as stated; not yet established: {rest}"


def standings(claims: list[dict]) -> dict[str, dict]:
    """Each claim's standing (id -> standing dict), from the claims' results."""
    by_id = {c["id"]: c for c in claims if isinstance(c, dict) and "id" in c}
    dependents: dict[str, list[str]] = {cid: [] for cid in by_id}
    for cid, c in by_id.items():
        for p in _premises(c):
            dependents.setdefault(p, []).append(cid)
    return {cid: _standing(c, by_id, dependents[cid]) for cid, c in by_id.items()}


def colour_of(claim: dict) -> str:
    """The graph's colour class: ``stands``, ``approximate`` (stands, a first-order statement), ``rests on
    refuted``, ``refuted or broken``, or ``unchecked`` (its own result or a premise's)."""
    status = (claim.get("standing") or {}).get("status", "unchecked")
    if status in _FAILED:
        return "refuted or broken"
    if status == "stands":
        return "approximate" if claim.get("verdict") == "APPROXIMATE" else "stands"
    return "rests on refuted" if status == "rests on refuted" else "unchecked"


def with_standing(data: dict) -> dict:
    """``data`` (a results document) with every claim's ``standing`` and the per-document
    ``standing_counts``, recomputed over all its claims."""
    claims = [c for c in data.get("claims", []) if isinstance(c, dict) and "id" in c]
    # only the catalogue's claims take part: a module that failed to import or a malformed
    # declaration is an ERROR of its own, no result anything could rest on
    real = [c for c in claims if c.get("kind") not in ("module", "declaration")]
    computed = standings(real)
    counts: dict[str, dict[str, int]] = {}
    for c in real:
        c["standing"] = computed[c["id"]]
        doc = (c.get("source") or {}).get("file", "")
        per = counts.setdefault(doc, dict.fromkeys(STANDINGS, 0))
        per[c["standing"]["status"]] += 1
    data["standing_counts"] = dict(sorted(counts.items()))
    return data
