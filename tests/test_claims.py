"""Every registered claim: its computed verdict must equal the catalogue's expectation.

The test id is the claim id, so ``pytest -k lse`` selects the log-sum-exp claims.  A derivation that
changes so that its verdict (or its first broken step) changes breaks this test.
"""

from __future__ import annotations

import pytest

from lemmacheck.claim import REGISTRY
from lemmacheck.discovery import discover
from lemmacheck.engine import run_claim

IMPORT_ERRORS = discover()
CLAIM_IDS = REGISTRY.ids()


def test_content_modules_import():
    assert not IMPORT_ERRORS, "content modules failed to import:\n" + "\n".join(f"{m}: {e}" for m, e in IMPORT_ERRORS)


def test_claim_declarations_are_well_formed():
    assert not REGISTRY.definition_errors, "\n".join(msg for _, _, msg in REGISTRY.definition_errors)
    assert not REGISTRY.orphan_derivations(), f"derivations with no claim: {REGISTRY.orphan_derivations()}"


@pytest.mark.parametrize("claim_id", CLAIM_IDS, ids=CLAIM_IDS)
def test_claim(claim_id, lemmacheck_profile, lemmacheck_record):
    claim = REGISTRY[claim_id]
    result = run_claim(claim, lemmacheck_profile)
    lemmacheck_record(result)
    assert result.verdict.value != "ERROR", result.message
    assert result.verdict.value == claim.expected.value, (
        f"{claim_id} ({claim.source.file}, {claim.source.location}): computed {result.verdict.value}, "
        f"catalogue expects {claim.expected.value}\nevidence: {result.evidence}\nreplay: {result.replay}")
    assert result.first_broken_step == claim.expected_broken_step, (
        f"{claim_id}: first broken step {result.first_broken_step}, expected {claim.expected_broken_step}; "
        f"steps: {[(s.index, s.label, s.status, s.detail) for s in result.steps]}")
