"""Transitions since the last run: one record per case, one parametrised test over the table."""

from __future__ import annotations

import copy

import pytest

from lemmacheck.report.changes import Transition, diff, format_transitions

BASE = {
    "run": {"seed": 1},
    "claims": [
        {"id": "a.holds", "verdict": "HOLDS", "first_broken_step": None, "steps": []},
        {
            "id": "b.chain",
            "verdict": "HOLDS",
            "first_broken_step": None,
            "steps": [
                {"index": 1, "label": "expand", "status": "holds"},
                {"index": 2, "label": "bound", "status": "holds"},
            ],
        },
        {
            "id": "c.proved",
            "verdict": "PROVED",
            "first_broken_step": None,
            "steps": [],
            "proof": {"status": "complete"},
        },
    ],
}


def _edit(fn):
    doc = copy.deepcopy(BASE)
    fn({c["id"]: c for c in doc["claims"]}, doc)
    return doc


CASES = [
    ("nothing changed", lambda c, d: None, []),
    (
        "refuted now",
        lambda c, d: c["a.holds"].update(verdict="REFUTED"),
        [Transition("a.holds", "verdict", "HOLDS", "REFUTED")],
    ),
    (
        "newly broken step",
        lambda c, d: (
            c["b.chain"].update(first_broken_step=2),
            c["b.chain"]["steps"][1].update(status="broken"),
        ),
        [
            Transition("b.chain", "first broken step", None, 2),
            Transition("b.chain", "step 2 (bound)", "holds", "broken"),
        ],
    ),
    (
        "proof status",
        lambda c, d: c["c.proved"]["proof"].update(status="gap"),
        [Transition("c.proved", "proof status", "complete", "gap")],
    ),
    (
        "new claim",
        lambda c, d: d["claims"].append({"id": "d.new", "verdict": "HOLDS"}),
        [Transition("d.new", "new", None, "HOLDS")],
    ),
    ("removed claim", lambda c, d: d["claims"].pop(0), [Transition("a.holds", "removed", "HOLDS", None)]),
]


@pytest.mark.parametrize(("name", "edit", "expected"), CASES, ids=[c[0] for c in CASES])
def test_transitions(name, edit, expected):
    assert diff(BASE, _edit(edit)) == expected


def test_no_previous_run_reports_nothing():
    assert diff(None, BASE) == []


def test_format_names_each_transition_and_a_seed_change():
    current = _edit(lambda c, d: c["a.holds"].update(verdict="REFUTED"))
    text = format_transitions(diff(BASE, current), previous_seed=1, current_seed=2)
    assert "a.holds: HOLDS -> REFUTED" in text and "seed 1 then 2" in text
    assert format_transitions([]) == "no verdict changed since the last run"
