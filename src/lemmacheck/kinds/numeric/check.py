"""The checker of relation chains and properties on sampled instances (declared in :mod:`.declare`).

The search (:mod:`lemmacheck.search.violations`) finds float64 candidates; :mod:`lemmacheck.settling.settle`
settles them in high precision; a confirmed counterexample is shrunk (:mod:`lemmacheck.search.shrink`).  Each
step of a chain is settled like the chain end to end, so a broken link is named with its own certified
counterexample.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from typing import ClassVar

import numpy as np

from ...errors import CheckError
from ...model.claim import Claim, NumericCheck
from ...model.tolerance import REVERIFY_DPS
from ...model.verdict import Verdict
from ...run.results import StepResult, jsonable
from ...search.candidates import Candidate, Instance
from ...search.context import CheckContext
from ...search.shrink import shrink_counterexample
from ...search.tightness import tightness_evidence
from ...search.violations import StepStats, SweepOutcome, compose, dims_combinations, search_numeric
from ...settling.highprec import Confirmation, certified_by
from ...settling.settle import Settlement, settle
from ..base import Context, MutationTargets, Outcome, register
from .schema import EVIDENCE_SCHEMA

__all__ = ["NumericEvidence", "NumericChecker", "counterexample_record", "SWEEP_CONFIRMATIONS"]

#: the sweep's strongest candidates tried in high precision before the adversarial search: when one is
#: certified the claim is refuted already, and the search would only look for what is found
SWEEP_CONFIRMATIONS = 3


@dataclasses.dataclass
class NumericEvidence:
    instances: int
    hypothesis_examples: int
    relation: str
    kept_fraction: float
    tolerance: dict
    # the largest lhs/rhs of a relation that holds, settled in high precision at the instance attaining it
    # (lemmacheck.search.tightness); its witness; the instances above it whose float64 ratio was rounding
    tightness: float | None = None
    tightness_witness: dict | None = None
    tightness_excluded: int | None = None
    nontrivial_tightness: float | None = None  # over the dims combinations with every size >= 2
    nontrivial_witness: dict | None = None
    float64_max_ratio: float | None = None  # raw float64, rounding artefacts included
    max_relative_deviation: float | None = None
    failures: int | None = None  # properties: float64 failures
    violations: int | None = None  # float64 candidates of a refuted claim
    violation_rate: float | None = None
    counterexample: dict | None = None
    settlement: dict | None = None
    explored: dict | None = None  # magnitudes explored per input, float-range instances (search/wide.py)
    domain: list | None = None  # the bounded domain the claim declares, in words, per input


def counterexample_record(inst: Instance, conf: Confirmation, **extra) -> dict:
    """A certified counterexample as data: its dims and inputs, and the sides at high precision with
    their ratio (lhs/rhs, rhs/lhs for >=: how far past the bound it is), where one is defined."""
    record = {
        "dims": jsonable(inst.dims),
        "inputs": {k: np.asarray(v)[0].tolist() for k, v in inst.inputs.items()},
        "lhs": conf.lhs,
        "rhs": conf.rhs,
        "difference": conf.difference,
        "dps": conf.dps,
        "exact": conf.exact,
    }
    if conf.ratio is not None and math.isfinite(conf.ratio):
        record["ratio"] = conf.ratio
    if inst.raw:  # an SPD or orthogonal matrix reads better beside the values its transform was given
        record["untransformed"] = {k: np.asarray(v)[0].tolist() for k, v in inst.raw.items()}
    return record | certified_by(conf) | extra


def _finite(x: float | None) -> float | None:
    return x if x is not None and math.isfinite(x) else None


def _certified(
    subject: CheckContext, s: Settlement, step: int | None, ctx: Context, shrunk: Candidate | None
) -> dict:
    """The counterexample to report: Hypothesis's shrunk example when it is the one confirmed, else the
    confirmed instance simplified by the shrinker (re-certified at every pass)."""
    assert s.confirmed is not None and s.confirmation is not None
    inst, conf = s.confirmed.instance, s.confirmation
    how = "Hypothesis's shrunk example"
    if s.confirmed is not shrunk:
        inst, conf, changed = shrink_counterexample(
            subject, inst, conf, step, s.relation, ctx.profile.shrink_trials
        )
        how = f"shrunk: {changed} entries simplified" if changed else "as found"
    return counterexample_record(inst, conf, minimised=how)


class NumericChecker:
    spec: ClassVar[type] = NumericCheck
    name: ClassVar[str] = "numeric"
    claim_kinds: ClassVar[dict[str, str]] = {
        "IDENTITY": "identity",
        "INEQUALITY": "inequality",
        "PROPERTY": "property",
    }
    evidence_schema: ClassVar[dict] = EVIDENCE_SCHEMA

    def run(self, claim: Claim, check: NumericCheck, ctx: Context) -> Outcome:
        subject = CheckContext(claim.id, check, ctx.tol)  # remembers high precision's answers
        out = _search(subject, ctx)
        with subject.timed("settle"):
            outcome = _judged(claim, check, ctx, subject, out)
        outcome.phase_seconds = {k: round(v, 3) for k, v in subject.phase_seconds.items()}
        return outcome

    def mutation_targets(self, check: NumericCheck) -> MutationTargets:
        if check.is_property:  # a property's relation is its boolean result, not a chain
            return MutationTargets(function=("fn", check.fn))
        return MutationTargets(
            function=("fn", check.fn),
            relations=tuple(check.relations),
            with_relations=lambda rels: dataclasses.replace(check, relations=rels),
        )


def _judged(
    claim: Claim, check: NumericCheck, ctx: Context, subject: CheckContext, out: SweepOutcome
) -> Outcome:
    """The verdict from the search's candidates: each link and the chain end to end settled in high
    precision, a confirmed counterexample shrunk, the tightness of a relation that holds settled."""
    shrunk = None
    if out.shrunk is not None:
        shrunk = Candidate(out.shrunk, math.inf, math.inf, math.nan)
    steps, step_cex, first_broken = _chain_steps(subject, out.steps, ctx)
    end = out.end
    ev = _end_evidence(check, out, ctx)
    outcome = Outcome(Verdict.HOLDS, ev, steps, first_broken, step_cex)
    if end.relation == "~":  # mixed directions: the claim is its steps
        if first_broken is not None:
            outcome.verdict = Verdict.REFUTED
        elif any(s_.status == "unsettled" for s_ in steps):
            outcome.verdict, outcome.reason = Verdict.INCONCLUSIVE, "a step has unsettled candidates"
        return outcome
    settled: list = []
    if end.pool or shrunk is not None:
        s = settle(subject, end.pool, None, end.relation, ctx.budget, first=shrunk)
        ev.settlement = s.as_evidence()
        if s.refuted:
            ev.violations = end.violations
            ev.violation_rate = end.violations / max(end.checked, 1)
            ev.counterexample = _certified(subject, s, None, ctx, shrunk)
            ev.tightness = None  # lhs/rhs over the instances that hold measures no slack of a false claim
            outcome.verdict = Verdict.REFUTED
            return outcome
        if not s.complete:
            outcome.verdict = Verdict.INCONCLUSIVE
            outcome.reason = (
                f"{s.unsettled} of {s.to_settle} candidates that must be settled were not: {s.reason}"
            )
        settled = s.settled_ratios
    if end.relation in ("<=", "<", ">=", ">"):
        combos = dims_combinations(check.dims)
        for k, v in tightness_evidence(claim.id, check, end, settled, combos).items():
            setattr(ev, k, v)
    return outcome


def _search(subject: CheckContext, ctx: Context) -> SweepOutcome:
    """The float64 sweep and Hypothesis's search, which shrinks a violation high precision certifies."""
    check = subject.check
    end_relation = "prop" if check.is_property else compose(check.relations)

    def certified(inst: Instance) -> bool | None:
        """Whether high precision certifies a violation of the end relation (None: it cannot tell)."""
        try:
            return subject.reverify(inst, None, end_relation).confirmed
        except CheckError:
            return None

    def verify(inst: Instance) -> bool:
        # A violation high precision cannot judge is shrunk all the same; settling will say so.
        return end_relation == "~" or certified(inst) is not False

    def refuted_by_sweep(end: StepStats) -> bool:
        """Whether one of the sweep's strongest candidates is already certified (then it is settled
        first below, and shrunk by the engine instead of by Hypothesis)."""
        if end.relation == "~" or not end.pool:
            return False
        # read as far as the first certified one: each combination reached is ranked (its rounding estimated)
        strongest = itertools.islice(end.pool.settling_order(), SWEEP_CONFIRMATIONS)
        return any(certified(c.instance) for c in strongest)

    return search_numeric(
        subject,
        ctx.profile,
        ctx.rng,
        ctx.seed,
        verify=verify,
        refuted_by_sweep=refuted_by_sweep,
        sweep_runner=ctx.sweep_runner,
    )


