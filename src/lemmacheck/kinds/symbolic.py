"""Step-level checking of SymPy derivation chains.

Each step ``a R b`` is settled in three passes, the cheapest and most decisive first:

1. *exact points* (:mod:`lemmacheck.kinds.symbolic_exact`): both sides at a few random rational points, in
   exact arithmetic; a difference that violates ``R`` is a certified counterexample and SymPy is not
   asked (on some false identities ``simplify`` does not return in any time worth waiting for);
2. *SymPy*: ``simplify(a - b) == 0`` for ``=``; a provably nonnegative ``simplify(b - a)`` for ``<=``;
   under a wall-clock cap (:data:`SYMPY_SECONDS` for the whole chain, :mod:`lemmacheck.kinds.sympy_cap`): past
   it a step is not proved, and the chain goes on;
3. *sampled points*: a step SymPy did not prove is evaluated at sampled points of the free symbols
   (vectorised via ``lambdify``).  Violating points are candidates, ranked and settled as numeric ones
   are (:mod:`lemmacheck.model.tolerance`): each is re-evaluated with ``evalf`` at ``REVERIFY_DPS`` digits and
   ``EXTRA_DPS`` more; the step is *broken* when one is confirmed, *unsettled* when a point that rounding
   cannot explain (or one of the strongest few) is left unsettled by the budget.

An undefined function (``sp.Function("sigma")``) is evaluated in passes 1 and 3 as a random rational
function, named with the counterexample; SymPy keeps it generic.
"""

from __future__ import annotations

import dataclasses
import time
import warnings
from collections.abc import Mapping
from typing import Any

import mpmath
import numpy as np
import sympy as sp

from ..errors import CheckError
from ..model.claim import SymbolicDerivation
from ..model.tolerance import (
    EXTRA_DPS,
    NOISE_ULPS,
    REVERIFY_DPS,
    SETTLE_PER_DIMS,
    SIGNIFICANCE,
    STABILITY,
    Tolerance,
)
from ..run.results import StepResult
from ..search.shrink import simple_values
from ..search.violations import compose, excess, gap
from ..settling.highprec import confirms, side_ratio, violation_amount
from ..settling.settle import Budget
from .symbolic_exact import (
    EXACT_POINTS,
    exact_refutation,
    instantiate,
    instantiations,
    named,
    rational_points,
)
from .sympy_cap import SymPyStopped, sympy_cap

__all__ = ["DerivationOutcome", "check_derivation", "sample_symbols", "SYMPY_SECONDS"]

# SymPy's wall-clock cap for one derivation, all its steps together (SymPy has no budget in counts).  Far
# above the longest proof in the catalogue (lemma1.eq4: 20 s for a step, 32 s for the chain, on a loaded
# two-core machine), so it decides no verdict there; it stops a step SymPy cannot settle from hanging its
# claim: the step is then checked at sampled points, like any step SymPy does not prove.
SYMPY_SECONDS = 60.0


@dataclasses.dataclass
class DerivationOutcome:
    steps: list[StepResult]
    end_relation: str
    end_status: str  # proved | holds | broken | measured | unsettled
    end_counterexample: dict | None = None
    first_broken_step: int | None = None
    step_counterexamples: dict[int, dict] = dataclasses.field(default_factory=dict)  # broken step -> record

    @property
    def proved(self) -> bool:
        return self.end_status == "proved"


def sample_symbols(symbols, domain, n: int, rng) -> dict:
    """Sample each free symbol from its declared range, or from its assumptions."""
    values = {}
    for s in symbols:
        if s in domain:
            lo, hi = domain[s]
            v = rng.uniform(lo, hi, n)
        elif s.is_integer:
            lo = 1 if s.is_positive else (0 if s.is_nonnegative else -10)
            v = rng.integers(lo, 12, n).astype(float)
        elif s.is_positive or s.is_nonnegative:
            v = 10.0 ** rng.uniform(-2, 1, n)
        else:
            v = rng.standard_normal(n) * 10.0 ** rng.uniform(-1, 1, n)
        if s.is_integer:
            v = np.round(v)
        values[s] = v
    return values


