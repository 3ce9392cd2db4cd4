"""Render ``reports/index.html`` from the results data (JSON first, HTML from it).

The page is self-contained: statements are MathML (latex2mathml, no CDN, no script needed to show math),
plots are inline SVG (matplotlib), the filters are a short script (``static/report.js``).

No text from a claim can run in a browser, by three layers:

- every piece of text goes through Jinja2's autoescaping;
- the only markup marked safe, MathML and SVG that this module produced, first passes an allowlist
  sanitizer (nh3) that keeps the elements and attributes latex2mathml and matplotlib emit and nothing
  else (no script, no event handler, no URL but ``#fragment``); a statement whose MathML the sanitizer
  would change (``\\text{<script>…}``: latex2mathml copies ``\\text`` verbatim) is shown as its source
  text, escaped, with a warning;
- a Content-Security-Policy in the page allows one script, the report's own, by its SHA-256 hash.
"""

from __future__ import annotations

import base64
import collections
import hashlib
import html.parser
import io
import itertools
import math
import os
import re
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from ..model.verdict import ProofStatus, Verdict
from ..mutate.report import mutation_section
from .documents import document_title

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
# a drawn plot is kept only as long as the code that draws and sanitises it is the same
_SOURCE_FINGERPRINT = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
REPORT_SCRIPT = Path(__file__).with_name("static").joinpath("report.js").read_text(encoding="utf-8")
_SCRIPT_HASH = base64.b64encode(hashlib.sha256(REPORT_SCRIPT.encode("utf-8")).digest()).decode("ascii")
# Nothing is fetched (default-src 'none'); styles are inline (the page's <style>, matplotlib's style
# attributes); the only script is the report's own, allowed by hash, so an injected one never runs.
CONTENT_SECURITY_POLICY = (
    f"default-src 'none'; script-src 'sha256-{_SCRIPT_HASH}'; "
    "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
)

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


# Operator names latex2mathml does not know: \\arg is standard LaTeX; the others are the usual
# \\DeclareMathOperator names.  Each is written as \\operatorname{...}, which it renders upright.
_OPERATOR_NAMES = ("arg", "sgn", "diag", "rank", "tr", "Tr")
_OPERATOR_RE = re.compile(r"\\(" + "|".join(_OPERATOR_NAMES) + r")(?![A-Za-z])")


def _teach_operators(latex: str) -> str:
    return _OPERATOR_RE.sub(lambda m: r"\operatorname{" + m.group(1) + "}", latex)


def latex_to_mathml(latex: str) -> tuple[Markup | None, str]:
    """``(MathML, "")`` or ``(None, reason)`` when the LaTeX will not render."""
    mathml, reason = _cached(("mathml", latex), lambda: _markup_pair(_latex_to_mathml(latex)))
    return (Markup(mathml) if mathml is not None else None), reason


def _markup_pair(pair: tuple[Markup | None, str]) -> list:
    return [None if pair[0] is None else str(pair[0]), pair[1]]


def _latex_to_mathml(latex: str) -> tuple[Markup | None, str]:
    if not latex:
        return None, "no statement"
    try:
        from latex2mathml.converter import convert

        mathml = convert(_teach_operators(latex), display="block")
    except Exception as exc:  # the converter's own errors vary by version
        return None, f"LaTeX did not render ({type(exc).__name__}: {exc})"
    # latex2mathml passes unknown commands through as text; flag them rather than show broken math.
    unknown = re.findall(r"<mi>\\([A-Za-z]+)</mi>", mathml)
    if unknown:
        return None, f"LaTeX did not render (unknown command \\{unknown[0]})"
    return sanitize_mathml(mathml)


#: where drawn plots and converted statements are kept between renders (``render_html(plot_cache=...)``):
#: drawing and converting are most of a render, and each is a pure function of its data
_PLOT_CACHE: list[Path] = []


def _plot_key(*parts) -> str:
    import json

    blob = json.dumps(parts, sort_keys=True, default=str) + _SOURCE_FINGERPRINT
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def svg_plot(
    title: str,
    x_label: str,
    y_label: str,
    series: list[dict],
    *,
    logx: bool = False,
    logy: bool = False,
    fits: list[dict] | None = None,
) -> Markup:
    """An inline SVG line plot (matplotlib, Agg-free SVG backend), from the render cache when it is there."""
    return _cached(
        ("plot", title, x_label, y_label, series, logx, logy, fits),
        lambda: _draw_svg_plot(title, x_label, y_label, series, logx=logx, logy=logy, fits=fits),
    )