def _chain_steps(
    subject: CheckContext, stats: list[StepStats], ctx: Context
) -> tuple[list[StepResult], dict[int, dict], int | None]:
    """Each link of a chain of two or more, settled like the chain: its results, the certified
    counterexamples of broken links by step, and the first broken step."""
    check = subject.check
    steps: list[StepResult] = []
    step_cex: dict[int, dict] = {}
    first_broken = None
    if len(check.relations) <= 1:
        return steps, step_cex, first_broken
    for i, st in enumerate(stats, start=1):
        label = check.labels[i - 1] if check.labels else f"step {i}"
        res = StepResult(
            i,
            label,
            st.relation,
            "holds",
            checked=st.checked,
            violations=0,
            max_ratio=_finite(st.max_ratio),
            max_rel_gap=_finite(st.max_deviation),
        )
        if st.relation == "~":
            res.status = "measured"
            res.detail = (
                f"max relative deviation {st.max_deviation:.3g}"
                if math.isfinite(st.max_deviation)
                else "no instance resolved above its tolerance's absolute floor"
            )
        elif st.pool:
            s = settle(subject, st.pool, i, st.relation, ctx.budget)
            res.settlement = s.as_evidence()
            if s.confirmed is not None and s.confirmation is not None:
                step_cex[i] = _certified(subject, s, i, ctx, None)
                first_broken = first_broken or i
            _judge_step(res, st, s, step_cex.get(i))
        steps.append(res)
    return steps, step_cex, first_broken


