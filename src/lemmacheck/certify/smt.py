"""The Z3 route: a polynomial statement (with |·|, max, min, piecewise branches and square roots) at
fixed dims, proved by the unsatisfiability of its negation on the domain under Z3's nonlinear real
arithmetic (nlsat).  The query is shipped as SMT-LIB 2 text, so anyone with Z3 replays it.

Z3 is an optional dependency (``pip install lemmacheck[certify]``): without it the route says it was
unavailable.  Every constant reaches Z3 as an exact rational.  A square root ``√b`` is a fresh ``s ≥ 0``
with ``s² = b``, and a quotient ``a/b`` keeps Z3's total division: a first query asks for a domain point
where some ``b < 0`` under a root or some denominator is 0, so a statement undefined anywhere on the
domain is never certified there (nor called false: it is not certifiable).
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import signal
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import sympy

from ..extras import available
from . import work
from .refusal import NotCertifiable

__all__ = [
    "z3_available",
    "SmtOutcome",
    "prove_by_z3",
    "replay_smt",
    "model_point",
    "find_point",
    "RLIMIT",
    "query_of",
]

#: Z3's resource limit per query (its own count of work, the same on any machine at any load): a budget
#: by work, so the same claim gets the same certificate however busy the machine is.  Set in the query's
#: text, so a replay spends the same budget.
RLIMIT = 4_000_000
#: CPU seconds per query, a safety net only (a solver that ignores its limit), set on the Z3 process as its
#: CPU limit (``RLIMIT_CPU``): when it fires the answer is "unknown" and the reason says so, since a
#: certificate then depends on the machine.  CPU time, not the wall clock's, which load stretches
SAFETY_SECONDS = 120.0
#: the wall-clock ceiling of a query, ten times its CPU net: only a solver that neither works nor ends
WALL_SECONDS = 10 * SAFETY_SECONDS


def z3_available() -> bool:
    return available("certify")


@dataclasses.dataclass
class SmtOutcome:
    answer: str  # "unsat" (proved), "sat" (a violation), "undefined" somewhere, "unknown" (timeout)
    query: str  # SMT-LIB 2
    model: dict[str, str] | None = None  # a sat answer's model, as Z3 prints it


class _ToZ3:
    """SymPy -> Z3 terms, sharing subterms; collects the definitions of roots and the side conditions
    under which the statement is defined."""

    def __init__(self, z3):
        self.z3 = z3
        # a context of its own: Z3 prints let-bindings in the order of its term ids, which depend on every
        # term made before in the same context; in a fresh one the same statement is the same text
        self.ctx = z3.Context()
        self.cache: dict[Any, Any] = {}
        self.roots: list[tuple[Any, Any]] = []  # (s, b): s = √b
        self.defined: list[Any] = []  # conditions that must hold on the whole domain
        self.vars: dict[str, Any] = {}
        self.fresh = 0

    def real(self, v: int):
        return self.z3.RealVal(v, self.ctx)

    def __call__(self, e):
        if e not in self.cache:
            self.cache[e] = self._term(e)
        return self.cache[e]

    def _term(self, e):
        z3 = self.z3
        if e is sympy.true or e is True:
            return z3.BoolVal(True, self.ctx)  # noqa: FBT003
        if e is sympy.false or e is False:
            return z3.BoolVal(False, self.ctx)  # noqa: FBT003
        if e.is_Symbol:
            return self.vars.setdefault(e.name, z3.Real(e.name, self.ctx))
        if e.is_Rational:
            return z3.RealVal(f"{e.p}/{e.q}", self.ctx)
        if e.is_Add:
            return z3.Sum([self(a) for a in e.args])
        if e.is_Mul:
            return z3.Product([self(a) for a in e.args])
        if e.is_Pow:
            return self._power(e.base, e.exp)
        return self._structural(e)

    def _structural(self, e):
        z3 = self.z3
        if isinstance(e, sympy.Abs):
            a = self(e.args[0])
            return z3.If(a >= 0, a, -a)
        if isinstance(e, (sympy.Max, sympy.Min)):
            terms = [self(a) for a in e.args]
            out = terms[0]
            for t in terms[1:]:
                out = z3.If(t >= out, t, out) if isinstance(e, sympy.Max) else z3.If(t <= out, t, out)
            return out
        if isinstance(e, sympy.Piecewise):
            out = None
            for value, cond in reversed(e.args):
                v = self(value)
                out = v if out is None else z3.If(self(cond), v, out)
            return out
        if isinstance(e, sympy.sign):
            a = self(e.args[0])
            return z3.If(a > 0, self.real(1), z3.If(a < 0, self.real(-1), self.real(0)))
        return self._logical(e)

    def _logical(self, e):
        z3 = self.z3
        ops = {
            sympy.StrictLessThan: lambda a, b: a < b,
            sympy.LessThan: lambda a, b: a <= b,
            sympy.StrictGreaterThan: lambda a, b: a > b,
            sympy.GreaterThan: lambda a, b: a >= b,
            sympy.Equality: lambda a, b: a == b,
            sympy.Unequality: lambda a, b: a != b,
        }
        if type(e) in ops:
            return ops[type(e)](self(e.lhs), self(e.rhs))
        if isinstance(e, sympy.And):
            return z3.And([self(a) for a in e.args])
        if isinstance(e, sympy.Or):
            return z3.Or([self(a) for a in e.args])
        if isinstance(e, sympy.Not):
            return z3.Not(self(e.args[0]))
        raise NotCertifiable(f"{type(e).__name__} is not algebraic (Z3 takes polynomials, |·|, max, roots)")

    def _power(self, base, exp):
        z3 = self.z3
        b = self(base)
        if exp.is_Integer:
            k = int(exp)
            if k < 0:
                self.defined.append(b != 0)
                return 1 / self._power(base, -exp)
            return z3.Product([b] * k) if k else self.real(1)
        if exp.is_Rational and exp.q == 2:
            self.fresh += 1
            s = z3.Real(f"sqrt_{self.fresh}", self.ctx)
            self.roots.append((s, b))
            self.defined.append(b >= 0)
            return self._power_of(s, exp.p)
        raise NotCertifiable(f"the power {exp} is not an integer or a half-integer")

    def _power_of(self, s, p):
        if p < 0:
            return 1 / self._power_of(s, -p)
        return self.z3.Product([s] * p) if p else self.real(1)


def _queries(constraints, goal) -> tuple[str, str]:
    """Two SMT-LIB 2 queries, both unsat for a certificate: some root of a negative number or zero
    denominator on the domain (the statement undefined there), and the negation of ``goal`` there."""
    import z3

    tr = _ToZ3(z3)
    g = tr(goal)
    dom = [tr(c) for c in constraints]
    undefined, violated = z3.Solver(ctx=tr.ctx), z3.Solver(ctx=tr.ctx)
    # a root of a negative leaves its s free: then that condition fails, which is what is asked
    guarded = [z3.Or(b < 0, z3.And(s >= 0, s * s == b)) for s, b in tr.roots]
    any_undefined = z3.Or(*[z3.Not(c) for c in tr.defined]) if tr.defined else z3.BoolVal(False, tr.ctx)  # noqa: FBT003
    undefined.add(*dom, *guarded, any_undefined)
    violated.add(*dom, *[c for s, b in tr.roots for c in (s >= 0, s * s == b)], z3.Not(g))
    head = f"(set-logic QF_NRA)\n(set-option :rlimit {RLIMIT})\n"
    return head + _canonical(undefined.to_smt2()), head + _canonical(violated.to_smt2())


def _z3_binary() -> str:
    """The solver executable the z3-solver wheel installs beside Python (a separate process: nlsat does
    not always heed its own timeout, and a process can be stopped)."""
    here = Path(sys.executable).parent / "z3"
    found = str(here) if here.exists() else shutil.which("z3")
    if found is None:
        raise NotCertifiable("the z3 executable is not installed beside the z3 module")
    return found


#: why the last answer was "unknown" (the resource limit, or the wall-clock safety net)
_LAST_UNKNOWN: list[str] = [""]


def _solve(query: str, *, model: bool = False) -> tuple[str, str]:
    """Z3's first answer to ``query`` and what it printed after it, within the query's own resource
    limit; the wall-clock safety net only stops a solver that ignores it."""
    budget = work.current()
    if budget is not None and not budget.z3_left():
        _LAST_UNKNOWN[0] = f"the claim's Z3 budget of {work.CLAIM_RLIMIT:,} resource units is spent"
        return "unknown", ""
    # the resource units spent are read back after the answer, and counted against the claim's budget
    text = query + "\n(get-info :rlimit)\n" + ("(get-model)\n" if model else "")
    try:
        with work.uncounted():
            done = subprocess.run(
                [_z3_binary(), "-in", "-smt2"],
                input=text,
                capture_output=True,
                text=True,
                timeout=WALL_SECONDS,
                check=False,
                preexec_fn=_cpu_limited,
            )
    except subprocess.TimeoutExpired:
        return _net(f"a Z3 query ran past its {WALL_SECONDS:g} s wall-clock ceiling")
    first, _, rest = done.stdout.strip().partition("\n")
    spent = re.match(r"\s*\(:rlimit (\d+)\)", rest)
    if spent:
        rest = rest[spent.end() :]
        if budget is not None:
            budget.rlimit += int(spent.group(1))
    if done.returncode == -signal.SIGXCPU or done.returncode == -signal.SIGKILL:
        return _net(f"a Z3 query ran past its {SAFETY_SECONDS:g} CPU-second safety net")
    answer = first.strip() if first.strip() in ("sat", "unsat") else "unknown"
    if answer == "unknown":
        _LAST_UNKNOWN[0] = "its resource limit ran out"
    return answer, rest


def _cpu_limited() -> None:
    """In the Z3 process before it starts: its CPU-second safety net (SIGXCPU at the soft limit, SIGKILL
    at the hard one, a second later)."""
    import resource

    resource.setrlimit(resource.RLIMIT_CPU, (int(SAFETY_SECONDS), int(SAFETY_SECONDS) + 1))


def _net(what: str) -> tuple[str, str]:
    """A Z3 query's safety net fired: "unknown", with why, recorded on the claim."""
    _LAST_UNKNOWN[0] = f"{what} (a safety net fired)"
    work.net_fired(what)
    return "unknown", ""


