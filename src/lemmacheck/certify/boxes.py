"""The arb route: a transcendental inequality in few variables on a bounded domain, proved by interval
branch-and-bound on python-flint ``arb`` balls (outward-rounded enclosures, three-valued comparisons).

A box closes when the enclosure of the margin on it is certainly ≥ 0 (> 0 for a strict relation) or
certainly outside the domain (a constraint certainly false).  A box that does not close is split in
half along its widest side, down to a depth limit.  Where the bound is tight, a box around the touching
point never closes by enclosure alone; the touching-point step then uses monotonicity: where a partial
derivative of the margin certainly keeps one sign on the box, the minimum lies on one face, and when
every side is so pinned the minimum is attained at one exact corner, where SymPy decides the margin
exactly (≥ 0, or = 0 at a touching point).

At an interior touching point the margin is instead shown convex on the box (a diagonally dominant
Hessian enclosure) and exactly stationary at the box's centre or a corner (``T``).

The certificate is the box tree as a preorder string (``S`` split, ``L`` closed by enclosure, ``C``
closed at a corner, ``T`` at a touching point): the splits are a fixed rule, so :func:`replay_boxes`
re-derives every box from the root and re-checks each leaf.
"""

from __future__ import annotations

import importlib.util
import itertools
from fractions import Fraction

import sympy

from ..xp.ball import ball_precision
from .refusal import NotCertifiable

__all__ = ["flint_available", "prove_by_boxes", "replay_boxes", "MAX_VARIABLES", "MAX_BOXES", "MAX_DEPTH"]

#: more variables than this and a box tree is hopeless in the time cap
MAX_VARIABLES = 4
MAX_DEPTH = 40
#: boxes examined per tree at most: the budget is a count of work, so the same tree closes (or not) at
#: any load
MAX_BOXES = 3000
PREC_BITS = 128


def flint_available() -> bool:
    return importlib.util.find_spec("flint") is not None


def _ball(lo: Fraction, hi: Fraction):
    from flint import arb, fmpq

    a, b = arb(fmpq(lo.numerator, lo.denominator)), arb(fmpq(hi.numerator, hi.denominator))
    u = a if lo == hi else a.union(b)
    return _signed(u, lo >= 0, hi <= 0)


def _signed(ball, nonnegative, nonpositive=False):  # noqa: FBT002 (mirrors arb's own predicates)
    """``ball`` cut to the sign the mathematics gives it.  A midpoint-radius ball rounds its radius up,
    so [0, ε] comes out as [−tiny, ε]; a touching point at 0 is then never decided without this."""
    if nonnegative:
        return ball.nonnegative_part()
    if nonpositive:
        return -((-ball).nonnegative_part())
    return ball


