"""The report and the command line: built from data, escaped, robust to bad LaTeX, CI-friendly exit code."""

from __future__ import annotations

import html.parser
import json
import textwrap

import pytest
from markupsafe import escape

from lemmacheck.cli import main as cli
from lemmacheck.report.html import latex_to_mathml, render_html


def _data(**claim_overrides) -> dict:
    claim = {
        "id": "demo.claim",
        "title": "demo",
        "source": {"file": "000.txt", "location": "eq. (1)", "quote": "q"},
        "statement": r"\frac{1}{2}\|x\|_\infty^2",
        "kind": "inequality",
        "expected": "HOLDS",
        "verdict": "HOLDS",
        "matches_expectation": True,
        "evidence": {"instances": 10, "hypothesis_examples": 2, "relation": "<=", "tightness": 0.5},
        "steps": [],
        "first_broken_step": None,
        "expected_broken_step": None,
        "corrects": None,
        "corrected_by": [],
        "same_as": [],
        "notes": "",
        "message": "",
        "seed": 1,
        "seconds": 0.1,
        "replay": "lemmacheck run --seed 1 -k demo.claim",
        "module": "checks.demo",
        "doc": "",
        "topic": "demo",
    }
    claim.update(claim_overrides)
    counts = {v: 0 for v in ("PROVED", "HOLDS", "REFUTED", "APPROXIMATE", "ERROR")}
    counts[claim["verdict"]] += 1
    return {
        "schema_version": 1,
        "run": {
            "seed": 1,
            "profile": "quick",
            "started": "now",
            "seconds": 0.1,
            "selection": "",
            "replay": "lemmacheck run --seed 1",
        },
        "counts": counts,
        "mismatches": [],
        "claims": [claim],
        "studies": [],
    }


def test_statement_renders_as_mathml():
    html = render_html(_data())
    assert "<math" in html and "<mfrac>" in html


def test_text_from_a_claim_is_escaped():
    html = render_html(
        _data(
            notes="<script>alert('x')</script>",
            title="<b>bold</b>",
            source={"file": "<i>f</i>", "location": "x", "quote": '"><img src=x>'},
        )
    )
    assert "<script>alert" not in html
    assert "&lt;script&gt;" in html and "&lt;b&gt;bold" in html and "<img src=x>" not in html


@pytest.mark.parametrize("latex", [r"\frac{1}{", r"\notacommand{x}"])
def test_latex_that_will_not_render_shows_source_and_warning(latex):
    mathml, warning = latex_to_mathml(latex)
    assert mathml is None and "did not render" in warning
    html = render_html(_data(statement=latex))
    assert "did not render" in html
    assert latex.replace("{", "{") in html


def _project(tmp_path, body: str, package: str):
    # A package name of its own per test: Python caches imported modules by name.
    (tmp_path / "pyproject.toml").write_text(f'[tool.lemmacheck]\ncontent = ["{package}"]\n')
    pkg = tmp_path / package
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "demo.py").write_text(textwrap.dedent(body))
    (tmp_path / "checks").mkdir()  # marks the folder as a lemmacheck project root
    return tmp_path


def test_cli_exits_nonzero_on_a_mismatch_and_writes_both_files(tmp_path, monkeypatch, capsys):
    root = _project(
        tmp_path,
        """
        from lemmacheck import Source, Verdict, inequality
        from lemmacheck.model.inputs import Array

        @inequality("cli.wrong_expectation", inputs={"x": Array()}, title="t", source=Source("f", "l"),
                    statement="x \\\\le x+1", expected=Verdict.REFUTED)
        def wrong(xp, x):
            return x, x + 1
    """,
        "planted_cli_mismatch",
    )
    monkeypatch.chdir(root)
    from lemmacheck.model.claim import REGISTRY

    with REGISTRY.scratch():
        code = cli.main(["run", "--seed", "3", "--quiet", "-j", "1"])
    out = capsys.readouterr().out
    assert code == 1
    assert "lemmacheck: seed 3" in out.splitlines()[0]
    assert "cli.wrong_expectation: computed HOLDS, expected REFUTED" in out
    data = json.loads((root / "reports" / "results.json").read_text())
    assert data["mismatches"] == ["cli.wrong_expectation"]
    assert (root / "reports" / "index.html").read_text().count("cli.wrong_expectation") >= 1


def test_broken_content_module_is_an_error_not_a_crash(tmp_path, monkeypatch, capsys):
    root = _project(tmp_path, "raise ImportError('a broken module')\n", "planted_cli_broken")
    monkeypatch.chdir(root)
    from lemmacheck.model.claim import REGISTRY

    with REGISTRY.scratch():
        code = cli.main(["run", "--seed", "3", "--quiet", "--no-html", "-j", "1"])
    out = capsys.readouterr().out
    assert code == 1 and "a broken module" in out


