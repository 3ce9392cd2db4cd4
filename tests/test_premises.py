"""What rests on what (issue 36): premises declared with ``uses=``, validated where declared (a cycle is
rejected naming it), and each claim's standing computed from the results: a refuted lemma marks every
claim built on it ``rests on refuted``, with the path, even one whose own statement HOLDS."""

from __future__ import annotations

import pytest

from conftest import planted_meta
from lemmacheck import Array, Verdict, inequality
from lemmacheck.run.engine import run_claims
from lemmacheck.run.standing import standings, with_standing
from lemmacheck.search.profile import QUICK


def _bound(claim_id: str, constant: float, uses=(), **kw) -> None:
    """|x| <= c|x|: REFUTED for c < 1, HOLDS for c >= 1, with the given premises."""
    expected = Verdict.REFUTED if constant < 1 else Verdict.HOLDS

    @inequality(
        claim_id, inputs={"x": Array("n")}, dims={"n": [1, 2]}, uses=uses, **planted_meta(expected), **kw
    )
    def check(xp, x):
        a = xp.sum(xp.abs(x), axis=-1)
        return a, constant * a


def test_a_refuted_lemma_marks_every_dependent_rests_on_refuted_with_the_path(registry):
    _bound("planted.lemma", 0.5)  # the planted refuted lemma
    _bound("planted.other", 2.0)
    _bound("planted.eq7", 2.0, uses=("planted.other", "planted.lemma"))
    _bound("planted.lipschitz", 2.0, uses=("planted.eq7",))
    _bound("planted.loss_bound", 3.0, uses=("planted.lipschitz", "planted.other"))
    _bound("planted.independent", 2.0, uses=("planted.other",))
    data = run_claims(QUICK.with_seed(1), with_studies=False).to_dict()
    by_id = {c["id"]: c for c in data["claims"]}
    assert by_id["planted.lemma"]["verdict"] == "REFUTED"
    assert by_id["planted.lemma"]["standing"]["status"] == "refuted"
    paths = {
        "planted.eq7": ["planted.eq7", "planted.lemma"],
        "planted.lipschitz": ["planted.lipschitz", "planted.eq7", "planted.lemma"],
        "planted.loss_bound": ["planted.loss_bound", "planted.lipschitz", "planted.eq7", "planted.lemma"],
    }
    for cid, path in paths.items():
        s = by_id[cid]["standing"]
        assert by_id[cid]["verdict"] == "HOLDS"  # true as stated ...
        assert s["status"] == "rests on refuted", (cid, s)  # ... not established by the document
        assert s["premise"] == "planted.lemma" and s["path"] == path
        assert "not established by the document" in s["summary"] and "planted.lemma" in s["summary"]
    assert by_id["planted.independent"]["standing"]["status"] == "stands"
    assert by_id["planted.other"]["standing"]["dependents"] == [
        "planted.eq7",
        "planted.loss_bound",
        "planted.independent",
    ]
    assert data["standing_counts"]["planted.txt"] == {
        "stands": 2,
        "rests on refuted": 3,
        "rests on unchecked": 0,
        "refuted": 1,
        "broken": 0,
        "unchecked": 0,
    }


def test_when_the_lemma_holds_every_dependent_stands(registry):
    _bound("planted.lemma", 1.0)
    _bound("planted.eq7", 2.0, uses=("planted.lemma",))
    data = run_claims(QUICK.with_seed(1), with_studies=False).to_dict()
    assert {c["id"]: c["standing"]["status"] for c in data["claims"]} == {
        "planted.lemma": "stands",
        "planted.eq7": "stands",
    }


def test_a_premise_the_selection_left_out_leaves_it_unchecked_and_a_merge_settles_it(registry):
    from lemmacheck.report.full import merge

    _bound("planted.lemma", 0.5)
    _bound("planted.eq7", 2.0, uses=("planted.lemma",))
    alone = run_claims(QUICK.with_seed(1), keyword="eq7", with_studies=False).to_dict()
    (eq7,) = alone["claims"]
    assert eq7["standing"]["status"] == "rests on unchecked"
    assert eq7["standing"]["premise_is"] == "not in these results"
    full = run_claims(QUICK.with_seed(1), keyword="lemma", with_studies=False).to_dict()
    merged = merge(full, alone, ["planted.lemma", "planted.eq7"])
    assert {c["id"]: c["standing"]["status"] for c in merged["claims"]}["planted.eq7"] == "rests on refuted"


