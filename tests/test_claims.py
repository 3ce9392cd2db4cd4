"""Every registered claim: its computed verdict must equal the catalogue's expectation.

The test id is the claim id, so ``pytest -k lse`` selects the log-sum-exp claims.  A derivation that
changes so that its verdict (or its first broken step) changes breaks this test.
"""

from __future__ import annotations

from pathlib import Path

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


SEEDS = Path(__file__).resolve().parents[1].parent / "shared" / "seeds"


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the source documents are not beside the checkout ({SEEDS})")
def test_every_claim_cites_a_source_document_and_location():
    documents = {p.name for p in SEEDS.glob("*.txt")}
    bad = [(c.id, c.source.file) for c in REGISTRY if c.source.file not in documents or not c.source.location.strip()]
    assert not bad, f"claims citing no known document: {bad}"


def test_links_between_claims_resolve():
    ids = set(CLAIM_IDS)
    dangling = [(c.id, link) for c in REGISTRY for link in (c.corrects, *c.same_as) if link and link not in ids]
    assert not dangling, f"corrects= / same_as= naming no claim: {dangling}"
    # A corrected form must correct something: a claim refuted or only approximate as written, or a
    # derivation with a broken step.
    uncorrected = [c.id for c in REGISTRY if c.corrects
                   and REGISTRY[c.corrects].expected.value not in ("REFUTED", "APPROXIMATE")
                   and REGISTRY[c.corrects].expected_broken_step is None]
    assert not uncorrected, f"corrected forms of claims the catalogue does not refute: {uncorrected}"


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
