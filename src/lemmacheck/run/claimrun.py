"""One claim's verdict, computed in this process: the per-claim core that the catalogue run
(:mod:`.engine`), the worker processes (:mod:`.execution`, :mod:`.timelimit`) and a Dask cluster
(:mod:`.cluster`) all call, so the dependency runs one way: they import this module, it imports none
of them."""

from __future__ import annotations

import contextlib
import time
import traceback
import warnings

import numpy as np

from ..errors import LemmacheckError
from ..kinds import Context, Outcome, checker_for, merge_backing
from ..model import links
from ..model.claim import Claim, NumericCheck
from ..model.tolerance import tolerance_for
from ..model.verdict import ProofStatus, Verdict
from ..search.context import CheckContext
from ..search.examples import remember
from ..search.profile import Profile, claim_seed
from ..search.sweep import SweepChunk, SweepPart, SweepRunner, sweep_chunk
from ..settling.settle import Budget
from .replay import replay_command
from .results import ClaimResult, Proof, record_to_json

__all__ = ["run_claim", "run_sweep_chunk", "blank_result", "unknown_result", "replay_claim"]


def replay_claim(claim_id: str, profile: Profile) -> str:
    # id: selects this claim alone; a plain -k word would also rerun every id containing it
    return replay_command("run", profile.seed, deep=profile.name == "deep", options=f"-k id:{claim_id}")


@contextlib.contextmanager
def _float_warnings_ignored():
    # Floating-point warnings never decide a verdict (non-finite values are checked explicitly and
    # reported as ERROR); ignoring them makes pytest's warnings-as-errors and the CLI agree.
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def run_claim(claim: Claim, profile: Profile, *, sweep_runner: SweepRunner | None = None) -> ClaimResult:
    """Check one claim.  ``sweep_runner`` may run the chunks of its sweep elsewhere (a cluster); the
    result is the same wherever they run."""
    profile = profile.scaled(claim.effort)
    seed = claim_seed(profile.seed, claim.id)
    t0 = time.perf_counter()
    with _float_warnings_ignored():
        result = _run_claim(claim, profile, seed, sweep_runner)
        if profile.certify and result.verdict is Verdict.HOLDS:
            from ..certify import attach_certificate

            attach_certificate(claim, result)
    result.seconds = time.perf_counter() - t0
    remember(claim, result)  # a counterexample once found is replayed first at every seed
    return result


def run_sweep_chunk(claim: Claim, profile: Profile, chunk: SweepChunk) -> SweepPart:
    """One chunk of ``claim``'s sweep in a run of ``profile``, with the seed and tolerance
    :func:`run_claim` gives the claim (so a chunk run on another machine is the same chunk)."""
    if not isinstance(claim.check, NumericCheck):
        raise LemmacheckError(f"claim {claim.id!r} has no numeric check to sweep")
    with _float_warnings_ignored():
        ctx = CheckContext(claim.id, claim.check, tolerance_for(override=claim.tol))
        return sweep_chunk(ctx, claim_seed(profile.seed, claim.id), chunk)


def _proof(claim: Claim, outcome: Outcome) -> Proof:
    """The proof as written, from the steps: every link a document asserts is judged."""
    if len(outcome.steps) <= 1:
        return Proof(ProofStatus.NONE)
    if claim.proof_not_asserted:
        return Proof(ProofStatus.NOT_ASSERTED, reason=claim.proof_not_asserted)
    if outcome.first_broken is not None:
        step = next(s for s in outcome.steps if s.index == outcome.first_broken)
        return Proof(
            ProofStatus.BROKEN,
            step.index,
            step.label,
            step.detail,
            outcome.step_counterexamples.get(step.index),
        )
    unsettled = [s for s in outcome.steps if s.status == "unsettled"]
    if unsettled:
        return Proof(ProofStatus.UNSETTLED, unsettled[0].index, unsettled[0].label, unsettled[0].detail)
    return Proof(ProofStatus.SOUND)


def _broken_steps(outcome: Outcome) -> list[int]:
    """Every step the check found broken, not only the first: a later false link is a finding too."""
    found = {s.index for s in outcome.steps if s.status == "broken"}
    return sorted(found | ({outcome.first_broken} if outcome.first_broken is not None else set()))


def _contradiction(verdict: Verdict, evidence: dict, tol) -> str:
    """Evidence that contradicts its verdict (a safety net: the checkers should never produce it)."""
    if verdict in (Verdict.HOLDS, Verdict.PROVED):
        t = evidence.get("tightness")
        if isinstance(t, float) and t > 1 + 4 * tol.rtol:
            return f"the settled tightness {t:.6g} exceeds 1, which no {verdict.value} claim can show"
        if evidence.get("counterexample"):
            return "a certified counterexample stands beside the verdict"
    return ""