def test_step_is_links_count_as_uses():
    claims = [
        {"id": "a.lemma", "verdict": "REFUTED", "proof": {"status": "none given"}},
        {
            "id": "a.chain",
            "verdict": "HOLDS",
            "proof": {"status": "broken", "step": 2},
            "step_links": [[2, "a.lemma"]],
        },
        {"id": "a.after", "verdict": "HOLDS", "proof": {"status": "none given"}, "uses": ["a.chain"]},
    ]
    s = standings(claims)
    assert s["a.chain"]["status"] == "broken" and s["a.chain"]["premises"] == ["a.lemma"]
    assert s["a.after"]["status"] == "rests on refuted" and s["a.after"]["path"] == ["a.after", "a.chain"]
    assert s["a.lemma"]["dependents"] == ["a.chain"]


def test_an_unchecked_premise_is_named_and_a_refuted_one_wins_over_it():
    claims = [
        {"id": "a.open", "verdict": "INCONCLUSIVE"},
        {"id": "a.bad", "verdict": "REFUTED"},
        {"id": "a.mid", "verdict": "HOLDS", "uses": ["a.bad"]},
        {"id": "a.one", "verdict": "PROVED", "uses": ["a.open"]},
        {"id": "a.two", "verdict": "PROVED", "uses": ["a.open", "a.mid"]},
    ]
    data = with_standing({"claims": claims})
    s = {c["id"]: c["standing"] for c in data["claims"]}
    assert s["a.one"]["status"] == "rests on unchecked" and s["a.one"]["premise"] == "a.open"
    assert s["a.two"]["status"] == "rests on refuted" and s["a.two"]["path"] == ["a.two", "a.mid", "a.bad"]


def test_a_cycle_in_uses_is_rejected_at_declaration_naming_it(registry):
    _bound("planted.a", 2.0, uses=("planted.c",))  # a premise declared later: allowed
    _bound("planted.b", 2.0, uses=("planted.a",))
    _bound("planted.c", 2.0, uses=("planted.b",))  # closes a -> c -> b -> a
    assert "planted.c" not in registry
    (msg,) = [m for cid, _, m in registry.definition_errors if cid == "planted.c"]
    assert "planted.c -> planted.b -> planted.a -> planted.c" in msg
    run = run_claims(QUICK.with_seed(1), with_studies=False)
    errors = [r for r in run.results if r.id == "planted.c"]
    assert errors and errors[0].verdict is Verdict.ERROR and "cycle" in errors[0].message


def test_a_cycle_through_a_step_link_is_rejected(registry):
    _bound("planted.a", 2.0, uses=("planted.chain",))

    @inequality(
        "planted.chain",
        inputs={"x": Array("n")},
        dims={"n": [1]},
        relations=("<=", "<="),
        step_is={2: "planted.a"},
        **planted_meta(),
    )
    def chain(xp, x):
        return x[..., 0], x[..., 0], x[..., 0]

    assert "planted.chain" not in registry
    assert any("planted.chain -> planted.a -> planted.chain" in m for _, _, m in registry.definition_errors)


@pytest.mark.parametrize(
    ("uses", "problem"),
    [
        ("planted.lemma", "must be a list of claim ids"),
        (("Not An Id",), "is not a claim id"),
        (("planted.bad",), "names the claim itself"),
        (("planted.lemma", "planted.lemma"), "more than once"),
    ],
)
def test_a_malformed_uses_is_a_declaration_error(registry, uses, problem):
    _bound("planted.bad", 2.0, uses=uses)
    assert "planted.bad" not in registry
    assert any(problem in m for cid, _, m in registry.definition_errors if cid == "planted.bad")


def test_a_use_naming_no_claim_is_an_error_once_the_catalogue_is_complete(registry):
    _bound("planted.user", 2.0, uses=("planted.nowhere",))
    problems = registry.link_problems()
    assert any(cid == "planted.user" and "'planted.nowhere'" in m for cid, _, m in problems)


def test_a_cycle_across_modules_indexed_apart_is_found_in_the_complete_catalogue(tmp_path):
    """Each module imported alone cannot see a cycle that closes through another module's claim; the
    content index checks the complete premise graph and names it."""
    from lemmacheck.project.index import ContentIndex, ModuleRecord

    def module(claims: dict[str, list[str]]) -> ModuleRecord:
        return ModuleRecord(
            file="m.py",
            fingerprint=(0, 0, 0),
            content=True,
            claims=list(claims),
            uses=claims,
            premises=claims,
        )

    index = ContentIndex(
        tmp_path,
        {
            "checks.a": module({"doc.a": ["doc.b"]}),
            "checks.b": module({"doc.b": ["doc.c"], "doc.c": ["doc.a"]}),
        },
    )
    problems = index.definition_errors()
    assert [(cid, m) for cid, m, _ in problems] == [("doc.a", "checks.a")]
    assert "doc.a -> doc.b -> doc.c -> doc.a" in problems[0][2]
    assert index.with_premises(["doc.b"]) == ["doc.a", "doc.b", "doc.c"]


