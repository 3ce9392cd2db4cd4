"""A replay that checks a certificate is about its claim: the proof obligation is re-derived from the
claim's own check at the certificate's stated dims (one the claim's dims table declares) and domain,
and each shipped step must be that obligation (the same margin, the same SMT-LIB query, the same box
root and constraints) and must discharge it again (SymPy decides it, Z3 answers unsat, the box tree
closes); the witness must lie in the re-derived domain.  A margin replaced by 0, a query replaced by
another, dims relabelled or a box halved each fail: the text is checked against the claim, not only
against itself."""

from __future__ import annotations

import itertools
from typing import Any

import sympy

from ..model.claim import Claim, NumericCheck
from .boxes import replay_boxes
from .constants import source_constants
from .exact import margin, replay_exact
from .prove import is_trivial
from .refusal import NotCertifiable
from .smt import query_of, replay_smt, same_query, z3_available
from .statement import Statement, Step, build_statements
from .witness import is_witness

__all__ = ["replay_certificate"]


def _declared(check: NumericCheck, dims: dict[str, Any]) -> bool:
    table = check.dims
    if set(dims) != set(table):
        return False
    return dims in [dict(zip(table, v, strict=True)) for v in itertools.product(*table.values())]


def _replay_step(st: Statement, step: Step, shipped: dict[str, Any]) -> str:
    """What is wrong with ``shipped`` as a proof of ``step`` (the re-derived obligation), or ""."""
    name = "the statement" if step.index == 0 else f"step {step.index}"
    if shipped.get("relation") != step.relation:
        return (
            f"{name}: the certificate proves {shipped.get('relation')!r}, the claim asserts {step.relation!r}"
        )
    if bool(shipped.get("trivial")) != is_trivial(step):
        return f"{name}: the certificate's 'trivial' flag is not what the claim's sides give"
    route = shipped.get("route")
    m = step.lhs if step.relation == "holds" else margin(step.lhs, step.relation, step.rhs)
    if route == "sympy":
        if shipped["margin"] == "True":
            return "" if m is sympy.true else f"{name}: the claim's property is not literally True"
        if shipped["margin"] != sympy.srepr(m):
            return f"{name}: the shipped margin is not the claim's margin at these dims"
        ok = replay_exact(shipped["margin"], step.relation, shipped["method"])
        return "" if ok else f"SymPy no longer decides {name} by {shipped['method']}"
    if route == "z3":
        if not z3_available():
            return "z3 is not installed, so its certificate cannot be replayed"
        if not same_query(shipped["query"], query_of(st.constraints, step.goal)):
            return f"{name}: the shipped Z3 query is not the claim's obligation at these dims and domain"
        answer = replay_smt(shipped["query"])
        return "" if answer == "unsat" else f"Z3 answers {answer} to {name}'s query"
    if route == "arb":
        if shipped["margin"] != sympy.srepr(m) or shipped["constraints"] != [
            sympy.srepr(c) for c in st.constraints
        ]:
            return f"{name}: the shipped margin or constraints are not the claim's at these dims and domain"
        if shipped["box"] != {k: [str(lo), str(hi)] for k, (lo, hi) in st.domain.box.items()}:
            return f"{name}: the shipped box is not the claim's domain at these dims"
        ok = replay_boxes(m, step.relation, st.constraints, st.domain.box, shipped)
        return "" if ok else f"the box tree of {name} does not close again from the domain's own root"
    return f"unknown route {route!r}"


def _replay_entry(claim: Claim, entry: dict[str, Any]) -> list[str]:
    check = claim.check
    assert isinstance(check, NumericCheck)
    if not _declared(check, entry["dims"]):
        return [f"dims {entry['dims']} are not a combination the claim's dims table declares"]
    every_step = any(s["index"] != 0 for s in entry["steps"])
    sts = build_statements(check, entry["dims"], every_step=every_step)
    if sts[0].domain.text != entry.get("domain"):
        return [f"the shipped domain is not the claim's at these dims: {sts[0].domain.text!r}"]
    if not any(is_witness(entry.get("witness") or {}, st.domain.symbols, st.constraints) for st in sts):
        return ["its witness is not a point of the claim's domain at these dims"]
    shipped = {(s["index"], s.get("case", 0)): s for s in entry["steps"]}
    wanted = {(s.index, k) for k, st in enumerate(sts) for s in st.steps}
    if set(shipped) != wanted:
        return [f"its steps {sorted(shipped)} are not the claim's {sorted(wanted)}"]
    problems = []
    for k, st in enumerate(sts):
        for s in st.steps:
            try:
                problem = _replay_step(st, s, shipped[(s.index, k)])
            except (
                ValueError,
                KeyError,
                TypeError,
            ) as exc:  # text that is not what we write: never evaluated
                problem = f"step {s.index}: {type(exc).__name__}: {exc}"
            if problem:
                problems.append(problem)
    return problems


def replay_certificate(cert: dict[str, Any], claim: Claim) -> list[str]:
    """What fails when every certified dims entry of ``cert`` is checked against ``claim`` (empty: it
    replays)."""
    if not isinstance(claim.check, NumericCheck):
        return ["the claim has no numeric check to certify"]
    try:
        source_constants(claim.check.fn, claim.check.where)
    except NotCertifiable as exc:
        return [str(exc)]
    problems = []
    for entry in cert.get("tried", []):
        if entry.get("status") != "certified":
            continue
        try:
            found = _replay_entry(claim, entry)
        except (NotCertifiable, KeyError, TypeError, ValueError) as exc:
            found = [f"the obligation could not be re-derived: {exc}"]
        problems += [f"dims {entry.get('dims')}: {p}" for p in found]
    if cert.get("status") == "certified" and not any(
        t.get("status") == "certified" for t in cert.get("tried", [])
    ):
        problems.append("status certified, but no dims entry is")
    return problems