def blank_result(claim: Claim, profile: Profile, message: str = "") -> ClaimResult:
    """An ERROR result carrying the claim's metadata and ``message``: what a check fills in, or what a
    claim that could not be run (timed out, lost its worker) reports."""
    return ClaimResult(
        id=claim.id,
        title=claim.title,
        source={
            "file": claim.source.file,
            "location": claim.source.location,
            "quote": claim.source.quote,
            "kind": claim.source.kind,
        },
        statement=claim.statement,
        kind=claim.kind.value,
        expected=claim.expected.value,
        verdict=Verdict.ERROR,
        expected_broken_step=claim.expected_broken_step,
        corrects=claim.corrects,
        same_as=list(claim.same_as),
        step_links=list(claim.step_is),
        uses=list(claim.uses),
        notes=claim.notes,
        seed=claim_seed(profile.seed, claim.id),
        replay=replay_claim(claim.id, profile),
        module=claim.module,
        doc=claim.doc,
        expected_proof=claim.expected_proof.value,
        message=message,
    )


def _run_claim(claim: Claim, profile: Profile, seed: int, sweep_runner: SweepRunner | None) -> ClaimResult:
    result = blank_result(claim, profile)
    tol = tolerance_for(override=claim.tol)
    ctx = Context(
        profile=profile,
        seed=seed,
        rng=np.random.default_rng(seed),
        tol=tol,
        budget=Budget(profile.settle_count),
        sweep_runner=sweep_runner,
    )
    try:
        claim = _backed_by_sympy(claim)
        spec = claim.check if claim.check is not None else claim.derivation
        if spec is None:
            raise LemmacheckError(f"claim {claim.id!r} has neither a check nor a derivation")
        checker = checker_for(spec)
        outcome = checker.run(claim, spec, ctx)
        outcome.kind = checker.name
        if claim.check is not None and claim.derivation is not None:
            outcome = merge_backing(claim, outcome, ctx)
        evidence = record_to_json(outcome.evidence)
        if outcome.derivation is not None:
            evidence["derivation"] = record_to_json(outcome.derivation)
        verdict = outcome.verdict
        if (
            claim.steps_claimed
            and outcome.first_broken is not None
            and verdict in (Verdict.PROVED, Verdict.HOLDS, Verdict.INCONCLUSIVE)
        ):
            # Every link is part of the statement: a broken link refutes the claim as written.
            broken = next(s for s in outcome.steps if s.index == outcome.first_broken)
            evidence["counterexample"] = (
                outcome.step_counterexamples.get(outcome.first_broken) or {"detail": broken.detail}
            ) | {"step": outcome.first_broken}
            verdict = Verdict.REFUTED
        problem = _contradiction(verdict, evidence, tol)
        if problem:
            verdict, outcome.reason = Verdict.INCONCLUSIVE, f"evidence contradicts the verdict: {problem}"
        result.verdict, result.evidence, result.steps = verdict, evidence, outcome.steps
        result.first_broken_step, result.reason = outcome.first_broken, outcome.reason
        result.broken_steps = _broken_steps(outcome)
        result.proof = links.pending(result, _proof(claim, outcome))
        result.evidence_kind = outcome.kind
        started = time.perf_counter()
        result.statement_check = _statement_check(claim, evidence, seed)
        # its own phase: compiling and comparing the statement is a sixth of a catalogue run's CPU
        # (docs/performance.md), which no phase showed
        statement = round(time.perf_counter() - started, 3)
        result.phase_seconds = {**outcome.phase_seconds, "statement": statement}
    except LemmacheckError as exc:
        result.message = str(exc)
    except Exception as exc:  # the check itself broke: report it, keep going
        tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
        result.message = f"claim {claim.id!r}: {type(exc).__name__}: {exc}\n" + "".join(tb[-3:])
    return result


def _backed_by_sympy(claim: Claim) -> Claim:
    """A statement compiled from LaTeX whose every quantity is scalar is also checked by SymPy, step by
    step, as a hand-written derivation backs its check (SymPy is imported only for such a claim)."""
    from ..latex.declare import COMPILED_ATTR

    if not hasattr(getattr(claim.check, "fn", None), COMPILED_ATTR):
        return claim
    from ..latex.scalar_steps import with_scalar_derivation

    return with_scalar_derivation(claim)


def _statement_check(claim: Claim, evidence: dict, seed: int) -> dict:
    from ..latex.crosscheck import statement_check

    return statement_check(claim, evidence, seed)


def unknown_result(claim_id: str, profile: Profile, message: str) -> ClaimResult:
    return ClaimResult(
        id=claim_id,
        title="claim could not be run",
        source={"file": "", "location": "", "quote": ""},
        statement="",
        kind="unknown",
        expected="",
        verdict=Verdict.ERROR,
        message=message,
        seed=claim_seed(profile.seed, claim_id),
        replay=replay_claim(claim_id, profile),
    )