def _judge_step(res: StepResult, st: StepStats, s: Settlement, cx: dict | None) -> None:
    """A settled link's status and the line that says why."""
    if cx is not None:
        res.status = "broken"
        res.violations = st.violations
        # the shrunk counterexample's sides: the ones proof.counterexample holds
        res.detail = (
            f"{st.violations}/{st.checked} float64 instances violate it; certified at "
            f"dims {cx['dims']}: lhs={cx['lhs'][:24]} rhs={cx['rhs'][:24]} "
            f"({cx['dps']} digits)"
        )
    elif not s.complete:
        res.status = "unsettled"
        res.detail = f"{s.unsettled} candidates not settled: {s.reason}"
    else:
        res.detail = (
            f"{st.violations} float64 candidates, every one that had to be settled "
            f"({s.rejected}) is rounding at {REVERIFY_DPS} digits"
        )
        if s.settled_max_ratio is not None:
            res.max_ratio = max(res.max_ratio or -math.inf, s.settled_max_ratio)


def _end_evidence(check: NumericCheck, out: SweepOutcome, ctx: Context) -> NumericEvidence:
    """The chain end's float64 evidence, before its candidates are settled."""
    end = out.end
    ev = NumericEvidence(
        instances=out.instances,
        hypothesis_examples=out.hypothesis_examples,
        relation=end.relation,
        kept_fraction=out.kept_fraction,
        tolerance=dataclasses.asdict(ctx.tol),
        explored=out.explored or None,
    )
    domain = [t for k, spec in check.inputs.items() if (t := spec.domain_text(k)) is not None]
    ev.domain = domain or None
    if check.is_property:
        ev.failures = end.violations
    elif end.relation == "=":
        ev.max_relative_deviation = _finite(end.max_deviation)
    else:
        ev.float64_max_ratio = _finite(end.max_ratio_raw)
    return ev


register(NumericChecker())
