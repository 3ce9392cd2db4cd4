"""Mutation analysis on planted claims: killed, equivalent and surviving mutants, stable enumeration,
an atomic results file, an escaped report section and the command's exit code."""

from __future__ import annotations

import argparse
import ast
import json
import math
import sys
import time
import warnings
from pathlib import Path

import pytest
import sympy as sp

import lemmacheck
from conftest import planted_meta
from lemmacheck import REGISTRY, Source, Verdict, derivation, identity, inequality, prop, value
from lemmacheck.model.inputs import Array, Scalar
from lemmacheck.mutate import (
    OPERATORS,
    Settings,
    command,
    enumerate_mutants,
    operators_named,
    run_mutation,
    select_mutants,
    timecap,
)
from lemmacheck.mutate.classify import crashed, genuine_error
from lemmacheck.mutate.python_sites import python_sites
from lemmacheck.mutate.python_source import compile_function, function_source, replace_at
from lemmacheck.mutate.results import summary_text, write_json
from lemmacheck.mutate.timecap import MutantTimeout, time_cap
from lemmacheck.project.discovery import discover
from lemmacheck.report.html import render_mutation_section
from lemmacheck.search.profile import QUICK

SRC = Source("planted.txt", "test")
PROFILE = QUICK.with_seed(11).scaled(0.25)  # the implication test runs at this profile: keep tests fast


def meta(expected=Verdict.HOLDS, **kw):
    return planted_meta(expected, statement=r"2ab \le a^2 + b^2", **kw)


def plant_am_gm():
    @inequality("planted.am_gm", inputs={"a": Scalar(-3.0, 3.0), "b": Scalar(-3.0, 3.0)}, **meta())
    def am_gm(xp, a, b):
        return 2 * a * b, a**2 + b**2


def plant_dead_term():
    @inequality("planted.dead_term", inputs={"x": Array("n")}, dims={"n": [1, 3]}, **meta())
    def dead_term(xp, x):
        return xp.sum(x * x, axis=-1) + 0 * xp.sum(x**3, axis=-1), xp.sum(xp.abs(x), axis=-1) ** 2


def _run(claim_ids, operators=None, **kw):
    claims = [REGISTRY[c] for c in claim_ids]
    settings = Settings(seed=5, operators=operators or tuple(op.name for op in OPERATORS), **kw)
    data = run_mutation(claims, PROFILE, settings)
    return {m["description"]: m for c in data["claims"] for m in c["mutants"]}, data


# --------------------------------------------------------------------------- operators, one row each

OPERATOR_CASES = [
    # (operator, source of an expression, one expected mutant after the change)
    ("constant", "0.5 * x", "1.0 * x"),
    ("constant", "0.5 * x", "0.25 * x"),
    ("relation", "a <= b", "a >= b"),
    ("drop_term", "a + b", "a"),
    ("drop_term", "a - b", "-b"),
    ("sign", "a - b", "a + b"),
    ("power", "x ** 2", "x ** 1"),
    ("power", "xp.sqrt(x)", "x"),
    ("minmax", "xp.max(x, axis=-1)", "xp.min(x, axis=-1)"),
    ("transpose", "A.T", "A"),
    ("transpose", "xp.einsum('bij,bjk->bik', A, B)", "xp.einsum('bji,bjk->bik', A, B)"),
    ("norm_index", "xp.vector_norm(x, 2)", "xp.vector_norm(x, 1)"),
    ("norm_index", "xp.schatten_norm(M, math.inf)", "xp.schatten_norm(M, 2)"),
    ("index_shift", "h[t]", "h[t - 1]"),
    ("index_shift", "h[t - 1]", "h[t]"),
]


@pytest.mark.parametrize(("name", "before", "after"), OPERATOR_CASES, ids=repr)
def test_operator_rewrites_one_node(name, before, after):
    tree = ast.parse(f"def f(xp, x):\n    return {before}").body[0]
    produced = [
        ast.unparse(replace_at(tree, path, rw.new).body[0].value)
        for _, path, _, rw, _ in python_sites(tree, operators_named([name]))
    ]
    assert after in produced, f"{name} on {before!r} gave {produced}"