@pytest.mark.slow  # a pytest session importing the whole catalogue; planted: test_plugin_xdist.py
def test_pytest_plugin_writes_the_same_report(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    out = tmp_path / "pytest-report"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "tests/test_claims.py",
            "-q",
            "-p",
            "no:cacheprovider",
            "-k",
            "schatten.hadamard",
            "--lemmacheck-seed",
            "5",
            "--lemmacheck-report",
            str(out),
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    data = json.loads((out / "results.json").read_text())
    assert [c["id"] for c in data["claims"]] == ["schatten.hadamard"]
    assert data["run"]["seed"] == 5
    assert "schatten.hadamard" in (out / "index.html").read_text()


# --------------------------------------------------------------------------- hostile text (issue 13)


class _StartTags(html.parser.HTMLParser):
    def __init__(self, markup: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.script_text: list[str] = []
        self._in_script = False
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_data(self, data):
        if self._in_script:
            self.script_text.append(data)

    def handle_endtag(self, tag):
        self._in_script = False


def test_hostile_text_in_every_field_reaches_the_page_as_text_only():
    from lemmacheck.report.html import CONTENT_SECURITY_POLICY, REPORT_SCRIPT
    from report_payloads import LATEX_PAYLOADS, PAYLOADS, hostile_results

    html = render_html(hostile_results())
    parsed = _StartTags(html)
    scripts = [a for t, a in parsed.tags if t == "script"]
    assert len(scripts) == 1 and "".join(parsed.script_text) == REPORT_SCRIPT
    handlers = [(t, k) for t, a in parsed.tags for k in a if k.lower().startswith("on")]
    assert handlers == []
    urls = [
        (t, k, v)
        for t, a in parsed.tags
        for k, v in a.items()
        if k.lower() in ("href", "src", "xlink:href", "srcdoc", "action") and not (v or "").startswith("#")
    ]
    assert urls == []
    tags = [t for t, _ in parsed.tags]
    assert not set(tags) & {"iframe", "img", "object", "embed", "animate", "base", "form", "link", "mglyph"}
    assert tags.count("style") == 1  # the page's own
    csp = [a for t, a in parsed.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert csp and csp[0]["content"] == CONTENT_SECURITY_POLICY
    assert (
        "script-src 'sha256-" in CONTENT_SECURITY_POLICY
        and "unsafe-inline" not in CONTENT_SECURITY_POLICY.split("script-src")[1].split(";")[0]
    )
    # The text is still there for a reader, escaped (the test would pass vacuously if it were dropped).
    # (A LaTeX payload either renders as harmless MathML letters or is shown as its source.)
    for text in [*PAYLOADS.values(), *(v for v in LATEX_PAYLOADS.values() if r"\text{" in v)]:
        assert str(escape(text)) in html, text


@pytest.mark.parametrize("latex", [r"\text{<script>alert(1)</script>}", r"\text{<b onclick=x>y</b>}"])
def test_statement_with_markup_inside_text_is_shown_as_source(latex):
    mathml, warning = latex_to_mathml(latex)
    assert mathml is None and "not MathML" in warning


def test_study_table_cells_are_escaped_once():
    data = _data()
    data["studies"] = [
        {
            "id": "s.one",
            "title": "study",
            "source": None,
            "related": [],
            "module": "m",
            "conclusion": "",
            "error": "",
            "seconds": 0.1,
            "plots": [],
            "tables": [{"title": "T", "columns": ["a<b"], "rows": [["x<y & z", 0.5]]}],
        }
    ]
    html = render_html(data)
    assert "x&lt;y &amp; z" in html and "&amp;lt;" not in html


# --------------------------------------------------------------------------- every statement renders (14.3)


@pytest.mark.parametrize(
    "latex",
    [
        r"w = \arg\max_i \delta_T(j)",
        r"\operatorname{sgn}(x)",
        r"\tr(A^\top A)",
        r"\rank M \le n",
        r"\diag(\sigma'(a))",
    ],
)
def test_operator_names_render(latex):
    mathml, warning = latex_to_mathml(latex)
    assert mathml is not None, warning


def test_no_statement_of_the_catalogue_falls_back_to_raw_latex():
    from lemmacheck.model.claim import REGISTRY
    from lemmacheck.project.discovery import discover

    discover()
    assert len(REGISTRY) > 0
    rendered = {c.id: latex_to_mathml(c.statement) for c in REGISTRY}  # once per statement
    raw = [(cid, warning) for cid, (mathml, warning) in rendered.items() if mathml is None]
    assert raw == []


# --------------------------------------------------------------------------- documents by title (14.2)


def test_documents_are_shown_by_short_title_with_the_file_name_on_hover():
    import re

    from lemmacheck.report.documents import DOCUMENTS

    seed = "001_8cf8400e422d2236.txt"
    data = _data(source={"file": seed, "location": "eq. (2)", "quote": "q"})
    data["claims"].append(
        _data(id="own.claim", source={"file": "my_notes.md", "location": "§1", "quote": ""})["claims"][0]
    )
    html = render_html(data)
    text_only = re.sub(r"<[^>]*>", " ", html)
    assert seed not in text_only  # the hash appears only in attributes (hover, filter values)
    assert DOCUMENTS[seed].short in text_only and "my_notes.md" in text_only
    assert f'title="{escape(DOCUMENTS[seed].hover)}"' in html and seed in DOCUMENTS[seed].hover


def test_every_seed_document_has_a_title():
    from pathlib import Path

    from lemmacheck.report.documents import DOCUMENTS

    seeds = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"
    if not seeds.is_dir():
        pytest.skip(f"the seed documents are not beside the checkout ({seeds})")
    assert sorted(p.name for p in seeds.glob("*.txt")) == sorted(DOCUMENTS)


# --------------------------------------------------------------------------- one odd claim, one card


@pytest.mark.parametrize(
    ("key", "value"), [("kept_fraction", "nan"), ("violation_rate", "nan"), ("comparison", True)]
)
def test_odd_evidence_shows_a_plain_card_and_the_rest_of_the_page(key, value):
    # Evidence is open-ended and non-finite numbers are strings ("nan"): the card template cannot
    # foresee every shape, so one odd claim gets a plain card with its raw data, never a broken page.
    data = _data()
    odd = json.loads(json.dumps(data["claims"][0]))
    odd["id"], odd["evidence"][key] = "demo.odd", value
    if key == "comparison":  # the comparison partial is the one that reads it
        odd["evidence_kind"] = "comparison"
    odd["evidence"]["order_claimed"] = 2
    data["claims"].append(odd)
    html = render_html(data)
    cards = html.split("<article")[1:]
    assert len(cards) == 2 and "<mfrac>" in cards[0]  # the good card is whole
    assert "could not be displayed" in cards[1] and "demo.odd" in cards[1]


RLO = "\u202e"


def test_a_claim_id_with_a_right_to_left_override_reverses_nothing_on_the_page_or_the_terminal(
    tmp_path, monkeypatch, capsys
):
    # found: an id rejected for holding U+202E was echoed into the report's summary line, where it
    # reversed the ids after it
    root = _project(
        tmp_path,
        f"""
        from lemmacheck import Source, Verdict, value

        META = dict(title="t{RLO}itle", source=Source("f", "l"), statement="4 = 4", expected=Verdict.PROVED)
        value("rlo.bad{RLO}id", computed=lambda: 4, stated=4, **META)
        value("rlo.after", computed=lambda: 4, stated=4, **META)
    """,
        "planted_rlo",
    )
    monkeypatch.chdir(root)
    from lemmacheck.model.claim import REGISTRY

    with REGISTRY.scratch():
        code = cli.main(["run", "--seed", "3", "--quiet", "-j", "1", "--no-studies"])
    out, err = capsys.readouterr()
    assert code == 1, out + err  # the malformed declaration is an ERROR
    page = (root / "reports" / "index.html").read_text()
    assert "rlo.after" in page and "rlo.bad\\u202eid" in page, "the id is shown, its control as an escape"
    for text, where in ((page, "index.html"), (out + err, "the terminal")):
        assert RLO not in text, f"a raw U+202E reached {where}"
    assert RLO in (root / "reports" / "results.json").read_text(), "the data keeps the id as written"


def test_a_second_render_in_a_process_compiles_no_template_again(monkeypatch, tmp_path):
    # Compiling the templates was about a tenth of a render (issue 35: the report after the last claim);
    # `watch` renders again on every save. An edited template is still read again (Jinja's auto_reload).
    import jinja2

    compiled: list[str] = []
    original = jinja2.Environment.compile

    def counting(self, source, name=None, *args, **kwargs):
        compiled.append(name)
        return original(self, source, name, *args, **kwargs)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    first = render_html(_data())  # compiles what no render before it in this process compiled
    compiled.clear()
    assert render_html(_data()) == first
    assert compiled == [], f"templates compiled again: {compiled}"
