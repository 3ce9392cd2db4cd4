"""Every registered claim: its computed verdict and proof status must equal the catalogue's expectation.

The test id is the claim id, so ``pytest -k lse`` selects the log-sum-exp claims.  A chain whose step is
another claim's statement (``step_is=``) is judged with that claim run beside it.  A derivation that
changes so that its verdict, its first broken step or its proof status changes breaks this test.  A
declaration that is malformed is a failing test under its own id, so ``pytest -k <id>`` never passes it.
"""

from __future__ import annotations

import re
import sys
import urllib.parse
from pathlib import Path

import numpy as np
import pytest

from lemmacheck import REVERIFY_DPS, tolerance_for
from lemmacheck.model.claim import REGISTRY
from lemmacheck.project.discovery import discover, find_root
from lemmacheck.run.engine import run_study, run_with_links
from lemmacheck.search.profile import QUICK
from lemmacheck.xp import numpy_xp

IMPORT_ERRORS = discover()
CLAIM_IDS = REGISTRY.ids()
BROKEN_DECLARATIONS = {str(cid): msg for cid, _, msg in REGISTRY.definition_errors}
ROOT = find_root(Path(__file__).parent)


def test_content_modules_import():
    assert not IMPORT_ERRORS, "content modules failed to import:\n" + "\n".join(
        f"{m}: {e}" for m, e in IMPORT_ERRORS
    )


def test_claim_declarations_are_well_formed():
    assert not REGISTRY.definition_errors, "\n".join(msg for _, _, msg in REGISTRY.definition_errors)
    assert not REGISTRY.orphan_derivations(), f"derivations with no claim: {REGISTRY.orphan_derivations()}"


@pytest.mark.parametrize("claim_id", sorted(BROKEN_DECLARATIONS))
def test_declaration(claim_id):
    """One failing test per malformed declaration, under the claim's own id."""
    assert claim_id not in BROKEN_DECLARATIONS, BROKEN_DECLARATIONS.get(claim_id)


SEEDS = ROOT.parent / "shared" / "seeds"
_YEAR = re.compile(r"\b(1[89]|20)\d\d\b")


def _citation_problem(source) -> str:
    """What is wrong with a citation, by its kind ('' when it is well formed)."""
    if source.kind == "document":
        documents = {p.name for p in SEEDS.glob("*.txt")}
        return "" if source.file in documents else f"{source.file!r} is not one of the source documents"
    if source.kind == "url":
        u = urllib.parse.urlparse(source.file)
        return "" if u.scheme in ("http", "https") and u.netloc else f"{source.file!r} is not an http(s) URL"
    if source.kind == "file":
        return "" if (ROOT / source.file).is_file() else f"{source.file!r} is not a file of the project"
    if source.kind == "paper":
        return "" if _YEAR.search(source.file) else f"reference {source.file!r} names no year"
    return ""


@pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the source documents are not beside the checkout ({SEEDS})")
def test_every_claim_cites_its_source_and_location():
    bad = [(c.id, _citation_problem(c.source)) for c in REGISTRY]
    bad = [b for b in bad if b[1]] + [
        (c.id, "no location") for c in REGISTRY if not c.source.location.strip()
    ]
    assert not bad, f"claims whose citation does not resolve: {bad}"


def test_links_between_claims_resolve():
    ids = set(CLAIM_IDS)
    dangling = [
        (c.id, link) for c in REGISTRY for link in (c.corrects, *c.same_as) if link and link not in ids
    ]
    assert not dangling, f"corrects= / same_as= naming no claim: {dangling}"
    assert not REGISTRY.link_problems(), "\n".join(msg for _, _, msg in REGISTRY.link_problems())
    # A corrected form must correct something: a claim refuted or only approximate as written, or one whose
    # proof as written is broken.
    uncorrected = [
        c.id
        for c in REGISTRY
        if c.corrects
        and REGISTRY[c.corrects].expected.value not in ("REFUTED", "APPROXIMATE")
        and REGISTRY[c.corrects].expected_broken_step is None
    ]
    assert not uncorrected, f"corrected forms of claims the catalogue does not refute: {uncorrected}"


@pytest.mark.slow  # the whole catalogue: minutes of search; `lemmacheck run -k ID` or --run-slow
@pytest.mark.parametrize("claim_id", CLAIM_IDS, ids=CLAIM_IDS)
def test_claim(claim_id, lemmacheck_profile, lemmacheck_record):
    claim = REGISTRY[claim_id]
    result = run_with_links(claim, lemmacheck_profile)
    lemmacheck_record(result)
    where = f"{claim_id} ({claim.source.file}, {claim.source.location})"
    assert result.verdict.value != "ERROR", result.message
    assert result.verdict.value == claim.expected.value, (
        f"{where}: computed {result.verdict.value}, catalogue expects {claim.expected.value}\n"
        f"reason: {result.reason}\nevidence: {result.evidence}\nreplay: {result.replay}"
    )
    assert result.first_broken_step == claim.expected_broken_step, (
        f"{claim_id}: first broken step {result.first_broken_step}, expected {claim.expected_broken_step}; "
        f"steps: {[(s.index, s.label, s.status, s.detail) for s in result.steps]}"
    )
    assert result.proof.status == claim.expected_proof, (
        f"{where}: proof as written is {result.proof.status.value} ({result.proof.reason}), "
        "catalogue expects "
        f"{claim.expected_proof.value}; steps: {[(s.index, s.label, s.status) for s in result.steps]}"
    )
    if result.verdict.value in ("HOLDS", "PROVED"):
        settled = result.evidence.get("settlement", {}).get("unsettled", 0)
        assert settled == 0, f"{where}: {result.verdict.value} with {settled} unsettled candidates"


def test_groundtruth_steps_quotes_the_precision_its_reference_is_computed_at(monkeypatch):
    """The study's title and conclusion say the digits of the reference from the constant in force (the
    conclusion said '130-digit' while the reference is computed at REVERIFY_DPS digits)."""
    study = REGISTRY.studies["sens.groundtruth_steps"]
    module = sys.modules[study.module]
    assert f"vs {REVERIFY_DPS}-digit reference" in study.title
    for digits in (REVERIFY_DPS, 40):  # 40: the text follows the constant, it is not typed to match it
        monkeypatch.setattr(module, "REVERIFY_DPS", digits)
        out = run_study(study, QUICK.with_seed(1))
        assert not out["error"], out["error"]
        assert (
            f"error against a {digits}-digit reference (the 4-point difference at h = " in out["conclusion"]
        )


@pytest.mark.parametrize("multiple", [0.5, 4.0])
def test_rescale_compares_by_the_tolerance_policy(monkeypatch, multiple):
    """ema.s003.rescale_*'s E[v_n] = (1 − β^n)E[g] is decided by the policy's float64 tolerance, relative
    to the sides (it was an inline 1e-12·|μ|): a relative error below the policy's rtol passes, one above
    fails."""
    module = sys.modules[REGISTRY["ema.s003.rescale_below_one"].module]
    rtol = tolerance_for().rtol
    exact = module._mean_of_average
    monkeypatch.setattr(module, "_mean_of_average", lambda *a: exact(*a) * (1 + multiple * rtol))
    mu, beta = np.array([0.3, 1.7]), np.array([0.0, 0.9])
    assert list(module.rescale_003(numpy_xp, mu, beta, 2)) == [multiple < 1] * 2