def last_unknown() -> str:
    """Why the last "unknown" was unknown."""
    return _LAST_UNKNOWN[0]


def _shipped(undefined: str, violated: str) -> str:
    return "; the statement is defined on the whole domain\n" + undefined + "\n; and holds there\n" + violated


def _canonical(q: str) -> str:
    """``q`` with Z3's let-binding names (``?x31``, ``$x32``: its internal ids, which differ from one
    call to the next) renumbered in order of appearance, so the same query is the same text."""
    names: dict[str, str] = {}
    return re.sub(r"([?$])x\d+", lambda m: names.setdefault(m.group(0), f"{m.group(1)}t{len(names)}"), q)


def _parts(query: str) -> list[str]:
    return [p for p in query.split("(set-logic QF_NRA)") if "(check-sat)" in p]


def same_query(a: str, b: str) -> bool:
    """Whether two queries assert the same formulas under the same options: each part is parsed by Z3
    and its assertions compared as terms (Z3 shares equal terms, so the order in which its printer
    wrote the let-bindings, which depends on its internal ids, does not matter)."""
    import z3

    pa, pb = _parts(a), _parts(b)
    if len(pa) != len(pb) or not pa:
        return False
    for x, y in zip(pa, pb, strict=True):
        if re.findall(r"\(set-option[^)]*\)", x) != re.findall(r"\(set-option[^)]*\)", y):
            return False
        try:
            fx, fy = z3.parse_smt2_string(x), z3.parse_smt2_string(y)
        except z3.Z3Exception:
            return False
        if len(fx) != len(fy) or not all(f.eq(g) for f, g in zip(fx, fy, strict=True)):
            return False
    return True