def test_operators_leave_structure_alone():
    (const,) = operators_named(["constant"])
    tree = ast.parse("def f(xp, x):\n    return xp.sum(x * 3, axis=-1)").body[0]
    sites = [rw.description for _, _, _, rw, _ in python_sites(tree, [const])]
    assert sites == ["constant 3 → 6", "constant 3 → 1"], sites  # axis=-1 is not mutated


STRUCTURE = """
def f(xp, P, N, j, act, prefix, w, n):
    jj = min(j, N - 1)
    seq = prefix + (w,)
    common = [1] * n
    g = SUP[act]
    close = abs(g - 0.5) <= 1e-12 * abs(g)
    return P[:, jj] * 3, g, seq, common, close
"""


def test_structure_is_left_alone_decided_from_the_source():
    tree = ast.parse(STRUCTURE).body[0]
    dims = {"act": ["tanh", "sigmoid"], "N": [1, 2]}
    produced = {
        (ast.unparse(node), rw.description) for _, _, node, rw, _ in python_sites(tree, OPERATORS, dims)
    }
    befores = {before for before, _ in produced}
    assert "N - 1" not in befores and "min(j, N - 1)" not in befores  # index arithmetic
    assert "prefix + (w,)" not in befores and "1" not in befores  # a sequence built, and its ids
    assert "SUP[act]" not in befores  # a lookup by a label, not an index
    assert "1e-12" not in befores  # a rounding allowance
    # the mathematics around them is still mutated, and an index is shifted where it is used
    assert ("P[:, jj] * 3", "sign + → −") not in produced
    assert ("3", "constant 3 → 6") in produced and ("P[:, jj]", "index jj → jj − 1") in produced
    assert ("g - 0.5", "sign − → +") in produced


def test_a_flipped_or_dropped_zero_term_is_equivalent_statically():
    tree = ast.parse("def f(xp, beta, delta):\n    return beta + 0 * delta, beta - delta").body[0]
    reasons = {(ast.unparse(rw.new), static) for _, _, _, rw, static in python_sites(tree, OPERATORS)}
    zero = "the term whose sign is flipped or that is dropped is a literal zero times a finite value"
    assert ("beta - 0 * delta", zero) in reasons and ("beta", zero) in reasons
    assert ("0 * delta", None) in reasons  # beta dropped: a change
    assert ("beta + delta", None) in reasons


def test_one_claims_draw_does_not_move_when_another_claims_mutants_change():
    before = {"a": list(range(10)), "b": list(range(7)), "c": list(range(30))}
    after = dict(before, a=list(range(13)))
    settings = Settings(seed=1, max_per_claim=1)
    first, second = select_mutants(before, settings), select_mutants(after, settings)
    assert first[1:] == second[1:]  # b's and c's picks


def test_sympy_operators_mutate_a_derivation_chain(registry):
    a, b = sp.symbols("a b", real=True)
    derivation("planted.square", chain=[(a + b) ** 2, "=", a**2 + 2 * a * b + b**2], **meta())
    mutants, notes = enumerate_mutants(registry["planted.square"], OPERATORS)
    assert not notes
    descriptions = [m.description for m in mutants]
    assert "constant 2 → 4" in descriptions and any(d.startswith("term") for d in descriptions)
    assert all(m.target == "derivation" for m in mutants)


# --------------------------------------------------------------------------- classification


def test_true_inequality_mutants_are_killed(registry):
    plant_am_gm()
    by_desc, _ = _run(["planted.am_gm"], operators=("constant", "relation", "power"))
    for desc in ("constant 2 → 4", "relation <= → >=", "power 2 → 1"):
        assert by_desc[desc]["status"] == "killed", by_desc[desc]
        assert by_desc[desc]["verdict"] == "REFUTED"
    assert "verdict HOLDS → REFUTED" in by_desc["constant 2 → 4"]["reason"]


def test_stronger_but_true_mutant_survives_with_its_evidence(registry):
    plant_am_gm()
    by_desc, data = _run(["planted.am_gm"], operators=("constant",))
    m = by_desc["constant 2 → 1"]  # a·b ≤ a² + b² is still true, but not implied by 2ab ≤ a² + b²
    assert m["status"] == "survived", m
    assert 0.4 < m["evidence"]["tightness"] <= 0.5 + 1e-9
    assert "max lhs/rhs" in m["reason"] and "not implied by the original" in m["reason"]
    assert data["score"] == pytest.approx(0.5)  # 2 → 4 killed, 2 → 1 survived


