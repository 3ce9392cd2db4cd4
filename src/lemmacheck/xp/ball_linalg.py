"""Matrix functions on stacks of ball matrices, through Arb's ``arb_mat`` and ``acb_mat``.

Eigenvalues of a symmetric matrix are enclosed by ``acb_mat.eig(multiple=True)`` (Rump's method: a
cluster of close eigenvalues gets one enclosure for all of its members), and sorted rigorously: the k-th
smallest of reals known only to lie in intervals lies between the k-th smallest lower end and the k-th
smallest upper end.  Singular values are the square roots of the eigenvalues of MᵀM (or MMᵀ, the smaller).
Whatever Arb cannot isolate or invert at the precision in force raises :class:`NotEnclosable`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from flint import acb_mat, arb, arb_mat

from .ball import Ball, NotEnclosable, to_ball

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
    except ValueError as exc:
        raise NotEnclosable(f"symmetric eigenvalues of a {n}×{n} ball matrix not isolated: {exc}") from exc
    out = []
    for e in eigs:
        if not e.imag.contains(0):
            raise NotEnclosable(f"an eigenvalue enclosure of a symmetric matrix excludes the real axis: {e}")
        out.append(e.real)
    return out


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
