"""Budgets of work for certification, counted, never timed: the same claim at the same seed gets the same
certificate however loaded the machine is.

- **Symbolic work** is counted in Python calls (every frame entered while a claim is certified: the
  check run on symbols, SymPy's ``expand``, ``simplify`` and assumptions, the box tree's loop, the
  witness search).  SymPy has no budget of its own and its time is not its size (``simplify`` of a
  14-operation margin took 2 s; tracing a 60-step power iteration at n = 1 did not end), so it is
  counted where it runs.  SymPy's cache is cleared when a claim starts (a warm cache does less work),
  its random generators are seeded (its assumptions shuffle what they check), waiting on Z3 and
  importing a module are not counted, and a worker runs with a fixed ``PYTHONHASHSEED`` (SymPy's set
  orders, hence its work, follow it).
- **Z3** is counted in its own resource units (``rlimit``), per query and per claim.

When a budget runs out the step stops with :class:`WorkSpent` (a ``BaseException``: SymPy's own
``except Exception`` must not swallow it) and the certificate says which budget.  The safety nets, for
what is not counted (C code, a stop swallowed by a garbage-collector callback), are ceilings of CPU
seconds (:func:`cpu_seconds`), not of the wall clock: at a load of ten times the cores the wall clock of
the same work is ten times longer while its CPU time barely moves, so the budgets of work end a step long
before a net at any load; a net that fires is reported.
"""

from __future__ import annotations

import contextlib
import dataclasses
import inspect
import os
import sys
from collections.abc import Iterator

from sympy.core import random as sympy_random
from sympy.core.cache import clear_cache

__all__ = [
    "CLAIM_CALLS",
    "COMBINATION_CALLS",
    "SIMPLIFY_CALLS",
    "CLAIM_RLIMIT",
    "WorkSpent",
    "ClaimBudget",
    "claim_budget",
    "spending",
    "current",
    "exhausted",
    "net_fired",
    "cpu_seconds",
    "uncounted",
]

#: Python calls of symbolic work per claim: about 6 CPU seconds traced (vanish.s002.bound_chain,
#: sens.eq29 and loss.eq7 spend all 6 000 001 in 5.7-6.0 CPU s), a fifth of the claim's 30 CPU-second net
CLAIM_CALLS = 6_000_000
#: Python calls per dims combination, so one combination cannot spend the whole claim's budget (the n = 2
#: certificates of bn.identify_003 and vanish.s002.delta_one_witness take 3.2 and 4.7 million)
COMBINATION_CALLS = 5_000_000
#: Python calls one ``simplify`` may spend (the two of ``vanish.s003.diag_norm`` that prove took 15 000
#: and 175 000; one of its 14-operation margins that proves nothing ran on past 500 000)
SIMPLIFY_CALLS = 500_000
#: Z3 resource units per claim, over all its queries (two that run out their ``rlimit``): no query is
#: asked once they are spent
CLAIM_RLIMIT = 8_000_000


#: the seed of SymPy's random generators while a claim is certified
RNG_SEED = 20261127


class WorkSpent(BaseException):
    """A budget of work ran out; the message names it."""


@dataclasses.dataclass
class ClaimBudget:
    """What one claim's certification has spent."""

    calls: int = 0
    rlimit: int = 0
    # (count at which to stop, what is spent then), innermost last
    _limits: list[tuple[int, str]] = dataclasses.field(default_factory=list)
    _stop_at: int = CLAIM_CALLS
    fired: list[str] = dataclasses.field(default_factory=list)  # safety nets (CPU seconds) that fired
    _outer: object = None  # the tracer already set (coverage's, a debugger's), called on from ours
    _importing: int = 0  # module bodies being run (an import), whose work is not counted

    def z3_left(self) -> bool:
        return self.rlimit < CLAIM_RLIMIT


_CURRENT: list[ClaimBudget] = []


def current() -> ClaimBudget | None:
    """The budget of the claim being certified, if any (a replay or a test outside one counts nothing)."""
    return _CURRENT[-1] if _CURRENT else None


