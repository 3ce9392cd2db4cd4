"""The engine: compute one verdict per claim, never declare one; one broken claim never stops a run."""

from __future__ import annotations

import dataclasses
import datetime as _dt
import platform
import time
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from ..libraries import library_versions
from ..model.claim import REGISTRY, Claim
from ..model.links import AwaitingLinks, judge_links
from ..model.verdict import ProofStatus, Verdict
from ..project.selection import compile_expression, matches
from ..project.selection import select as _select
from ..search.profile import Profile
from ..version import __version__
from .claimrun import blank_result, replay_claim, run_claim, run_sweep_chunk
from .execution import execute, handing_on
from .replay import replay_command
from .results import SCHEMA_VERSION, ClaimResult, statement_counts
from .standing import with_standing
from .studies import StudiesAhead, run_study

__all__ = [
    "run_claim",
    "run_with_links",
    "judge_links",
    "registry_runner",
    "run_sweep_chunk",
    "run_claims",
    "run_study",
    "RunResult",
    "replay_claim",
    "blank_result",
]


def run_with_links(claim: Claim, profile: Profile) -> ClaimResult:
    """One claim, and the claims its chain's steps are (``step_is=``) run here from the registry, so its
    proof as written is judged whole."""
    result = run_claim(claim, profile)
    judge_links([result], registry_runner(profile))
    return result


def registry_runner(profile: Profile) -> Callable[[list[str]], list[ClaimResult]]:
    """Run claims by id from the registry, here (ids it does not hold are left out)."""
    return lambda ids: [run_claim(REGISTRY[i], profile) for i in ids if i in REGISTRY]


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

    def proof_counts(self) -> dict[str, int]:
        out = {p.value: 0 for p in ProofStatus}
        for r in self.results:
            out[r.proof.status.value] += 1
        return out

    def mismatches(self) -> list[ClaimResult]:
        return [r for r in self.results if not r.matches_expectation]

    def certificate_counts(self) -> dict[str, int] | None:
        """``run --certify``: certificates by scope (lemmacheck.certify.scope); None when none was tried."""
        if not any(r.certificate for r in self.results):
            return None
        from ..certify.scope import scope_counts

        return scope_counts(r.certificate for r in self.results)

    def to_dict(self) -> dict:
        return with_standing(
            {
                "schema_version": SCHEMA_VERSION,
                "tool": {
                    "name": "lemmacheck",
                    "version": __version__,
                    "python": platform.python_version(),
                    "numpy": np.__version__,
                    "libraries": library_versions(),
                },
                "run": {
                    "seed": self.seed,
                    "profile": self.profile,
                    "started": self.started,
                    "seconds": round(self.seconds, 3),
                    "selection": self.selection,
                    "replay": replay_command("run", self.seed, deep=self.profile == "deep"),
                },
                "counts": self.counts(),
                "proof_counts": self.proof_counts(),
                "statement_counts": statement_counts(r.statement_check for r in self.results),
                "mismatches": [r.id for r in self.mismatches()],
                "claims": [r.to_dict() for r in self.results],
                "studies": self.studies,
            }
            | ({"certificate_counts": certified} if (certified := self.certificate_counts()) else {})
        )


def import_error_result(module: str, message: str) -> ClaimResult:
    return ClaimResult(
        id=f"module:{module}",
        title=f"content module {module} failed to import",
        source={"file": module, "location": "import", "quote": ""},
        statement="",
        kind="module",
        expected="importable",
        verdict=Verdict.ERROR,
        message=message,
        module=module,
    )


def definition_error_result(claim_id: str, module: str, message: str) -> ClaimResult:
    return ClaimResult(
        id=str(claim_id),
        title="malformed claim declaration",
        source={"file": module, "location": "declaration", "quote": ""},
        statement="",
        kind="declaration",
        expected="well-formed",
        verdict=Verdict.ERROR,
        message=message,
        module=module,
    )


def _dangling_links(results: list[ClaimResult], known: set[str]) -> list[ClaimResult]:
    """A declaration error for every step link naming no claim of the catalogue (the index's view of
    :meth:`Registry.link_problems`)."""
    return [
        definition_error_result(
            r.id,
            r.module,
            f"claim {r.id!r}: step {step} is linked (step_is=) to claim {other!r}, which no module declares"
            "\n  fix: name a declared claim id (lemmacheck list shows them) or remove the link",
        )
        for r in results
        for step, other in r.step_links
        if other not in known
    ]


