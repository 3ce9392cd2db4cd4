"""The engine: compute one verdict per claim, never declare one; one broken claim never stops a run."""

from __future__ import annotations

import dataclasses
import datetime as _dt
import math
import platform
import time
import traceback
import warnings
from collections.abc import Callable, Iterable

import numpy as np

from . import __version__
from .approx import measure_approximation
from .claim import REGISTRY, ApproximationCheck, Claim, ComplexityCheck, NumericCheck, ValueCheck
from .errors import LemmacheckError
from .highprec import reverify
from .profile import Profile, claim_seed
from .results import SCHEMA_VERSION, ClaimResult, StepResult, jsonable
from .search import SweepOutcome, search_numeric
from .symbolic import DerivationOutcome, check_derivation
from .tolerance import REVERIFY_DPS, tolerance_for
from .verdict import Verdict
from .worked import compare_value, fit_complexity

__all__ = ["run_claim", "run_claims", "run_study", "RunResult", "replay_command"]


def replay_command(claim_id: str, profile: Profile) -> str:
    deep = " --deep" if profile.name == "deep" else ""
    return f"lemmacheck run --seed {profile.seed}{deep} -k {claim_id}"


def _finite(x: float) -> float | None:
    return x if x is not None and math.isfinite(x) else None


def _confirm_first(claim: Claim, check: NumericCheck, candidates, step, relation, tol):
    """Re-verify candidates (smallest first); return (instance, confirmation) or (None, number tried)."""
    tried = 0
    for _, _, inst, _ in candidates:
        tried += 1
        conf = reverify(claim.id, check, inst, step, relation, tol)
        if conf.confirmed:
            return inst, conf
    return None, tried


def _counterexample(inst, conf) -> dict:
    return {"dims": jsonable(inst.dims), "inputs": {k: np.asarray(v)[0].tolist() for k, v in inst.inputs.items()},
            "lhs": conf.lhs, "rhs": conf.rhs, "difference": conf.difference,
            "dps": conf.dps, "exact": conf.exact}


def _numeric(claim: Claim, check: NumericCheck, profile: Profile, rng, seed: int, tol) -> tuple:
    out: SweepOutcome = search_numeric(claim.id, check, profile, rng, seed, tol)
    steps: list[StepResult] = []
    step_counterexamples: dict[int, dict] = {}
    first_broken = None
    if len(check.relations) > 1:
        for i, st in enumerate(out.steps, start=1):
            label = check.labels[i - 1] if check.labels else f"step {i}"
            res = StepResult(i, label, st.relation, "holds", checked=st.checked, violations=st.violations,
                             max_ratio=_finite(st.max_ratio), max_rel_gap=st.max_deviation)
            if st.relation == "~":
                res.status = "measured"
                res.detail = f"max relative deviation {st.max_deviation:.3g}"
            elif st.candidates:
                inst, conf = _confirm_first(claim, check, st.candidates, i, st.relation, tol)
                if inst is not None:
                    step_counterexamples[i] = _counterexample(inst, conf)
                    res.status = "broken"
                    res.detail = (f"{st.violations}/{st.checked} instances violate it; e.g. dims {inst.dims}: "
                                  f"lhs={conf.lhs[:24]} rhs={conf.rhs[:24]} ({conf.dps} digits)")
                    first_broken = first_broken or i
                else:
                    res.detail = f"{st.violations} float64 candidates not confirmed at {REVERIFY_DPS} digits"
                    res.violations = 0
            steps.append(res)
    end = out.end
    evidence = {"instances": out.instances, "hypothesis_examples": out.hypothesis_examples,
                "relation": end.relation, "kept_fraction": out.kept_fraction,
                "tolerance": dataclasses.asdict(tol)}
    if check.is_property:
        evidence["failures"] = end.violations
    else:
        if end.relation == "=":
            evidence["max_relative_deviation"] = end.max_deviation
        else:
            evidence["tightness"] = _finite(end.max_ratio)
    if end.relation == "~":  # mixed directions: the claim is its steps
        broken = [s for s in steps if s.status == "broken"]
        return (Verdict.REFUTED if broken else Verdict.HOLDS), evidence, steps, first_broken
    if end.candidates:
        inst, conf = _confirm_first(claim, check, end.candidates, None, end.relation, tol)
        if inst is not None:
            evidence["violations"] = end.violations
            evidence["violation_rate"] = end.violations / max(end.checked, 1)
            evidence["counterexample"] = _counterexample(inst, conf)
            return Verdict.REFUTED, evidence, steps, first_broken
        evidence["unconfirmed_candidates"] = end.violations
    if claim.steps_claimed and first_broken is not None:
        # The document asserts every link of the chain: a broken link refutes the claim as written.
        evidence["counterexample"] = step_counterexamples[first_broken] | {"step": first_broken}
        return Verdict.REFUTED, evidence, steps, first_broken
    return Verdict.HOLDS, evidence, steps, first_broken


