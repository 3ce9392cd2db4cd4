"""Hostile text for every field of results.json that reaches the report (shared by the report tests).

Each payload, if it ran, would call ``alert`` with its own name, so a test can say which one got through.
"""

from __future__ import annotations

import copy

PAYLOADS = {
    "script": "<script>alert('script')</script>",
    "img-onerror": "<img src=x onerror=\"alert('img-onerror')\">",
    "attr-breakout": "\"'><svg onload=\"alert('attr-breakout')\">",
    "javascript-url": "<a id=jsurl href=\"javascript:alert('javascript-url')\">click</a>",
    "bare-javascript-url": "javascript:alert('bare-javascript-url')",
    "svg": "<svg><script>alert('svg')</script><animate onbegin=\"alert('svg-animate')\"/></svg>",
    "mathml": "<math><mtext><table><mglyph><style><img src=x onerror=\"alert('mathml')\"></style></mglyph>"
              "</table></mtext></math>",
    "iframe": "<iframe srcdoc=\"<script>parent.alert('iframe')</script>\"></iframe>",
    "comment": "--><script>alert('comment')</script><!--",
    "pre-breakout": "</pre></code></td></table><script>alert('pre-breakout')</script>",
}

LATEX_PAYLOADS = {
    "latex-text-script": r"\text{<script>alert('latex-text-script')</script>}",
    "latex-text-img": r"\text{<img src=x onerror=alert('latex-text-img')>}",
    "latex-href": r"\href{javascript:alert('latex-href')}{x}",
    "latex-mathrm": r"\mathrm{</math><svg onload=alert('latex-mathrm')>}",
    "latex-mtext-breakout": r"x \le \text{</mtext></math><img src=x onerror=alert('latex-mtext-breakout')>}",
}

_CLAIM = {
    "id": "demo.claim", "title": "t", "source": {"file": "f", "location": "l", "quote": "q"},
    "statement": r"x \le y", "kind": "inequality", "expected": "HOLDS", "verdict": "REFUTED",
    "matches_expectation": False,
    "evidence": {"instances": 10, "hypothesis_examples": 2, "relation": "<=", "tightness": 1.5,
                 "violations": 3, "violation_rate": 0.3,
                 "counterexample": {"dims": {"n": "D"}, "inputs": {"x": "I"}, "lhs": "L", "rhs": "R",
                                    "dps": 60, "point": "P"},
                 "comparison": [{"where": "W", "stated": "S", "computed": "C", "match": False}],
                 "fitted_exponents": {"n": "F"}, "stated_exponents": {"n": "S"}, "slack": "K"},
    "steps": [{"index": 1, "label": "S1", "relation": "<=", "status": "holds", "checked": 3, "violations": 0,
               "max_ratio": None, "max_rel_gap": None, "detail": "D1"},
              {"index": 2, "label": "S2", "relation": "<=", "status": "broken", "checked": 3,
               "violations": 1, "max_ratio": None, "max_rel_gap": None, "detail": "D2"}],
    "first_broken_step": 2, "expected_broken_step": None, "corrects": "C", "corrected_by": ["CB"],
    "same_as": ["SA"], "notes": "N", "message": "M", "seed": 1, "seconds": 0.1, "replay": "R", "module": "M",
    "doc": "DOC", "topic": "demo",
}


def _fill(obj, text: str):
    """Every string leaf of ``obj`` replaced by ``text`` (numbers and booleans kept)."""
    if isinstance(obj, dict):
        return {k: _fill(v, text) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_fill(v, text) for v in obj]
    return text if isinstance(obj, str) else obj


def hostile_results() -> dict:
    """A results dict with each payload in every text field of one claim and one study, plus one claim
    per LaTeX payload in its statement."""
    claims = []
    for name, text in PAYLOADS.items():
        c = _fill(copy.deepcopy(_CLAIM), text)
        c["id"] = f"{text}.{name}"
        c["verdict"], c["expected"], c["kind"] = "REFUTED", text, text
        claims.append(c)
    for name, latex in LATEX_PAYLOADS.items():
        c = copy.deepcopy(_CLAIM)
        c["id"], c["statement"] = f"latex.{name}", latex
        claims.append(c)
    studies = [{"id": text, "title": text, "source": {"file": text, "location": text}, "related": [text],
                "module": text, "conclusion": text, "error": text, "seconds": 0.1,
                "tables": [{"title": text, "columns": [text, "n"], "rows": [[text, 1.5], [text, 2]]}],
                "plots": [{"title": text, "x_label": text, "y_label": text, "logx": False, "logy": False,
                           "series": [{"label": text, "x": [1, 2], "y": [1, 2]}]}]}
               for text in PAYLOADS.values()]
    counts = {v: 0 for v in ("PROVED", "HOLDS", "REFUTED", "APPROXIMATE", "INCONCLUSIVE", "ERROR")}
    for c in claims:
        counts[c["verdict"]] += 1
    text = PAYLOADS["script"]
    return {"schema_version": 1,
            "tool": {"name": "lemmacheck", "version": text, "python": text, "numpy": text},
            "run": {"seed": 1, "profile": text, "started": text, "seconds": 0.1, "selection": text,
                    "replay": text},
            "counts": counts, "mismatches": [c["id"] for c in claims], "claims": claims, "studies": studies}
