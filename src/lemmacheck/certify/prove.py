"""The proof of one statement at fixed dims: each step by the first route that proves it (SymPy
exactly, Z3's unsat, an arb box tree), each under a budget of work (Z3's resource limit, a count of
boxes, Python calls of symbolic work: :mod:`.work`), so the same claim gets the same certificate at any load.
A route's point where a step fails is raised as :class:`Violation`, to be judged on the claim's check."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy

from ..extras import install_hint
from ..model.claim import Claim, NumericCheck
from .boxes import MAX_BOXES, MAX_DEPTH, prove_by_boxes
from .domain import Domain
from .exact import margin, prove_by_sympy
from .refusal import NotCertifiable
from .smt import last_unknown, model_point, prove_by_z3, z3_available
from .statement import Statement, Step, build_statements

__all__ = ["Violation", "TRANSCENDENTAL", "prove_statement", "numeric", "is_trivial"]

#: functions no algebraic route takes
TRANSCENDENTAL = (sympy.exp, sympy.log, sympy.tanh, sympy.erf, sympy.sin, sympy.cos, sympy.pi, sympy.E)


class Violation(Exception):
    """A route found a point of ``domain`` (one case's, when the inputs split) where the statement fails:
    ``point`` maps its symbol names to exact rationals (empty when the route's answer could not be read
    back as one)."""

    def __init__(self, message: str, step: Step, point: dict[str, Fraction], domain: Domain, route: str):
        super().__init__(message)
        self.step, self.point, self.domain, self.route = step, point, domain, route


def named(step: Step) -> str:
    return "the statement" if step.index == 0 else f"step {step.index}"


def is_trivial(step: Step) -> bool:
    """Both sides coincide as computed: the margin is literally 0 (or the property literally True)."""
    if step.relation == "holds":
        return step.lhs is sympy.true
    return sympy.sympify(step.lhs - step.rhs) == 0


def _prove_step(st: Statement, step: Step) -> dict[str, Any]:
    trivial = {"trivial": True} if is_trivial(step) else {}
    if step.relation == "holds":
        m, relation = step.lhs, "holds"
        algebraic = not m.has(*TRANSCENDENTAL)
        if m is sympy.true:
            return {"route": "sympy", "method": "evaluates to True", "margin": "True"} | trivial
    else:
        m, relation = margin(step.lhs, step.relation, step.rhs), step.relation
        algebraic = not m.has(*TRANSCENDENTAL)
        method = prove_by_sympy(m, relation, algebraic=algebraic)
        if method:
            return {"route": "sympy", "method": method, "margin": sympy.srepr(m)} | trivial
    if not algebraic:
        return _prove_by_boxes(st, step, m, relation)
    if not z3_available():
        raise NotCertifiable(f"route z3 unavailable ({install_hint('certify')})")
    out = prove_by_z3(st.constraints, step.goal)
    if out.answer == "unsat":
        return {"route": "z3", "query": out.query} | trivial
    if out.answer == "undefined":
        raise NotCertifiable(f"{named(step)} is undefined somewhere on the domain (Z3: {out.model})")
    if out.answer == "sat" and st.domain.superset:
        raise NotCertifiable(f"Z3 finds {named(step)} false on the larger domain")
    if out.answer == "sat":
        printed = (out.model or {}).get("model", "")
        message = f"Z3 finds {named(step)} false at {out.model}"
        raise Violation(message, step, model_point(printed), st.domain, "z3")
    raise NotCertifiable(f"Z3 did not decide {named(step)}: {last_unknown()}")


def _prove_by_boxes(st: Statement, step: Step, m, relation: str) -> dict[str, Any]:
    if relation in ("=", "holds"):
        raise NotCertifiable(
            f"{named(step)} is transcendental and SymPy did not decide it (the interval route is not "
            "tried: enclosures of its two sides can show an inequality, never an equality)"
        )
    tree = prove_by_boxes(m, relation, st.constraints, st.domain.box)
    if tree is None:
        raise NotCertifiable(
            f"the box tree of {named(step)} did not close within {MAX_BOXES} boxes or depth {MAX_DEPTH}"
        )
    if "violation" in tree:
        point = {k: Fraction(v) for k, v in tree["violation"].items()}
        message = f"an arb enclosure finds {named(step)} false at {tree['violation']}"
        raise Violation(message, step, point, st.domain, "arb")
    shipped = {
        "margin": sympy.srepr(m),
        "constraints": [sympy.srepr(c) for c in st.constraints],
        "box": {k: [str(lo), str(hi)] for k, (lo, hi) in st.domain.box.items()},
    }
    return {"route": "arb"} | shipped | tree


def _proved(sts: list[Statement]) -> list[dict[str, Any]]:
    """Every step of every case proved (a step names its case when the inputs split into several)."""
    steps = []
    for k, st in enumerate(sts):
        case = {"case": k} if len(sts) > 1 else {}
        try:
            steps += [
                {"index": s.index, "relation": s.relation} | case | _prove_step(st, s) for s in st.steps
            ]
        except (NotCertifiable, Violation) as exc:
            if not case:
                raise
            where = f"{exc} (in case {k + 1} of {len(sts)}: {st.domain.case})"
            if isinstance(exc, Violation):
                raise Violation(where, exc.step, exc.point, exc.domain, exc.route) from None
            raise type(exc)(where) from None
    return steps


def prove_statement(claim: Claim, dims: dict[str, Any], *, before=None):
    """Every link of a chain when each can be proved (a stronger certificate than its ends, and the only
    one for ``steps_claimed``); otherwise the chain end to end, which is the statement the run judges.
    ``before(sts)`` runs on the statements before any route (the witness that the domain is not empty)."""
    check = numeric(claim)
    chain = len(check.relations) > 1 and not check.is_property
    sts = build_statements(check, dims, every_step=chain)
    if before is not None:
        before(sts)
    try:
        return sts, _proved(sts)
    except (NotCertifiable, Violation):
        if not chain or claim.steps_claimed:
            raise
    sts = build_statements(check, dims, every_step=False)
    return sts, _proved(sts)


def numeric(claim: Claim) -> NumericCheck:
    assert isinstance(claim.check, NumericCheck), claim.id  # certify_claim takes numeric claims only
    return claim.check
