"""Run the mutants of the selected claims and classify each against the unmutated claim.

Every claim is first run unmutated (the baseline) with the same reduced profile and seed as its
mutants, so a difference is the mutation's doing, not the search's.  Mutants are enumerated in a stable
order; sampling (``max_per_claim``, then ``sample`` or ``fraction``) draws from a ``random.Random``
seeded with the run seed, so a run replays exactly from the seed it prints.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import random
import time
from collections.abc import Callable, Sequence

from ..model.claim import ApproximationCheck, Claim, ComplexityCheck
from ..model.verdict import Verdict
from ..run.engine import run_claim
from ..search.profile import Profile
from . import classify as C
from .assemble import SCHEMA_VERSION, assemble, counts
from .implication import implied_by_original
from .operators import OPERATORS
from .targets import Mutant, MutantBuildError, enumerate_mutants
from .timecap import MutantTimeout, cpu_seconds, time_cap

__all__ = ["Settings", "MutantOutcome", "select_mutants", "run_mutation", "SCHEMA_VERSION"]


@dataclasses.dataclass(frozen=True)
class Settings:
    """How a mutation run samples and how hard it checks each mutant (all recorded in mutation.json)."""

    seed: int
    effort: float = 0.25  # the mutants' search effort, a fraction of the quick profile's
    time_cap: float = 20.0  # CPU seconds per mutant, at least; raised to cap_factor × the baseline's
    cap_factor: float = 5.0
    max_per_claim: int | None = None
    sample: int | None = None
    fraction: float | None = None
    operators: tuple[str, ...] = tuple(op.name for op in OPERATORS)
    only: tuple[str, ...] = ()  # mutant ids ("claim#k") to run, for replaying one survivor
    implication: bool = True  # ask the engine whether a surviving mutant is implied by the original


@dataclasses.dataclass
class MutantOutcome:
    id: str
    claim: str
    operator: str
    target: str
    location: str
    line: int | None
    description: str
    before: str
    after: str
    status: str
    reason: str
    verdict: str | None = None
    baseline_verdict: str | None = None
    first_broken_step: int | None = None
    evidence: dict = dataclasses.field(default_factory=dict)
    seconds: float = 0.0


def select_mutants(mutants_by_claim: dict[str, list[Mutant]], settings: Settings) -> list[Mutant]:
    """The mutants to run, in enumeration order: at most ``max_per_claim`` per claim, then a ``sample`` or
    ``fraction`` of the rest — each drawn with a generator seeded from the run seed.

    Each claim's draw has a generator of its own (the run seed and the claim id), so a change to one
    claim's mutants redraws that claim only: with one shared generator, how much of it a claim's draw
    consumes depends on its number of mutants, and any edit anywhere reshuffled the whole CI sample."""
    if settings.only:
        wanted = set(settings.only)
        return [m for ms in mutants_by_claim.values() for m in ms if m.id in wanted]
    chosen: list[Mutant] = []
    for claim_id, ms in mutants_by_claim.items():
        if settings.max_per_claim is not None and len(ms) > settings.max_per_claim:
            per_claim = random.Random(f"lemmacheck-mutate:{settings.seed}:{claim_id}")
            keep = sorted(per_claim.sample(range(len(ms)), settings.max_per_claim))
            ms = [ms[i] for i in keep]
        chosen.extend(ms)
    n = len(chosen)
    if settings.sample is not None:
        n = min(n, settings.sample)
    elif settings.fraction is not None:
        n = min(n, max(1, round(settings.fraction * len(chosen))))
    if n < len(chosen):
        keep = sorted(random.Random(f"lemmacheck-mutate:{settings.seed}").sample(range(len(chosen)), n))
        chosen = [chosen[i] for i in keep]
    return chosen


def _outcome(
    m: Mutant,
    status: str,
    reason: str,
    *,
    result: dict | None = None,
    baseline: dict | None = None,
    seconds: float = 0.0,
) -> MutantOutcome:
    return MutantOutcome(
        id=m.id,
        claim=m.claim_id,
        operator=m.operator,
        target=m.target,
        location=m.location,
        line=m.line,
        description=m.description,
        before=m.before,
        after=m.after,
        status=status,
        reason=reason,
        verdict=None if result is None else result.get("verdict"),
        baseline_verdict=None if baseline is None else baseline.get("verdict"),
        first_broken_step=None if result is None else result.get("first_broken_step"),
        evidence={} if result is None else C.digest(result),
        seconds=round(seconds, 3),
    )


def _survivor_reason(claim: Claim, m: Mutant, result: dict, implication: str | None) -> str:
    """Why a mutant survived, in the words of its own evidence."""
    ev = result.get("evidence") or {}
    verdict = result.get("verdict")
    parts = [f"the mutant is {verdict}, as the original"]
    if "tightness" in ev and ev["tightness"] is not None:
        parts.append(f"max lhs/rhs over the instances searched {ev['tightness']:.3g}")
    if "max_relative_deviation" in ev:
        parts.append(f"max relative deviation {ev['max_relative_deviation']:.3g}")
    if ev.get("unconfirmed_candidates"):
        parts.append(f"{ev['unconfirmed_candidates']} float64 candidates not confirmed in high precision")
    if "failures" in ev:
        parts.append(f"{ev['failures']} instances fail the property")
    if "order_median" in ev:
        parts.append(f"measured order {ev['order_median']:.3g} (claimed {ev.get('order_claimed')})")
    if isinstance(ev.get("derivation"), dict):
        parts.append(f"derivation {ev['derivation'].get('end_status')}")
    if implication:
        parts.append(implication)
    return "; ".join(parts)


def _refuted(result: dict) -> bool:
    """A certified counterexample stands: of the statement, or of a step."""
    return result["verdict"] == Verdict.REFUTED.value or result.get("first_broken_step") is not None


def _errored(m: Mutant, result: dict) -> tuple[str, str]:
    """A mutant whose run ended in ERROR: a detection, a crash of its own code, or undecided."""
    full = result.get("message") or ""
    message = full.splitlines()[0][:300] if full else ""
    if C.genuine_error(full):
        return C.KILLED, f"the check reports an error it is meant to catch: {message}"
    exc = C.crashed(full)
    if exc is not None and m.target == "check":
        # The unmutated check runs (its baseline is not ERROR): the edit made code that cannot run.
        return C.INVALID, (
            f"crashed: the mutated check raised {exc} while computing its sides, before any "
            f"relation was evaluated, so it states nothing: {message}"
        )
    # The run ends in ERROR, not in a verdict on the mutated statement: undecided, so not a kill.
    return C.SURVIVED, f"undecided: the check ERRORs on the mutant, which is not a detection: {message}"


def _classify(
    claim: Claim,
    m: Mutant,
    mutated: Claim,
    baseline: dict,
    result: dict,
    profile: Profile,
    settings: Settings,
    remaining: float,
) -> tuple[str, str]:
    base_v, mut_v = baseline["verdict"], result["verdict"]
    if mut_v == Verdict.ERROR.value:
        return _errored(m, result)
    killed = C.kill_reason(baseline, result)
    if killed and C.sympy_stopped(result) and not _refuted(result):
        return C.TIMED_OUT, (
            f"SymPy ran out of its time on the mutant ({killed}, no counterexample): a proof not "
            "found in time is not a detection"
        )
    if killed:
        return C.KILLED, killed
    if base_v == Verdict.REFUTED.value:
        return C.STILL_FALSE, "still refuted with a certified counterexample: the mutant is false as well"
    if base_v == Verdict.PROVED.value and m.target != "check":
        return C.EQUIVALENT, "the mutated chain is proved by SymPy too: the statement stays true"
    if isinstance(claim.check, ComplexityCheck) and base_v == mut_v:
        return C.EQUIVALENT, (
            "the fitted growth exponents still match the stated ones: a constant factor or a "
            "lower-order term, which the statement does not constrain"
        )
    if (
        m.target == "relations"
        and mut_v in (Verdict.HOLDS.value, Verdict.PROVED.value)
        and result.get("first_broken_step") is None
        and not (isinstance(claim.check, ApproximationCheck) and m.location.startswith("check"))
    ):
        # The original relation held and so does the flipped one: the two sides are equal on every
        # instance searched, and the mutant states something true (an approximation's verdict is its
        # measured order, which no relation changes: those flips stay survivors).
        return C.EQUIVALENT, (
            f"both directions hold: the original step ({m.before}) and the flipped one "
            f"({m.after}) are both {mut_v}, so its sides are equal on every instance searched"
        )
    weaker = m.weaker_by_code() if base_v in (Verdict.HOLDS.value, Verdict.PROVED.value) else None
    if weaker:
        return C.EQUIVALENT, weaker
    implication = None
    if settings.implication and m.target == "check":
        try:
            with time_cap(max(remaining, 1.0)):
                ok, implication = implied_by_original(claim, mutated, profile)
        except MutantTimeout as exc:
            ok, implication = False, f"implication test: {exc}"
        if ok:
            return C.EQUIVALENT, implication
    return C.SURVIVED, _survivor_reason(claim, m, result, implication)


def _run_one(
    claim: Claim,
    m: Mutant,
    baseline: dict,
    profile: Profile,
    full_profile: Profile,
    settings: Settings,
    cap: float,
) -> MutantOutcome:
    t0, c0 = time.perf_counter(), cpu_seconds()
    try:
        with time_cap(cap):
            static = m.static_equivalence()
            if static:
                return _outcome(m, C.EQUIVALENT, static, baseline=baseline, seconds=time.perf_counter() - t0)
            mutated = m.build()
            result = run_claim(mutated, profile).to_dict()
    except MutantTimeout as exc:
        return _outcome(
            m, C.TIMED_OUT, f"timed out: {exc}", baseline=baseline, seconds=time.perf_counter() - t0
        )
    except MutantBuildError as exc:
        return _outcome(
            m, C.INVALID, f"could not be compiled: {exc}", baseline=baseline, seconds=time.perf_counter() - t0
        )
    remaining = cap - (cpu_seconds() - c0)
    status, reason = _classify(claim, m, mutated, baseline, result, full_profile, settings, remaining)
    return _outcome(m, status, reason, result=result, baseline=baseline, seconds=time.perf_counter() - t0)


def run_mutation(
    claims: Sequence[Claim],
    profile: Profile,
    settings: Settings,
    *,
    progress: Callable[[str, int, int], None] | None = None,
    on_claim: Callable[[dict], None] | None = None,
) -> dict:
    """Mutate the claims, run every selected mutant, and return the data written to ``mutation.json``.

    ``on_claim`` sees the data so far (marked ``"partial": true``) each time a claim's mutants are done,
    so a caller can journal it and keep the work done when a long run is interrupted."""
    from .operators import operators_named

    started = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    ops = operators_named(settings.operators)
    by_claim: dict[str, list[Mutant]] = {}
    notes: dict[str, list[str]] = {}
    for c in claims:
        by_claim[c.id], notes[c.id] = enumerate_mutants(c, ops)
    enumerated = sum(len(v) for v in by_claim.values())
    chosen = select_mutants(by_claim, settings)
    reduced = profile.scaled(settings.effort)
    claims_by_id = {c.id: c for c in claims}
    per_claim: dict[str, dict] = {}

    def snapshot(*, partial: bool) -> dict:
        claims_out = []
        for entry in per_claim.values():
            entry = {k: v for k, v in entry.items() if not k.startswith("_")}
            entry["counts"] = counts(entry["mutants"])
            entry["score"] = C.score(entry["counts"])
            claims_out.append(entry)
        return assemble(
            claims_out,
            settings,
            profile,
            ops,
            started,
            time.perf_counter() - t0,
            enumerated,
            len(chosen),
            len(by_claim),
            sum(1 for v in by_claim.values() if v),
            partial=partial,
        )

    for i, m in enumerate(chosen):
        claim = claims_by_id[m.claim_id]
        entry = per_claim.get(claim.id)
        if entry is None:
            if on_claim and per_claim:
                on_claim(snapshot(partial=True))
            entry = per_claim[claim.id] = _baseline_entry(claim, reduced, len(by_claim[claim.id]), notes)
        if progress:
            progress(m.id, i, len(chosen))
        entry["mutants"].append(dataclasses.asdict(_judge(claim, m, entry, reduced, profile, settings)))
    return snapshot(partial=False)


def _baseline_entry(claim: Claim, reduced: Profile, enumerated: int, notes: dict[str, list[str]]) -> dict:
    """The claim's record in ``mutation.json``, with its unmutated run (private keys start with ``_``)."""
    tb, cb = time.perf_counter(), cpu_seconds()
    baseline = run_claim(claim, reduced).to_dict()
    return {
        "id": claim.id,
        "title": claim.title,
        "module": claim.module,
        "kind": claim.kind.value,
        "baseline": {
            "verdict": baseline["verdict"],
            "first_broken_step": baseline.get("first_broken_step"),
            "evidence": C.digest(baseline),
            "seconds": round(time.perf_counter() - tb, 3),
        },
        "enumerated": enumerated,
        "notes": notes[claim.id],
        "mutants": [],
        "_baseline": baseline,
        "_baseline_cpu": cpu_seconds() - cb,
    }


def _judge(
    claim: Claim, m: Mutant, entry: dict, reduced: Profile, profile: Profile, settings: Settings
) -> MutantOutcome:
    baseline = entry["_baseline"]
    if baseline["verdict"] == Verdict.ERROR.value:
        return _outcome(
            m,
            C.SURVIVED,
            "undecided: the unmutated claim is ERROR, so no change to it can be noticed",
            baseline=baseline,
        )
    cap = max(settings.time_cap, settings.cap_factor * entry["_baseline_cpu"])
    return _run_one(claim, m, baseline, reduced, profile, settings, cap)
