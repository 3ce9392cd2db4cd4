"""What the pytest plugin does once a session has claims: the heavy half of ``_lemmacheck_pytestplugin``
(the ``pytest11`` entry point, which imports only pytest and the standard library and calls these).

Which claims a content module's items are, one claim checked as a test item (its linked claims beside
it) and what differs, and the session's report.
"""

from __future__ import annotations

from pathlib import Path

from .project.index import ContentIndex, import_modules
from .run.results import ClaimResult
from .search.profile import Profile

__all__ = ["module_claims", "check_claim", "write_session_report"]


def module_claims(index: ContentIndex, rel: Path) -> list[tuple[str, str]]:
    """``(item name, problem)`` for the file ``rel`` (relative to the project root): every claim it is the
    first module to declare (a claim whose metadata and check live in two modules is one item), with no
    problem; a malformed declaration or a failed import is an item whose problem is the message."""
    wanted = rel.as_posix()
    owner: dict[str, str] = {}
    for name, rec in index.modules.items():
        for cid in rec.claims:
            owner.setdefault(cid, name)
    for name, rec in index.modules.items():
        if not rec.content or rec.file != wanted:
            continue
        items = [(cid, "") for cid in rec.claims if owner[cid] == name]
        items += list(zip(rec.errors, rec.error_messages, strict=True))
        if rec.import_error:
            items.append((name, f"content module {name} failed to import: {rec.import_error}"))
        return items
    return []


def check_claim(index: ContentIndex, claim_id: str, profile: Profile) -> tuple[ClaimResult, str]:
    """Check ``claim_id`` here, its linked claims (``step_is=``) beside it, importing only their modules;
    return the result and what differs from the catalogue's expectation ('' when nothing does)."""
    from .cli.run_output import mismatch_line
    from .model.claim import REGISTRY
    from .run.engine import run_with_links

    root = index.root
    errors = import_modules(root, index.declaring_modules([claim_id]))
    if claim_id not in REGISTRY:
        detail = "; ".join(f"{m}: {e.splitlines()[0]}" for m, e in errors) or "not declared on import"
        raise LookupError(f"claim {claim_id!r} could not be loaded ({detail})")
    claim = REGISTRY[claim_id]
    import_modules(root, index.declaring_modules([other for _, other in claim.step_is]))
    result = run_with_links(claim, profile)
    if result.matches_expectation:
        return result, ""
    where = f"{claim.source.file}, {claim.source.location}"
    text = mismatch_line(result).strip()
    why = result.message or result.reason
    return result, f"{text}\n({where})" + (f"\n{why}" if why else "")


def write_session_report(out: Path, results: list[ClaimResult], *, seed: int, profile: str) -> None:
    """The report of the claims a test session checked, as ``lemmacheck run`` writes it."""
    from .report.folder import write_report
    from .run.engine import RunResult

    run = RunResult(
        seed=seed,
        profile=profile,
        results=_catalogue_order(results),
        studies=[],
        started="pytest session",
        seconds=sum(r.seconds for r in results),
    )
    # the same atomic, locked pair of files the CLI writes, checked against the schema as the CLI's are
    write_report(out.resolve(), run.to_dict(), html=True)


def _catalogue_order(results: list) -> list:
    """One result per claim (the last), in catalogue order when the content index knows it."""
    by_id = {r.id: r for r in results}
    try:
        from .project.discovery import find_root
        from .project.index import load_index

        order = {cid: i for i, cid in enumerate(load_index(find_root()).claim_ids())}
    except Exception:  # the index is a nicety here: without it, order by id
        order = {}
    return sorted(by_id.values(), key=lambda r: (order.get(r.id, len(order)), r.id))
