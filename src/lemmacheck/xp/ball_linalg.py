"""Matrix functions on stacks of ball matrices, through Arb's ``arb_mat`` and ``acb_mat``.

Eigenvalues of a symmetric matrix are enclosed by ``acb_mat.eig(multiple=True)`` (Rump's method: a
cluster of close eigenvalues gets one enclosure for all of its members), and sorted rigorously: the k-th
smallest of reals known only to lie in intervals lies between the k-th smallest lower end and the k-th
smallest upper end; where Arb cannot isolate them (exact repeats beside a large eigenvalue, entries of
1e-459), they are bounded from an approximate eigenbasis by Weyl's and Ostrowski's theorems.  Singular
values are the square roots of the eigenvalues of MᵀM (or MMᵀ, the smaller).
Whatever Arb cannot isolate or invert at the precision in force raises :class:`NotEnclosable`.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import mpmath
import numpy as np
from flint import acb_mat, arb, arb_mat, ctx

from .ball import DIGITS_TO_BITS, Ball, NotEnclosable, to_arb, to_ball
from .mpmath_ns import mp_precision

__all__ = ["eigvalsh", "svdvals", "eig", "expm", "det", "inv", "solve", "CBall"]


def _to_mat(m: np.ndarray) -> arb_mat:
    m = to_ball(np.asarray(m, dtype=object))
    return arb_mat([[v.a for v in row] for row in m])


def _from_mat(m) -> list:
    return [[Ball(m[i, j]) for j in range(m.ncols())] for i in range(m.nrows())]


def _as_object(o: list) -> np.ndarray:
    """A list (one axis) or a list of lists (two axes) of balls as an object array."""
    shape = (len(o), len(o[0])) if o and isinstance(o[0], list) else (len(o),)
    out = np.empty(shape, dtype=object)
    for idx in np.ndindex(*shape):
        out[idx] = o[idx[0]][idx[1]] if len(idx) == 2 else o[idx[0]]
    return out


def _stack(fn: Callable) -> Callable:
    """Lift a function of one arb_mat to a stack (leading batch axes); it returns a Ball, a list of
    them (one axis) or nested lists (two axes)."""

    def apply(a):
        a = np.asarray(a, dtype=object)
        lead = a.shape[:-2]
        outs = [fn(_to_mat(a[idx])) for idx in np.ndindex(*lead)]
        if isinstance(outs[0], list):
            res = np.stack([_as_object(o) for o in outs])
        else:
            res = np.empty(len(outs), dtype=object)
            res[:] = outs
        return res.reshape(lead + res.shape[1:]) if lead else res[0]

    return apply


def _sorted_enclosures(vals: list[arb]) -> list[Ball]:
    """The ascending order statistics of reals enclosed by ``vals``, each enclosed."""
    lows = sorted((v.lower() for v in vals), key=lambda x: x.mid())
    ups = sorted((v.upper() for v in vals), key=lambda x: x.mid())
    return [Ball(lo.union(hi)) for lo, hi in zip(lows, ups, strict=True)]


def _symmetric_eigs(m: arb_mat) -> list[arb]:
    """Enclosures of the eigenvalues of the symmetric matrix read from m's lower triangle (as NumPy's
    ``eigvalsh`` reads it)."""
    n = m.nrows()
    if n == 0:
        return []
    sym = arb_mat([[m[max(i, j), min(i, j)] for j in range(n)] for i in range(n)])
    if n == 1:
        return [sym[0, 0]]
    try:
        eigs = acb_mat(sym).eig(multiple=True)
    except ValueError as exc:  # Arb cannot verify its clusters here (exact repeats next to a large one,
        # entries of 1e-459): a bound from an approximate eigenbasis still holds
        return _weyl_ostrowski(sym, why=str(exc))
    out = []
    for e in eigs:
        if not e.imag.contains(0):
            raise NotEnclosable(f"an eigenvalue enclosure of a symmetric matrix excludes the real axis: {e}")
        out.append(e.real)
    return out


def _weyl_ostrowski(sym: arb_mat, why: str) -> list[arb]:
    """Enclosures of the ascending eigenvalues of every symmetric matrix in the balls of ``sym``, from an
    approximate eigenbasis X of its midpoints (mpmath's ``eigsy`` at the precision in force) with the
    approximate eigenvalues d ascending.  With E = XᵀAX − diag(d) and F = XᵀX − I on balls, Weyl's
    inequality puts the k-th eigenvalue of XᵀAX within ‖E‖_F of d_k, and Ostrowski's theorem makes it
    θ_k times the k-th eigenvalue of A, with θ_k in [1 − ‖F‖_F, 1 + ‖F‖_F] once ‖F‖_F < 1.  Clusters and
    exact repeats need nothing more: X only has to span their subspace."""
    n = sym.nrows()
    with mp_precision(math.ceil(ctx.prec / DIGITS_TO_BITS)):
        mid = mpmath.matrix([[_mid_mpf(sym[i, j]) for j in range(n)] for i in range(n)])
        d, q = mpmath.eigsy(mid)
        order = sorted(range(n), key=lambda k: d[k])
        X = arb_mat([[to_arb(q[i, k]) for k in order] for i in range(n)])  # exact: mpf is dyadic
        d_sorted = [to_arb(d[k]) for k in order]
    diag = [[d_sorted[i] if i == j else 0 for j in range(n)] for i in range(n)]
    E = X.transpose() * sym * X - arb_mat(diag)
    F = X.transpose() * X - arb_mat([[1 if i == j else 0 for j in range(n)] for i in range(n)])
    e, f = (_frobenius_bound(M) for M in (E, F))
    if not f < 1:
        raise NotEnclosable(
            f"symmetric eigenvalues of a {n}×{n} ball matrix not isolated ({why}), and its approximate "
            f"eigenbasis is not orthonormal enough to bound them (‖XᵀX − I‖_F ≤ {f})"
        )
    theta = 1 + arb(0, f)
    return [(dk + arb(0, e)) / theta for dk in d_sorted]


def _mid_mpf(x: arb) -> mpmath.mpf:
    """The midpoint of ``x`` as an mpf at mpmath's precision in force (the eigenbasis is an approximation;
    the bounds computed from it on balls are not)."""
    man, exp = (int(v) for v in x.mid().man_exp())
    return mpmath.mpf((man, exp))


def _frobenius_bound(m: arb_mat) -> arb:
    """An exact upper bound of the Frobenius norm of every matrix in the balls of ``m`` (NaN if none)."""
    # x * x, not x ** 2, which python-flint makes NaN for a ball about 0 (each square is >= 0 all the same)
    squares = sum(m[i, j] * m[i, j] for i in range(m.nrows()) for j in range(m.ncols()))
    return arb(squares).nonnegative_part().sqrt().upper()


def _eigvalsh(m: arb_mat) -> list[Ball]:
    return _sorted_enclosures(_symmetric_eigs(m))


def _svdvals(m: arb_mat) -> list[Ball]:
    r, c = m.nrows(), m.ncols()
    if r == 0 or c == 0:
        return []
    gram = m.transpose() * m if c <= r else m * m.transpose()
    roots = [e.nonnegative_part().sqrt() for e in _symmetric_eigs(gram)]  # MᵀM ⪰ 0: below 0 is rounding
    # sorting joins end balls, which can reach below 0 again; a singular value never does
    return [Ball(s.a.nonnegative_part()) for s in _sorted_enclosures(roots)[::-1]]


class CBall:
    """A complex ball (an eigenvalue of a general matrix): ``abs``, ``real`` and ``imag`` are balls."""

    __slots__ = ("c",)

    def __init__(self, c):
        self.c = c

    def __abs__(self):
        return Ball(abs(self.c))

    @property
    def real(self):
        return Ball(self.c.real)

    @property
    def imag(self):
        return Ball(self.c.imag)

    def __repr__(self):
        return f"CBall({self.c})"


def _eig(m: arb_mat) -> list:
    n = m.nrows()
    if n == 0:
        return []
    try:
        return [CBall(e) for e in acb_mat(m).eig(multiple=True)]
    except ValueError as exc:
        raise NotEnclosable(f"eigenvalues of a {n}×{n} ball matrix not isolated: {exc}") from exc


def _inv(m: arb_mat) -> list:
    try:
        return _from_mat(m.inv())
    except ZeroDivisionError as exc:
        raise NotEnclosable(f"a {m.nrows()}×{m.nrows()} ball matrix not certainly invertible: {exc}") from exc


def _det(m: arb_mat) -> Ball:
    return Ball(m.det())


def _expm(m: arb_mat) -> list:
    return _from_mat(m.exp())


eigvalsh = _stack(_eigvalsh)
svdvals = _stack(_svdvals)
eig = _stack(_eig)
expm = _stack(_expm)
det = _stack(_det)
inv = _stack(_inv)


def solve(a, b):
    """x with a x = b, for b a stack of vectors (one axis fewer than a) or of matrices."""
    vector = np.ndim(b) == np.ndim(a) - 1
    bb = np.asarray(b, dtype=object)[..., None] if vector else np.asarray(b, dtype=object)
    ab = np.concatenate([np.asarray(a, dtype=object), bb], axis=-1)
    n = ab.shape[-2]

    def one(m: arb_mat) -> list:
        rows = m.tolist()
        lhs = arb_mat([r[:n] for r in rows])
        rhs = arb_mat([r[n:] for r in rows])
        try:
            return _from_mat(lhs.solve(rhs))
        except ZeroDivisionError as exc:
            raise NotEnclosable(f"a {n}×{n} ball system not certainly solvable: {exc}") from exc

    x = _stack(one)(ab)
    return x[..., 0] if vector else x