def test_weaker_mutant_is_recognised_as_implied(registry):
    @inequality("planted.half", inputs={"x": Array("n")}, dims={"n": [1, 2, 4]}, **meta())
    def half(xp, x):
        return xp.max(xp.abs(x), axis=-1) ** 2, 0.5 * xp.vector_norm(x, 2) ** 2 + 0.5 * xp.max(
            xp.abs(x), axis=-1
        ) ** 2

    by_desc, _ = _run(["planted.half"], operators=("constant",))
    weaker = [m for d, m in by_desc.items() if "0.5 → 1.0" in d]
    assert weaker and all(m["status"] == "equivalent" for m in weaker), weaker
    assert all("weaker than the original" in m["reason"] for m in weaker)


def test_mutant_of_a_term_times_zero_is_equivalent(registry):
    plant_dead_term()
    by_desc, _ = _run(["planted.dead_term"], operators=("power",))
    m = by_desc["power 3 → 2"]
    assert m["status"] == "equivalent" and "multiplied by a literal zero" in m["reason"]
    assert m["verdict"] is None  # recognised without running it


def test_dead_code_is_recognised(registry):
    @inequality("planted.dead_code", inputs={"x": Array("n")}, dims={"n": [2]}, **meta())
    def dead_code(xp, x):
        lhs = xp.sum(x * x, axis=-1)
        return lhs, xp.sum(xp.abs(x), axis=-1) ** 2
        lhs = lhs * 3  # never executed

    mutants, _ = enumerate_mutants(registry["planted.dead_code"], operators_named(["constant"]))
    dead = [m for m in mutants if m.before == "3"]
    assert dead and all(m.static_equivalence().startswith("dead code") for m in dead)


def test_refuted_claim_mutants_are_counted_apart(registry):
    @inequality(
        "planted.false",
        inputs={"a": Scalar(-3.0, 3.0), "b": Scalar(-3.0, 3.0)},
        **meta(expected=Verdict.REFUTED),
    )
    def false(xp, a, b):
        return 3 * a * b, a**2 + b**2

    by_desc, data = _run(["planted.false"], operators=("constant",))
    assert by_desc["constant 3 → 6"]["status"] == "still_false"
    assert data["counts"]["still_false"] >= 1 and data["score_true_claims"] is None


def test_a_mutant_that_errors_when_run_is_an_undecided_survivor(registry):
    @inequality("planted.domain_error", inputs={"x": Array("n")}, dims={"n": [2]}, **meta())
    def domain_error(xp, x):
        lhs = xp.sum(x * x, axis=-1)
        return lhs, lhs + math.log(2 - 1.5) + 1

    _, data = _run(["planted.domain_error"], operators=("constant",))
    (raised,) = [m for m in data["claims"][0]["mutants"] if m["after"] == "3.0"]
    # It compiles, so it is not invalid; the run ends in ERROR (log of a negative number), not in a
    # verdict on the mutated statement, so it is not killed either: undecided, against the score.
    assert "math domain error" in raised["reason"]
    assert raised["status"] == "survived" and "not a detection" in raised["reason"]
    assert data["score"] < 1


_TABLE = [[1, 2], [3, 4]]


def _row(i):
    return _TABLE[i]


def test_a_mutant_that_crashes_on_a_structural_edit_is_invalid_and_shown(registry):
    # As CI's sample found them (normstats.batch_deviations#0: batch_group(1) -> batch_group(2), an
    # IndexError): the edit makes code that cannot run, before anything is compared. It was an undecided
    # survivor, against the score; it is invalid, apart from the score, and listed with its exception.
    def rows():
        return {"first": _row(0), "second": _row(1)}

    value("planted.rows", computed=rows, stated={"first": [1, 2], "second": [3, 4]}, **meta(Verdict.PROVED))
    _, data = _run(["planted.rows"], operators=("constant",))
    (shifted,) = [m for m in data["claims"][0]["mutants"] if m["before"] == "1" and m["after"] == "2"]
    assert shifted["status"] == "invalid", shifted
    assert shifted["reason"].startswith("crashed") and "IndexError" in shifted["reason"]
    assert "crashed on a structural edit" in summary_text(data) and shifted["id"] in summary_text(data)