CYCLE = """
from lemmacheck import value

value("{pkg}.a", computed=lambda: 2, stated=2, uses=("{pkg}.c",), **META)  # a premise declared later
value("{pkg}.b", computed=lambda: 2, stated=2, uses=("{pkg}.a",), **META)
value("{pkg}.c", computed=lambda: 2, stated=2, uses=("{pkg}.b",), **META)  # closes a -> c -> b -> a
"""


def test_a_cycle_is_reported_once_and_the_terminal_the_counts_and_results_json_agree(tmp_path):
    """As the audit found it: after the cycle's last claim was rejected, the first was reported again as
    ERROR "uses=... names a premise no module declares" in the terminal (4 claims for 3 declared) while
    results.json also had it PROVED.  A use naming a rejected claim is not a second error: the rejected
    claim carries the cycle error, once, and the claims resting on it stand on an unchecked premise."""
    import json
    import subprocess
    import sys

    from planted_project import make_project

    pkg = make_project(tmp_path, {"mod": CYCLE})
    proc = subprocess.run(
        [sys.executable, "-m", "lemmacheck.cli", "run", "-j", "1", "--out", "rep"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,  # a hang guard, not a measurement
        check=False,
    )
    out = proc.stdout + proc.stderr
    data = json.loads((tmp_path / "rep" / "results.json").read_text())
    ids = [c["id"] for c in data["claims"]]
    assert sorted(ids) == [f"{pkg}.a", f"{pkg}.b", f"{pkg}.c"], (ids, out)
    verdicts = {c["id"]: c["verdict"] for c in data["claims"]}
    assert verdicts[f"{pkg}.c"] == "ERROR" and verdicts[f"{pkg}.a"] == verdicts[f"{pkg}.b"] == "PROVED"
    assert sum(data["counts"].values()) == 3 and data["counts"]["ERROR"] == 1, data["counts"]
    assert "names a premise no module declares" not in out, out
    assert out.count("form a cycle") == 1, out
    assert "3 claims in" in out, out
    for cid in ("a", "b"):
        standing = next(c["standing"] for c in data["claims"] if c["id"] == f"{pkg}.{cid}")
        assert standing["status"] == "rests on unchecked", standing


@pytest.mark.parametrize("path", ["index", "registry"])
def test_a_claim_whose_use_names_no_claim_is_reported_once_as_that_error(tmp_path, path):
    """The same class as the cycle: a registered claim whose premise names nothing was reported as the
    declaration error AND checked (ERROR and PROVED under one id, 3 results for 2 claims)."""
    from lemmacheck import REGISTRY
    from lemmacheck.project.discovery import discover
    from lemmacheck.project.index import load_index
    from planted_project import make_project

    body = CYCLE.replace('uses=("{pkg}.c",)', 'uses=("{pkg}.nowhere",)').replace(
        '"{pkg}.c", computed', '"{pkg}.d", computed'
    )
    pkg = make_project(tmp_path, {"mod": body})
    with REGISTRY.scratch():
        if path == "index":
            run = run_claims(
                QUICK.with_seed(1), with_studies=False, index=load_index(tmp_path), root=tmp_path
            )
        else:
            discover(tmp_path)
            run = run_claims(QUICK.with_seed(1), with_studies=False)
    ids = sorted(r.id for r in run.results)
    assert ids == [f"{pkg}.a", f"{pkg}.b", f"{pkg}.d"], ids
    a = next(r for r in run.results if r.id == f"{pkg}.a")
    assert a.verdict is Verdict.ERROR and f"'{pkg}.nowhere'" in a.message
    assert sum(run.counts().values()) == 3


def test_declaring_a_catalogue_computes_each_claims_premises_once(registry, monkeypatch):
    # issue 35: each declaration computed the premises of every claim declared before it, for the cycle
    # check (92,000 computations for the 434 claims, in every process importing the content)
    from lemmacheck.model import claim as claim_module

    calls = []
    plain = claim_module.premises_of
    monkeypatch.setattr(claim_module, "premises_of", lambda *a: calls.append(1) or plain(*a))
    _bound("planted.c0", 2.0, uses=("planted.c60",))  # a premise declared later, closing a cycle at the end
    for k in range(1, 61):
        _bound(f"planted.c{k}", 2.0, uses=(f"planted.c{k - 1}",))
    assert len(calls) <= 2 * 61, f"{len(calls)} premises computed declaring 61 claims"
    assert "planted.c60" not in registry and "planted.c59" in registry
    (msg,) = [m for cid, _, m in registry.definition_errors if cid == "planted.c60"]
    cycle = " -> ".join(f"planted.c{k}" for k in [60, *range(59, -1, -1), 60])
    assert cycle in msg, msg  # the cycle through all 61 is still found, and named
