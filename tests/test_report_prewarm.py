"""The report's plots and statements are drawn while the last claims are checked (issue 35 §1, fixed
costs): the report at the end finds them in the render cache instead of drawing them on one core."""

from __future__ import annotations

from lemmacheck.report import mathml, plots
from lemmacheck.report.prewarm import Prewarm
from lemmacheck.report.render_cache import kept_in

APPROXIMATION = {
    "id": "planted.remainder",
    "kind": "approximation",
    "statement": r"f(x + \varepsilon) - f(x) = O(\varepsilon)",
    "evidence": {
        "eps": [1e-4, 1e-3, 1e-2],
        "median_remainder": [1e-8, 1e-6, 1e-4],
        "order_claimed": 2,
        "order_median": 2.0,
    },
}


def test_what_the_prewarm_drew_is_not_drawn_again_by_the_report(tmp_path, monkeypatch):
    warm = Prewarm(tmp_path)
    warm.claim(APPROXIMATION)
    warm.claim({"id": "planted.other", "kind": "inequality", "statement": r"a \le b"})
    warm.close()
    drawn: list[str] = []
    monkeypatch.setattr(plots, "_draw_svg_plot", lambda title, *a, **k: drawn.append(title))
    monkeypatch.setattr(mathml, "_latex_to_mathml", lambda latex: drawn.append(latex))
    with kept_in(tmp_path):
        assert plots.approx_plot(APPROXIMATION) is not None
        for latex in (APPROXIMATION["statement"], r"a \le b"):
            assert mathml.latex_to_mathml(latex)[0] is not None
    assert drawn == [], "the report drew again what the prewarm had drawn"


def test_a_claim_the_prewarm_cannot_draw_is_left_to_the_report(tmp_path):
    warm = Prewarm(tmp_path)
    warm.claim({"id": "planted.odd", "kind": "approximation", "statement": "", "evidence": {"eps": [1.0]}})
    warm.claim(APPROXIMATION)  # the thread goes on after a failure
    warm.close()
    assert len(list(tmp_path.iterdir())) >= 2  # the approximation's statement and plot


class _CountedResult:
    """A result whose conversion to a dict is counted (the conversion is 1-1.4 ms of the parent's time)."""

    matches_expectation = True

    def __init__(self):
        self.converted = 0

    def to_dict(self) -> dict:
        self.converted += 1
        return dict(APPROXIMATION)


def test_a_result_is_converted_once_for_the_prewarm_and_the_journal(tmp_path):
    import argparse

    from lemmacheck.cli.run_session import RunSession
    from lemmacheck.report.folder import Journal

    journal = Journal(tmp_path, {"seed": 7})
    args = argparse.Namespace(exitfirst=False)
    session = RunSession(args, tmp_path, None, None, tmp_path, None, journal, "")
    session.prewarm = Prewarm(tmp_path / "plots")
    result = _CountedResult()
    session.on_result(result)
    session.prewarm.close()
    journal.close()
    assert result.converted == 1, f"the result was converted to a dict {result.converted} times, not once"
    assert journal.path.read_text(encoding="utf-8").count("planted.remainder") == 1


STUDY = {
    "id": "planted.study",
    "plots": [
        {
            "title": "planted decay",
            "x_label": "t",
            "y_label": "ratio",
            "series": [{"label": "median", "x": [1, 2, 3], "y": [1.0, 0.1, 0.01]}],
            "logy": True,
        }
    ],
}


def test_a_study_the_prewarm_drew_is_not_drawn_again_by_the_report(tmp_path, monkeypatch):
    from lemmacheck.report.context import draw_study

    warm = Prewarm(tmp_path)
    warm.study(STUDY)
    warm.close()
    assert "svgs" not in STUDY, "the prewarm wrote into the run's study result"
    drawn: list[str] = []
    monkeypatch.setattr(plots, "_draw_svg_plot", lambda title, *a, **k: drawn.append(title))
    shown = dict(STUDY)
    with kept_in(tmp_path):
        draw_study(shown)
    assert drawn == [], "the report drew again the study plots the prewarm had drawn"
    assert len(shown["svgs"]) == 1 and "<svg" in str(shown["svgs"][0])