_FRAME = '  File "{}", line 4, in f\n    return t[3]\n'
CRASHES = [
    ("claim 'a.b': the check raised IndexError: index 3 is out of bounds (dims {'n': 2})", "IndexError"),
    ("claim 'a.b': the check raised TypeError: 'int' object is not subscriptable (dims {})", "TypeError"),
    ("claim 'a.b': KeyError: 3\n" + _FRAME.format("/x/checks/optim/m.py"), "KeyError"),
    # raised by the engine, not by the check's code: not a crash of the mutant
    (
        "claim 'a.b': TypeError: x\n" + _FRAME.format(Path(lemmacheck.__file__).parent / "run/claimrun.py"),
        None,
    ),
    ("claim 'a.b': the check raised ValueError: math domain error (dims {})", None),  # a value, not structure
    ("claim 'a.b': high-precision re-evaluation failed (IndexError: ...)", None),
]


@pytest.mark.parametrize(("message", "exception"), CRASHES, ids=repr)
def test_which_errors_are_crashes_of_the_checks_own_code(message, exception):
    assert crashed(message) == exception


GENUINE_ERRORS = [
    ("expression e0 is nan (not finite) at dims {'n': 2}", True),
    ("the check raised ValueError: operands could not be broadcast together with shapes (3,2) (3,3)", True),
    ("matmul: Input operand 1 has a mismatch in its core dimension 0", True),
    ("the SymPy derivation is refuted at {...} but the numeric check holds — they disagree", True),
    ("the check raised TypeError: unsupported operand type(s) for +: 'int' and 'str'", False),
    ("IndexError: list index out of range", False),
    ("high-precision re-evaluation failed (AttributeError: ...)", False),
]


@pytest.mark.parametrize(("message", "genuine"), GENUINE_ERRORS, ids=repr)
def test_which_errors_count_as_detections(message, genuine):
    assert genuine_error(message) is genuine


# --------------------------------------------------------------------------- determinism and output


def test_enumeration_and_sampling_are_deterministic(registry):
    plant_am_gm()
    plant_dead_term()
    claims = [registry["planted.am_gm"], registry["planted.dead_term"]]
    first = {c.id: enumerate_mutants(c, OPERATORS)[0] for c in claims}
    second = {c.id: enumerate_mutants(c, OPERATORS)[0] for c in claims}
    assert [(m.id, m.description) for ms in first.values() for m in ms] == [
        (m.id, m.description) for ms in second.values() for m in ms
    ]
    pick = [m.id for m in select_mutants(first, Settings(seed=1, sample=5))]
    assert pick == [m.id for m in select_mutants(second, Settings(seed=1, sample=5))]
    others = {tuple(m.id for m in select_mutants(first, Settings(seed=s, sample=5))) for s in range(2, 8)}
    assert len(others | {tuple(pick)}) > 1  # the seed does choose
    capped = select_mutants(first, Settings(seed=1, max_per_claim=2))
    assert len(capped) == 4 and [m.id for m in capped] == sorted(
        (m.id for m in capped), key=lambda i: (i.split("#")[0] != "planted.am_gm", int(i.split("#")[1]))
    )


def test_results_file_is_written_atomically(registry, tmp_path):
    plant_am_gm()
    _, data = _run(["planted.am_gm"], operators=("constant",))
    path = write_json(data, tmp_path / "sub" / "mutation.json")
    written = json.loads(path.read_text())
    assert written["claims"][0]["id"] == "planted.am_gm"
    assert [p.name for p in path.parent.iterdir()] == ["mutation.json"]
    with pytest.raises(TypeError):
        write_json(data | {"run": data["run"] | {"bad": object()}}, path)
    assert json.loads(path.read_text()) == written  # the old file is intact
    assert [p.name for p in path.parent.iterdir()] == ["mutation.json"]


