"""When two relation chains state the same relation on an instance (the comparison statement_check makes,
and the adversarial search maximises the failure of)."""

from __future__ import annotations

from typing import Any

__all__ = ["mismatch", "same_relation", "chain_relation", "family", "margin_gap"]

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