def _tracer(budget: ClaimBudget, outer):
    """Count each frame entered, except while a module is imported: a lazy import is done once per
    process, so the first claim a worker certifies would otherwise pay for it and the next would not."""

    def imported(frame, event, arg):
        if event == "return":
            budget._importing -= 1
        return imported

    def count(frame, event, arg):
        code = frame.f_code
        if code.co_name == "<module>":
            budget._importing += 1
            return imported
        if budget._importing or code.co_filename.startswith("<frozen importlib"):
            return outer(frame, event, arg) if outer is not None else None
        budget.calls += 1
        if budget.calls > budget._stop_at and not _swallows(code):
            raise WorkSpent(_spent(budget))
        return outer(frame, event, arg) if outer is not None else None

    return count


#: code flags of a generator or coroutine: the garbage collector closes one by resuming its frame
_RESUMABLE = inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR


def _swallows(code) -> bool:
    """Whether an exception raised on entering this frame may be printed and dropped by Python (a
    generator closed by the garbage collector, a ``__del__``): raised there, the stop would be lost and
    Python's tracing switched off with it, so the next ordinary call raises it instead."""
    return bool(code.co_flags & _RESUMABLE) or code.co_name == "__del__"


def _spent(budget: ClaimBudget) -> str:
    hit = [what for stop, what in budget._limits if budget.calls > stop]
    return hit[0] if hit else "the claim's budget of symbolic work"


def _restart(budget: ClaimBudget) -> None:
    budget._stop_at = min(stop for stop, _ in budget._limits)


@contextlib.contextmanager
def claim_budget() -> Iterator[ClaimBudget]:
    """Count one claim's work (Python calls in this thread) against :data:`CLAIM_CALLS`."""
    clear_cache()
    # SymPy's assumptions shuffle the facts they check with random generators of its own: seeded here,
    # the same claim does the same work in every process (their states are given back after)
    rngs = (sympy_random.rng, sympy_random._assumptions_rng)
    states = [r.getstate() for r in rngs]
    sympy_random.seed(RNG_SEED)
    budget = ClaimBudget()
    budget._limits.append((CLAIM_CALLS, "the claim's budget of symbolic work"))
    _restart(budget)
    budget._outer = outer = sys.gettrace()
    _CURRENT.append(budget)
    sys.settrace(_tracer(budget, outer))
    try:
        yield budget
    finally:
        sys.settrace(outer)
        _CURRENT.pop()
        for r, state in zip(rngs, states, strict=True):
            r.setstate(state)


@contextlib.contextmanager
def spending(calls: int, what: str) -> Iterator[None]:
    """A block that may spend at most ``calls`` of the claim's Python calls (``what`` names the budget in
    the reason).  Outside a claim's budget it counts nothing.  A :class:`WorkSpent` raised by the counter
    leaves Python's tracing off; it is turned on again here for the rest of the claim."""
    budget = current()
    if budget is None:
        yield
        return
    budget._limits.append((budget.calls + calls, what))
    _restart(budget)
    try:
        yield
    finally:
        budget._limits.pop()
        _restart(budget)
        if sys.gettrace() is None and not exhausted():
            sys.settrace(_tracer(budget, budget._outer))


@contextlib.contextmanager
def uncounted() -> Iterator[None]:
    """A block whose Python calls are not counted: waiting on a subprocess (Z3, which has its own budget)
    loops as many times as the child takes, which is time, not work."""
    budget = current()
    if budget is None:
        yield
        return
    budget._importing += 1
    try:
        yield
    finally:
        budget._importing -= 1


def cpu_seconds() -> float:
    """CPU seconds this process and its finished children (the Z3 processes) have spent: the clock of the
    safety nets, which a busy machine does not stretch as it stretches the wall clock."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def net_fired(what: str) -> None:
    """Record that a safety net fired (the certificate then says it may depend on the load)."""
    budget = current()
    if budget is not None:
        budget.fired.append(what)


def exhausted() -> bool:
    """Whether the claim's budget (or an enclosing block's) is spent: an inner block's :class:`WorkSpent`
    is then passed on, not absorbed."""
    budget = current()
    return budget is not None and budget.calls > budget._stop_at