def _zero(d) -> bool:
    """Whether SymPy can show ``d == 0``: simplify, then the rewrites that help sums and powers."""
    for attempt in (
        lambda e: e,
        sp.simplify,
        lambda e: sp.expand(sp.powsimp(sp.expand(e), force=False)),
        lambda e: sp.simplify(e.doit()),
    ):
        e = attempt(d)
        if e == 0 or e.is_zero:
            return True
    return False


def _prove(a, b, relation: str) -> bool:
    try:
        if relation == "=":
            if a == b:
                return True
            return _zero(a - b)
        if relation in ("<=", "<"):
            d = sp.simplify(b - a)
            return bool(d.is_positive) if relation == "<" else bool(d.is_nonnegative)
        if relation in (">=", ">"):
            d = sp.simplify(a - b)
            return bool(d.is_positive) if relation == ">" else bool(d.is_nonnegative)
    except Exception:  # SymPy could not decide: fall back to numbers
        return False
    return False


def _evaluate(expr, syms, pts, n):
    """Values of ``expr`` at the sampled points: vectorised through lambdify, or point by point with
    ``evalf`` where lambdify cannot print the expression (a ``Sum`` with a symbolic bound, ...)."""
    try:
        f = sp.lambdify(syms, expr, "numpy")
        return np.broadcast_to(np.asarray(f(*[pts[s] for s in syms]), dtype=complex), (n,))
    except Exception:
        out = np.empty(n, dtype=complex)
        for j in range(n):
            try:
                out[j] = complex(expr.subs({s: _exact(s, pts[s][j]) for s in syms}).doit().evalf(30))
            except (TypeError, ValueError):
                out[j] = np.nan
        return out


def _exact(s, v):
    return sp.Integer(round(v)) if s.is_integer else sp.Float(v, REVERIFY_DPS)


def _numeric_step(claim_id, a, b, relation, domain, n, rng, tol: Tolerance, budget: Budget | None = None):
    """Evaluate ``a R b`` at sampled points: (checked, violations, confirmed point or None, unsettled)."""
    a, b = a.doit(), b.doit()  # evaluate integrals, sums and derivatives SymPy can do in closed form
    syms = sorted((a - b).free_symbols | a.free_symbols | b.free_symbols, key=str)
    pts = sample_symbols(syms, domain, n, rng)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        slow = not _lambdifiable(a) or not _lambdifiable(b)
        if slow:  # point by point: keep it to a few dozen points
            n = min(n, 40)
            pts = {s: v[:n] for s, v in pts.items()}
        va = _evaluate(a, syms, pts, n)
        vb = _evaluate(b, syms, pts, n)
        # rounding sensitivity: the same points moved by a few ulps (integer symbols stay)
        shift = {
            s: v if s.is_integer else v * (1 + NOISE_ULPS * np.finfo(float).eps * rng.choice((-1, 1), n))
            for s, v in pts.items()
        }
        pa = _evaluate(a, syms, shift, n)
        pb = _evaluate(b, syms, shift, n)
    real = (np.abs(va.imag) <= 1e-12 * (1 + np.abs(va.real))) & (
        np.abs(vb.imag) <= 1e-12 * (1 + np.abs(vb.real))
    )
    finite = np.isfinite(va.real) & np.isfinite(vb.real) & real
    if not finite.any():
        raise CheckError(
            claim_id,
            f"derivation step {a} {relation} {b}: no sampled point gives finite real "
            "values; give the symbols a domain=",
        )
    sens = (np.abs(pa.real - va.real) + np.abs(pb.real - vb.real))[finite]
    va, vb = va.real[finite], vb.real[finite]
    g = gap(va, vb, relation, tol)
    bad = g >= 0 if relation in ("<", ">") else g > 0
    with np.errstate(all="ignore"):
        v = excess(va, vb, relation, tol)
        sig = np.where(np.isfinite(sens) & (sens > 0), v / np.where(sens > 0, sens, 1.0), np.inf)
    worst = None
    unsettled = 0
    if bad.any():
        order = np.flatnonzero(bad)[np.lexsort((-g[bad], -sig[bad]))]
        must = [j for k, j in enumerate(order) if k < 2 * SETTLE_PER_DIMS or sig[j] > SIGNIFICANCE]
        for k, j in enumerate(must):
            if budget is not None and budget.exhausted():
                unsettled = len(must) - k
                break
            if budget is not None:
                budget.spent += 1
            point = {s: float(pts[s][finite][j]) for s in syms}
            conf = _confirm(a, b, relation, point, tol)
            if conf is not None:
                worst = _shrunk(a, b, relation, domain, point, conf, tol)
                break
    return int(finite.sum()), int(bad.sum()), worst, unsettled


