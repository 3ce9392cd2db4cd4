"""Step-level checking of SymPy derivation chains.

Each step ``a R b`` is settled in three passes, the cheapest and most decisive first:

1. *exact points* (:mod:`lemmacheck.kinds.symbolic_exact`): both sides at a few random rational points, in
   exact arithmetic; a difference that violates ``R`` is a certified counterexample and SymPy is not
   asked (on some false identities ``simplify`` does not return in any time worth waiting for);
2. *SymPy*: ``simplify(a - b) == 0`` for ``=``; a provably nonnegative ``simplify(b - a)`` for ``<=``;
   under a wall-clock cap (:data:`SYMPY_SECONDS` for the whole chain, :mod:`lemmacheck.kinds.sympy_cap`): past
   it a step is not proved, and the chain goes on;
3. *sampled points* (:mod:`lemmacheck.kinds.symbolic_sampled`): a step SymPy did not prove is evaluated
   at sampled points of the free symbols (vectorised via ``lambdify``).  Violating points are candidates,
   ranked and settled as numeric ones are (:mod:`lemmacheck.model.tolerance`): each is re-evaluated with
   ``evalf`` at ``REVERIFY_DPS`` digits and ``EXTRA_DPS`` more; the step is *broken* when one is
   confirmed, *unsettled* when a point that rounding cannot explain (or one of the strongest few) is left
   unsettled by the budget.

An undefined function (``sp.Function("sigma")``) is evaluated in passes 1 and 3 as a random rational
function, named with the counterexample; SymPy keeps it generic.
"""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Mapping
from typing import Any

import sympy as sp

from ..model.claim import SymbolicDerivation
from ..model.tolerance import (
    Tolerance,
)
from ..run.results import StepResult
from ..search.violations import compose
from ..settling.settle import Budget
from .symbolic_exact import (
    EXACT_POINTS,
    exact_refutation,
    instantiate,
    instantiations,
    named,
    rational_points,
)
from .symbolic_sampled import confirm, numeric_step, sample_symbols, shrunk
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


#: steps whose SymPy answer is kept in a process: a claim run again in one process (the mutation gate's
#: mutants leave most steps as written, a benchmark's rounds, a watch) asks SymPy the same question, and
#: ``simplify`` is deterministic and most of a derivation's cost (a fifth of ``schatten.hadamard``'s)
PROOFS_KEPT = 512


@functools.lru_cache(maxsize=PROOFS_KEPT)
def _prove(a, b, relation: str) -> bool:
    """Whether SymPy proves ``a relation b`` (remembered: a stop by the cap raises, so it is not)."""
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
        cex = exact_refutation(a, b, relation, points, self.tol, confirm, self.functions)
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
            cex = exact_refutation(x, y, relation, points, self.tol, confirm)
            if cex is None:
                return None
            # shrunk as a sampled counterexample is: simple values where the step still fails
            found = {s: float(sp.Rational(cex["inputs"][str(s)])) for s in syms}
            simpler = shrunk(x, y, relation, self.domain, found, cex, self.tol)
            if simpler.get("exact"):
                return simpler
            # the simple values are dyadic, so the shrunk point is checked exactly again
            at = {s: sp.Rational(simpler["inputs"][str(s)]) for s in syms}
            again = exact_refutation(x, y, relation, [at], self.tol, confirm)
            return again | {"minimised": simpler["minimised"]} if again and again.get("exact") else simpler

        return self.named(self.capped(work))

    def prove(self, a, b, relation: str) -> bool | None:
        """True when SymPy proves the step, False when it does not, None when it ran out of time."""
        return self.capped(lambda: _prove(a, b, relation))

    def sample(self, a, b, relation: str, *, budget: bool = True):
        if self.instantiable(a, b):
            a, b = instantiate(a, self.functions), instantiate(b, self.functions)
        spend = self.budget if budget else None
        found = numeric_step(self.claim_id, a, b, relation, self.domain, self.n, self.rng, self.tol, spend)
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
