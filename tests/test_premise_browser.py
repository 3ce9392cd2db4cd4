"""The graph pages in a real browser (issue 36): they render in headless Chromium with no console error,
under the report's Content-Security-Policy, and clicking a node opens its card, which lists its premises
and dependents.  Drives Debian's chromium as tests/test_browser.py does."""

from __future__ import annotations

import shutil

import pytest

from lemmacheck.report.html import write_html
from test_browser import CHROMIUM, LAUNCH_ARGS
from test_premise_report import planted_report

# slow: headless Chromium; one xdist worker runs the browser tests (one Chromium)
pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.xdist_group("browser")]


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (apt-get install chromium); .ci/run installs it")
    if shutil.which("dot") is None:
        pytest.skip("Graphviz dot is not installed (apt-get install graphviz); .ci/run installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=LAUNCH_ARGS)
        yield b
        b.close()


def test_graph_pages_render_without_console_errors_and_nodes_open_their_cards(browser, registry, tmp_path):
    path = write_html(planted_report(), tmp_path / "index.html")
    page = browser.new_page(viewport={"width": 1300, "height": 1000})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(path.as_uri() + "#graph-planted.txt")
    page.wait_for_load_state("load")
    graphs = page.locator("details.graph-page")
    assert graphs.count() == 3  # two documents and the catalogue
    nodes = page.locator("details[data-page='graph-planted.txt'] a.node")
    assert nodes.count() >= 4
    box = nodes.first.bounding_box()
    assert box is not None and box["width"] > 40 and box["height"] > 15  # laid out, not collapsed
    node = page.locator("details[data-page='graph-planted.txt'] a.node[data-node='planted.eq7']")
    node.click()
    page.wait_for_function("window.location.hash === '#planted.eq7'")
    card = page.locator("article#planted\\.eq7")
    assert card.is_visible()
    card.scroll_into_view_if_needed()
    text = card.inner_text()
    assert "rests on: planted.lemma" in text and "used by: planted.lip" in text
    assert "rests on refuted" in text
    # an edge per use was drawn by the page's own SVG (no script, the CSP kept)
    assert page.locator("details[data-page='graph-planted.txt'] svg path[marker-end]").count() >= 2
    page.locator("#premises").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "graph.png"))
    assert errors == []
    page.close()


def test_hostile_text_in_the_graph_pages_never_runs(browser, tmp_path):
    """The hostile payloads of tests/report_payloads.py (script, event handlers, javascript: URLs, SVG
    and MathML) in every field of claims chained by uses=, so that their ids, locations and documents
    name graph pages, nodes, table rows and card links: following every link and node calls nothing."""
    from lemmacheck.report.html import render_html
    from report_payloads import hostile_results
    from test_browser import HANDLERS, follow_every_link

    data = hostile_results()
    for c, after in zip(data["claims"], data["claims"][1:], strict=False):
        c["uses"] = [after["id"]]
    html = render_html(data)
    assert 'class="node' in html, "the hostile claims were not drawn"
    path = tmp_path / "hostile.html"
    path.write_text(html, encoding="utf-8")
    page, dialogs, hrefs = follow_every_link(browser, path)
    assert hrefs and all((href or "").startswith("#") for href in hrefs), hrefs
    page.wait_for_timeout(300)
    calls = page.evaluate("window.__calls")
    handlers = page.evaluate(HANDLERS)
    assert page.evaluate("document.scripts.length") == 1
    page.close()
    assert calls == [] and dialogs == [] and handlers == []