def test_the_mutation_file_is_written_only_as_its_schema_says(registry, tmp_path):
    # Audit of issue 32 §5 (aud4): results.json was validated against its schema when written, but
    # mutation.json, which the report's mutation section reads back, had no schema: a class outside the
    # six (killed, survived, timed out, equivalent, still false, invalid) was written as it came
    from lemmacheck.errors import OutputError

    plant_am_gm()
    _, data = _run(["planted.am_gm"], operators=("constant",))
    mutant = data["claims"][0]["mutants"][0]
    bad = data | {"claims": [data["claims"][0] | {"mutants": [mutant | {"status": "crashed"}]}]}
    with pytest.raises(OutputError, match=r"claims\[0\]\.mutants\[0\]\.status"):
        write_json(bad, tmp_path / "mutation.json")
    assert not (tmp_path / "mutation.json").exists()
    with pytest.raises(OutputError, match="'killed' is a required property"):
        write_json(data | {"counts": {"total": 1}}, tmp_path / "mutation.json")


def test_report_section_escapes_mutant_text(registry):
    plant_am_gm()
    _, data = _run(["planted.am_gm"], operators=("constant",))
    data["claims"][0]["mutants"][0]["description"] = "<script>alert(1)</script>"
    for m in data["claims"][0]["mutants"]:
        m["status"] = "survived"
    data["counts"]["survived"] = len(data["claims"][0]["mutants"])
    html = render_mutation_section(data)
    assert "<script>alert" not in html and "&lt;script&gt;" in html
    assert 'id="mutation"' in html and "planted.am_gm#" in html
    assert render_mutation_section(None).strip() == ""


@pytest.fixture
def catalogue_imported():
    """The command imports the content modules; they must land in the real registry, not a scratch one."""
    discover()


def test_command_exit_code_follows_min_score(catalogue_imported, registry, tmp_path, capsys):
    plant_am_gm()
    parser = argparse.ArgumentParser()
    command.add_parser(parser.add_subparsers(dest="command"))
    base = [
        "mutate",
        "-k",
        "planted",
        "--seed",
        "3",
        "--operators",
        "constant",
        "--out",
        str(tmp_path),
        "--quiet",
    ]
    assert command.run(parser.parse_args([*base, "--min-score", "0.4"])) == 0
    assert command.run(parser.parse_args([*base, "--min-score", "0.95"])) == 1
    out = capsys.readouterr().out
    assert "seed 3" in out and "survivor" in out
    data = json.loads((tmp_path / "mutation.json").read_text())
    assert data["run"]["seed"] == 3 and data["claims"][0]["id"] == "planted.am_gm"
    replay = parser.parse_args([*base, "--mutant", data["claims"][0]["mutants"][0]["id"]])
    command.run(replay)
    again = json.loads((tmp_path / "mutation.json").read_text())
    assert again["selected"] == 1 and again["claims"][0]["mutants"][0] == data["claims"][0]["mutants"][0] | {
        "seconds": again["claims"][0]["mutants"][0]["seconds"]
    }


def test_identity_with_a_changed_anchor_is_the_same_identity(registry):
    @identity("planted.anchored", inputs={"x": Array("n")}, dims={"n": [1, 3]}, **meta())
    def anchored(xp, x):
        ref = xp.sum(xp.abs(x), axis=-1) + 1  # an anchor added to both sides: the identity does not change
        return xp.sum((x + 0.1) ** 2, axis=-1) + ref, xp.sum(x * x + 0.2 * x + 0.01, axis=-1) + ref

    by_desc, _ = _run(["planted.anchored"], operators=("drop_term",))
    m = by_desc["term 1 dropped"]
    assert m["status"] == "equivalent" and "same identity" in m["reason"], m["reason"]


def test_an_identity_mutant_computing_the_same_values_is_equal_expression_by_expression(registry):
    @identity("planted.transposed_norm", inputs={"A": Array("n", "n")}, dims={"n": [2, 3]}, **meta())
    def transposed_norm(xp, A):
        return xp.schatten_norm(xp.transpose(A), math.inf), xp.schatten_norm(A, math.inf)

    by_desc, _ = _run(["planted.transposed_norm"], operators=("transpose",))
    (m,) = by_desc.values()  # ||A|| = ||A^T||: the mutant computes the same values
    assert m["status"] == "equivalent" and m["reason"].startswith("equal to the original"), m["reason"]


