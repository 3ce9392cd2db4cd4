"""The SymPy route: an identity whose difference expands (or simplifies) to exactly 0, or an inequality
whose margin SymPy's assumptions show nonnegative.  The certificate is the expression itself
(``srepr``), which :func:`replay_exact` parses and decides again."""

from __future__ import annotations

import sympy

from ..kinds.sympy_cap import SymPyStopped, sympy_cap
from . import work
from .srepr import from_srepr

#: operations (``count_ops``) of a margin above which ``simplify`` is not tried at all
SIMPLIFY_OPS = 60
#: CPU seconds of one ``simplify``, a safety net only (its budget is :data:`.work.SIMPLIFY_CALLS` Python
#: calls, which ends it first; a run that reaches the net is reported).  CPU time, not the wall clock's:
#: at load 11-19 the wall clock's 10 s fell on 14-operation margins before their 500 000 calls were spent
SIMPLIFY_SAFETY_SECONDS = 10.0

__all__ = ["margin", "prove_by_sympy", "replay_exact"]

_GOAL = {
    "=": sympy.Eq,
    "<=": sympy.Le,
    "<": sympy.Lt,
    ">=": sympy.Ge,
    ">": sympy.Gt,
}


def goal(a, relation: str, b):
    """``a R b`` as an unevaluated SymPy relational (SymPy would otherwise decide it on its own)."""
    return _GOAL[relation](a, b, evaluate=False)


def margin(a, relation: str, b):
    """What must be 0 (``=``), ≥ 0 (``<=``, ``>=``) or > 0 (``<``, ``>``) for ``a R b`` to hold."""
    return a - b if relation in ("=", ">=", ">") else b - a


def _decide(m, relation: str, method: str) -> bool:
    m = sympy.expand(m) if method == "expand" else sympy.simplify(m)
    if relation == "=":
        return m == 0
    sign = m.is_positive if relation in ("<", ">") else m.is_nonnegative
    return sign is True


def prove_by_sympy(m, relation: str, *, algebraic: bool) -> str | None:
    """The method that proves the step (``expand`` or ``simplify``), or None.  ``simplify`` is tried
    only on a transcendental statement: on a polynomial one Z3 decides what it could not."""
    if _decide(m, relation, "expand"):
        return "expand"
    if not algebraic and sympy.count_ops(m) <= SIMPLIFY_OPS:
        try:
            net = sympy_cap(SIMPLIFY_SAFETY_SECONDS, cpu=True)
            with net, work.spending(work.SIMPLIFY_CALLS, "simplify's budget"):
                if _decide(m, relation, "simplify"):
                    return "simplify"
        except work.WorkSpent:
            if work.exhausted():
                raise  # the combination's or the claim's budget, not simplify's own
        except SymPyStopped:
            work.net_fired(f"simplify ran past its {SIMPLIFY_SAFETY_SECONDS:g} CPU-second safety net")
    return None


def replay_exact(expression: str, relation: str, method: str) -> bool:
    """Parse a shipped margin and decide it again with the same method."""
    return _decide(from_srepr(expression), relation, method)