def query_of(constraints, goal) -> str:
    """The SMT-LIB text a certificate of ``goal`` on ``constraints`` ships (what a replay re-derives)."""
    return _shipped(*_queries(constraints, goal))


def prove_by_z3(constraints, goal) -> SmtOutcome:
    """Ask Z3 whether ``goal`` (a SymPy relational) is undefined or fails somewhere on the domain
    ``constraints``; ``answer`` is "undefined" when it is undefined somewhere."""
    undefined, violated = _queries(constraints, goal)
    answer, rest = _solve(undefined, model=True)
    if answer != "unsat":
        return SmtOutcome("undefined" if answer == "sat" else answer, undefined, {"model": _model(rest)})
    answer, rest = _solve(violated, model=True)
    return SmtOutcome(
        answer, _shipped(undefined, violated), {"model": _model(rest)} if answer == "sat" else None
    )


def find_point(constraints) -> tuple[str, dict[str, Fraction]]:
    """Z3's answer to whether the constraints have a point, and the point (rational coordinates) if so."""
    import z3

    tr = _ToZ3(z3)
    solver = z3.Solver(ctx=tr.ctx)
    solver.add(*[tr(c) for c in constraints], *[c for s, b in tr.roots for c in (s >= 0, s * s == b)])
    answer, rest = _solve(
        f"(set-logic QF_NRA)\n(set-option :rlimit {RLIMIT})\n" + solver.to_smt2(), model=True
    )
    return answer, model_point(rest) if answer == "sat" else {}


