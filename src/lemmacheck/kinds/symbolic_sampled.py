"""Pass 3 of a SymPy step (:mod:`.symbolic`): both sides at sampled points of the free symbols.

Violating points are candidates, ranked and settled as numeric ones are (:mod:`lemmacheck.model.tolerance`):
each is re-evaluated with ``evalf`` at ``REVERIFY_DPS`` digits and ``EXTRA_DPS`` more (:func:`confirm`); a
confirmed one is simplified (:func:`shrunk`) and confirmed again.
"""

from __future__ import annotations

import functools
import warnings

import mpmath
import numpy as np
import sympy as sp

from ..errors import CheckError
from ..model.tolerance import (
    EXTRA_DPS,
    NOISE_ULPS,
    REVERIFY_DPS,
    SETTLE_PER_DIMS,
    SIGNIFICANCE,
    STABILITY,
    Tolerance,
)
from ..search.shrink import simple_values
from ..search.violations import excess, gap
from ..settling.highprec import confirms, side_ratio, violation_amount
from ..settling.settle import Budget

__all__ = ["sample_symbols", "numeric_step", "confirm", "shrunk"]


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


#: expressions whose lambdify'd function is kept in a process: a step is evaluated at its points and again
#: at the points moved by a few ulps, and a claim run again asks for the same functions; lambdify prints
#: and compiles the expression each time, and its function keeps no state
LAMBDIFIED_KEPT = 256


@functools.lru_cache(maxsize=LAMBDIFIED_KEPT)
def _lambdified(syms: tuple, expr):
    return sp.lambdify(syms, expr, "numpy")  # a failure raises, so it is not remembered


def _evaluate(expr, syms, pts, n):
    """Values of ``expr`` at the sampled points: vectorised through lambdify, or point by point with
    ``evalf`` where lambdify cannot print the expression (a ``Sum`` with a symbolic bound, ...)."""
    try:
        f = _lambdified(tuple(syms), expr)
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


def numeric_step(claim_id, a, b, relation, domain, n, rng, tol: Tolerance, budget: Budget | None = None):
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
            conf = confirm(a, b, relation, point, tol)
            if conf is not None:
                worst = shrunk(a, b, relation, domain, point, conf, tol)
                break
    return int(finite.sum()), int(bad.sum()), worst, unsettled


def _lambdifiable(expr) -> bool:
    return not expr.has(sp.Sum, sp.Product, sp.Integral, sp.Derivative)


def confirm(a, b, relation, point, tol: Tolerance) -> dict | None:
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


def shrunk(a, b, relation, domain, point: dict, record: dict, tol: Tolerance) -> dict:
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
            conf = confirm(a, b, relation, trial, tol)
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