class _Enclose:
    """A SymPy expression evaluated on arb balls (one environment of symbol -> ball)."""

    def __init__(self, env):
        self.env = env
        self.cache: dict = {}

    def __call__(self, e):
        if e not in self.cache:
            self.cache[e] = self._eval(e)
        return self.cache[e]

    def _eval(self, e):
        from flint import arb, fmpq

        if e.is_Symbol:
            return self.env[e]
        if e.is_Rational:
            return arb(fmpq(int(e.p), int(e.q)))
        if e is sympy.pi:
            return arb.pi()
        if e is sympy.E:
            return arb(1).exp()
        if e.is_Add or e.is_Mul:
            vals = [self(a) for a in e.args]
            out = vals[0]
            for v in vals[1:]:
                out = out + v if e.is_Add else out * v
            return _signed(out, all(v >= 0 for v in vals))
        if e.is_Pow:
            return self._power(e)
        return self._function(e)

    def _power(self, e):
        b = self(e.base)
        if e.exp.is_Integer:
            k = int(e.exp)
            return _signed(b**k, k % 2 == 0 or b >= 0, k % 2 == 1 and b <= 0)
        if e.exp == sympy.Rational(1, 2):
            return _signed(b.sqrt(), nonnegative=True)
        return _signed((self(e.exp) * b.log()).exp(), nonnegative=True)

    def _function(self, e):
        unary = {
            sympy.exp: "exp",
            sympy.log: "log",
            sympy.tanh: "tanh",
            sympy.erf: "erf",
            sympy.Abs: "__abs__",
        }
        for fn, method in unary.items():
            if isinstance(e, fn):
                x = self(e.args[0])
                y = getattr(x, method)()
                if fn in (sympy.exp, sympy.Abs):
                    return _signed(y, nonnegative=True)
                if fn in (sympy.tanh, sympy.erf):  # odd and increasing: the sign of the argument
                    return _signed(y, x >= 0, x <= 0)
                return y
        if isinstance(e, (sympy.Max, sympy.Min)):
            vals = [self(a) for a in e.args]
            out = vals[0]
            for v in vals[1:]:
                out = out.max(v) if isinstance(e, sympy.Max) else out.min(v)
            return out
        if isinstance(e, sympy.Piecewise):
            return self._piecewise(e)
        raise NotCertifiable(f"{type(e).__name__} has no ball enclosure here")

    def _piecewise(self, e):
        """The union of the branches whose condition may hold on the box, in order, up to the first
        that certainly holds (each condition an inequality its slack's ball decides)."""
        out = None
        for value, cond in e.args:
            if cond is sympy.true:
                maybe = surely = True
            else:
                slack, strict = _slack(cond, "a Piecewise condition")
                g = self(slack)
                surely = bool(g > 0 or (not strict and g >= 0))
                maybe = not bool(g < 0 or (strict and g <= 0))
            if maybe:
                v = self(value)
                out = v if out is None else out.union(v)
            if surely:
                break
        if out is None:
            raise NotCertifiable("no branch of a Piecewise holds on a box (its conditions leave a gap)")
        return out


def _bounds(symbols, box, constraints) -> list[tuple[Fraction, Fraction]]:
    """The root box: exactly the closure of the stated domain's bounds on each symbol, the input's own
    [low, high] narrowed by any hypothesis ``s ≥ c`` / ``s ≤ c`` on it (the constraints then cut the box
    to the domain exactly).  A symbol bounded on neither side by either is unbounded: no box tree covers
    it, and no smaller box is ever put in its place."""
    root = []
    for s in symbols:
        lo, hi = box.get(s.name, (None, None))
        for c in constraints:
            side, bound = _simple_bound(s, c)
            if side == "lo" and (lo is None or bound > lo):
                lo = bound
            elif side == "hi" and (hi is None or bound < hi):
                hi = bound
        if lo is None or hi is None:
            raise NotCertifiable(
                f"{s.name} ranges over an unbounded set ({'no lower' if lo is None else 'no upper'} bound"
                " in its input or where= hypotheses): a box tree covers only a compact domain"
            )
        root.append((Fraction(int(lo.p), int(lo.q)), Fraction(int(hi.p), int(hi.q))))
    return root


def _simple_bound(s, c) -> tuple[str, sympy.Rational | None]:
    """``("lo", c)`` or ``("hi", c)`` when the constraint bounds ``s`` alone by a rational."""
    if not isinstance(c, (sympy.StrictGreaterThan, sympy.GreaterThan, sympy.StrictLessThan, sympy.LessThan)):
        return "", None
    lower = isinstance(c, (sympy.StrictGreaterThan, sympy.GreaterThan))
    if c.lhs == s and c.rhs.is_Rational:
        return ("lo" if lower else "hi"), c.rhs
    if c.rhs == s and c.lhs.is_Rational:
        return ("hi" if lower else "lo"), c.lhs
    return "", None