def _lambdifiable(expr) -> bool:
    return not expr.has(sp.Sum, sp.Product, sp.Integral, sp.Derivative)


def _confirm(a, b, relation, point, tol: Tolerance) -> dict | None:
    """Re-evaluate a sampled violation with ``evalf`` at REVERIFY_DPS digits (and EXTRA_DPS more)."""
    found = []
    for dps in (REVERIFY_DPS, REVERIFY_DPS + EXTRA_DPS):
        subs = {s: sp.Integer(round(v)) if s.is_integer else sp.Float(v, dps) for s, v in point.items()}
        try:
            va = sp.N(a.subs(subs).doit(), dps)
            vb = sp.N(b.subs(subs).doit(), dps)
            with mpmath.workdps(dps):
                va_m, vb_m = mpmath.mpf(str(sp.re(va))), mpmath.mpf(str(sp.re(vb)))
        except (TypeError, ValueError):
            return None
        with mpmath.workdps(dps):
            d = violation_amount(va_m, vb_m, relation)
            if not confirms(va_m, vb_m, d, relation, tol):
                return None
            found.append(d)
    with mpmath.workdps(REVERIFY_DPS + EXTRA_DPS):
        if relation not in ("<", ">") and abs(found[0] - found[1]) > STABILITY * abs(found[1]):
            return None
        ratio = side_ratio(va_m, vb_m, relation)
    record = {
        "dims": {},
        "inputs": {str(s): v for s, v in point.items()},
        "lhs": mpmath.nstr(va_m, 30),
        "rhs": mpmath.nstr(vb_m, 30),
        "difference": mpmath.nstr(found[1], 20),
        "dps": REVERIFY_DPS,
        "exact": False,
    }
    return record | ({"ratio": ratio} if ratio is not None else {})


def _shrunk(a, b, relation, domain, point: dict, record: dict, tol: Tolerance) -> dict:
    """The certified point with each symbol moved to the simplest value (0, ±1, ±½, ±2, …) at which the
    step still fails in float64 and high precision confirms it, as a statement's counterexample is."""
    syms = sorted(point, key=str)
    best, best_record, moved = dict(point), record, 0
    for s in syms:
        for x in simple_values(best[s]):
            if not _admissible(s, x, domain):
                continue
            trial = best | {s: x}
            if not _fails_in_float64(a, b, relation, syms, trial, tol):
                continue
            conf = _confirm(a, b, relation, trial, tol)
            if conf is not None:
                best, best_record, moved = trial, conf, moved + 1
                break
    return best_record | {"minimised": f"shrunk: {moved} entries simplified" if moved else "as found"}


def _admissible(s, x: float, domain) -> bool:
    """Whether ``x`` is a value the step's symbol ``s`` is sampled from (its domain, its assumptions)."""
    if s in domain:
        lo, hi = domain[s]
        if not lo <= x <= hi:
            return False
    if s.is_integer and x != round(x):
        return False
    if s.is_positive and x <= 0:
        return False
    return not (s.is_nonnegative and x < 0)


def _fails_in_float64(a, b, relation, syms, point: dict, tol: Tolerance) -> bool:
    pts = {s: np.array([float(point[s])]) for s in syms}
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        va, vb = _evaluate(a, syms, pts, 1), _evaluate(b, syms, pts, 1)
    if not (np.isfinite(va).all() and np.isfinite(vb).all()):
        return False
    if abs(va.imag[0]) > 1e-12 * (1 + abs(va.real[0])) or abs(vb.imag[0]) > 1e-12 * (1 + abs(vb.real[0])):
        return False
    g = gap(va.real, vb.real, relation, tol)
    return bool(g[0] >= 0 if relation in ("<", ">") else g[0] > 0)