def test_a_chain_mutant_that_collapses_a_link_is_implied(registry):
    @inequality(
        "planted.norm_chain", inputs={"x": Array("n")}, dims={"n": [2, 3]}, relations=("<=", "<="), **meta()
    )
    def norm_chain(xp, x):
        return xp.vector_norm(x, math.inf), xp.vector_norm(x, 2), xp.vector_norm(x, 1)

    by_desc, _ = _run(["planted.norm_chain"], operators=("norm_index",))
    m = by_desc["vector_norm index 2 → 1"]  # ‖x‖∞ ≤ ‖x‖₁ ≤ ‖x‖₁: true, and a sub-chain of the original
    assert m["status"] == "equivalent" and "link collapsed" in m["reason"] and "e1' = e2" in m["reason"]


def test_a_chain_mutant_with_an_end_moved_outward_is_implied(registry):
    # As CI's sample at seed 5 found it (norms.power_method_spectral#1, ‖X‖_S2 -> ‖X‖_S1 at the end of
    # ‖Xv‖ ≤ ‖X‖_S∞ ≤ ‖X‖_S2): a weaker last link, which no sound checker could refute, was a survivor.
    @inequality(
        "planted.end_chain", inputs={"x": Array("n")}, dims={"n": [2, 3]}, relations=("<=", "<="), **meta()
    )
    def end_chain(xp, x):
        return xp.vector_norm(x, math.inf), xp.vector_norm(x, 2), 2 * xp.vector_norm(x, 2)

    by_desc, _ = _run(["planted.end_chain"], operators=("constant",))
    widened = by_desc["constant 2 → 4"]  # ‖x‖∞ ≤ ‖x‖₂ ≤ 4‖x‖₂: the last link weaker, the first the same
    assert widened["status"] == "equivalent" and "ends moved outward" not in widened["reason"], widened
    assert "inner expressions are the original's" in widened["reason"]


def test_a_flipped_step_that_still_holds_is_an_equality(registry):
    @inequality(
        "planted.equal_step", inputs={"x": Array("n")}, dims={"n": [1, 3]}, relations=("<=", "<="), **meta()
    )
    def equal_step(xp, x):
        s = xp.sum(x * x, axis=-1)
        return s, s, s + xp.sum(xp.abs(x), axis=-1)

    _, data = _run(["planted.equal_step"], operators=("relation",))
    flips = data["claims"][0]["mutants"]
    assert [m["status"] for m in flips] == ["equivalent", "killed"], flips
    assert "both directions hold" in flips[0]["reason"]


def _rows_after(x):
    return (1 - x)[None]