def _sexprs(text: str) -> list:
    stack: list[list] = [[]]
    for token in text.replace("(", " ( ").replace(")", " ) ").split():
        if token == "(":
            stack.append([])
        elif token == ")" and len(stack) > 1:
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(token)
    return stack[0]


def _rational(term) -> Fraction:
    if isinstance(term, str):
        return Fraction(term)  # "101.0", "3": Z3 prints reals as decimals, exactly
    op, args = term[0], [_rational(a) for a in term[1:]]
    if op == "/" and len(args) == 2:
        return args[0] / args[1]
    if op == "-":
        return -args[0] if len(args) == 1 else args[0] - sum(args[1:])
    if op == "+":
        return sum(args, Fraction(0))
    if op == "*":
        out = Fraction(1)
        for a in args:
            out *= a
        return out
    raise ValueError(f"not a rational: {op}")  # root-obj: an algebraic number, no rational to evaluate at


def model_point(printed: str) -> dict[str, Fraction]:
    """The real constants of a Z3 model, as exact rationals (the ones printed as algebraic numbers, and
    functions such as Z3's division by zero, are left out)."""
    point = {}
    for item in _sexprs(printed):
        for d in item if isinstance(item, list) and item and item[0] != "define-fun" else [item]:
            if isinstance(d, list) and len(d) == 5 and d[0] == "define-fun" and d[2] == [] and d[3] == "Real":
                try:
                    point[d[1]] = _rational(d[4])
                except (ValueError, ZeroDivisionError):
                    continue
    return point


def _model(printed: str) -> str:
    return " ".join(printed.split())[:2000]


def replay_smt(query: str) -> str:
    """Z3's answers to a shipped certificate's queries ("unsat" when every one is unsat: replayed)."""
    answers = [_solve("(set-logic QF_NRA)" + p)[0] for p in _parts(query)]
    return "unsat" if answers and all(a == "unsat" for a in answers) else ",".join(answers) or "no query"
