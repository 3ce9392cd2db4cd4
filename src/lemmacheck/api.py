"""lemmacheck from Python and Jupyter: check one claim, a selection, or look at the catalogue.

    >>> import lemmacheck
    >>> r = lemmacheck.check("lse.bound")          # a ClaimResult: r.verdict, r.proof, r.evidence ...
    >>> rs = lemmacheck.check_all("lse and not eq3")  # pytest's -k grammar; a list of results
    >>> rs.to_dataframe()                            # one row per claim (needs pandas)
    >>> lemmacheck.catalogue()                       # every declared claim, without checking it

Results and the catalogue display as the report's cards in a notebook (``_repr_html_``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .model.claim import REGISTRY, Claim
from .run.results import ClaimResult
from .search.seed import DEFAULT_SEED, resolve_seed

__all__ = ["check", "check_all", "catalogue", "Results", "Catalogue", "DEFAULT_SEED"]


def _pandas():
    from .extras import require

    return require("notebook")  # optional: only the DataFrame views need it


def _discover(root: str | Path | None) -> None:
    from .project.discovery import content_dirs, discover, find_root

    found = find_root(Path(root)) if root is not None else find_root()
    if not any((found / d).is_dir() for d in content_dirs(found)):
        where = root or os.environ.get("LEMMACHECK_ROOT") or f"at or above {Path.cwd()}"
        raise FileNotFoundError(
            f"no lemmacheck project {where} (a folder with pyproject.toml and checks/ or derivations/): "
            "pass root='path/to/project' or set LEMMACHECK_ROOT"
        )
    errors = discover(found)
    if errors:
        details = "; ".join(f"{m}: {e.splitlines()[0]}" for m, e in errors)
        raise ImportError(f"content modules failed to import: {details}")


def _profile(seed: int | str, *, deep: bool):
    """``seed``: an integer, or ``"random"`` for a fresh one (read it back from a result's ``replay``)."""
    from .search.profile import profile_named

    return profile_named("deep" if deep else "quick").with_seed(resolve_seed(seed))


def _select(expression: str | None) -> list[Claim]:
    from .project.selection import select

    return list(select(REGISTRY, expression))


def check(
    claim_id: str, *, seed: int | str = DEFAULT_SEED, deep: bool = False, root: str | Path | None = None
) -> ClaimResult:
    """Check one claim by its exact id and return its result."""
    from .run.engine import run_with_links

    _discover(root)
    if claim_id not in REGISTRY:
        close = [c for c in REGISTRY.ids() if claim_id in c][:5]
        hint = f"; ids containing it: {close}" if close else "; `lemmacheck list` shows every id"
        raise KeyError(f"no claim {claim_id!r}{hint}")
    return run_with_links(REGISTRY[claim_id], _profile(seed, deep=deep))


def check_all(
    expression: str | None = None,
    *,
    seed: int | str = DEFAULT_SEED,
    deep: bool = False,
    root: str | Path | None = None,
) -> Results:
    """Check every claim the ``-k`` expression selects (all of them with ``None``)."""
    from .run.engine import judge_links, registry_runner, run_claim

    _discover(root)
    profile = _profile(seed, deep=deep)
    results = [run_claim(c, profile) for c in _select(expression)]
    judge_links(results, registry_runner(profile))
    return Results(results)


def catalogue(expression: str | None = None, *, root: str | Path | None = None) -> Catalogue:
    """The declared claims (not checked): id, kind, expectation and source of each."""
    _discover(root)
    return Catalogue(_select(expression))


def _cards(rows: list[dict]) -> str:
    from .report.notebook import cards_html

    return cards_html(rows)


class Results(list):
    """A list of :class:`ClaimResult` that shows as report cards and converts to a DataFrame."""

    def __init__(self, items: Iterable[ClaimResult] = ()):
        super().__init__(items)

    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "id": r.id,
                "verdict": r.verdict.value,
                "expected": r.expected,
                "proof": r.proof.status.value,
                "matches": r.matches_expectation,
                "document": r.source.get("file"),
                "location": r.source.get("location"),
                "seconds": r.seconds,
                "replay": r.replay,
            }
            for r in self
        ]

    def to_dataframe(self):
        return _pandas().DataFrame(self.rows()).set_index("id")

    def _repr_html_(self) -> str:
        return _cards([r.to_dict() for r in self])


class Catalogue(list):
    """A list of :class:`Claim` that shows as a table and converts to a DataFrame."""

    def rows(self) -> list[dict[str, Any]]:
        return [
            {
                "id": c.id,
                "kind": c.kind.value,
                "expected": c.expected.value,
                "proof_expected": c.expected_proof.value,
                "document": c.source.file,
                "location": c.source.location,
                "title": c.title,
            }
            for c in self
        ]

    def to_dataframe(self):
        return _pandas().DataFrame(self.rows()).set_index("id")

    def _repr_html_(self) -> str:
        from .report.notebook import catalogue_html

        return catalogue_html(self.rows())
