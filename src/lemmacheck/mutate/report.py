"""The data of the HTML report's mutation section (:func:`mutation_section`), handed to the report.

``report/html.py`` reads ``reports/mutation.json`` when it exists, passes it through
:func:`mutation_section` into the page's context as ``mutation``, and renders it with the autoescaping
partial ``report/templates/_mutation.jinja2``; this module knows nothing of the report's templates.
"""

from __future__ import annotations

import collections

from . import classify as C

__all__ = ["mutation_section", "survivor_group"]


def survivor_group(m: dict, kind: str = "") -> str:
    """A survivor's reason in one phrase, from its own evidence (the groups of the survivor table)."""
    ev = m.get("evidence") or {}
    if m.get("baseline_verdict") == "ERROR":
        return "undecided: the unmutated claim is ERROR, so no change to it can be noticed"
    if m.get("verdict") == "ERROR":
        return "undecided: the check ERRORs on the mutant (not a detection), so it says nothing about it"
    if m.get("target") == "derivation":
        return "derivation: the mutated step still holds at every sampled point (not proved, not refuted)"
    if "order_median" in ev:
        return "approximation: the mutant's remainder still has the claimed order"
    if "failures" in ev:
        return "property: the mutated property still holds on every instance searched"
    if "max_relative_deviation" in ev:
        return "identity: the mutant's sides still agree within the tolerance"
    t = ev.get("tightness")
    if isinstance(t, (int, float)):
        if t >= 0.999:
            return "inequality: the mutant is attained (max lhs/rhs ≈ 1) but never violated"
        return (
            "inequality: the mutant holds with slack (max lhs/rhs < 1) — the original is not tight against it"
        )
    if "computed" in ev:
        return "worked value: the mutant still matches the stated value to the stated places"
    return f"{kind or 'other'}: the mutant's outcome equals the original's"


def _pct(score) -> str:
    return "—" if score is None else f"{100 * score:.1f} %"


def mutation_section(data: dict | None) -> dict | None:
    """The context of the report's mutation section, or None when there is no mutation run to show."""
    if not data or not data.get("claims"):
        return None
    rows, survivors, equivalents, still_false, invalid, timed_out = [], [], [], [], [], []
    groups: dict[str, list[dict]] = collections.defaultdict(list)
    for c in data["claims"]:
        counts = c["counts"]
        rows.append(
            {
                "id": c["id"],
                "kind": c.get("kind", ""),
                "baseline": c["baseline"]["verdict"],
                "counts": counts,
                "score": _pct(c.get("score")),
                "enumerated": c.get("enumerated", 0),
                "weak": counts[C.SURVIVED] > 0,
            }
        )
        for m in c["mutants"]:
            m = dict(m)
            if m["status"] == C.SURVIVED:
                m["group"] = survivor_group(m, c.get("kind", ""))
                survivors.append(m)
                groups[m["group"]].append(m)
            elif m["status"] == C.EQUIVALENT:
                equivalents.append(m)
            elif m["status"] == C.STILL_FALSE:
                still_false.append(m)
            elif m["status"] == C.INVALID:
                invalid.append(m)
            elif m["status"] == C.TIMED_OUT:
                timed_out.append(m)
    equivalent_reasons = collections.Counter(m["reason"].split(":")[0] for m in equivalents)
    run = data.get("run", {})
    return {
        "score": _pct(data.get("score")),
        "score_true_claims": _pct(data.get("score_true_claims")),
        "raw_score": data.get("score"),
        "counts": data["counts"],
        "statuses": list(C.STATUSES),
        "enumerated": data.get("enumerated"),
        "selected": data.get("selected"),
        "run": run,
        "seconds_per_mutant": data.get("seconds_per_mutant"),
        "operators": data.get("operators", []),
        "claims": sorted(rows, key=lambda r: (not r["weak"], r["id"])),
        "survivor_groups": sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])),
        "survivors": survivors,
        "equivalent_reasons": equivalent_reasons.most_common(),
        "still_false": len(still_false),
        "invalid": invalid[:200],
        "invalid_total": len(invalid),
        "timed_out": timed_out[:200],
        "score_formula": "killed / (killed + survived + timed out)",
    }
