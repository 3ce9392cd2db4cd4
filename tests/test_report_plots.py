"""The report's plots: the same SVG for less work (issue 35, the run's costs outside the claims).

matplotlib gives each renderer its own mathtext parser, so a log axis's tick labels were parsed again
for every plot, twice (tight_layout's renderer and savefig's): a third of the plots' CPU in a run."""

from __future__ import annotations

import matplotlib
from matplotlib import mathtext

from lemmacheck.report import plots

LOG_SERIES = [{"label": "measured", "x": [1e-4, 1e-3, 1e-2, 1e-1], "y": [1e-9, 1e-7, 1e-5, 1e-3]}]


def _log_plot(title: str):
    return plots.svg_plot(title, "ε", "median |lhs − rhs|", LOG_SERIES, logx=True, logy=True)


def test_a_tick_label_is_parsed_once_per_process_not_once_per_plot():
    _log_plot("first")
    before = mathtext.MathTextParser._parse_cached.cache_info()
    _log_plot("second, the same axes")
    after = mathtext.MathTextParser._parse_cached.cache_info()
    assert after.misses == before.misses, (
        f"{after.misses - before.misses} tick labels parsed again for a plot whose labels were all "
        f"parsed already ({after.hits - before.hits} found): each renderer has its own parser again"
    )
    assert after.hits > before.hits, "the plot drew no mathtext tick label: the test lost its subject"


def test_sharing_the_parser_draws_the_same_svg_bytes(monkeypatch):
    shared = str(_log_plot("bytes"))
    # a Figure of matplotlib's own, each renderer parsing for itself, as before the sharing
    from matplotlib.figure import Figure

    monkeypatch.setattr(plots, "_shared_text_figure", lambda: Figure)
    alone = str(_log_plot("bytes"))
    assert shared == alone, "sharing the mathtext parser changed the SVG"


def test_drawing_a_plot_leaves_the_process_backend_alone():
    matplotlib.use("agg", force=True)
    _log_plot("backend")
    plots.histogram_svg("h", "x", [1.0, 2.0, 2.5], [0.0, 1.0, 2.0, 3.0])
    assert matplotlib.get_backend().lower() == "agg", (
        f"drawing the report's plots switched the backend to {matplotlib.get_backend()!r}: a notebook "
        "rendering a report would lose its own"
    )


def _counting_draws(monkeypatch) -> list:
    from matplotlib.figure import Figure

    drawn: list = []
    draw = Figure.draw

    def counted(self, renderer):
        drawn.append(type(renderer).__name__)
        return draw(self, renderer)

    monkeypatch.setattr(Figure, "draw", counted)
    return drawn


def test_a_plot_is_drawn_once(monkeypatch):
    # tight_layout left a placeholder layout engine on the figure, and savefig then drew the whole figure
    # once more with drawing disabled before the draw it writes: a third of a plot's CPU for nothing
    drawn = _counting_draws(monkeypatch)
    _log_plot("drawn once")
    plots.histogram_svg("drawn once", "x", [1.0, 2.0, 2.5], [0.0, 1.0, 2.0, 3.0])
    assert len(drawn) == 2, f"two plots drew the figure {len(drawn)} times ({drawn}); once each is enough"


def test_drawing_once_draws_the_same_svg_bytes(monkeypatch):
    from matplotlib.figure import Figure

    once = (str(_log_plot("the same bytes")), str(plots.histogram_svg("h", "x", [1.0, 2.5], [0.0, 1.0, 3.0])))
    drawn = _counting_draws(monkeypatch)
    keep = Figure.set_layout_engine
    # the engine tight_layout leaves kept, as before: savefig draws twice
    monkeypatch.setattr(
        Figure, "set_layout_engine", lambda fig, layout=None, **kw: layout and keep(fig, layout, **kw)
    )
    twice = (
        str(_log_plot("the same bytes")),
        str(plots.histogram_svg("h", "x", [1.0, 2.5], [0.0, 1.0, 3.0])),
    )
    assert len(drawn) == 4, f"the reference drew {len(drawn)} times, not twice a plot: it lost its subject"
    assert once == twice, "drawing a plot once changed its SVG"


#: log axes over many decades, about one, and less than one (where the minor ticks are labelled)
SPANS = {
    "decades": [1e-9, 1e-7, 1e-5, 1e-3],
    "one decade": [2e-3, 4e-3, 9e-3, 2.2e-2],
    "within a decade": [2.1e-3, 2.5e-3, 3.3e-3, 4.4e-3],
}


def _plots_over_spans() -> list[str]:
    return [
        str(plots.svg_plot(name, "x", "y", [{"label": name, "x": ys, "y": ys[::-1]}], logx=True, logy=True))
        for name, ys in SPANS.items()
    ]


def test_a_log_axis_builds_only_the_minor_ticks_it_draws(monkeypatch):
    # matplotlib's minor locator gives the ticks of the decades beside the view too, and the axis built a
    # Tick (two lines, two texts) for each before drawing only those in view
    from matplotlib.ticker import LogLocator

    seen: list[tuple[int, int, int]] = []  # (ticks built, matplotlib's minor ticks, those in view)
    sanitized_svg = plots._sanitized_svg

    def counting(fig):
        svg = sanitized_svg(fig)
        for axis in (a for ax in fig.axes for a in (ax.xaxis, ax.yaxis)):
            locator = LogLocator(10.0, None)
            locator.set_axis(axis)
            lo, hi = sorted(axis.get_view_interval())
            locs = [x for x in locator() if x not in axis.get_majorticklocs()]
            seen.append((len(axis.minorTicks), len(locs), sum(lo <= x <= hi for x in locs)))
        return svg

    monkeypatch.setattr(plots, "_sanitized_svg", counting)
    _plots_over_spans()
    built_for_nothing = [(b, n) for b, _, n in seen if b != n]
    assert not built_for_nothing, f"(ticks built, ticks drawn) per axis: {built_for_nothing}"
    assert any(m > n for _, m, n in seen), "no axis had a minor tick out of view: the test lost its subject"


def test_only_the_minor_ticks_in_view_draw_the_same_svg_bytes(monkeypatch):
    from matplotlib.ticker import LogLocator

    in_view = _plots_over_spans()
    monkeypatch.setattr(plots, "_in_view_log_locator", lambda: LogLocator)
    assert in_view == _plots_over_spans(), "building only the minor ticks in view changed the SVG"
