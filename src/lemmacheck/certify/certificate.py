"""Certification of a claim that HOLDS on samples: its statement proved at fixed dims on its whole
domain by a route that is a proof (SymPy exactly, Z3's unsat, an arb enclosure), never by sampling.

:func:`certify_claim` tries every dims combination :func:`~.plan.plan` lists (sizes up to 4, every
declared parameter value), each under budgets of work (:mod:`.prove`), and returns the certificate as
plain data: per dims, the domain, the hypotheses, a witness point of the domain, how each constant was
read, and per step its route with what replays it; and its scope (:mod:`.scope`).  A ceiling of CPU
seconds per claim is a safety net only, reported when it fires.
"""

from __future__ import annotations

import time
from typing import Any

from ..kinds.sympy_cap import SymPyStopped, sympy_cap
from ..model.claim import Claim, NumericCheck
from . import work
from .boxes import MAX_BOXES
from .constants import source_constants
from .domain import every_size_at_least_two
from .judge import judged
from .plan import plan, too_many_entries
from .prove import Violation, numeric, prove_statement
from .refusal import NotCertifiable, numbers_only_call
from .replay import replay_certificate
from .scope import scope_of
from .smt import RLIMIT, z3_available
from .symbolic import branched_on_relational, sympy_xp
from .witness import EmptyDomain, witness_of

__all__ = ["SAFETY_SECONDS", "attach_certificate", "certify_claim", "certificate_summary"]

#: CPU seconds of certification per claim (this process's and its Z3 processes', :func:`.work.cpu_seconds`),
#: a safety net only: the budgets are counts of work (:mod:`.work`: Python calls of symbolic work, Z3's
#: rlimit; boxes), which end a claim's certification first, and a claim that reaches this says so in its
#: certificate.  It was 30 s of the wall clock, which a machine at load 11-19 stretched past the budgets
#: (the net fired for 30 claims); CPU time is not stretched by the load
SAFETY_SECONDS = 30.0

#: why a combination was stopped by the claim's safety net
NET_FIRED = "the CPU-time safety net fired"


def _scope_words(claim: Claim, steps: list[dict[str, Any]]) -> str:
    check = numeric(claim)
    if check.is_property or len(check.relations) == 1:
        return "the statement"
    return "the chain end to end (e0 R ek), not its links" if steps[0]["index"] == 0 else "every link"


def _witnessed(entry: dict[str, Any]):
    """The check that some case of the domain has a point, before any route (an empty domain proves
    everything)."""

    def check(sts) -> None:
        found, empty = [], []
        for st in sts:
            try:
                found.append(witness_of(st.domain.symbols, st.constraints, st.domain.box))
            except EmptyDomain as exc:
                empty.append(exc)
        if not found:
            raise empty[0]
        entry["witness"] = found[0]

    return check


_COMBINATION = "this combination's budget of symbolic work"
_CLAIM_SPENT = "the claim's budget of symbolic work is spent"


def _budget(seconds: float) -> dict[str, Any]:
    """The budgets of work a certificate was made under (what decides it, with the claim and the seed),
    and the safety net."""
    return {
        "z3_rlimit": RLIMIT,
        "z3_rlimit_per_claim": work.CLAIM_RLIMIT,
        "python_calls_per_claim": work.CLAIM_CALLS,
        "python_calls_per_combination": work.COMBINATION_CALLS,
        "python_calls_per_simplify": work.SIMPLIFY_CALLS,
        "boxes": MAX_BOXES,
        "safety_seconds": seconds,  # CPU seconds
    }


def _certify_at(claim: Claim, dims: dict[str, Any], deadline: float) -> dict[str, Any]:
    t0 = time.monotonic()
    cpu0 = work.cpu_seconds()
    entry: dict[str, Any] = {
        "dims": dims,
        "every_size_at_least_two": every_size_at_least_two(dims, numeric(claim).inputs),
    }
    try:
        net = sympy_cap(max(deadline - cpu0, 0.01), cpu=True)
        with net, work.spending(work.COMBINATION_CALLS, _COMBINATION):
            sts, entry["steps"] = prove_statement(claim, dims, before=_witnessed(entry))
            hypotheses = dict.fromkeys(str(h) for st in sts for h in st.hypotheses)
            entry |= {"domain": sts[0].domain.text, "hypotheses": list(hypotheses)}
            if len(sts) > 1:
                entry["cases"] = [
                    {"case": st.domain.case, "hypotheses": [str(h) for h in st.hypotheses]} for st in sts
                ]
            entry["constants"] = {k: v for st in sts for k, v in st.constants.items()}
            entry["scope"] = _scope_words(claim, entry["steps"])
        entry["status"] = "certified"
    except Violation as exc:
        entry |= judged(claim, dims, exc)
    except EmptyDomain as exc:
        status = "empty domain" if exc.proved else "not certified"
        entry |= {"status": status, "reason": f"the domain at these dims has no point: {exc}"}
    except NotCertifiable as exc:
        entry |= {"status": "not certified", "reason": str(exc)}
    except work.WorkSpent as exc:
        entry |= {"status": "not certified", "reason": f"{exc} ran out"}
    except SymPyStopped:
        entry |= {"status": "not certified", "reason": NET_FIRED, "safety_net": True}
    except Exception as exc:  # a check that does not run on symbols is not certifiable, nothing worse
        entry |= {
            "status": "not certified",
            "reason": f"the check does not run on symbols: {_described(exc)}",
        }
    if entry["status"] != "certified":
        entry.pop("witness", None)  # a point found before a route failed proves nothing
    entry["seconds"] = round(time.monotonic() - t0, 4)
    return entry


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