def select(claims: Iterable[Claim], keyword: str | None) -> list[Claim]:
    """``-k`` selection with pytest's grammar (``and``, ``or``, ``not``, substrings of the id)."""
    return _select(claims, keyword)


def preamble_results(keyword: str | None, import_errors, definition_errors) -> list[ClaimResult]:
    """What a run reports before any claim runs: the modules that failed to import and the selected
    malformed declarations (a partial report after Ctrl-C needs them again)."""
    results = [import_error_result(m, msg) for m, msg in import_errors]
    results += [
        definition_error_result(cid, m, msg)
        for cid, m, msg in definition_errors
        if matches(keyword, str(cid))
    ]
    return results


@dataclasses.dataclass
class _Plan:
    """What a run checks (``claims`` when run here from the registry, else ``ids`` through the index)
    and what it reports around them."""

    ids: list[str]
    studies: list
    corrected_by: dict[str, list[str]]
    definition_errors: list
    orphans: list[str]
    import_errors: list
    claims: list[Claim] = dataclasses.field(default_factory=list)


def _registry_plan(keyword: str | None, import_errors, *, with_studies: bool) -> _Plan:
    """The claims already registered (imported content, planted claims), selected by ``keyword``."""
    links = REGISTRY.link_problems()
    # a claim whose links are broken is reported once, as that declaration error, not also checked
    refused = {cid for cid, _, _ in links}
    claims = [c for c in select(REGISTRY, keyword) if c.id not in refused]
    corrected_by: dict[str, list[str]] = {}
    for c in REGISTRY:
        if c.corrects:
            corrected_by.setdefault(c.corrects, []).append(c.id)
    return _Plan(
        ids=[c.id for c in claims],
        studies=_select(REGISTRY.studies.values(), keyword) if with_studies else [],
        corrected_by=corrected_by,
        definition_errors=REGISTRY.definition_errors + links,
        orphans=REGISTRY.orphan_derivations(),
        import_errors=list(import_errors),
        claims=claims,
    )


def _index_plan(
    index, keyword: str | None, claim_ids: Sequence[str] | None, import_errors, *, with_studies: bool
) -> _Plan:
    """The claims of the content index selected by ``keyword`` (or ``claim_ids``: --lf, --ff), with
    nothing imported but the modules declaring the selected studies."""
    from ..model.fields import known_to_convert
    from ..project.index import import_modules

    match = compile_expression(keyword)
    refused = {cid for cid, _, _ in index.premise_problems()}  # reported once, as in _registry_plan
    ids = index.claim_ids(match) if claim_ids is None else list(claim_ids)
    plan = _Plan(
        ids=[i for i in ids if i not in refused],
        studies=[],
        corrected_by=index.corrected_by(),
        definition_errors=index.definition_errors(),
        orphans=index.orphan_derivations(),
        import_errors=[*import_errors, *index.failed_imports()],
    )
    study_ids = index.study_ids(match) if with_studies else []
    if study_ids:
        known_to_convert(index.statements())  # converted by the index's interpreter: not again here
        import_modules(index.root, index.declaring_modules(study_ids))
    plan.studies = [REGISTRY.studies[s] for s in study_ids if s in REGISTRY.studies]
    return plan


