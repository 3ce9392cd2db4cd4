"""Render ``reports/index.html`` from the results data (JSON first, HTML from it).

The page is self-contained: statements are MathML (:mod:`.mathml`, no CDN, no script needed to show
math), plots are inline SVG (:mod:`.plots`), the filters are a short script (``static/report.js``).
The data the templates read is prepared in :mod:`.context` (the first screen in :mod:`.summary`); this
module holds the Jinja2 environment and renders the page, one partial per kind of content
(``templates/claim.jinja2``, ``study.jinja2``, ``_mutation.jinja2``, …).

No text from a claim can run in a browser, by three layers:

- every piece of text goes through Jinja2's autoescaping;
- the only markup marked safe, MathML and SVG that the report produced, first passes an allowlist
  sanitizer (:mod:`.sanitize`, nh3) that keeps the elements and attributes latex2mathml and matplotlib
  emit and nothing else (no script, no event handler, no URL but ``#fragment``); a statement whose
  MathML the sanitizer would change (``\\text{<script>…}``: latex2mathml copies ``\\text`` verbatim) is
  shown as its source text, escaped, with a warning;
- a Content-Security-Policy in the page allows one script, the report's own, by its SHA-256 hash.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import json
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from ..mutate.report import mutation_section
from .context import page_context, short
from .documents import document_title
from .mathml import latex_to_mathml
from .plots import svg_plot
from .render_cache import kept_in
from .sanitize import bidi_shown, sanitize_mathml, sanitize_svg

__all__ = [
    "write_html",
    "render_html",
    "render_cards",
    "latex_to_mathml",
    "svg_plot",
    "sanitize_mathml",
    "sanitize_svg",
    "REPORT_SCRIPT",
    "CONTENT_SECURITY_POLICY",
    "render_mutation_section",
]

_TEMPLATES = Path(__file__).with_name("templates")
REPORT_SCRIPT = Path(__file__).with_name("static").joinpath("report.js").read_text(encoding="utf-8")
_SCRIPT_HASH = base64.b64encode(hashlib.sha256(REPORT_SCRIPT.encode("utf-8")).digest()).decode("ascii")
# Nothing is fetched (default-src 'none'); styles are inline (the page's <style>, matplotlib's style
# attributes); the only script is the report's own, allowed by hash, so an injected one never runs.
CONTENT_SECURITY_POLICY = (
    f"default-src 'none'; script-src 'sha256-{_SCRIPT_HASH}'; "
    "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
)


def render_mutation_section(data: dict | None) -> str:
    """The mutation section on its own (autoescaped, the page's environment), from the data of
    ``reports/mutation.json``: for tests and for a page other than the main report."""
    return bidi_shown(_environment().get_template("_mutation.jinja2").render(mutation=mutation_section(data)))


@functools.cache  # compiling the templates was a tenth of a render; Jinja re-reads a template edited on disk
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(_TEMPLATES)),
        autoescape=jinja2.select_autoescape(default=True, default_for_string=True),
        undefined=jinja2.ChainableUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["fmt"] = _fmt
    env.globals["zip"] = zip
    env.globals["doc_title"] = document_title
    env.globals["doc_label"] = _doc_label
    return env


def render_cards(claims: list[dict]) -> list[Markup]:
    """The report's card of each claim (results as dicts), on its own: what a notebook displays."""
    env = _environment()
    context = page_context({"claims": claims, "studies": []})
    _render_cards(env, context["claims"], "claim", "c")
    return [Markup(bidi_shown(c["card"])) for c in context["claims"]]


def render_html(data: dict, *, plot_cache: Path | None = None) -> str:
    """The report page; ``plot_cache``: a folder where drawn plots and converted statements are kept
    between renders (the sanitised SVG and MathML, keyed by their data and the source
    of the code that draws, converts and sanitises them: :mod:`.render_cache`)."""
    with kept_in(plot_cache):
        return bidi_shown(_render_html(data))


def _render_html(data: dict) -> str:
    env = _environment()
    context = page_context(data)
    _render_cards(env, context["claims"], "claim", "c")
    _render_cards(env, context["studies"], "study", "s")
    return env.get_template("index.jinja2").render(
        **context, csp=CONTENT_SECURITY_POLICY, report_script=Markup(REPORT_SCRIPT)
    )


def _render_cards(env: jinja2.Environment, items: list[dict], kind: str, name: str) -> None:
    """Each claim card and study section on its own (one partial per kind of content): evidence is
    open-ended, and one claim whose evidence the card cannot show gets a plain card with its raw data
    instead of breaking the whole page."""
    template, fallback = env.get_template(f"{kind}.jinja2"), env.get_template(f"{kind}_fallback.jinja2")
    for item in items:
        try:
            item["card"] = Markup(template.render({name: item, "short": short}))
        except Exception as exc:
            raw = {k: v for k, v in item.items() if not isinstance(v, Markup) and k not in ("svgs", "card")}
            item["card"] = Markup(
                fallback.render(
                    {
                        name: item,
                        "problem": f"{type(exc).__name__}: {exc}",
                        "raw": short(json.dumps(raw, indent=1, ensure_ascii=False, default=str), 4000),
                    }
                )
            )


def _doc_label(file: str) -> Markup:
    """A document by its short title, with its full title and file name on hover (both escaped)."""
    d = document_title(file)
    return Markup('<span class="doc" title="{}">{}</span>').format(d.hover, d.short)


def _fmt(v: Any, digits: int = 4) -> str:
    """A number to ``digits`` significant digits; anything else as text (the template escapes it, once)."""
    if isinstance(v, float):
        return f"{v:.{digits}g}"
    return str(v) if v is not None else "—"


def write_html(data: dict, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(data), encoding="utf-8")
    return path