def _tried(claim: Claim, combos: list[dict[str, Any]], deadline: float) -> list[dict[str, Any]]:
    """Each combination in order; larger sizes stop after the first size (every size ≥ 2) where no
    value was certified, and everything stops at a confirmed violation."""
    tried: list[dict[str, Any]] = []
    failed_sizes: set[tuple] = set()
    for dims in combos:
        sizes = _sizes(dims)
        larger = any(_at_least(sizes, f) for f in failed_sizes)
        if work.cpu_seconds() >= deadline:
            tried.append({"dims": dims, "status": "not tried", "reason": NET_FIRED})
            continue
        if work.exhausted():
            tried.append({"dims": dims, "status": "not tried", "reason": _CLAIM_SPENT})
            continue
        if larger:
            tried.append({"dims": dims, "status": "not tried", "reason": "a smaller size was not certified"})
            continue
        if crowded := too_many_entries(numeric(claim).inputs, dims):
            tried.append({"dims": dims, "status": "not tried", "reason": crowded})
            continue
        tried.append(_certify_at(claim, dims, deadline))
        if tried[-1]["status"] == "violation":
            break
        same = [t for t in tried if t["status"] != "not tried" and _sizes(t["dims"]) == sizes]
        if (
            min((v for _, v in sizes), default=0) >= 2
            and same
            and not any(t["status"] == "certified" for t in same)
        ):
            last_of_size = not any(_sizes(d) == sizes for d in combos[combos.index(dims) + 1 :])
            if last_of_size:
                failed_sizes.add(sizes)
    return tried


def _sizes(dims: dict[str, Any]) -> tuple:
    """The whole-number dims as (name, value) pairs: a parameter may be whole in one combination and not
    in another (p in (1, 2, inf)), so combinations are compared name by name, never by position."""
    return tuple((k, v) for k, v in dims.items() if isinstance(v, int) and not isinstance(v, bool))


def _at_least(sizes: tuple, smaller: tuple) -> bool:
    """Whether ``sizes`` is ``smaller`` or larger in every dim, over the same whole-number dims."""
    mine = dict(sizes)
    return mine.keys() == dict(smaller).keys() and all(mine[k] >= v for k, v in smaller)


def certify_claim(claim: Claim, *, seconds: float = SAFETY_SECONDS) -> dict[str, Any]:
    """The certificate of ``claim`` (status ``certified``, ``not certified``, ``empty domain`` or
    ``violation``)."""
    t0, cpu0 = time.monotonic(), work.cpu_seconds()
    base = {"budget": _budget(seconds), "tried": []}
    if not isinstance(claim.check, NumericCheck):
        reason = "only a check on sampled inputs has a statement to certify"
        return base | {"status": "not certified", "reason": reason, "seconds": 0.0, "cap_seconds": seconds}
    try:
        constants = source_constants(claim.check.fn, claim.check.where)
    except NotCertifiable as exc:
        return base | {"status": "not certified", "reason": str(exc), "seconds": 0.0, "cap_seconds": seconds}
    combos, left_out = plan(claim.check.dims)
    with work.claim_budget() as budget:
        tried = _tried(claim, combos, cpu0 + seconds)
    tried += [
        {"dims": d, "status": "not tried", "reason": "beyond the combinations tried per claim"}
        for d in left_out
    ]
    statuses = [t["status"] for t in tried]
    status = next((s for s in ("violation", "certified", "empty domain") if s in statuses), "not certified")
    cert = base | {"status": status, "tried": tried, "cap_seconds": seconds, "source_constants": constants}
    cert["scope"] = scope_of(claim.check.dims, tried)
    cert["unavailable"] = [] if z3_available() else ["z3"]
    safety = [str(t["dims"]) for t in tried if t.get("reason") == NET_FIRED] + budget.fired
    if safety:
        cert["safety_net_fired"] = True
        cert["safety_nets"] = list(dict.fromkeys(safety))
    cert["seconds"] = round(time.monotonic() - t0, 4)
    if status != "certified":
        cert["reason"] = next((t["reason"] for t in tried if t["status"] == status), "no dims to certify")
    return cert


def certificate_summary(cert: dict[str, Any]) -> str:
    """One line a reader can take at its word: its scope, then which dims and domain, by which route."""
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
        trivial = (
            " (trivial: both sides coincide as computed)" if all(s.get("trivial") for s in t["steps"]) else ""
        )
        parts.append(
            f"certified at dims {dims}, domain {t['domain']}{hyp}, by route {routes}{scope}{trivial}"
        )
    head = cert.get("scope", {}).get("text", "")
    return (f"{head}: " if head else "") + "; ".join(parts)


def attach_certificate(claim: Claim, result) -> None:
    """Certify a HOLDS ``result`` of ``claim`` in place.  A certificate is replayed (the obligation
    re-derived from the claim) before it is kept: one that fails is an ERROR, never a silent HOLDS.  A
    route's violation confirmed on the claim's own check refutes it, with that counterexample."""
    from .refute import refute_with

    cert = certify_claim(claim)
    if cert["status"] == "certified":
        problems = replay_certificate(cert, claim)
        if problems:
            cert |= {"status": "replay failed", "reason": "; ".join(problems)}
            from ..model.verdict import Verdict

            result.verdict = Verdict.ERROR
            result.message = f"claim {claim.id!r}: its certificate does not replay: {cert['reason']}"
    elif cert["status"] == "violation":
        refute_with(claim, result, cert)
    cert["summary"] = certificate_summary(cert)
    result.certificate = cert
