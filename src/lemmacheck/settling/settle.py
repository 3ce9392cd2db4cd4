"""Settling candidates in high precision: every float64 violation that matters gets an answer.

The candidates of one relation are tried in :meth:`CandidatePool.settling_order` (round robin over the
dims combinations, strongest first, then every remaining significant one) until one is confirmed, or
every one of them has been rejected as rounding, or the profile's settling budget runs out.  The record
says how many were tried and rejected per dims combination, so a HOLDS can show what it rests on and an
INCONCLUSIVE what it could not settle.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

from ..errors import CheckError
from ..model.tolerance import SETTLE_PER_DIMS, SIGNIFICANCE
from ..search.candidates import Candidate, CandidatePool, dims_key
from ..search.context import CheckContext
from .highprec import Confirmation

__all__ = ["Budget", "Settlement", "settle"]


def size_of(cand: Candidate | None) -> int:
    return cand.size() if cand is not None else 0


@dataclasses.dataclass
class Budget:
    """How much high-precision work one claim may spend settling candidates (shared by its relations)."""

    count: int
    spent: int = 0

    def exhausted(self) -> bool:
        return self.spent >= self.count


@dataclasses.dataclass
class Settlement:
    relation: str
    candidates: int = 0  # float64 candidates seen
    significant: int = 0  # ... of the estimated, those rounding cannot explain (significance > SIGNIFICANCE)
    estimated: int = 0  # candidates whose rounding sensitivity was estimated (all, unless one was confirmed)
    to_settle: int = 0  # candidates that must be settled before HOLDS
    tried: int = 0
    rejected: int = 0  # settled as rounding
    failed: int = 0  # high precision could not evaluate the check, or did not converge
    per_dims: dict = dataclasses.field(default_factory=dict)
    confirmed: Candidate | None = None
    confirmation: Confirmation | None = None
    settled_max_ratio: float | None = None  # the high-precision tightness of the rejected candidates
    # the rejected candidates with a ratio, each with it and its high-precision sides (tightness witnesses)
    settled_ratios: list[tuple[float, Candidate, Confirmation]] = dataclasses.field(default_factory=list)
    reason: str = ""  # why candidates remain unsettled

    @property
    def refuted(self) -> bool:
        return self.confirmed is not None

    @property
    def unsettled(self) -> int:
        return 0 if self.refuted else self.to_settle - self.rejected

    @property
    def complete(self) -> bool:
        """Every candidate that must be settled has been (and none was confirmed)."""
        return not self.refuted and self.unsettled == 0

    def as_evidence(self) -> dict:
        return {
            "candidates": self.candidates,
            "significant": self.significant,
            "estimated": self.estimated,
            "to_settle": self.to_settle,
            "tried": self.tried,
            "rejected": self.rejected,
            "failed": self.failed,
            "unsettled": self.unsettled,
            "reason": self.reason,
            "per_dims": self.per_dims,
            "significance_threshold": SIGNIFICANCE,
            "per_dims_settled": SETTLE_PER_DIMS,
        }


def settle(
    ctx: CheckContext,
    pool: CandidatePool,
    step: int | None,
    relation: str,
    budget: Budget,
    *,
    first: Candidate | None = None,
) -> Settlement:
    """Settle the pool of one relation (``step`` 1-based, ``None`` for end to end).

    The order is read as far as settling goes, so a refuted relation's rounding is estimated only for
    the combinations ranked before its counterexample is confirmed (the counts say how many)."""
    out = _opened(pool, relation)
    order = pool.settling_order()

    def candidates() -> Iterator[Candidate]:
        if first is not None:
            yield first
        yield from (c for c in order if c is not first)

    budget_reason = ""
    for cand in candidates():
        if budget.exhausted():
            left = len(list(candidates())) - out.tried
            budget_reason = (
                f"settling budget spent ({budget.count} high-precision evaluations) "
                f"with {left} candidates left"
            )
            break
        if _settle_one(ctx, cand, step, relation, budget, out):
            smaller = _smaller_ones(pool, first, size_of(out.confirmed), candidates)
            _prefer_smaller(ctx, smaller, step, relation, budget, out)
            break
    _counted(out, pool, len(list(candidates())) if pool.estimated == pool.total else None)
    out.reason = out.reason or _dropped_reason(pool) or budget_reason
    return out


def _smaller_ones(
    pool: CandidatePool,
    first: Candidate | None,
    confirmed: int,
    candidates: Callable[[], Iterator[Candidate]],
) -> list[Candidate]:
    """The candidates, in the settling order, among which one smaller than the ``confirmed`` size may be
    (:func:`_prefer_smaller` keeps those).  Reading the whole order for them ranked every combination,
    estimating the rounding of instances no smaller than the counterexample (two combinations of 3072
    rows at H = 2 of a refuted trace claim, 1.5 s of its 1.9 s of settling): only the combinations that
    hold a smaller instance are read, in the order's round robin, which is the whole order's restricted to
    them.  The order's rest (the significant candidates the pool keeps) holds one of theirs only where
    one of them has a significant row; then the whole order is read, as before."""
    if not (pool.smaller_than(confirmed) or (first is not None and first.size() < confirmed)):
        return []
    small = pool.smaller_part(confirmed)
    head = list(small.settling_order())  # ranks each of them, as the whole order's first round would
    if any(rec.significant for rec in small.by_dims.values()):
        return list(candidates())
    return ([] if first is None else [first]) + [c for c in head if c is not first]


def _opened(pool: CandidatePool, relation: str) -> Settlement:
    """The record of a pool before any candidate is tried: its counts, per dims combination too."""
    out = Settlement(relation=relation, candidates=pool.total)
    for key, rec in pool.by_dims.items():
        out.per_dims[key] = {
            "candidates": rec.count,
            "significant": 0,
            "max_gap": rec.max_gap,
            "tried": 0,
            "rejected": 0,
        }
    return out


def _counted(out: Settlement, pool: CandidatePool, ordered: int | None) -> None:
    """The counts that rest on the rounding estimate, over the candidates estimated: all of them
    (``ordered``: the settling order's length) unless a confirmation stopped settling first, and then
    ``to_settle`` is each combination's SETTLE_PER_DIMS strongest and the estimated significant ones."""
    out.estimated, out.significant = pool.estimated, pool.significant_estimated
    for key, rec in pool.by_dims.items():
        out.per_dims[key].update(significant=rec.significant, estimated=rec.estimated)
    if ordered is not None:
        out.to_settle = ordered + pool.significant_dropped
        return
    out.to_settle = sum(min(SETTLE_PER_DIMS, rec.count) for rec in pool.by_dims.values())
    for rec in pool.by_dims.values():
        if rec.estimated == rec.count:
            out.to_settle += rec.significant - sum(c.must_settle for c in rec.ranked())


def _dropped_reason(pool: CandidatePool) -> str:
    if pool.estimated < pool.total or not pool.significant_dropped:
        return ""
    return (
        f"{pool.significant_total} significant candidates, more than the "
        f"{len(pool.must_settle)} that can be kept for settling"
    )


def _settle_one(
    ctx: CheckContext, cand: Candidate, step: int | None, relation: str, budget: Budget, out: Settlement
) -> bool:
    """Settle one candidate into ``out``; whether it is confirmed."""
    budget.spent += 1
    out.tried += 1
    rec = out.per_dims.setdefault(
        dims_key(cand.instance.dims),
        {"candidates": 0, "significant": 0, "max_gap": cand.gap, "tried": 0, "rejected": 0},
    )
    rec["tried"] += 1
    try:
        conf = ctx.reverify(cand.instance, step, relation)
    except CheckError as exc:
        out.failed += 1
        out.reason = f"high precision could not evaluate a candidate: {exc}"
        return False
    if conf.confirmed:
        out.confirmed, out.confirmation = cand, conf
        return True
    if conf.undecided:
        out.failed += 1
        out.reason = (
            f"a candidate's violation did not converge up to {conf.dps} digits "
            f"(lhs={conf.lhs}, rhs={conf.rhs}, violation {conf.difference})"
        )
        return False
    out.rejected += 1
    rec["rejected"] += 1
    if conf.ratio is not None:
        out.settled_max_ratio = max(out.settled_max_ratio or conf.ratio, conf.ratio)
        out.settled_ratios.append((conf.ratio, cand, conf))
    return False


def _prefer_smaller(
    ctx: CheckContext,
    order: list[Candidate],
    step: int | None,
    relation: str,
    budget: Budget,
    out: Settlement,
) -> None:
    """A counterexample is reported at the smallest dims certified: try the candidates of smaller ones."""
    assert out.confirmed is not None
    confirmed_size = out.confirmed.size()
    smaller = sorted((c for c in order if c.size() < confirmed_size), key=lambda c: c.size())
    for cand in smaller:
        if cand.size() >= size_of(out.confirmed) or budget.exhausted():
            continue
        budget.spent += 1
        out.tried += 1
        try:
            conf = ctx.reverify(cand.instance, step, relation)
        except CheckError:
            continue
        if conf.confirmed:
            out.confirmed, out.confirmation = cand, conf