@dataclasses.dataclass
class _Chain:
    """What every step of one derivation is checked with."""

    claim_id: str
    domain: Mapping
    n: int
    rng: Any
    tol: Tolerance
    budget: Budget | None
    exact_rng: Any  # spawned from rng, so the exact points leave the sampled points as they were
    functions: dict  # undefined function -> the rational function it is evaluated as
    sympy_until: float  # time.monotonic() past which SymPy is not asked any more

    @classmethod
    def start(cls, claim_id: str, d: SymbolicDerivation, n: int, rng, tol: Tolerance, budget) -> _Chain:
        exact_rng = rng.spawn(1)[0]
        functions = instantiations(d.exprs, exact_rng)
        until = time.monotonic() + SYMPY_SECONDS
        return cls(claim_id, d.domain, n, rng, tol, budget, exact_rng, functions, until)

    def capped(self, work):
        """``work()`` within what is left of SymPy's time; None when the time is up."""
        left = self.sympy_until - time.monotonic()
        if left <= 0:
            return None
        try:
            with sympy_cap(left):
                return work()
        except SymPyStopped:
            return None

    def named(self, cex: dict | None) -> dict | None:
        return cex | {"functions": named(self.functions)} if cex and self.functions else cex

    def instantiable(self, a, b) -> bool:
        # Rebuilding a Subs prints its whole point (SymPy names its dummies from the text): seconds
        # per node on the linking chains, so a chain with derivatives at a point is not instantiated
        # as a whole; its exact points are evaluated bottom-up (symbolic_exact.evaluated).
        return bool(self.functions) and not (a.has(sp.Subs) or b.has(sp.Subs))

    def refute_at_derivatives(self, a, b, relation: str) -> dict | None:
        """The exact pass on a step with a derivative at a point; its counterexample is not shrunk."""
        syms = sorted(a.free_symbols | b.free_symbols, key=str)
        points = rational_points(sample_symbols(syms, self.domain, EXACT_POINTS, self.exact_rng), self.domain)
        cex = exact_refutation(a, b, relation, points, self.tol, _confirm, self.functions)
        return cex and cex | {"minimised": "as found (a step with a derivative at a point is not shrunk)"}

    def refute_exactly(self, a, b, relation: str) -> dict | None:
        if self.functions and not self.instantiable(a, b):
            return self.named(self.capped(lambda: self.refute_at_derivatives(a, b, relation)))

        def work():
            x, y = instantiate(a, self.functions), instantiate(b, self.functions)
            syms = sorted(x.free_symbols | y.free_symbols, key=str)
            points = rational_points(
                sample_symbols(syms, self.domain, EXACT_POINTS, self.exact_rng), self.domain
            )
            cex = exact_refutation(x, y, relation, points, self.tol, _confirm)
            if cex is None:
                return None
            # shrunk as a sampled counterexample is: simple values where the step still fails
            found = {s: float(sp.Rational(cex["inputs"][str(s)])) for s in syms}
            shrunk = _shrunk(x, y, relation, self.domain, found, cex, self.tol)
            if shrunk.get("exact"):
                return shrunk
            # the simple values are dyadic, so the shrunk point is checked exactly again
            at = {s: sp.Rational(shrunk["inputs"][str(s)]) for s in syms}
            again = exact_refutation(x, y, relation, [at], self.tol, _confirm)
            return again | {"minimised": shrunk["minimised"]} if again and again.get("exact") else shrunk

        return self.named(self.capped(work))

    def prove(self, a, b, relation: str) -> bool | None:
        """True when SymPy proves the step, False when it does not, None when it ran out of time."""
        return self.capped(lambda: _prove(a, b, relation))

    def sample(self, a, b, relation: str, *, budget: bool = True):
        if self.instantiable(a, b):
            a, b = instantiate(a, self.functions), instantiate(b, self.functions)
        spend = self.budget if budget else None
        found = _numeric_step(self.claim_id, a, b, relation, self.domain, self.n, self.rng, self.tol, spend)
        return (*found[:2], self.named(found[2]), found[3])