def test_a_mutant_python_warns_about_compiles_silently_and_fails_when_run():
    # Mutating x to a constant gives `(1 - 2)[None]`: Python warns at compile time, with the real file's
    # name and line, about a bug that is only in the mutant.  The mutant is built without a warning.
    source = function_source(_rows_after)
    tree = ast.parse("def _rows_after(x):\n    return (1 - 2)[None]\n").body[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        mutant = compile_function(_rows_after, source, tree)
    with pytest.raises(TypeError):
        mutant(0)


def test_a_mutant_that_times_out_counts_against_the_score(registry):
    @inequality("planted.slow_when_mutated", inputs={"x": Array("n")}, dims={"n": [2]}, **meta())
    def slow_when_mutated(xp, x):
        deadline = time.process_time() + (30 - 30)  # the sign mutant computes for a minute
        while time.process_time() < deadline:
            pass
        return xp.sum(x * x, axis=-1), xp.sum(xp.abs(x), axis=-1) ** 2

    _, data = _run(["planted.slow_when_mutated"], operators=("sign",), time_cap=1.0)
    (slow,) = [m for m in data["claims"][0]["mutants"] if m["after"] == "30 + 30"]
    assert slow["status"] == "timed_out" and "timed out" in slow["reason"], slow
    assert data["counts"]["timed_out"] >= 1
    killed = data["counts"]["killed"]
    assert data["score"] == killed / (killed + data["counts"]["survived"] + data["counts"]["timed_out"])
    assert data["score"] < 1


def test_the_cap_counts_cpu_time_and_repeats_when_swallowed(monkeypatch):
    backstop = timecap.WALL_FACTOR
    monkeypatch.setattr(timecap, "WALL_FACTOR", 1000.0)  # a loaded machine must not reach the backstop
    with pytest.raises(MutantTimeout, match="CPU time"):
        with time_cap(0.2):
            try:
                while True:
                    pass
            except MutantTimeout:
                pass  # swallowed once, as Python does in a garbage-collector callback
            while True:
                pass
    monkeypatch.setattr(timecap, "WALL_FACTOR", backstop)
    with pytest.raises(MutantTimeout, match="wall-clock"):
        with time_cap(0.05):
            time.sleep(5)  # waits without computing: the wall-clock backstop (30 x the cap)


def test_a_timeout_python_swallows_is_not_reported_as_unraisable(monkeypatch):
    # CI of 96856cd: the cap fired inside Hypothesis's garbage-collector callback; Python reported the
    # lost MutantTimeout to sys.unraisablehook and pytest failed the test that happened to be running.
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", reported.append)

    class RaisesWhenCollected:
        def __init__(self, error):
            self.error = error

        def __del__(self):
            raise self.error

    with time_cap(100.0):
        RaisesWhenCollected(MutantTimeout("lost in a callback"))
        RaisesWhenCollected(ValueError("a genuine unraisable error"))
    assert [type(r.exc_value) for r in reported] == [ValueError]
    assert sys.unraisablehook == reported.append


def test_a_property_mutant_that_still_passes_is_a_survivor_not_equivalent(registry):
    # A property's evidence is only counts, so identical evidence says nothing about the statement.
    @prop("planted.positive", inputs={"x": Array("n")}, dims={"n": [1, 3]}, **meta())
    def positive(xp, x):
        return xp.sum(x * x, axis=-1) + 1 > 0

    by_desc, _ = _run(["planted.positive"], operators=("constant",))
    m = by_desc["constant 1 → 2"]
    assert m["status"] == "survived", m


def test_a_derivation_mutant_equal_to_the_original_is_equivalent_by_simplify(registry):
    x, y = sp.symbols("x y", real=True)
    derivation(
        "planted.zero_term",
        chain=[x + y * (sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1), "=", x],
        **meta(expected=Verdict.PROVED),
    )
    mutants, _ = enumerate_mutants(registry["planted.zero_term"], operators_named(["drop_term"]))
    reasons = {m.description: m.static_equivalence() for m in mutants}
    dropped = [r for d, r in reasons.items() if d.startswith("term y*")]
    assert dropped and all(r and "simplify(new − old) = 0" in r for r in dropped), reasons
    assert reasons["term x dropped"] is None  # a real change: a difference at a rational point


def _premise_mutants(body: str, old: str, new: str):
    """The constant sites of a property function whose literal ``old`` is rewritten to ``new``."""
    from lemmacheck.mutate.polarity import weaker_property
    from lemmacheck.mutate.python_sites import _along

    tree = ast.parse(f"def p(xp, a, c):\n{body}").body[0]
    found = []
    for _, path, node, rw, _ in python_sites(tree, [c for c in OPERATORS if c.name == "constant"]):
        if ast.unparse(node) == old and ast.unparse(rw.new) == new:
            found.append(weaker_property(tree, _along(tree, path), node, rw.new))
    assert found, (body, old, new)
    return found


def test_a_property_whose_premise_is_narrowed_is_weaker_by_its_code():
    # vanish.s003.reverse_necessary#1 (seed 2 of the gate): ||J|| > 1 -> ||J|| > 2 in "grows implies c",
    # a survivor while no rule could see that the mutant holds wherever the original does
    body = "    grows = xp.abs(a) > 1\n    return (~grows) | c\n"
    assert all(r and "weaker than the original" in r for r in _premise_mutants(body, "1", "2"))
    # the premise widened, the conclusion narrowed: stronger statements, which a check must notice
    assert _premise_mutants("    return (~(xp.abs(a) > 2)) | c\n", "2", "1") == [None]
    assert _premise_mutants("    return (~c) | (xp.abs(a) > 1)\n", "1", "2") == [None]
    # the conclusion widened: weaker again, through logical_or
    assert _premise_mutants("    return xp.logical_or(~c, xp.abs(a) > 2)\n", "2", "1")[0]
    # anything but not/and/or between the comparison and the value is not read
    assert _premise_mutants("    return (~(xp.abs(a) > 1)) ^ c\n", "1", "2") == [None]
    assert _premise_mutants("    g = xp.abs(a) > 1\n    g = g & c\n    return ~g\n", "1", "2") == [None]
