"""Results and the catalogue in a Jupyter notebook: the report's own cards, with the report's styles.

A notebook shows the HTML without the report page around it, so the card styles travel with it; the
cards are the same partials the report renders (escaped and sanitised the same way).
"""

from __future__ import annotations

import re

from markupsafe import Markup, escape

from .html import _TEMPLATES, render_cards
from .sanitize import bidi_shown

__all__ = ["cards_html", "catalogue_html"]


def _styles() -> str:
    page = (_TEMPLATES / "index.jinja2").read_text(encoding="utf-8")
    css = re.search(r"<style>(.*?)</style>", page, re.S)
    # scoped to the notebook output: the report's rules for its body and header are left out
    rules = [
        r for r in (css.group(1) if css else "").splitlines() if not r.startswith(("body", "header", "main"))
    ]
    return "<style>" + "\n".join(rules) + "</style>"


def cards_html(results: list[dict]) -> str:
    """The cards of these results (``ClaimResult.to_dict()``), as one HTML fragment."""
    return _styles() + '<div class="lemmacheck">' + "".join(str(c) for c in render_cards(results)) + "</div>"


def catalogue_html(rows: list[dict]) -> str:
    """The declared claims as a table (nothing checked): id, kind, expectation, source, title."""
    if not rows:
        return "<p>no claims</p>"
    cols = list(rows[0])
    head = "".join(f"<th>{escape(c)}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{escape(r[c])}</td>" for c in cols) + "</tr>" for r in rows)
    return bidi_shown(
        str(Markup(_styles() + f'<table class="lemmacheck">{head and "<tr>" + head + "</tr>"}{body}</table>'))
    )
