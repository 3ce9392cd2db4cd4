"""A selection never erases the full report: the claims a run checked replace theirs in the folder's
results, the others are kept as they were, each marked with when and at which seed it was checked.

``lemmacheck run -k lse`` then updates the ``lse`` claims of ``reports/results.json`` instead of leaving a
three-claim report, and the next full run compares claim by claim with a full previous report, so no
claim looks "new" because a selection had dropped it.  Claims the catalogue no longer declares are
dropped (and reported as removed).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..run.standing import with_standing

__all__ = ["merge", "stamp"]


def stamp(data: dict) -> dict:
    """Mark each claim of a results document that has no mark with its run's time, seed and profile."""
    run = data.get("run", {})
    mark = {"at": run.get("started", ""), "seed": run.get("seed"), "profile": run.get("profile", "")}
    for claim in data.get("claims", []):
        claim.setdefault("checked", dict(mark))
    return data


def _recount(data: dict) -> None:
    from ..model.verdict import ProofStatus, Verdict
    from ..run.results import statement_counts

    counts = {v.value: 0 for v in Verdict}
    proofs = {p.value: 0 for p in ProofStatus}
    for claim in data["claims"]:
        counts[claim["verdict"]] = counts.get(claim["verdict"], 0) + 1
        status = (claim.get("proof") or {}).get("status", ProofStatus.NONE.value)
        proofs[status] = proofs.get(status, 0) + 1
    data["counts"], data["proof_counts"] = counts, proofs
    data["statement_counts"] = statement_counts(c.get("statement_check") for c in data["claims"])
    data["mismatches"] = [c["id"] for c in data["claims"] if not c.get("matches_expectation", True)]


def _merged_in_order(old: dict, new: dict, catalogue: Sequence[str] | None) -> list[dict]:
    if catalogue is None:  # the catalogue is not known: every earlier claim is kept
        order = [*old, *(cid for cid in new if cid not in old)]
        return [new.get(cid) or old[cid] for cid in order]
    known = set(catalogue)
    extra = [c for cid, c in new.items() if cid not in known]  # import and declaration errors
    return extra + [new.get(cid) or old[cid] for cid in catalogue if cid in new or cid in old]


def merge(previous: dict | None, current: dict, catalogue: Sequence[str] | None = None) -> dict:
    """``current`` (the run just made) with the claims and studies of ``previous`` it did not check and
    that ``catalogue`` (ids in catalogue order) still declares; counts recomputed over the whole."""
    current = stamp(current)
    if not previous or not isinstance(previous.get("claims"), list):
        return current
    previous = stamp(previous)
    old = {c["id"]: c for c in previous["claims"] if isinstance(c, dict) and "id" in c}
    new = {c["id"]: c for c in current["claims"]}
    merged = dict(current)
    merged["claims"] = _merged_in_order(old, new, catalogue)
    ran = {s.get("id") for s in current.get("studies", [])}
    kept_studies = [s for s in previous.get("studies", []) if s.get("id") not in ran]
    merged["studies"] = [*current.get("studies", []), *kept_studies]
    carried = len(merged["claims"]) - len(new)
    merged["run"] = dict(current["run"], checked=len(new), carried=carried)
    _recount(merged)
    return with_standing(merged)  # over the whole: a premise the selection left out counts as it was
