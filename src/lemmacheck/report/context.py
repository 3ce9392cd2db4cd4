"""The data the report's templates render: ``results.json`` prepared for reading.

Claims are sorted by document, topic and id, each given its MathML statement, its plot and where it
was last checked; studies get their plots; the page gets its counts, its first screen
(:mod:`.summary`) and the mutation section's data (:mod:`lemmacheck.mutate.report`).  Nothing here
writes markup of its own: the templates do, through autoescaping.
"""

from __future__ import annotations

import collections
import itertools
from typing import Any

from ..model.verdict import ProofStatus, Verdict
from ..mutate.report import mutation_section
from ..run.standing import with_standing
from .mathml import latex_to_mathml
from .plots import approx_plot, svg_plot
from .premise_pages import COLOURS, premise_pages
from .summary import by_document, findings, summary_plots

__all__ = ["page_context", "short", "draw_study"]


def short(v: Any, limit: int = 600) -> str:
    """``v`` as text, cut at ``limit`` characters (a card shows a matrix, not a megabyte)."""
    s = str(v)
    return s if len(s) <= limit else s[:limit] + " …"


def page_context(data: dict) -> dict:
    """Everything the page's templates read, from the run's data (whose claims and studies gain their
    MathML, plots and grouping keys in place)."""
    claims = _sorted_claims(data.get("claims", []))
    for c in claims:
        _prepare_claim(c, data.get("run") or {})
    for s in data.get("studies", []):
        draw_study(s)
    if any("standing" not in c for c in claims):  # results written before standings were computed
        with_standing(data)
    per_doc, per_topic = _counts(claims)
    return {
        "data": data,
        "claims": claims,
        "studies": data.get("studies", []),
        "verdicts": [v.value for v in Verdict],
        "groups": _groups(claims),
        "per_doc": sorted(per_doc.items()),
        "per_topic": sorted(per_topic.items()),
        "documents": sorted(per_doc),
        "topics": sorted(per_topic),
        "short": short,
        "summary_plots": summary_plots(claims),
        "findings": (found := findings(claims, data.get("studies", []))),
        "first_screen": by_document(claims, found["errors"]),
        "mutation": mutation_section(data.get("mutation")),
        "premise_pages": premise_pages(claims),
        "graph_colours": COLOURS,
    }


def _sorted_claims(claims: list[dict]) -> list[dict]:
    # Grouped for reading: by document, then topic, then id (the JSON keeps the run's order).
    return sorted(
        claims, key=lambda c: (c.get("source", {}).get("file", ""), c["id"].split(".", 1)[0], c["id"])
    )


def _prepare_claim(c: dict, run: dict) -> None:
    c["mathml"], c["math_warning"] = latex_to_mathml(c.get("statement", ""))
    try:
        c["plot"] = approx_plot(c) if c.get("kind") == "approximation" else None
    except Exception:  # odd evidence: the card shows its numbers, without the plot
        c["plot"] = None
    c["document"] = c.get("source", {}).get("file", "")
    c.setdefault("topic", c["id"].split(".", 1)[0])
    c["kept_from"] = _kept_from(c, run)


def _kept_from(claim: dict, run: dict) -> dict | None:
    """When and at which seed a claim the run did not check (a selection's report) was checked."""
    checked = claim.get("checked")
    if not isinstance(checked, dict) or not run.get("carried"):
        return None
    if (checked.get("at"), checked.get("seed")) == (run.get("started"), run.get("seed")):
        return None
    return checked


def draw_study(s: dict) -> None:
    """A study's plots as SVG, in ``s["svgs"]`` (and any that failed in ``s["plot_errors"]``)."""
    s["svgs"] = []
    for p in s.get("plots", []):
        try:
            s["svgs"].append(
                svg_plot(
                    p["title"],
                    p["x_label"],
                    p["y_label"],
                    list(p["series"]),
                    logx=p.get("logx", False),
                    logy=p.get("logy", False),
                )
            )
        except Exception as exc:  # one bad plot must not break the page
            s.setdefault("plot_errors", []).append(f"{p.get('title')}: {type(exc).__name__}: {exc}")


def _counts(claims: list[dict]) -> tuple[dict, dict]:
    """Verdicts (and broken proofs) counted per document and per topic."""
    per_doc: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    per_topic: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for c in claims:
        per_doc[c["document"]][c["verdict"]] += 1
        per_topic[c["topic"]][c["verdict"]] += 1
        if (c.get("proof") or {}).get("status") == ProofStatus.BROKEN.value:
            per_doc[c["document"]]["proof broken"] += 1
            per_topic[c["topic"]]["proof broken"] += 1
    return per_doc, per_topic


def _groups(claims: list[dict]) -> list[tuple[str, list[tuple[str, list[dict]]]]]:
    """Claims (already sorted by document, topic, id) grouped by document, then topic."""
    out: list[tuple[str, list[tuple[str, list[dict]]]]] = []
    for doc, in_doc in itertools.groupby(claims, key=lambda c: c["document"]):
        out.append(
            (
                doc,
                [
                    (topic, list(members))
                    for topic, members in itertools.groupby(in_doc, key=lambda c: c["topic"])
                ],
            )
        )
    return out
