"""The report's graph pages: for each document, and for the catalogue, which conclusions still stand.

Each page is a table (result, verdict, proof status, standing, what it rests on) and, below it, the
dependency graph of the results that take part in a use: a node per claim, labelled by the document's
own numbering, an edge from each premise to the result that uses it, coloured by standing, the corrected
form beside the form as written (dashed).  A node links to its card.  Layout: :mod:`.graph_layout`.
The data only: the template (``_premises.jinja2``) writes the markup, escaped.
"""

from __future__ import annotations

import re

from ..run.standing import STANDINGS, colour_of
from .documents import document_title
from .graph_layout import Layout, layout

__all__ = ["premise_pages", "COLOURS"]

#: colour class of the graph -> its CSS class (the legend's order)
COLOURS = {
    "stands": "g-stands",
    "approximate": "g-approximate",
    "rests on refuted": "g-rests",
    "refuted or broken": "g-refuted",
    "unchecked": "g-unchecked",
}
_REMARK = re.compile(r"\s*\([^()]*[\s'‘’][^()]*\)")  # "(alternative reading ...)", not "(7)"
_LABEL = 34


def _label(c: dict, *, catalogue: bool, cut: bool = True) -> list[str]:
    """The document's numbering for the node (its remarks dropped, cut to fit a box), then the claim id."""
    location = _REMARK.sub("", (c.get("source") or {}).get("location", "")).strip() or c["id"]
    if catalogue:
        location = f"{c.get('document', '')[:3]} {location}"
    if cut and len(location) > _LABEL:
        location = location[: _LABEL - 1] + "…"
    return [location, c["id"]]


def _row(c: dict, by_id: dict[str, dict]) -> dict:
    s = c.get("standing") or {}
    return {
        "id": c["id"],
        "label": _label(c, catalogue=False, cut=False)[0],
        "verdict": c.get("verdict", ""),
        "proof": (c.get("proof") or {}).get("status", ""),
        "standing": s.get("status", ""),
        "summary": s.get("summary", ""),
        "premises": [
            (p, (by_id.get(p, {}).get("standing") or {}).get("status", "not in this report"))
            for p in s.get("premises", [])
        ],
        "path": s.get("path", []),
        "corrected_by": [(k, by_id[k].get("verdict", "")) for k in c.get("corrected_by", []) if k in by_id],
    }


def _drawn(members: list[dict], by_id: dict[str, dict]) -> list[str]:
    """The ids the graph shows: the page's claims that use or are used, with the premises and
    dependents they are linked to (from any document), and the corrected forms of each."""
    keep: dict[str, None] = {}
    for c in members:
        s = c.get("standing") or {}
        if s.get("premises") or s.get("dependents"):
            for cid in (c["id"], *s.get("premises", ()), *s.get("dependents", ())):
                if cid in by_id:
                    keep[cid] = None
    for cid in list(keep):
        for k in by_id[cid].get("corrected_by", []):
            if k in by_id:
                keep[k] = None
    return list(keep)


def _graph(ids: list[str], by_id: dict[str, dict], *, catalogue: bool) -> Layout | str | None:
    if not ids:
        return None
    shown = set(ids)
    uses = [
        (p, cid) for cid in ids for p in (by_id[cid].get("standing") or {}).get("premises", []) if p in shown
    ]
    beside = [(by_id[k]["corrects"], k) for k in ids if by_id[k].get("corrects") in shown]
    return layout({cid: _label(by_id[cid], catalogue=catalogue) for cid in ids}, uses, beside)


def _nodes(graph: Layout, by_id: dict[str, dict], *, catalogue: bool) -> list[dict]:
    return [
        {
            "id": key,
            "box": box,
            "lines": _label(by_id[key], catalogue=catalogue),
            "css": COLOURS[colour_of(by_id[key])],
            "title": f"{key}: {(by_id[key].get('standing') or {}).get('summary', '')}",
        }
        for key, box in graph.boxes.items()
    ]


def _page(key: str, title: str, members: list[dict], by_id: dict[str, dict], *, catalogue: bool) -> dict:
    ids = _drawn(members, by_id)
    graph = _graph(ids, by_id, catalogue=catalogue)
    counts = dict.fromkeys(STANDINGS, 0)
    for c in members:
        status = (c.get("standing") or {}).get("status")
        if status in counts:
            counts[status] += 1
    drawn = set(ids)
    page: dict = {
        "key": key,
        "title": title,
        "rows": [] if catalogue else [_row(c, by_id) for c in members],
        "counts": counts,
        "drawn": len(ids),
        "alone": sum(1 for c in members if c["id"] not in drawn),
        "problem": graph if isinstance(graph, str) else "",
        "graph": graph if isinstance(graph, Layout) else None,
    }
    if isinstance(graph, Layout):
        page["nodes"] = _nodes(graph, by_id, catalogue=catalogue)
    return page


def premise_pages(claims: list[dict]) -> list[dict]:
    """One page per document (claims already grouped and given their standing), then the catalogue's."""
    real = [c for c in claims if c.get("standing")]
    by_id = {c["id"]: c for c in real}
    docs: dict[str, list[dict]] = {}
    for c in real:
        docs.setdefault(c.get("document", ""), []).append(c)
    pages = [
        _page(
            f"graph-{doc.split('_', 1)[0] or 'doc'}",
            document_title(doc).short,
            members,
            by_id,
            catalogue=False,
        )
        for doc, members in sorted(docs.items())
    ]
    if real:
        pages.append(_page("graph-catalogue", "the whole catalogue", real, by_id, catalogue=True))
    return pages
