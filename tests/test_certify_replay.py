"""A replay that checks a certificate is about its claim (issue 33 §3): the shipped replay accepted
every tampered copy tried (a margin replaced by 0, a Z3 query replaced by an unsat one about nothing,
dims relabelled from n = 1 to n = 8, a box halved), since it checked the text against itself.  Each
tampering is planted here, and `lemmacheck certify --replay` exits 1 on it."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from conftest import planted_meta
from lemmacheck import identity, inequality
from lemmacheck.certify import certify_claim, replay_certificate
from lemmacheck.cli import main as cli
from lemmacheck.cli.exitcodes import ExitCode
from lemmacheck.model.claim import REGISTRY
from lemmacheck.model.inputs import Array, ProbVector

ROOT = Path(__file__).resolve().parents[1]


def _certified(cert: dict, **dims) -> dict:
    return next(t for t in cert["tried"] if t["status"] == "certified" and t["dims"] == dims)


def _square(registry):
    @identity("planted.square", inputs={"x": Array("n")}, dims={"n": [1, 2, 8]}, **planted_meta())
    def square(xp, x):
        return xp.sum((x + 1) ** 2, axis=-1), xp.sum(x * x + 2 * x + 1, axis=-1)

    return registry["planted.square"]


def test_a_margin_replaced_by_zero_does_not_replay(registry):
    claim = _square(registry)
    cert = certify_claim(claim)
    assert replay_certificate(cert, claim) == []
    tampered = copy.deepcopy(cert)
    _certified(tampered, n=1)["steps"][0]["margin"] = "Integer(0)"
    (problem,) = replay_certificate(tampered, claim)
    assert "not the claim's margin" in problem


def test_dims_relabelled_from_1_to_8_do_not_replay(registry):
    claim = _square(registry)
    cert = certify_claim(claim)
    tampered = copy.deepcopy(cert)
    tampered["tried"] = [copy.deepcopy(_certified(cert, n=1))]
    tampered["tried"][0]["dims"] = {"n": 8}
    assert replay_certificate(tampered, claim)
    tampered["tried"][0]["dims"] = {"n": 5}  # not even a size the claim declares
    (problem,) = replay_certificate(tampered, claim)
    assert "not a combination the claim's dims table declares" in problem


def test_a_z3_query_replaced_by_an_unsat_one_about_nothing_does_not_replay(registry):
    pytest.importorskip("z3")

    @inequality(
        "planted.variance", inputs={"p": ProbVector("n"), "v": Array("n")}, dims={"n": [2]}, **planted_meta()
    )
    def variance(xp, p, v):
        return xp.sum(p * v * v, axis=-1) - xp.sum(p * v, axis=-1) ** 2, xp.max(xp.abs(v), axis=-1) ** 2

    claim = registry["planted.variance"]
    cert = certify_claim(claim)
    assert replay_certificate(cert, claim) == []
    step = _certified(cert, n=2)["steps"][0]
    assert step["route"] == "z3"
    step["query"] = "(set-logic QF_NRA)\n(declare-fun x () Real)\n(assert (> x x))\n(check-sat)\n"
    (problem,) = replay_certificate(cert, claim)
    assert "not the claim's obligation" in problem


def test_a_box_halved_does_not_replay(registry):
    pytest.importorskip("flint")

    @inequality("planted.tanh", inputs={"x": Array(1, low=0.0, high=3.0)}, dims={}, **planted_meta())
    def tanh_below(xp, x):
        return xp.tanh(x[..., 0]), x[..., 0]

    claim = registry["planted.tanh"]
    cert = certify_claim(claim)
    assert cert["status"] == "certified", cert
    assert replay_certificate(cert, claim) == []
    for field in ("root", "box"):
        tampered = copy.deepcopy(cert)
        step = tampered["tried"][0]["steps"][0]
        if field == "root":
            step["root"] = [[lo, str(Fraction(hi) / 2)] for lo, hi in step["root"]]
        else:
            step["box"] = {k: [lo, str(Fraction(hi) / 2)] for k, (lo, hi) in step["box"].items()}
        assert replay_certificate(tampered, claim), field


def test_a_witness_outside_the_domain_does_not_replay(registry):
    claim = _square(registry)
    cert = certify_claim(claim)
    _certified(cert, n=2)["witness"] = {"x_0": "1"}  # x_1 missing: no point of ℝ²
    assert replay_certificate(cert, claim)


def test_certify_replay_exits_1_on_a_tampered_certificate_and_0_on_the_shipped_one(
    tmp_path, monkeypatch, capsys
):
    pytest.importorskip("z3")
    monkeypatch.chdir(ROOT)
    from lemmacheck.run.timelimit import load_claims

    load_claims(ROOT, ["lse.hessian_inf_bound"])
    cert = certify_claim(REGISTRY["lse.hessian_inf_bound"])
    assert cert["status"] == "certified", cert
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"claims": [{"id": "lse.hessian_inf_bound", "certificate": cert}]}))
    assert cli.main(["certify", "--replay", str(path)]) == ExitCode.OK
    assert "1 of 1 certificates replay" in capsys.readouterr().out
    step = next(t for t in cert["tried"] if t["status"] == "certified")["steps"][0]
    step["margin" if step["route"] == "sympy" else "query"] = "Integer(0)"
    path.write_text(json.dumps({"claims": [{"id": "lse.hessian_inf_bound", "certificate": cert}]}))
    assert cli.main(["certify", "--replay", str(path)]) == ExitCode.TESTS_FAILED
    assert "FAILS" in capsys.readouterr().out


def test_a_catalogue_certificate_whose_query_z3_printed_in_another_order_replays(monkeypatch):
    pytest.importorskip("z3")
    # dropout.s003.mask_gram (a relative-tolerance property at n = d = 2) was ERROR in a clean run of
    # run --certify: Z3 printed its let-bindings in the order of its term ids, which depended on every
    # term made before in the process, so the re-derived query was other text than the shipped one
    from lemmacheck.certify import smt
    from lemmacheck.run.timelimit import load_claims

    monkeypatch.chdir(ROOT)
    load_claims(ROOT, ["dropout.s003.mask_gram"])
    claim = REGISTRY["dropout.s003.mask_gram"]
    cert = certify_claim(claim)
    assert cert["status"] == "certified", cert
    assert replay_certificate(cert, claim) == []
    again = certify_claim(claim)
    queries = [[s.get("query") for s in t.get("steps", [])] for c in (cert, again) for t in c["tried"]]
    assert queries[: len(queries) // 2] == queries[len(queries) // 2 :]  # the same text, twice
    query = next(q for qs in queries for q in qs if q)
    assert smt.same_query(query, query.replace("?t0", "?renamed"))
