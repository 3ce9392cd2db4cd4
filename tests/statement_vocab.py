"""Shared assertions of the per-topic LaTeX tests (the way ``planted_project`` shares planted projects)."""

from __future__ import annotations

from lemmacheck import REGISTRY
from lemmacheck.latex.crosscheck import statement_check


def assert_agrees(claim_id: str) -> None:
    """The catalogue claim's statement, read with its table, agrees with its check on some instance."""
    out = statement_check(REGISTRY[claim_id], {}, seed=1)
    assert out["status"] == "agrees", f"{claim_id}: {out}"
    assert int(out["instances"]) > 0, f"{claim_id} agrees on no instance: {out}"