def _slack(c, what: str = "the hypothesis") -> tuple:
    """A constraint as ``(g, strict)``: it says ``g > 0`` (strict) or ``g >= 0``."""
    if isinstance(c, (sympy.StrictGreaterThan, sympy.GreaterThan)):
        return c.lhs - c.rhs, isinstance(c, sympy.StrictGreaterThan)
    if isinstance(c, (sympy.StrictLessThan, sympy.LessThan)):
        return c.rhs - c.lhs, isinstance(c, sympy.StrictLessThan)
    raise NotCertifiable(f"{what} {c} is not an inequality a box can test")


def _holds(ev, c) -> bool:
    slack, strict = _slack(c)
    g = ev(slack)
    return bool(g > 0 or (not strict and g >= 0))


class _Tree:
    """Branch-and-bound on one margin; ``code`` is the preorder tree text."""

    def __init__(self, margin, relation, symbols, constraints):
        self.m, self.strict = margin, relation in ("<", ">")
        self.symbols, self.constraints = symbols, constraints
        self.grad = [sympy.diff(margin, s) for s in symbols]
        # max, min, |·| and branches have no derivative to enclose (SymPy differentiates a Piecewise
        # branch by branch, blind to its jumps and kinks): such a margin closes by enclosure alone
        self.smooth = not margin.has(sympy.Piecewise) and not any(
            g.has(sympy.DiracDelta, sympy.Heaviside, sympy.sign) for g in self.grad
        )
        self.hessian: list | None = None
        self.examined = 0
        self.code: list[str] = []
        self.violation: list[Fraction] | None = None

    def _env(self, box):
        return dict(zip(self.symbols, (_ball(lo, hi) for lo, hi in box), strict=True))

    def closes(self, box) -> str:
        """``L`` or ``C`` when the box closes, ``""`` when it does not."""
        ev = _Enclose(self._env(box))
        for c in self.constraints:
            slack, strict = _slack(c)
            g = ev(slack)
            if g < 0 or (strict and g <= 0):
                return "L"  # certainly outside the domain
        m = ev(self.m)
        if m > 0 or (not self.strict and m >= 0):
            return "L"
        if not self.smooth:
            return ""
        if self._mean_value_holds(box, ev):
            return "L"
        if self._corner_holds(box, ev):
            return "C"
        return "T" if self._convex_touch(box, ev) else ""

    def _mean_value_holds(self, box, ev) -> bool:
        """The mean-value form m(c) + ∇m(B)·(B − c), much tighter than m(B) on a small box."""
        centre = [(lo + hi) / 2 for lo, hi in box]
        at = _Enclose(self._env([(x, x) for x in centre]))
        form = at(self.m)
        for (lo, hi), c, g in zip(box, centre, self.grad, strict=True):
            form = form + ev(g) * _ball(lo - c, hi - c)
        return bool(form > 0 or (not self.strict and form >= 0))

    def _exact_at(self, point) -> dict:
        return dict(zip(self.symbols, map(sympy.Rational, point), strict=True))

    def _convex_touch(self, box, ev) -> bool:
        """A touching point: the margin convex on the box (its Hessian's enclosure diagonally dominant
        with a nonnegative diagonal) and exactly stationary, with value ≥ 0, at a corner or the centre:
        a stationary point of a convex function is its minimum on the box."""
        if self.hessian is None:
            self.hessian = [[sympy.diff(g, s) for s in self.symbols] for g in self.grad]
        h = [[ev(x) for x in row] for row in self.hessian]
        for i, row in enumerate(h):
            off = sum((abs(x) for j, x in enumerate(row) if j != i), 0 * row[i])
            if not (row[i] - off >= 0):
                return False
        for point in _candidates(box):
            at = _Enclose(self._env([(x, x) for x in point]))
            if all(at(g).contains(0) for g in self.grad):
                exact = self._exact_at(point)
                if all(sympy.simplify(g.subs(exact)) == 0 for g in self.grad):
                    value = sympy.simplify(self.m.subs(exact))
                    decided = sympy.Gt(value, 0) if self.strict else sympy.Ge(value, 0)
                    return decided is sympy.true
        return False

    def _corner_holds(self, box, ev) -> bool:
        corner = []
        for (lo, hi), g in zip(box, self.grad, strict=True):
            d = ev(g)
            if d >= 0:
                corner.append(lo)
            elif d <= 0:
                corner.append(hi)
            else:
                return False
        value = sympy.simplify(self.m.subs(self._exact_at(corner)))
        decided = sympy.Gt(value, 0) if self.strict else sympy.Ge(value, 0)
        return decided is sympy.true

    def violated_at(self, point) -> bool:
        """Whether the margin is certainly on the wrong side at an exact point certainly in the domain."""
        at = _Enclose(self._env([(x, x) for x in point]))
        inside = all(_holds(at, c) for c in self.constraints)
        m = at(self.m)
        return inside and bool(m < 0 or (self.strict and m <= 0))

    def prove(self, box, depth=0) -> bool:
        self.examined += 1
        if self.examined > MAX_BOXES:
            return False
        how = self.closes(box)
        if how:
            self.code.append(how)
            return True
        centre = [(lo + hi) / 2 for lo, hi in box]
        if self.violated_at(centre):
            self.violation = centre
            return False
        if depth >= MAX_DEPTH:
            return False
        self.code.append("S")
        return all(self.prove(half, depth + 1) for half in _halves(box))


