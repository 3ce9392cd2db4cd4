"""No malformed declaration stops the run (issue 13): each is an ERROR naming the claim and the fix.

One planted module holds every kind of malformed declaration beside two good claims; ``lemmacheck run``
and ``lemmacheck list`` over it must not crash, must report each bad one, and must still compute the
good ones' verdicts.
"""

from __future__ import annotations

import json
import textwrap

import pytest

from lemmacheck.cli import main as cli
from lemmacheck.model.claim import REGISTRY

# (claim id, declaration, words the message must contain).  The module is the table joined.
MALFORMED = [
    ("bad.kind", """derivation("bad.kind", chain=[x, "=", x], kind="lemma", **META)""", "kind='lemma'"),
    (
        "bad.verdict",
        """value("bad.verdict", computed=lambda: 1, stated=1, **(META | {"expected": "TRUE"}))""",
        "expected='TRUE'",
    ),
    (
        "bad.relation",
        """
@inequality("bad.relation", inputs={"x": Array("n")}, dims={"n": [2]}, relations=["=<"], **META)
def bad_relation(xp, x):
    return x, x""",
        "unknown relation",
    ),
    (
        "bad.relation_string",
        """
@inequality("bad.relation_string", inputs={"x": Array("n")}, dims={"n": [2]}, relations="<=", **META)
def bad_relation_string(xp, x):
    return x, x""",
        "is a string, not a list",
    ),
    (
        "bad.shape_dim",
        """
@inequality("bad.shape_dim", inputs={"x": Array("m")}, dims={"n": [2]}, **META)
def bad_shape_dim(xp, x):
    return x, x""",
        "not in dims",
    ),
    (
        "bad.dims_not_list",
        """
@inequality("bad.dims_not_list", inputs={"x": Array("n")}, dims={"n": 3}, **META)
def bad_dims(xp, x):
    return x, x""",
        "non-empty list of sizes",
    ),
    ("Bad Name", """value("Bad Name", computed=lambda: 1, stated=1, **META)""", "dotted lower-case"),
    (
        "bad.input_name",
        """
@inequality("bad.input_name", inputs={"not an identifier": Array("n")}, dims={"n": [2]}, **META)
def bad_input_name(xp, **inputs):
    return 1, 1""",
        "not Python identifiers",
    ),
    ("good.one", """value("good.one", computed=lambda: 2, stated=2, **PROVED_META)""", "declared twice"),
    (
        "bad.examples",
        """
@inequality("bad.examples", inputs={"x": Array("n")}, dims={"n": [2, 3]},
            examples=[{"dims": {"n": 3}, "inputs": {"x": [1.0, 2.0]}}], **META)
def bad_examples(xp, x):
    return x.sum(-1), x.sum(-1) + 1""",
        "has shape (2,), but its dims",
    ),
    (
        "bad.effort",
        """value("bad.effort", computed=lambda: 1, stated=1, **(META | {"effort": "lots"}))""",
        "effort='lots'",
    ),
    (
        "bad.same_as",
        """value("bad.same_as", computed=lambda: 1, stated=1, **META, same_as="good.one")""",
        "same_as must be a list",
    ),
    ("bad.chain", """derivation("bad.chain", chain=[x, "="], **META)""", "alternate"),
    (
        "bad.unknown_key",
        """value("bad.unknown_key", computed=lambda: 1, stated=1, **META, colour="red")""",
        "unknown keyword",
    ),
]

HEADER = """
import sympy as sp
from lemmacheck import Source, Verdict, derivation, inequality, value
from lemmacheck.model.inputs import Array

x = sp.Symbol("x", real=True)
META = dict(title="t", source=Source("planted.txt", "here"), statement="x", expected=Verdict.HOLDS)

PROVED_META = META | {"expected": Verdict.PROVED}
value("good.one", computed=lambda: 2, stated=2, **PROVED_META)

@inequality("good.two", inputs={"x": Array("n")}, dims={"n": [1, 3]}, **META)
def good_two(xp, x):
    return xp.vector_norm(x, 2), xp.vector_norm(x, 1)
"""


def _plant(tmp_path, package: str):
    (tmp_path / "pyproject.toml").write_text(f'[tool.lemmacheck]\ncontent = ["{package}"]\n')
    (tmp_path / "checks").mkdir()
    pkg = tmp_path / package
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    body = HEADER + "\n".join(textwrap.dedent(decl) for _, decl, _ in MALFORMED) + "\n"
    (pkg / "planted.py").write_text(body)
    return tmp_path


@pytest.fixture
def planted(tmp_path, monkeypatch, request):
    root = _plant(tmp_path, f"planted_bad_{request.node.name[:20].replace('[', '_').replace(']', '_')}")
    monkeypatch.chdir(root)
    with REGISTRY.scratch():
        yield root


def test_every_malformed_declaration_is_an_error_and_the_rest_runs(planted, capsys):
    code = cli.main(["run", "--seed", "1", "--quiet", "--no-studies", "-j", "1"])
    out = capsys.readouterr().out
    assert code == cli.ExitCode.TESTS_FAILED, out
    data = json.loads((planted / "reports" / "results.json").read_text())
    by_id: dict[str, list[dict]] = {}
    for c in data["claims"]:
        by_id.setdefault(c["id"], []).append(c)
    import_errors = [c["id"] for c in data["claims"] if c["id"].startswith("module:")]
    assert import_errors == [], "the module itself must import"
    # The good claims still have their computed verdicts.
    assert [c["verdict"] for c in by_id["good.one"]].count("PROVED") == 1
    assert by_id["good.two"][0]["verdict"] == "HOLDS"
    for claim_id, _, words in MALFORMED:
        errors = [c for c in by_id.get(claim_id, []) if c["verdict"] == "ERROR"]
        assert errors, f"{claim_id}: no ERROR result"
        message = errors[0]["message"]
        assert repr(claim_id) in message and words in message, message
        assert f"{claim_id}:" in out  # named in the terminal summary too
    fixes = [c for c in data["claims"] if c["verdict"] == "ERROR" and "fix:" in c["message"]]
    assert len(fixes) == len(MALFORMED)


def test_list_shows_malformed_declarations_and_does_not_crash(planted, capsys):
    code = cli.main(["list"])
    out = capsys.readouterr().out
    assert code == cli.ExitCode.TESTS_FAILED  # as `run` and `pytest --collect-only`: the catalogue is broken
    assert "good.two" in out
    for claim_id, _, _ in MALFORMED:
        assert f"DECLARATION ERROR {claim_id}" in out


def test_render_of_a_run_with_malformed_declarations(planted, capsys):
    assert cli.main(["run", "--seed", "1", "--quiet", "--no-studies", "-j", "1"]) == cli.ExitCode.TESTS_FAILED
    capsys.readouterr()
    assert cli.main(["render", str(planted / "reports" / "results.json")]) == cli.ExitCode.OK