def run_claims(
    profile: Profile,
    *,
    keyword: str | None = None,
    import_errors=(),
    with_studies: bool = True,
    progress: Callable[[str, int, int], None] | None = None,
    on_result: Callable[[ClaimResult], None] | None = None,
    on_study: Callable[[dict], None] | None = None,
    index=None,
    root=None,
    jobs: int | None = 1,
    timeout: float | None = None,
    cache=None,
    dask: str | None = None,
    claim_ids: Sequence[str] | None = None,
    warm: Sequence = (),
    keep: list | None = None,
) -> RunResult:
    """Check the selected claims and studies; ``on_result`` sees each claim's result as it finishes (a
    caller's journal keeps the work done if the run is interrupted), ``on_study``, to read only, each
    study's.  Without ``index`` the claims are those registered (imported content, planted claims), run here
    one after the other; with a :class:`lemmacheck.project.index.ContentIndex` the selection, the links and
    the malformed declarations come from the index, and :func:`.execution.execute` runs the claims (``jobs``
    workers, ``warm`` ones first, those alive at the end into ``keep``; ``timeout`` per claim; answers from
    ``cache``; or on a Dask scheduler).  Either way the per-claim seeds make the results the same."""
    started = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    if index is None:
        plan = _registry_plan(keyword, import_errors, with_studies=with_studies)
    else:
        plan = _index_plan(index, keyword, claim_ids, import_errors, with_studies=with_studies)
    results = preamble_results(keyword, plan.import_errors, plan.definition_errors)
    total = len(plan.ids) + len(plan.studies)

    def judged(r: ClaimResult) -> None:
        r.corrected_by = plan.corrected_by.get(r.id, [])
        if on_result:
            on_result(r)

    finished = AwaitingLinks(judged)  # a chain once its links are judged: -x never stops on an unrun link
    if index is None:
        _check_here(results, plan.claims, profile, total, progress, finished, warm)
        studies = _run_studies(plan.studies, profile, cache, progress, first=len(plan.ids), total=total)
    else:  # the workers check the claims, and this process, which only waits on them, the studies
        ahead = StudiesAhead(plan.studies, profile, cache, on_study)
        settings = dict(jobs=jobs, timeout=timeout, cache=cache, dask=dask, root=root, index=index)
        overall = (lambda cid, i, n: progress(cid, i, total)) if progress else (lambda cid, i, n: None)
        _check_indexed(results, plan.ids, profile, settings, overall, finished, warm, keep)
        studies = ahead.results(progress, first=len(plan.ids), total=total)
    results += [_orphan_result(orphan) for orphan in plan.orphans]
    return RunResult(
        seed=profile.seed,
        profile=profile.name,
        results=results,
        studies=studies,
        started=started,
        seconds=time.perf_counter() - t0,
        selection=keyword or "",
    )


def _check_here(
    results: list[ClaimResult], claims, profile: Profile, total: int, progress, finished, warm=()
) -> None:
    """The registered claims, here, one after the other; then their chains' links judged.  Workers
    started ahead (``warm``) are stopped: nothing here uses them."""
    for w in warm:
        w.stop()
    for i, c in enumerate(claims):
        if progress:
            progress(c.id, i, total)
        r = run_claim(c, profile)
        finished(r)
        results.append(r)
    judge_links(results, registry_runner(profile))
    finished.flush()


def _check_indexed(
    results: list[ClaimResult], ids, profile: Profile, settings: dict, progress, finished, warm=(), keep=None
) -> None:
    """The index's claims through :func:`execute` (workers, cache, Dask; the ``warm`` workers first);
    then their chains' links judged, a linked claim outside the selection run the same way, on the same
    workers (a new pool would import the engine again); those left go into ``keep``, or stop."""
    spare: list = [] if keep is None else keep

    def run_links(more: list[str]) -> list[ClaimResult]:
        return execute([i for i in more if i in known], profile, **settings, **handing_on(spare))

    try:
        checked = execute(
            ids, profile, **settings, progress=progress, on_result=finished, warm=warm, keep=spare
        )
        known = set(settings["index"].claim_ids())
        dangling = _dangling_links(checked, known)
        broken = {d.id for d in dangling}  # one report per claim: the declaration error, not also its check
        results += [r for r in checked if r.id not in broken] + dangling
        judge_links(results, run_links)
    finally:
        if keep is None:
            for w in spare:
                w.stop()
    finished.flush()


def _run_studies(studies, profile: Profile, cache, progress, *, first: int, total: int) -> list[dict]:
    """Each study's result (from ``cache`` when it holds it), counted on after the ``first`` claims."""
    out = []
    for j, s in enumerate(studies):
        if progress:
            progress(s.id, first + j, total)
        out.append(
            cache.study(s, profile, lambda s=s: run_study(s, profile))
            if cache is not None
            else run_study(s, profile)
        )
    return out


def _orphan_result(orphan: str) -> ClaimResult:
    return definition_error_result(
        orphan,
        "derivations",
        f"claim {orphan!r}: a derivation attaches "
        "to this id but no claim declares it; add metadata or a check",
    )