def _combine_derivation(claim: Claim, verdict, evidence, steps, first_broken, dout: DerivationOutcome):
    evidence["derivation"] = {"end_relation": dout.end_relation, "end_status": dout.end_status,
                              "module": claim.derivation.module}
    if dout.end_counterexample:
        evidence["derivation"]["counterexample"] = dout.end_counterexample
    if not steps or len(steps) <= 1:
        # A one-step chain is the claim itself: its failure is the verdict, not a broken step.
        steps = dout.steps
        first_broken = dout.first_broken_step if len(dout.steps) > 1 else None
    else:
        evidence["derivation"]["steps"] = [dataclasses.asdict(s) for s in dout.steps]
        first_broken = first_broken or dout.first_broken_step
    if verdict is None:  # derivation only
        verdict = {"proved": Verdict.PROVED, "holds": Verdict.HOLDS, "broken": Verdict.REFUTED,
                   "measured": Verdict.APPROXIMATE}[dout.end_status]
        if verdict is Verdict.REFUTED:
            evidence["counterexample"] = dout.end_counterexample
    elif dout.proved and verdict is Verdict.REFUTED:
        raise LemmacheckError(f"claim {claim.id!r}: the SymPy derivation proves what the numeric check refutes "
                              "— one of them does not state the claim as written")
    elif dout.proved and verdict is Verdict.HOLDS:
        verdict = Verdict.PROVED
    if claim.steps_claimed and first_broken is not None and verdict in (Verdict.PROVED, Verdict.HOLDS):
        # Every link is part of the statement: a broken link refutes the claim as written.
        broken = next(s for s in steps if s.index == first_broken)
        evidence.setdefault("counterexample", {"step": first_broken, "detail": broken.detail})
        verdict = Verdict.REFUTED
    elif dout.end_status == "broken" and verdict in (Verdict.HOLDS, Verdict.PROVED):
        raise LemmacheckError(f"claim {claim.id!r}: the SymPy derivation is refuted at "
                              f"{dout.end_counterexample} but the numeric check holds — they disagree")
    return verdict, evidence, steps, first_broken


def run_claim(claim: Claim, profile: Profile) -> ClaimResult:
    profile = profile.scaled(claim.effort)
    seed = claim_seed(profile.seed, claim.id)
    rng = np.random.default_rng(seed)
    tol = tolerance_for(override=claim.tol)
    t0 = time.perf_counter()
    with np.errstate(all="ignore"), warnings.catch_warnings():
        # Floating-point warnings never decide a verdict (non-finite values are checked explicitly and
        # reported as ERROR); ignoring them makes pytest's warnings-as-errors and the CLI agree.
        warnings.simplefilter("ignore", RuntimeWarning)
        result = _run_claim(claim, profile, seed, rng, tol)
    result.seconds = time.perf_counter() - t0
    return result


def _run_claim(claim: Claim, profile: Profile, seed: int, rng, tol) -> ClaimResult:
    result = ClaimResult(
        id=claim.id, title=claim.title, source={"file": claim.source.file, "location": claim.source.location,
                                                "quote": claim.source.quote},
        statement=claim.statement, kind=claim.kind.value, expected=claim.expected.value, verdict=Verdict.ERROR,
        expected_broken_step=claim.expected_broken_step, corrects=claim.corrects, same_as=list(claim.same_as),
        notes=claim.notes, seed=seed, replay=replay_command(claim.id, profile), module=claim.module, doc=claim.doc)
    try:
        verdict, evidence, steps, first_broken = None, {}, [], None
        check = claim.check
        if isinstance(check, NumericCheck):
            verdict, evidence, steps, first_broken = _numeric(claim, check, profile, rng, seed, tol)
        elif isinstance(check, ApproximationCheck):
            out = measure_approximation(claim.id, check, profile.approx_instances, rng, tol)
            evidence = out.as_evidence() | {"order_claimed": check.order, "relation": check.relation}
            verdict = Verdict.REFUTED if out.refuted else Verdict.APPROXIMATE
        elif isinstance(check, ValueCheck):
            verdict, evidence = compare_value(check)
        elif isinstance(check, ComplexityCheck):
            verdict, evidence = fit_complexity(check)
        if claim.derivation is not None:
            dout = check_derivation(claim.id, claim.derivation, profile.symbolic_points, rng, tol)
            verdict, evidence, steps, first_broken = _combine_derivation(claim, verdict, evidence, steps,
                                                                         first_broken, dout)
        if verdict is None:
            raise LemmacheckError(f"claim {claim.id!r} has neither a check nor a derivation")
        result.verdict, result.evidence, result.steps, result.first_broken_step = (
            verdict, jsonable(evidence), steps, first_broken)
    except LemmacheckError as exc:
        result.message = str(exc)
    except Exception as exc:  # the check itself broke: report it, keep going
        tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
        result.message = f"claim {claim.id!r}: {type(exc).__name__}: {exc}\n" + "".join(tb[-3:])
    return result


