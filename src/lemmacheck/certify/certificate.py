"""Certification of a claim that HOLDS on samples: its statement proved at fixed dims on its whole
domain by a route that is a proof (SymPy exactly, Z3's unsat, an arb enclosure), never by sampling.

:func:`certify_claim` tries the routes in order for each asserted step at the dims
:func:`~.domain.dims_to_certify` picks, under one wall-clock cap per claim, and returns the certificate
as plain data: per dims, the domain, the hypotheses, how each float constant was read, and per step its
route with what replays it (the margin's ``srepr``, the SMT-LIB query, the box tree).
:func:`replay_certificate` checks that data again from the text alone.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from ..extras import install_hint
from ..kinds.sympy_cap import SymPyStopped, sympy_cap
from ..model.claim import Claim, NumericCheck
from ..model.tolerance import tolerance_for
from ..search.candidates import Instance
from ..settling.highprec import reverify
from .boxes import MAX_DEPTH, prove_by_boxes, replay_boxes
from .domain import Domain, dims_to_certify, every_size_at_least_two
from .exact import margin, prove_by_sympy, replay_exact
from .refusal import NotCertifiable, numbers_only_call
from .smt import model_point, prove_by_z3, replay_smt, z3_available
from .srepr import from_srepr
from .statement import Statement, Step, build_statements
from .symbolic import branched_on_relational, sympy_xp

__all__ = ["CAP_SECONDS", "attach_certificate", "certify_claim", "replay_certificate", "certificate_summary"]

#: wall-clock seconds of certification per claim
CAP_SECONDS = 10.0
#: seconds of the cap kept for the smallest dims while larger ones are tried: a statement that runs on
#: symbols at every size ≥ 2 but does not close there must not use up the time its 1-sized case needs
SMALL_DIMS_SECONDS = 3.0
_KEPT_FOR_SMALLER = (
    f"the cap's time for these dims ran out (its last {SMALL_DIMS_SECONDS:g} s are the smaller dims')"
)
#: functions no algebraic route takes
TRANSCENDENTAL = (sympy.exp, sympy.log, sympy.tanh, sympy.erf, sympy.sin, sympy.cos, sympy.pi, sympy.E)


class Violation(Exception):
    """A route found a point of ``domain`` (one case's, when the inputs split) where the statement fails:
    ``point`` maps its symbol names to exact rationals (empty when the route's answer could not be read
    back as one)."""

    def __init__(self, message: str, step: Step, point: dict[str, Fraction], domain: Domain):
        super().__init__(message)
        self.step, self.point, self.domain = step, point, domain


def _named(step: Step) -> str:
    return "the statement" if step.index == 0 else f"step {step.index}"


def _prove_step(st: Statement, step: Step, deadline: float) -> dict[str, Any]:
    if step.relation == "holds":
        m, relation = step.lhs, "holds"
        algebraic = not m.has(*TRANSCENDENTAL)
        if m is sympy.true:
            return {"route": "sympy", "method": "evaluates to True", "margin": "True"}
    else:
        m, relation = margin(step.lhs, step.relation, step.rhs), step.relation
        algebraic = not m.has(*TRANSCENDENTAL)
        method = prove_by_sympy(m, relation, algebraic=algebraic)
        if method:
            return {"route": "sympy", "method": method, "margin": sympy.srepr(m)}
    if not algebraic:
        return _prove_by_boxes(st, step, m, relation, deadline)
    if not z3_available():
        raise NotCertifiable(f"route z3 unavailable ({install_hint('certify')})")
    out = prove_by_z3(st.constraints, step.goal, max(deadline - time.monotonic(), 0.01))
    if out.answer == "unsat":
        return {"route": "z3", "query": out.query}
    if out.answer == "undefined":
        raise NotCertifiable(f"{_named(step)} is undefined somewhere on the domain (Z3: {out.model})")
    if out.answer == "sat" and st.domain.superset:
        raise NotCertifiable(f"Z3 finds {_named(step)} false on the larger domain")
    if out.answer == "sat":
        printed = (out.model or {}).get("model", "")
        message = f"Z3 finds {_named(step)} false at {out.model}"
        raise Violation(message, step, model_point(printed), st.domain)
    raise NotCertifiable(f"Z3 did not decide {_named(step)} in time")


def _prove_by_boxes(st: Statement, step: Step, m, relation: str, deadline: float) -> dict[str, Any]:
    if relation in ("=", "holds"):
        raise NotCertifiable(f"{_named(step)} is transcendental and SymPy did not decide it")

    def tick():
        if time.monotonic() > deadline:
            raise NotCertifiable(f"the box tree of {_named(step)} did not close within the time cap")

    tree = prove_by_boxes(m, relation, st.constraints, st.domain.box, tick)
    if tree is None:
        raise NotCertifiable(f"the box tree of {_named(step)} did not close at depth {MAX_DEPTH}")
    if "violation" in tree:
        point = {k: Fraction(v) for k, v in tree["violation"].items()}
        message = f"an arb enclosure finds {_named(step)} false at {tree['violation']}"
        raise Violation(message, step, point, st.domain)
    shipped = {
        "margin": sympy.srepr(m),
        "constraints": [sympy.srepr(c) for c in st.constraints],
        "box": {k: [str(lo), str(hi)] for k, (lo, hi) in st.domain.box.items()},
    }
    return {"route": "arb"} | shipped | tree


def _proved(sts: list[Statement], deadline: float) -> list[dict[str, Any]]:
    """Every step of every case proved (a step names its case when the inputs split into several)."""
    steps = []
    for k, st in enumerate(sts):
        case = {"case": k} if len(sts) > 1 else {}
        try:
            steps += [
                {"index": s.index, "relation": s.relation} | case | _prove_step(st, s, deadline)
                for s in st.steps
            ]
        except (NotCertifiable, Violation) as exc:
            if not case:
                raise
            where = f"{exc} (in case {k + 1} of {len(sts)}: {st.domain.case})"
            if isinstance(exc, Violation):
                raise Violation(where, exc.step, exc.point, exc.domain) from None
            raise type(exc)(where) from None
    return steps


def _prove_statement(claim: Claim, dims: dict[str, Any], deadline: float):
    """Every link of a chain when each can be proved (a stronger certificate than its ends, and the only
    one for ``steps_claimed``); otherwise the chain end to end, which is the statement the run judges."""
    check = _numeric(claim)
    chain = len(check.relations) > 1 and not check.is_property
    sts = build_statements(check, dims, every_step=chain)
    try:
        return sts, _proved(sts, deadline)
    except (NotCertifiable, Violation):
        if not chain or claim.steps_claimed:
            raise
    sts = build_statements(check, dims, every_step=False)
    return sts, _proved(sts, deadline)


def _numeric(claim: Claim) -> NumericCheck:
    assert isinstance(claim.check, NumericCheck), claim.id  # certify_claim takes numeric claims only
    return claim.check


def _scope(claim: Claim, steps: list[dict[str, Any]]) -> str:
    check = _numeric(claim)
    if check.is_property or len(check.relations) == 1:
        return "the statement"
    return "the chain end to end (e0 R ek), not its links" if steps[0]["index"] == 0 else "every link"


def _certify_at(claim: Claim, dims: dict[str, Any], deadline: float) -> dict[str, Any]:
    t0 = time.monotonic()
    entry: dict[str, Any] = {
        "dims": dims,
        "every_size_at_least_two": every_size_at_least_two(dims, _numeric(claim).inputs),
    }
    try:
        with sympy_cap(max(deadline - t0, 0.01)):
            sts, entry["steps"] = _prove_statement(claim, dims, deadline)
            hypotheses = dict.fromkeys(str(h) for st in sts for h in st.hypotheses)
            entry |= {"domain": sts[0].domain.text, "hypotheses": list(hypotheses)}
            if len(sts) > 1:
                entry["cases"] = [
                    {"case": st.domain.case, "hypotheses": [str(h) for h in st.hypotheses]} for st in sts
                ]
            entry["constants"] = {k: v for st in sts for k, v in st.constants.items()}
            entry["scope"] = _scope(claim, entry["steps"])
        entry["status"] = "certified"
    except Violation as exc:
        entry |= _judged(claim, dims, exc)
    except NotCertifiable as exc:
        entry |= {"status": "not certified", "reason": str(exc)}
    except SymPyStopped:
        entry |= {"status": "not certified", "reason": "the time cap fell first"}
    except Exception as exc:  # a check that does not run on symbols is not certifiable, nothing worse
        reason = f"the check does not run on symbols: {_described(exc)}"
        entry |= {"status": "not certified", "reason": reason}
    entry["seconds"] = round(time.monotonic() - t0, 4)
    return entry


def _completed(dom: Domain, point: dict[str, Fraction]) -> dict[sympy.Symbol, sympy.Rational]:
    """``point`` on every symbol of ``dom``: a solver leaves out a variable the statement does not depend
    on (a reflection's det is −1 whatever t is), which takes its box's midpoint, or 0."""
    at = {}
    for s in dom.symbols:
        if s.name in point:
            at[s] = sympy.Rational(point[s.name].numerator, point[s.name].denominator)
        else:
            lo_hi = dom.box.get(s.name)
            at[s] = (lo_hi[0] + lo_hi[1]) / 2 if lo_hi else sympy.Integer(0)
    return at


def _instance_at(dom: Domain, dims: dict[str, Any], point: dict[str, Fraction]) -> Instance | None:
    """The instance ``dom``'s inputs take at ``point``, as exact rationals (None where that is not one)."""
    at = _completed(dom, point)
    if any(sympy.sympify(c).subs(at) is not sympy.true for c in dom.constraints):
        return None  # a point left out of the domain: nothing to evaluate the check at
    inputs = {}
    for name, values in dom.inputs.items():
        arr = np.asarray(values, dtype=object)
        out = np.empty(arr.shape, dtype=object)
        for idx in np.ndindex(arr.shape):
            v = sympy.sympify(arr[idx]).xreplace(at)
            if not v.is_Rational:
                return None
            out[idx] = Fraction(int(v.p), int(v.q))
        inputs[name] = out
    return Instance(dims=dict(dims), inputs=inputs)


def _judged(claim: Claim, dims: dict[str, Any], exc: Violation) -> dict[str, Any]:
    """A route's violation, judged on the claim's own check at the route's point (balls, else mpmath).

    The routes prove the statement the check gives on symbols, with each float constant read as the
    rational its decimal form writes; a constant the check computes in float64 (1 − 0.9, a bias
    correction) is read as a slightly different rational, and the solver may then find a "violation" of
    the translation that the check does not have.  Only a violation of the check itself may overrule the
    sampled verdict; otherwise nothing is certified and the reason says why.
    """
    check, step = _numeric(claim), exc.step
    inst = _instance_at(exc.domain, dims, exc.point)
    if inst is None:
        reason = f"{exc}; no rational point of the domain could be read from it, so it is unconfirmed"
        return {"status": "not certified", "reason": reason}
    index = None if step.index == 0 or check.is_property else step.index
    relation = step.relation if step.relation != "holds" else "="
    conf = reverify(claim.id, check, inst, index, relation, tolerance_for(override=claim.tol))
    how = f"{conf.route}: lhs − rhs = {conf.difference}" + (
        f", margin beyond the tolerance [{conf.margin[0]}, {conf.margin[1]}]" if conf.margin else ""
    )
    if conf.confirmed:
        return {"status": "violation", "reason": f"{exc}; confirmed on the check itself ({how})"}
    if conf.undecided:
        return {"status": "not certified", "reason": f"{exc}; the check at that point is undecided ({how})"}
    return {
        "status": "not certified",
        "reason": f"{exc}, but the check itself is not violated there beyond its tolerance ({how}); the "
        "solver's statement reads each float constant of the check as the rational its decimal form "
        "writes, so its violation may be of that reading only: nothing is certified",
    }


#: seconds to print an exception's message: SymPy's are lazy, and one naming a relational prints it whole
DESCRIBE_SECONDS = 0.5


def _described(exc: Exception) -> str:
    """``exc`` as ``Type: message``, the message cut to 200 characters and given :data:`DESCRIBE_SECONDS`
    to print (a 64-term expression in "cannot determine truth value of Relational" took minutes)."""
    if branched_on_relational(exc):
        return "TypeError: cannot determine truth value of Relational (the check branches on a comparison)"
    numbers_only = numbers_only_call(exc, set(vars(sympy_xp)))
    if numbers_only is not None:
        return numbers_only
    try:
        with sympy_cap(DESCRIBE_SECONDS):
            text = str(exc)
    except SymPyStopped:
        text = f"(its message did not print within {DESCRIBE_SECONDS:g} s)"
    return f"{type(exc).__name__}: {text[:200]}"


def certify_claim(claim: Claim, *, seconds: float = CAP_SECONDS) -> dict[str, Any]:
    """The certificate of ``claim`` (status ``certified``, ``not certified`` or ``violation``)."""
    t0 = time.monotonic()
    deadline = t0 + seconds
    tried: list[dict[str, Any]] = []
    if not isinstance(claim.check, NumericCheck):
        reason = "only a check on sampled inputs has a statement to certify"
        return {
            "status": "not certified",
            "reason": reason,
            "tried": [],
            "seconds": 0.0,
            "cap_seconds": seconds,
        }
    combos = dims_to_certify(claim.check.dims)
    for k, dims in enumerate(combos):
        smaller_left = any(not every_size_at_least_two(d) for d in combos[k + 1 :])
        until = deadline - SMALL_DIMS_SECONDS if smaller_left and every_size_at_least_two(dims) else deadline
        if time.monotonic() >= until:
            reason = "the time cap fell first" if until == deadline else _KEPT_FOR_SMALLER
            tried.append({"dims": dims, "status": "not certified", "reason": reason})
            continue
        if any(t["status"] == "certified" and t["every_size_at_least_two"] for t in tried):
            break  # certified where every size is ≥ 2: the smaller dims would add nothing
        tried.append(_certify_at(claim, dims, until))
        if tried[-1]["status"] == "violation":
            break
    statuses = [t["status"] for t in tried]
    status = next((s for s in ("violation", "certified") if s in statuses), "not certified")
    cert = {"status": status, "tried": tried, "cap_seconds": seconds}
    cert["unavailable"] = [] if z3_available() else ["z3"]
    cert["seconds"] = round(time.monotonic() - t0, 4)
    if status != "certified":
        cert["reason"] = next((t["reason"] for t in tried if t["status"] == status), "no dims to certify")
    return cert


def _replay_step(step: dict[str, Any], seconds: float) -> str:
    route = step["route"]
    if route == "sympy":
        if step["margin"] == "True":
            return ""
        ok = replay_exact(step["margin"], step["relation"], step["method"])
        return "" if ok else f"SymPy no longer decides step {step['index']} by {step['method']}"
    if route == "z3":
        if not z3_available():
            return "z3 is not installed, so its certificate cannot be replayed"
        answer = replay_smt(step["query"], seconds)
        return "" if answer == "unsat" else f"Z3 answers {answer} to step {step['index']}'s query"
    if route == "arb":
        box = {k: (sympy.Rational(lo), sympy.Rational(hi)) for k, (lo, hi) in step["box"].items()}
        constraints = [from_srepr(c) for c in step["constraints"]]
        ok = replay_boxes(from_srepr(step["margin"]), step["relation"], constraints, box, step)
        return "" if ok else f"the box tree of step {step['index']} does not close again"
    return f"unknown route {route!r}"


def replay_certificate(cert: dict[str, Any], *, seconds: float = CAP_SECONDS) -> list[str]:
    """What fails when every certified step of ``cert`` is checked again from its shipped text."""
    problems = []
    for entry in cert.get("tried", []):
        if entry["status"] != "certified":
            continue
        for step in entry["steps"]:
            try:
                problem = _replay_step(step, seconds)
            except ValueError as exc:  # shipped text that is not what srepr writes is never evaluated
                problem = f"step {step.get('index')}: {exc}"
            if problem:
                problems.append(f"dims {entry['dims']}: {problem}")
    return problems


def certificate_summary(cert: dict[str, Any]) -> str:
    """One line a reader can take at its word: which dims and domain, by which route, in what time."""
    done = [t for t in cert.get("tried", []) if t["status"] == "certified"]
    if not done:
        return f"{cert['status']}: {cert.get('reason', '')}"
    parts = []
    for t in done:
        dims = ", ".join(f"{k} = {v}" for k, v in t["dims"].items()) or "(no dims)"
        routes = "+".join(sorted({s["route"] for s in t["steps"]}))
        hyp = f" where {' and '.join(t['hypotheses'])}" if t["hypotheses"] else ""
        # the domain's text counts the cases; each has its own hypotheses
        if "cases" in t and t["hypotheses"]:
            hyp = f", each of its {len(t['cases'])} cases under its where= hypotheses"
        scope = "" if t["scope"] == "the statement" else f" ({t['scope']})"
        parts.append(
            f"certified at dims {dims}, domain {t['domain']}{hyp}, by route {routes} in {t['seconds']:.3g} s"
            + scope
        )
    return "; ".join(parts)


def attach_certificate(claim: Claim, result) -> None:
    """Certify a HOLDS ``result`` of ``claim`` in place.  A certificate is replayed from its shipped text
    before it is kept: one that fails is an ERROR, never a silent HOLDS.  A solver's violation the
    sampled search missed makes the verdict INCONCLUSIVE, since the evidence then disagrees."""
    from ..model.verdict import Verdict

    cert = certify_claim(claim)
    if cert["status"] == "certified":
        problems = replay_certificate(cert)
        if problems:
            cert |= {"status": "replay failed", "reason": "; ".join(problems)}
            result.verdict = Verdict.ERROR
            result.message = f"claim {claim.id!r}: its certificate does not replay: {cert['reason']}"
    elif cert["status"] == "violation":
        result.verdict = Verdict.INCONCLUSIVE
        result.reason = f"the sampled search holds, but certification finds a violation: {cert['reason']}"
    cert["summary"] = certificate_summary(cert)
    result.certificate = cert
