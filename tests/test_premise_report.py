"""The report's graph pages (issue 36 §2): one per document and one for the catalogue, a table of
standings above a dependency graph laid out by Graphviz dot, nodes linking to their cards; the page
degrades with a clear message where dot is absent; no claim text reaches dot or runs in a browser."""

from __future__ import annotations

import re
import shutil

import pytest

from conftest import planted_meta
from lemmacheck import Array, Source, Verdict, inequality
from lemmacheck.report import graph_layout
from lemmacheck.report.html import render_html
from lemmacheck.run.engine import run_claims
from lemmacheck.search.profile import QUICK

DOT = shutil.which("dot")
needs_dot = pytest.mark.skipif(DOT is None, reason="Graphviz dot is not installed (apt-get install graphviz)")


def _bound(claim_id: str, constant: float, uses=(), source=None, **kw) -> None:
    expected = Verdict.REFUTED if constant < 1 else Verdict.HOLDS
    meta = planted_meta(expected)
    if source is not None:
        meta["source"] = source

    @inequality(claim_id, inputs={"x": Array("n")}, dims={"n": [1, 2]}, uses=uses, **meta, **kw)
    def check(xp, x):
        a = xp.sum(xp.abs(x), axis=-1)
        return a, constant * a


def planted_report() -> dict:
    """Two documents: in the first a refuted lemma, its corrected form, and a chain built on the lemma;
    the second's result uses the first's (a premise across documents)."""
    other = Source("second.txt", "§2, Theorem <b>3</b>")
    _bound("planted.lemma", 0.5, source=Source("planted.txt", "Lemma 1"))
    _bound(
        "planted.lemma_fixed",
        1.0,
        corrects="planted.lemma",
        source=Source("planted.txt", "Lemma 1 (corrected)"),
    )
    _bound("planted.eq7", 2.0, uses=("planted.lemma",), source=Source("planted.txt", "eq. (7)"))
    _bound("planted.lip", 2.0, uses=("planted.eq7",), source=Source("planted.txt", "eq. (22)"))
    _bound("planted.alone", 2.0)
    _bound("planted.theorem", 3.0, uses=("planted.lip",), source=other)
    return run_claims(QUICK.with_seed(1), with_studies=False).to_dict()


@needs_dot
def test_each_document_and_the_catalogue_get_a_graph_page_with_its_table(registry):
    html = render_html(planted_report())
    pages = re.findall(r'<h3 id="(graph-[^"]+)">', html)
    assert pages == ["graph-planted.txt", "graph-second.txt", "graph-catalogue"]
    # every node of every graph links to a card on the page
    nodes = re.findall(r'<a class="node (g-[a-z]+)" href="#([^"]+)"', html)
    assert nodes, "no graph drawn"
    cards = set(re.findall(r'<article class="claim[^"]*" id="([^"]+)"', html))
    assert {cid for _, cid in nodes} <= cards
    colour = dict((cid, css) for css, cid in nodes)
    assert colour["planted.lemma"] == "g-refuted"
    assert colour["planted.eq7"] == colour["planted.lip"] == colour["planted.theorem"] == "g-rests"
    assert colour["planted.lemma_fixed"] == "g-stands"  # drawn beside the form as written
    assert "planted.alone" not in colour  # no premise, no dependent: in the table only
    table = html.split('<h3 id="graph-planted.txt">', 1)[1].split("</table>", 1)[0]
    assert "via planted.lip → planted.eq7 → planted.lemma" in table
    assert re.search(r"rests on\s+refuted", table) and "planted.lemma_fixed" in table
    # the card lists premises and dependents, and the tally counts standings per document
    card = html.split('id="planted.eq7"', 1)[1].split("</article>", 1)[0]
    assert 'rests on: <a href="#planted.lemma">' in card and 'used by: <a href="#planted.lip">' in card
    assert 'id="standing-tally"' in html and "3 rests on refuted" in html


@needs_dot
def test_no_claim_text_reaches_dot_and_labels_are_escaped(registry, monkeypatch):
    seen: list[str] = []
    real = graph_layout.subprocess.run

    def spy(cmd, **kw):
        seen.append(kw["input"])
        return real(cmd, **kw)

    monkeypatch.setattr(graph_layout.subprocess, "run", spy)
    html = render_html(planted_report())
    assert seen and not any("planted" in s or "Theorem" in s for s in seen)
    assert "<b>3</b>" not in html and "&lt;b&gt;3&lt;/b&gt;" in html


def test_without_dot_the_page_says_so_and_keeps_the_tables(registry, monkeypatch):
    monkeypatch.setattr(graph_layout.shutil, "which", lambda name: None)
    html = render_html(planted_report())
    assert graph_layout.DOT_MISSING in html
    assert 'class="node' not in html
    assert '<table class="standing">' in html and "rests on refuted" in html


def test_a_report_written_before_standings_is_given_them_when_rendered(registry):
    data = planted_report()
    for c in data["claims"]:
        del c["standing"]
    del data["standing_counts"]
    html = render_html(data)
    assert "what stands" in html and "rests on refuted" in html