def _cached(key_parts, compute):
    """``compute()`` (Markup, None, or a JSON-able value), kept in the render cache under ``key_parts``."""
    import json

    if not _PLOT_CACHE:
        return compute()
    path = _PLOT_CACHE[0] / (_plot_key(*key_parts) + ".json")
    try:
        kind, value = json.loads(path.read_text(encoding="utf-8"))
        return Markup(value) if kind == "markup" else value
    except (OSError, ValueError):
        pass
    value = compute()
    stored = ["markup", str(value)] if isinstance(value, Markup) else ["value", value]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(stored), encoding="utf-8")
        os.replace(tmp, path)  # atomic: a concurrent render reads a whole entry or none
    except (OSError, TypeError):
        pass  # a read-only cache only costs the time to compute again
    return value


def _draw_svg_plot(
    title: str,
    x_label: str,
    y_label: str,
    series: list[dict],
    *,
    logx: bool = False,
    logy: bool = False,
    fits: list[dict] | None = None,
) -> Markup:
    import matplotlib

    matplotlib.use("svg", force=True)
    import matplotlib.pyplot as plt

    # ids in the SVG derived from its content, not drawn at random: the same data gives the same page
    matplotlib.rcParams["svg.hashsalt"] = "lemmacheck"

    fig, ax = plt.subplots(figsize=(5.2, 3.2), dpi=96)
    for s in series:
        xs = [float(v) for v in s["x"]]
        ys = [float(v) if v is not None and v != "nan" else math.nan for v in s["y"]]
        if logy:
            ys = [y if y > 0 else math.nan for y in ys]
        ax.plot(xs, ys, marker="o", ms=3, lw=1.4, label=str(s["label"]))
    for f in fits or []:
        ax.plot(f["x"], f["y"], ls="--", lw=1, color="grey", label=f["label"])
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.set_title(title, fontsize=9)
    ax.set_xlabel(x_label, fontsize=8)
    ax.set_ylabel(y_label, fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(alpha=0.3)
    if len(series) + len(fits or []) > 1:
        ax.legend(fontsize=7)
    fig.tight_layout()
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    svg = buf.getvalue()
    return sanitize_svg(svg[svg.index("<svg") :])


def _approx_plot(claim: dict) -> Markup | None:
    ev = claim.get("evidence") or {}
    eps, rem = ev.get("eps"), ev.get("median_remainder")
    if not eps or not rem:
        return None
    order = ev.get("order_claimed")
    fits = []
    pos = [(e, r) for e, r in zip(eps, rem, strict=True) if isinstance(r, (int, float)) and r > 0]
    if order and pos:
        e0, r0 = pos[-1]
        fits.append(
            {"x": eps, "y": [r0 * (e / e0) ** order for e in eps], "label": f"slope {order} (claimed)"}
        )
    measured = f"measured (order ≈ {ev.get('order_median', float('nan')):.2f})"
    return svg_plot(
        f"{claim['id']}: remainder vs step",
        "ε",
        "median |lhs − rhs|",
        [{"label": measured, "x": eps, "y": rem}],
        logx=True,
        logy=True,
        fits=fits,
    )


def _histogram_svg(title: str, x_label: str, values: list[float], bins: list[float]) -> Markup | None:
    if not values:
        return None
    return _cached(
        ("histogram", title, x_label, values, bins), lambda: _draw_histogram(title, x_label, values, bins)
    )


def _draw_histogram(title: str, x_label: str, values: list[float], bins: list[float]) -> Markup:
    import matplotlib

    matplotlib.use("svg", force=True)
    import matplotlib.pyplot as plt

    # ids in the SVG derived from its content, not drawn at random: the same data gives the same page
    matplotlib.rcParams["svg.hashsalt"] = "lemmacheck"

    fig, ax = plt.subplots(figsize=(5.2, 2.8), dpi=96)
    ax.hist(values, bins=bins, color="#2f6fb0", edgecolor="white")
    ax.set_title(title, fontsize=9)
    ax.set_xlabel(x_label, fontsize=8)
    ax.set_ylabel("claims", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    plt.close(fig)
    svg = buf.getvalue()
    return sanitize_svg(svg[svg.index("<svg") :])


def _summary_plots(claims: list[dict]) -> list[Markup]:
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
        _histogram_svg(
            f"Tightness of the {len(tight)} bounds that hold (max lhs/rhs; 1 = attained)",
            "max lhs/rhs",
            [min(t, 1.05) for t in tight],
            [i / 20 for i in range(22)],
        ),
        _histogram_svg(
            f"Violation rate of the {len(rates)} refuted numeric claims over sampled instances",
            "% of instances violating",
            rates,
            list(range(0, 105, 5)),
        ),
        _histogram_svg(
            f"Fitted remainder order of the {len(orders)} approximations",
            "order",
            [min(o, 6) for o in orders],
            [i / 4 for i in range(0, 26)],
        ),
    ]
    return [p for p in plots if p is not None]


def _findings(claims: list[dict], studies: list[dict]) -> dict:
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


def _short(v: Any, limit: int = 600) -> str:
    s = str(v)
    return s if len(s) <= limit else s[:limit] + " …"


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


def _kept_from(claim: dict, run: dict) -> dict | None:
    """When and at which seed a claim the run did not check (a selection's report) was checked."""
    checked = claim.get("checked")
    if not isinstance(checked, dict) or not run.get("carried"):
        return None
    if (checked.get("at"), checked.get("seed")) == (run.get("started"), run.get("seed")):
        return None
    return checked


def _prepare(data: dict) -> dict:
    # Grouped for reading: by document, then topic, then id (the JSON keeps the run's order).
    claims = sorted(
        data.get("claims", []),
        key=lambda c: (c.get("source", {}).get("file", ""), c["id"].split(".", 1)[0], c["id"]),
    )
    for c in claims:
        c["mathml"], c["math_warning"] = latex_to_mathml(c.get("statement", ""))
        try:
            c["plot"] = _approx_plot(c) if c.get("kind") == "approximation" else None
        except Exception:  # odd evidence: the card shows its numbers, without the plot
            c["plot"] = None
        c["document"] = c.get("source", {}).get("file", "")
        c.setdefault("topic", c["id"].split(".", 1)[0])
        c["kept_from"] = _kept_from(c, data.get("run") or {})
    for s in data.get("studies", []):
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
    per_doc: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    per_topic: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    for c in claims:
        per_doc[c["document"]][c["verdict"]] += 1
        per_topic[c["topic"]][c["verdict"]] += 1
        if (c.get("proof") or {}).get("status") == ProofStatus.BROKEN.value:
            per_doc[c["document"]]["proof broken"] += 1
            per_topic[c["topic"]]["proof broken"] += 1
    verdicts = [v.value for v in Verdict]
    return {
        "data": data,
        "claims": claims,
        "studies": data.get("studies", []),
        "verdicts": verdicts,
        "groups": _groups(claims),
        "per_doc": sorted(per_doc.items()),
        "per_topic": sorted(per_topic.items()),
        "documents": sorted(per_doc),
        "topics": sorted(per_topic),
        "short": _short,
        "summary_plots": _summary_plots(claims),
        "findings": _findings(claims, data.get("studies", [])),
        "mutation": mutation_section(data.get("mutation")),
    }


def render_mutation_section(data: dict | None) -> str:
    """The mutation section on its own (autoescaped, the page's environment), from the data of
    ``reports/mutation.json``: for tests and for a page other than the main report."""
    return _environment().get_template("_mutation.jinja2").render(mutation=mutation_section(data))


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
    context = _prepare({"claims": claims, "studies": []})
    _render_cards(env, context["claims"], "claim", "c")
    return [c["card"] for c in context["claims"]]


def render_html(data: dict, *, plot_cache: Path | None = None) -> str:
    """The report page; ``plot_cache``: a folder where drawn plots and converted statements are kept
    between renders (the sanitised SVG and MathML, keyed by their data and this module's source)."""
    _PLOT_CACHE[:] = [Path(plot_cache)] if plot_cache is not None else []
    try:
        return _render_html(data)
    finally:
        _PLOT_CACHE.clear()


def _render_html(data: dict) -> str:
    env = _environment()
    context = _prepare(data)
    _render_cards(env, context["claims"], "claim", "c")
    _render_cards(env, context["studies"], "study", "s")
    return env.get_template("index.jinja2").render(
        **context, csp=CONTENT_SECURITY_POLICY, report_script=Markup(REPORT_SCRIPT)
    )


def _render_cards(env: jinja2.Environment, items: list[dict], kind: str, name: str) -> None:
    """Each claim card and study section on its own (one partial per kind of content): evidence is
    open-ended, and one claim whose evidence the card cannot show gets a plain card with its raw data
    instead of breaking the whole page."""
    import json

    template, fallback = env.get_template(f"{kind}.jinja2"), env.get_template(f"{kind}_fallback.jinja2")
    for item in items:
        try:
            item["card"] = Markup(template.render({name: item, "short": _short}))
        except Exception as exc:
            raw = {k: v for k, v in item.items() if not isinstance(v, Markup) and k not in ("svgs", "card")}
            item["card"] = Markup(
                fallback.render(
                    {
                        name: item,
                        "problem": f"{type(exc).__name__}: {exc}",
                        "raw": _short(json.dumps(raw, indent=1, ensure_ascii=False, default=str), 4000),
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