def _candidates(box):
    """The box's centre, then its corners."""
    yield [(lo + hi) / 2 for lo, hi in box]
    yield from itertools.product(*box)


def _halves(box):
    i = max(range(len(box)), key=lambda k: box[k][1] - box[k][0])
    lo, hi = box[i]
    mid = (lo + hi) / 2
    return [box[:i] + [(lo, mid)] + box[i + 1 :], box[:i] + [(mid, hi)] + box[i + 1 :]]


def _setup(margin, constraints, box):
    symbols = sorted(margin.free_symbols, key=lambda s: s.name)
    if len(symbols) > MAX_VARIABLES:
        raise NotCertifiable(f"{len(symbols)} variables: a box tree is hopeless beyond {MAX_VARIABLES}")
    relevant = [c for c in constraints if c.free_symbols & set(symbols) and c.free_symbols <= set(symbols)]
    return symbols, relevant, _bounds(symbols, box, relevant)


def prove_by_boxes(margin, relation, constraints, box) -> dict | None:
    """The box-tree certificate that ``margin`` ≥ 0 (> 0 when strict) on the domain; ``{"violation":
    point}`` when an exact point of the domain certainly violates it; None when the tree does not close."""
    if not flint_available():
        raise NotCertifiable("route arb unavailable (python-flint is not installed)")
    symbols, relevant, root = _setup(margin, constraints, box)
    with ball_precision(PREC_BITS):
        tree = _Tree(margin, relation, symbols, relevant)
        if not tree.prove(root):
            if tree.violation is not None:
                return {"violation": {s.name: str(v) for s, v in zip(symbols, tree.violation, strict=True)}}
            return None
    return {
        "variables": [s.name for s in symbols],
        "root": [[str(lo), str(hi)] for lo, hi in root],
        "tree": "".join(tree.code),
        "boxes": len(tree.code),
        "prec_bits": PREC_BITS,
    }


def replay_boxes(margin, relation, constraints, box, record) -> bool:
    """Re-derive every box of the shipped tree from its root and check each leaf closes as recorded."""
    symbols, relevant, root = _setup(margin, constraints, box)
    if [s.name for s in symbols] != record["variables"] or [[str(a), str(b)] for a, b in root] != record[
        "root"
    ]:
        return False
    code = iter(record["tree"])
    with ball_precision(record["prec_bits"]):
        tree = _Tree(margin, relation, symbols, relevant)

        def walk(b) -> bool:
            c = next(code, "")
            if c == "S":
                return all(walk(h) for h in _halves(b))
            return c in ("L", "C", "T") and tree.closes(b) == c

        return walk(root) and next(code, None) is None
