"""The allowlists the report's own markup passes before it is marked safe: MathML and SVG.

Only MathML this report converted (:mod:`.mathml`) and SVG it drew (:mod:`.plots`) is ever marked safe,
and only after :mod:`nh3` keeps the elements and attributes latex2mathml and matplotlib emit and nothing
else: no script, no event handler, no URL but a ``#fragment``.  A statement whose MathML the allowlist
would change is shown as its source text instead (``sanitize_mathml`` says why).
"""

from __future__ import annotations

import html.parser
import re

from markupsafe import Markup

__all__ = ["sanitize_mathml", "sanitize_svg", "BIDI_CONTROLS", "bidi_shown"]

#: the Unicode bidirectional controls (embeddings, overrides, isolates, marks), as a regex class body: one
#: in a claim's text (U+202E, right-to-left override) reverses what follows it on a page or a terminal
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")


def bidi_shown(text: str) -> str:
    """``text`` with every bidirectional control shown as its escape (``\\u202e``), never obeyed.  Applied
    to a whole page once it is rendered, so no path by which claim text reaches it is missed; our own
    templates and scripts hold none."""
    return _BIDI.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


# What latex2mathml emits (its converter and commands tables), and nothing else.
_MATHML_TAGS = {
    "math",
    "mrow",
    "mi",
    "mn",
    "mo",
    "ms",
    "mtext",
    "mspace",
    "mfrac",
    "msqrt",
    "mroot",
    "msub",
    "msup",
    "msubsup",
    "munder",
    "mover",
    "munderover",
    "mtable",
    "mtr",
    "mtd",
    "mstyle",
    "mpadded",
    "mphantom",
    "menclose",
    "merror",
    "semantics",
    "annotation",
}
_MATHML_ATTRS = {
    "math": {"xmlns", "display"},
    "*": {
        "mathvariant",
        "stretchy",
        "fence",
        "separator",
        "lspace",
        "rspace",
        "accent",
        "width",
        "height",
        "depth",
        "displaystyle",
        "scriptlevel",
        "columnalign",
        "columnspacing",
        "rowspacing",
        "linethickness",
        "movablelimits",
        "minsize",
        "maxsize",
        "largeop",
        "form",
        "notation",
        "voffset",
        "mathsize",
        "mathcolor",
        "mathbackground",
        "linebreak",
        "encoding",
    },
}
# What matplotlib's SVG backend emits for our plots (text is drawn as paths; its metadata is dropped).
_SVG_TAGS = {"svg", "g", "path", "defs", "use", "clipPath", "rect"}
_SVG_ATTRS = {
    "svg": {"xmlns", "width", "height", "viewBox", "version"},
    "use": {"href"},
    "*": {"id", "d", "style", "transform", "x", "y", "width", "height", "clip-path"},
}


def _clean(markup: str, tags: set[str], attributes: dict[str, set[str]]) -> str:
    import nh3

    # No URL scheme is allowed: the only links left are same-page fragments (SVG <use href="#...">).
    return nh3.clean(
        markup,
        tags=tags,
        attributes=attributes,
        url_schemes=set(),
        strip_comments=True,
        link_rel=None,
        clean_content_tags={"script", "style"},
    )


class _Tags(html.parser.HTMLParser):
    """The sequence of start tags with their attributes: what a sanitizer may have removed."""

    def __init__(self, markup: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, tuple]] = []
        self.feed(markup)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, tuple(sorted(attrs))))


def sanitize_mathml(mathml: str) -> tuple[Markup | None, str]:
    """``(safe MathML, "")``, or ``(None, reason)`` when the allowlist would have to remove something."""
    clean = _clean(mathml, _MATHML_TAGS, _MATHML_ATTRS)
    before, after = _Tags(mathml).tags, _Tags(clean).tags
    if before != after:
        removed = next((t for t, _ in before if t not in _MATHML_TAGS), None)
        what = f"<{removed}>" if removed else "an attribute that is not MathML"
        return None, f"the statement contains markup that is not MathML ({what}); shown as source"
    return Markup(clean), ""


def sanitize_svg(svg: str) -> Markup:
    """Matplotlib's SVG through the SVG allowlist (``xlink:href`` written as SVG 2's ``href``)."""
    svg = svg.replace('xlink:href="#', 'href="#')
    return Markup(_clean(svg, _SVG_TAGS, _SVG_ATTRS))
