"""The report's plots as inline SVG (matplotlib's SVG backend), each through the SVG allowlist.

A plot's ids are derived from its content, not drawn at random, so the same data gives the same page;
each drawn plot is kept in the render cache (:mod:`.render_cache`) under its data.
"""

from __future__ import annotations

import functools
import io
import math

import numpy as np
from markupsafe import Markup

from .render_cache import cached
from .sanitize import sanitize_svg

__all__ = ["svg_plot", "histogram_svg", "approx_plot"]


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
    return cached(
        ("plot", title, x_label, y_label, series, logx, logy, fits),
        lambda: _draw_svg_plot(title, x_label, y_label, series, logx=logx, logy=logy, fits=fits),
        _is_markup,
    )


def histogram_svg(title: str, x_label: str, values: list[float], bins: list[float]) -> Markup | None:
    """A histogram of ``values`` over ``bins`` (the y axis counts claims); ``None`` when there are none."""
    if not values:
        return None
    return cached(
        ("histogram", title, x_label, values, bins),
        lambda: _draw_histogram(title, x_label, values, bins),
        _is_markup,
    )


def _is_markup(value) -> bool:
    return isinstance(value, Markup)


def approx_plot(claim: dict) -> Markup | None:
    """An approximation's remainder against its step, with the claimed order's slope beside it."""
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


def _figure(height: float):
    import matplotlib

    # ids in the SVG derived from its content, not drawn at random: the same data gives the same page
    matplotlib.rcParams["svg.hashsalt"] = "lemmacheck"
    # a Figure of its own, not pyplot's: no backend is switched and no figure is registered in the
    # process (a notebook drawing its own plots keeps its backend)
    from matplotlib.backends.backend_svg import FigureCanvasSVG

    fig = _shared_text_figure()(figsize=(5.2, height), dpi=96)
    FigureCanvasSVG(fig)  # tight_layout measures the text as the SVG will draw it
    return fig, fig.subplots()


@functools.cache
def _shared_text_figure():
    """A matplotlib Figure whose renderers share one TextToPath, made once per process.

    matplotlib gives each renderer a TextToPath of its own, and with it its own cache of parsed
    mathtext, so every log axis's tick labels (``$\\mathdefault{10^{-3}}$``) were parsed again by the
    renderer tight_layout measures with and again by the one savefig draws with: 399 parses of 25
    distinct labels for the catalogue's 22 plots, a third of their CPU.  Shared, a label is parsed once
    per process; the parse is a function of the label and its font, so the SVG is the same bytes.
    The hooks are matplotlib's private names (3.11): should one change, the sharing stops, the SVG stays
    right, and tests/test_report_plots.py says the labels are parsed again.
    """
    from matplotlib.figure import Figure
    from matplotlib.textpath import TextToPath

    shared = TextToPath()

    def sharing(renderer):
        # savefig's SVG renderer comes wrapped in a MixedModeRenderer, which draws with the one inside
        getattr(renderer, "_vector_renderer", renderer)._text2path = shared
        return renderer

    class SharedTextFigure(Figure):
        def _get_renderer(self):  # the renderer tight_layout measures text with
            return sharing(super()._get_renderer())

        def draw(self, renderer):  # the renderer savefig draws with
            super().draw(sharing(renderer))

    return SharedTextFigure


@functools.cache
def _in_view_log_locator():
    """matplotlib's minor locator of a log axis (base 10, subs 'auto', as ``set_xscale("log")`` sets it)
    giving only the ticks in the view.

    LogLocator gives the minor ticks of the decades beside the view too, and the axis builds a Tick (two
    lines, two texts) for each, updates it at every layout pass, and then draws only those in the view:
    a third of the minor ticks of the catalogue's plots were built for nothing.  The ticks dropped here
    are farther out of the view than the axis's own test lets a tick be drawn (1e-10 of the view), and
    a log axis's minor labels do not depend on the other ticks, so the SVG is the same bytes.
    """
    from matplotlib.ticker import LogLocator

    class InViewLogLocator(LogLocator):
        def __call__(self):
            locs = np.asarray(super().__call__())
            transform = self.axis.get_transform()
            lo, hi = sorted(transform.transform(self.axis.get_view_interval()))
            at = transform.transform(locs)
            margin = (hi - lo) * 1e-6
            return locs[(at >= lo - margin) & (at <= hi + margin)]

    return InViewLogLocator


def _label(ax, title: str, x_label: str, y_label: str) -> None:
    ax.set_title(title, fontsize=9)
    ax.set_xlabel(x_label, fontsize=8)
    ax.set_ylabel(y_label, fontsize=8)
    ax.tick_params(labelsize=7)


def _sanitized_svg(fig) -> Markup:
    fig.tight_layout()
    # tight_layout leaves a placeholder layout engine behind, and with any engine set savefig draws the
    # whole figure once more, with drawing disabled, before the draw it writes: a third of a plot's CPU
    # for nothing, the layout being done.  Without it the SVG is the same bytes.
    fig.set_layout_engine(None)
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    svg = buf.getvalue()
    return sanitize_svg(svg[svg.index("<svg") :])


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
    fig, ax = _figure(3.2)
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
        ax.xaxis.set_minor_locator(_in_view_log_locator()(10.0, None))
    if logy:
        ax.set_yscale("log")
        ax.yaxis.set_minor_locator(_in_view_log_locator()(10.0, None))
    _label(ax, title, x_label, y_label)
    ax.grid(alpha=0.3)
    if len(series) + len(fits or []) > 1:
        ax.legend(fontsize=7)
    return _sanitized_svg(fig)


def _draw_histogram(title: str, x_label: str, values: list[float], bins: list[float]) -> Markup:
    fig, ax = _figure(2.8)
    ax.hist(values, bins=bins, color="#2f6fb0", edgecolor="white")
    _label(ax, title, x_label, "claims")
    ax.grid(alpha=0.3, axis="y")
    return _sanitized_svg(fig)
