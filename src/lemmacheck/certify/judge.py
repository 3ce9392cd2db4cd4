"""A route's violation judged on the claim's own check at the route's exact point: confirmed there (on
balls, else mpmath, or exactly), it refutes the claim with that point as its counterexample, shrunk
and replayable; otherwise it certifies nothing and the reason gives both figures."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import sympy

from ..model.claim import Claim
from ..model.tolerance import tolerance_for
from ..search.candidates import Instance
from ..search.context import CheckContext
from ..search.shrink import shrink_counterexample
from .domain import Domain
from .prove import Violation, numeric

__all__ = ["judged", "SHRINK_TRIALS"]

#: evaluations the shrinker may spend simplifying a route's counterexample
SHRINK_TRIALS = 40


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
    """The instance ``dom``'s inputs take at ``point`` (None where that is not a rational point of the
    domain): float64 arrays where every entry is a float64 exactly (so it shrinks and replays as any
    sampled instance), else exact rationals."""
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
        exact_in_float = all(Fraction(float(f)) == f for f in out.flat)
        inputs[name] = out.astype(np.float64) if exact_in_float else out
    return Instance(dims=dict(dims), inputs=inputs)


def judged(claim: Claim, dims: dict[str, Any], exc: Violation) -> dict[str, Any]:
    """A route's violation, judged on the claim's own check at the route's point (balls, else mpmath).

    The routes prove the statement the check gives on symbols, with each float constant read as the
    rational its decimal form writes; a constant the check computes in float64 (1 − 0.9, a bias
    correction) is read as a slightly different rational, and the solver may then find a "violation" of
    the translation that the check does not have.  Only a violation of the check itself may overrule the
    sampled verdict; then it is the claim's counterexample (``instance``, ``confirmation``).
    """
    check, step = numeric(claim), exc.step
    inst = _instance_at(exc.domain, dims, exc.point)
    if inst is None:
        reason = f"{exc}; no rational point of the domain could be read from it, so it is unconfirmed"
        return {"status": "not certified", "reason": reason}
    index = None if step.index == 0 or check.is_property else step.index
    relation = step.relation if step.relation != "holds" else "="
    ctx = CheckContext(claim.id, check, tolerance_for(override=claim.tol))
    conf = ctx.reverify(inst, index, relation)
    how = f"{conf.route}: lhs − rhs = {conf.difference}" + (
        f", margin beyond the tolerance [{conf.margin[0]}, {conf.margin[1]}]" if conf.margin else ""
    )
    if conf.confirmed:
        shrunk, conf, changed = shrink_counterexample(ctx, inst, conf, index, relation, SHRINK_TRIALS)
        return {
            "status": "violation",
            "reason": f"{exc}; confirmed on the check itself ({how})",
            "counterexample": {
                "instance": shrunk,
                "confirmation": conf,
                "step": index,
                "changed": changed,
                "route": exc.route,
            },
        }
    if conf.undecided:
        return {"status": "not certified", "reason": f"{exc}; the check at that point is undecided ({how})"}
    return {
        "status": "not certified",
        "reason": f"{exc}, but the check itself is not violated there beyond its tolerance ({how}); the "
        "solver's statement reads each float constant of the check as the rational its decimal form "
        "writes, so its violation may be of that reading only: nothing is certified",
    }
