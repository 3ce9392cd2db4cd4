"""The top of the report page: what the run found, before any card is read.

The errors of each document with their corrected forms, the answers the studies give to the documents'
own questions, how tight the true bounds are, and three histograms where a person would rather look than
read.  Every number comes from the run's data.
"""

from __future__ import annotations

import collections

from markupsafe import Markup

from ..model.verdict import ProofStatus
from .plots import histogram_svg

__all__ = ["findings", "summary_plots", "by_document", "SHOWN_PER_DOCUMENT"]

#: refuted statements and broken proofs listed per document on the first screen; the rest are collapsed
SHOWN_PER_DOCUMENT = 3


def summary_plots(claims: list[dict]) -> list[Markup]:
    """Where a person would rather look than read: how tight the true bounds are, how often the false fail."""

    def number(c: dict, key: str):
        v = (c.get("evidence") or {}).get(key)
        return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None

    tight = [
        number(c, "tightness")
        for c in claims
        if c["verdict"] == "HOLDS" and number(c, "tightness") is not None
    ]
    rates = [
        100 * number(c, "violation_rate")
        for c in claims
        if c["verdict"] == "REFUTED" and number(c, "violation_rate") is not None
    ]
    orders = [
        number(c, "order_median")
        for c in claims
        if c.get("kind") == "approximation" and number(c, "order_median") is not None
    ]
    plots = [
        histogram_svg(
            f"Tightness of the {len(tight)} bounds that hold (max lhs/rhs; 1 = attained)",
            "max lhs/rhs",
            [min(t, 1.05) for t in tight],
            [i / 20 for i in range(22)],
        ),
        histogram_svg(
            f"Violation rate of the {len(rates)} refuted numeric claims over sampled instances",
            "% of instances violating",
            rates,
            list(range(0, 105, 5)),
        ),
        histogram_svg(
            f"Fitted remainder order of the {len(orders)} approximations",
            "order",
            [min(o, 6) for o in orders],
            [i / 4 for i in range(0, 26)],
        ),
    ]
    return [p for p in plots if p is not None]


def by_document(claims: list[dict], errors: list[tuple[str, list[dict]]]) -> list[dict]:
    """The first screen, grouped as a reader of one document thinks: per document a line of counts (the
    statements' verdicts, the proofs sound and broken), then its refuted statements and broken proofs, the
    first :data:`SHOWN_PER_DOCUMENT` shown and the rest collapsed.  ``errors`` is :func:`findings`'."""
    from ..model.verdict import Verdict

    verdicts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    proofs: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for c in claims:
        verdicts[c["document"]][c["verdict"]] += 1
        proofs[c["document"]][str((c.get("proof") or {}).get("status"))] += 1
    listed = dict(errors)
    return [
        {
            "document": doc,
            "statements": sum(verdicts[doc].values()),
            "verdicts": [(v.value, verdicts[doc][v.value]) for v in Verdict if verdicts[doc][v.value]],
            "proofs": [(p.value, proofs[doc][p.value]) for p in (ProofStatus.SOUND, ProofStatus.BROKEN)],
            "shown": listed.get(doc, [])[:SHOWN_PER_DOCUMENT],
            "more": listed.get(doc, [])[SHOWN_PER_DOCUMENT:],
        }
        for doc in sorted(verdicts)
    ]


def findings(claims: list[dict], studies: list[dict]) -> dict:
    """What the run found, for the top of the page: the errors of each document with their corrected
    forms, the answers the studies give to the documents' own questions, and how tight the true bounds
    are.  Every number comes from the run."""
    by_id = {c["id"]: c for c in claims}
    errors: dict[str, list[dict]] = collections.defaultdict(list)
    for c in claims:
        proof = (c.get("proof") or {}).get("status")
        if c["verdict"] not in ("REFUTED",) and proof != ProofStatus.BROKEN.value:
            continue
        errors[c["document"]].append(
            {
                "id": c["id"],
                "title": c["title"],
                "verdict": c["verdict"],
                "proof_step": (c.get("proof") or {}).get("step")
                if proof == ProofStatus.BROKEN.value
                else None,
                "corrected": [(k, by_id[k]["verdict"]) for k in c.get("corrected_by", []) if k in by_id],
            }
        )
    tight = [
        c["evidence"]["tightness"]
        for c in claims
        if c["verdict"] == "HOLDS" and isinstance((c.get("evidence") or {}).get("tightness"), float)
    ]
    answers = [s for s in studies if s.get("conclusion") and not s.get("error")]
    return {
        "errors": sorted(errors.items()),
        "answers": answers,
        "tight": {
            "count": len(tight),
            "attained": sum(t >= 0.99 for t in tight),
            "loose": sum(t < 0.5 for t in tight),
            "median": sorted(tight)[len(tight) // 2] if tight else None,
        },
    }
