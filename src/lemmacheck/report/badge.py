"""``lemmacheck run --badge PATH``: an SVG badge of the full report (claims, refuted, proved).

Flat, shields.io-like, with no script and no external reference, so a group can publish it beside the
report.  The numbers are the report's counts, nothing else.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

__all__ = ["badge_svg", "write_badge"]

_CHAR = 6.6  # px per character of 11 px Verdana, as shields.io estimates


def _segment(x: float, text: str, colour: str) -> tuple[str, float]:
    w = round(len(text) * _CHAR + 12)
    body = (
        f'<rect x="{x}" width="{w}" height="20" fill="{colour}"/>'
        f'<text x="{x + w / 2}" y="14" text-anchor="middle">{escape(text)}</text>'
    )
    return body, w


def badge_svg(data: dict) -> str:
    counts = data.get("counts", {})
    total = len(data.get("claims", []))
    refuted, proved = counts.get("REFUTED", 0), counts.get("PROVED", 0)
    parts = [
        ("lemmacheck", "#555"),
        (f"{total} claims", "#007ec6"),
        (f"{refuted} refuted", "#e05d44" if refuted else "#4c1"),
        (f"{proved} proved", "#4c1"),
    ]
    x, body = 0.0, []
    for text, colour in parts:
        svg, w = _segment(x, text, colour)
        body.append(svg)
        x += w
    label = f"lemmacheck: {total} claims, {refuted} refuted, {proved} proved"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{x:g}" height="20" role="img" '
        f'aria-label="{escape(label)}"><title>{escape(label)}</title>'
        '<g font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" fill="#fff">'
        + "".join(body)
        + "</g></svg>\n"
    )


def write_badge(path: Path, data: dict) -> Path:
    from ..project.index import write_atomic

    path = Path(path)
    write_atomic(path, badge_svg(data))
    return path
