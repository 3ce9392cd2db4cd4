"""When two relation chains state the same relation on an instance (the comparison statement_check makes,
and the adversarial search maximises the failure of)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "mismatch",
    "mismatches",
    "float_rows",
    "same_relation",
    "same_equation",
    "chain_relation",
    "family",
    "margin_gap",
]

_FLIP = {">=": "<=", ">": "<"}


def _canonical(lhs: Any, rhs: Any, relation: str) -> tuple[Any, Any]:
    """(small, big) with the relation read as small <= big (or small = big)."""
    return (rhs, lhs) if relation in _FLIP else (lhs, rhs)


def family(relation: str) -> str:
    return "=" if relation == "=" else "~" if relation == "~" else "<="


def mismatch(s: tuple, c: tuple, rels: tuple[str, str]) -> float:
    """How far ``s = (lhs, rhs)`` under ``rels[0]`` and ``c`` under ``rels[1]`` are from stating the same
    relation on this instance: the smaller of the relative difference of their margins and of their
    ratios lhs/rhs (a ratio only over denominators of one sign)."""
    (s0, s1), (c0, c1) = _canonical(s[0], s[1], rels[0]), _canonical(c[0], c[1], rels[1])
    scale = max(abs(s0), abs(s1), abs(c0), abs(c1))
    margins = abs((s1 - s0) - (c1 - c0)) / scale if scale else 0.0
    if s1 == 0 or c1 == 0 or (s1 > 0) != (c1 > 0):
        return float(margins)
    rs, rc = s0 / s1, c0 / c1
    return float(min(margins, abs(rs - rc) / max(abs(rs), abs(rc), 1)))


def mismatches(s: tuple, c: tuple, rels: tuple[str, str]) -> np.ndarray:
    """:func:`mismatch` of every row of float64 arrays at once, the same arithmetic in the same order (so
    the same float, NaN included, on every row where the four values are finite; other rows are
    meaningless): the adversarial search and the comparison read thousands of rows."""
    (s0, s1), (c0, c1) = _canonical(s[0], s[1], rels[0]), _canonical(c[0], c[1], rels[1])
    scale = np.maximum(np.maximum(np.abs(s0), np.abs(s1)), np.maximum(np.abs(c0), np.abs(c1)))
    with np.errstate(all="ignore"):
        margins = np.where(scale != 0, np.abs((s1 - s0) - (c1 - c0)) / scale, 0.0)
        rs, rc = s0 / s1, c0 / c1
        ratios = np.abs(rs - rc) / np.maximum(np.maximum(np.abs(rs), np.abs(rc)), 1)
    by_ratio = (s1 != 0) & (c1 != 0) & ((s1 > 0) == (c1 > 0))
    # min(margins, ratios) keeps margins unless ratios is smaller (a NaN never is)
    return np.where(by_ratio & (ratios < margins), ratios, margins)


def float_rows(side: Any, batch: int) -> np.ndarray:
    """A side's ``batch`` values as float64, each as ``float()`` reads it."""
    out = np.asarray(side, dtype=float)
    return out if out.shape == (batch,) else np.array([float(side[b]) for b in range(batch)])


def margin_gap(s: tuple, c: tuple, rels: tuple[str, str]) -> float:
    """The absolute difference of the two margins (small - big of each)."""
    (s0, s1), (c0, c1) = _canonical(s[0], s[1], rels[0]), _canonical(c[0], c[1], rels[1])
    return abs((s1 - s0) - (c1 - c0))


def same_relation(s: tuple, c: tuple, rels: tuple[str, str], rtol: float) -> bool:
    """Whether the two state the same relation on this instance: equal margins (terms moved across), or
    equal ratios (both sides scaled by one positive quantity), to ``rtol``."""
    return mismatch(s, c, rels) <= rtol


def chain_relation(relations: tuple[str, ...], span: tuple[int, int]) -> str:
    """The relation of e_i .. e_j: the strongest of the chain's links (= only when every link is =)."""
    links = relations[span[0] : span[1]]
    if all(r == "=" for r in links):
        return "="
    return next(r for r in links if r != "=")


def same_equation(s: tuple, c: tuple, rtol: float) -> bool:
    """Whether two chains whose compared link is an equality equate the same quantities, ``s`` and ``c``
    being their members.  Where an equality holds its margin is 0 whatever it equates, so equal margins
    (``same_relation``) would let any true identity pass for any other: the members themselves are
    compared instead -- equal in order or reversed, or, with three members or more, all moved by one
    common shift (the check subtracted a term from every member) or all scaled by one common factor.
    With two members a common shift or factor is no constraint, so only equal sides count there (a
    factor the check scales by is declared with ``statement_scaled_by``)."""
    return any(_members_match(s, cc, rtol) for cc in (tuple(c), tuple(c)[::-1]))


def _members_match(s: tuple, c: tuple, rtol: float) -> bool:
    scale = max(abs(v) for v in (*s, *c))
    if not scale:
        return True

    def close(a: Any, b: Any) -> bool:
        return bool(abs(a - b) <= rtol * scale)

    if all(close(a, b) for a, b in zip(s, c, strict=True)):
        return True
    if len(s) < 3:
        return False
    shift = s[0] - c[0]
    if all(close(a - b, shift) for a, b in zip(s, c, strict=True)):
        return True
    k = max(range(len(c)), key=lambda i: abs(c[i]))
    factor = s[k] / c[k] if c[k] else 0
    return bool(factor) and all(close(a, factor * b) for a, b in zip(s, c, strict=True))