def run_study(study, profile: Profile) -> dict:
    t0 = time.perf_counter()
    out = {"id": study.id, "title": study.title, "related": list(study.related), "module": study.module,
           "source": None if study.source is None else {"file": study.source.file,
                                                        "location": study.source.location}}
    try:
        rng = np.random.default_rng(claim_seed(profile.seed, study.id))
        res = study.fn(_StudyProfile(profile.name, rng, profile.seed))
        out |= {"tables": [dataclasses.asdict(t) for t in res.tables],
                "plots": [dataclasses.asdict(p) for p in res.plots], "conclusion": res.conclusion, "error": ""}
    except Exception as exc:
        out |= {"tables": [], "plots": [], "conclusion": "",
                "error": f"study {study.id!r}: {type(exc).__name__}: {exc}"}
    out["seconds"] = time.perf_counter() - t0
    return jsonable(out)


@dataclasses.dataclass(frozen=True)
class _StudyProfile:
    name: str
    rng: np.random.Generator
    seed: int


@dataclasses.dataclass
class RunResult:
    seed: int
    profile: str
    results: list[ClaimResult]
    studies: list[dict]
    started: str
    seconds: float
    selection: str = ""

    def counts(self) -> dict[str, int]:
        out = {v.value: 0 for v in Verdict}
        for r in self.results:
            out[r.verdict.value] += 1
        return out

    def mismatches(self) -> list[ClaimResult]:
        return [r for r in self.results if not r.matches_expectation]

    def to_dict(self) -> dict:
        return {
            "schema_version": SCHEMA_VERSION,
            "tool": {"name": "lemmacheck", "version": __version__, "python": platform.python_version(),
                     "numpy": np.__version__},
            "run": {"seed": self.seed, "profile": self.profile, "started": self.started,
                    "seconds": round(self.seconds, 3), "selection": self.selection,
                    "replay": f"lemmacheck run --seed {self.seed}" + (" --deep" if self.profile == "deep" else "")},
            "counts": self.counts(),
            "mismatches": [r.id for r in self.mismatches()],
            "claims": [r.to_dict() for r in self.results],
            "studies": self.studies,
        }


def import_error_result(module: str, message: str) -> ClaimResult:
    return ClaimResult(id=f"module:{module}", title=f"content module {module} failed to import",
                       source={"file": module, "location": "import", "quote": ""}, statement="",
                       kind="module", expected="importable", verdict=Verdict.ERROR, message=message, module=module)


def definition_error_result(claim_id: str, module: str, message: str) -> ClaimResult:
    return ClaimResult(id=str(claim_id), title="malformed claim declaration",
                       source={"file": module, "location": "declaration", "quote": ""}, statement="",
                       kind="declaration", expected="well-formed", verdict=Verdict.ERROR, message=message,
                       module=module)


def select(claims: Iterable[Claim], keyword: str | None) -> list[Claim]:
    """``-k`` selection: every whitespace-separated word must occur in the id (pytest-like, simplified)."""
    claims = list(claims)
    if not keyword:
        return claims
    words = keyword.split()
    return [c for c in claims if all(w in c.id for w in words)]


def run_claims(profile: Profile, *, keyword: str | None = None, import_errors=(), with_studies: bool = True,
               progress: Callable[[str, int, int], None] | None = None,
               on_result: Callable[[ClaimResult], None] | None = None) -> RunResult:
    """Check the selected claims (and studies); ``on_result`` sees each claim's result as it finishes,
    so a caller can journal them and keep the work done when the run is interrupted."""
    started = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    claims = select(REGISTRY, keyword)
    corrected_by: dict[str, list[str]] = {}
    for c in REGISTRY:
        if c.corrects:
            corrected_by.setdefault(c.corrects, []).append(c.id)
    results = [import_error_result(m, msg) for m, msg in import_errors]
    results += [definition_error_result(cid, m, msg) for cid, m, msg in REGISTRY.definition_errors
                if not keyword or all(w in str(cid) for w in keyword.split())]
    studies = [s for s in REGISTRY.studies.values() if not keyword or all(w in s.id for w in keyword.split())]
    total = len(claims) + (len(studies) if with_studies else 0)
    for i, c in enumerate(claims):
        if progress:
            progress(c.id, i, total)
        r = run_claim(c, profile)
        r.corrected_by = corrected_by.get(c.id, [])
        results.append(r)
        if on_result:
            on_result(r)
    study_results = []
    if with_studies:
        for j, s in enumerate(studies):
            if progress:
                progress(s.id, len(claims) + j, total)
            study_results.append(run_study(s, profile))
    for orphan in REGISTRY.orphan_derivations():
        results.append(definition_error_result(orphan, "derivations", f"claim {orphan!r}: a derivation attaches "
                                               "to this id but no claim declares it; add metadata or a check"))
    return RunResult(seed=profile.seed, profile=profile.name, results=results, studies=study_results,
                     started=started, seconds=time.perf_counter() - t0, selection=keyword or "")