def _where(cex: dict) -> str:
    functions = "".join(f", {f}: {v}" for f, v in cex.get("functions", {}).items())
    exact = " (exact)" if cex.get("exact") else ""
    return f"at {cex['inputs']}{functions}{exact}: lhs={cex['lhs']} rhs={cex['rhs']}"


def _check_step(chain: _Chain, i: int, label: str, a, rel: str, b) -> tuple[StepResult, dict | None]:
    """One step, and its counterexample when it is broken."""
    if rel == "~":
        checked, _, _, _ = chain.sample(a, b, "=", budget=False)
        return StepResult(i, label, rel, "measured", checked=checked, detail="approximate step"), None
    cex = chain.refute_exactly(a, b, rel)
    if cex is not None:
        return StepResult(
            i, label, rel, "broken", checked=EXACT_POINTS, violations=1, detail=_where(cex)
        ), cex
    proved = chain.prove(a, b, rel)
    if proved:
        return StepResult(i, label, rel, "proved", detail="SymPy"), None
    stopped = f" (SymPy stopped after {SYMPY_SECONDS:g} s)" if proved is None else ""
    checked, violations, worst, unsettled = chain.sample(a, b, rel)
    if worst is not None:
        detail = _where(worst)
        return StepResult(
            i, label, rel, "broken", checked=checked, violations=violations, detail=detail
        ), worst
    if unsettled:
        detail = f"{violations} sampled violations, {unsettled} not settled (budget spent){stopped}"
        return StepResult(i, label, rel, "unsettled", checked=checked, violations=0, detail=detail), None
    detail = f"not proved by SymPy{stopped}; no violation at sampled points" + (
        f" ({violations} rounding-level candidates settled)" if violations else ""
    )
    return StepResult(i, label, rel, "holds", checked=checked, violations=0, detail=detail), None


def _check_end(chain: _Chain, d: SymbolicDerivation, steps, step_cex: dict, end_rel: str):
    """The chain end to end, ``e0 R ek``: its status and counterexample."""
    if end_rel == "~":
        return "measured", None
    if all(s.status == "proved" for s in steps):
        return "proved", None
    a, b = sp.sympify(d.exprs[0]), sp.sympify(d.exprs[-1])
    if len(steps) == 1:
        if steps[0].status != "broken":
            return steps[0].status, None
        if step_cex[1].get("exact"):
            return "broken", step_cex[1]
        return "broken", chain.sample(a, b, end_rel, budget=False)[2]
    cex = chain.refute_exactly(a, b, end_rel)
    if cex is not None:
        return "broken", cex
    if chain.prove(a, b, end_rel):
        return "proved", None
    _, _, cex, unsettled = chain.sample(a, b, end_rel)
    return ("broken" if cex is not None else ("unsettled" if unsettled else "holds")), cex


def check_derivation(
    claim_id: str, d: SymbolicDerivation, n: int, rng, tol: Tolerance, budget: Budget | None = None
) -> DerivationOutcome:
    chain = _Chain.start(claim_id, d, n, rng, tol, budget)
    steps: list[StepResult] = []
    step_cex: dict[int, dict] = {}
    for i, (a, rel, b) in enumerate(zip(d.exprs[:-1], d.relations, d.exprs[1:], strict=True), start=1):
        label = d.labels[i - 1] if d.labels else f"step {i}"
        step, cex = _check_step(chain, i, label, sp.sympify(a), rel, sp.sympify(b))
        steps.append(step)
        if cex is not None:
            step_cex[i] = cex
    first_broken = min(step_cex, default=None)
    end_rel = compose(d.relations)
    end_status, end_cex = _check_end(chain, d, steps, step_cex, end_rel)
    return DerivationOutcome(steps, end_rel, end_status, end_cex, first_broken, step_cex)
