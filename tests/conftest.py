"""Shared test vocabulary: a scratch registry for planted claims, and their metadata."""

from __future__ import annotations

import pytest

from lemmacheck import REGISTRY, Source, Verdict

PLANTED_SOURCE = Source("planted.txt", "test")


def planted_meta(expected=Verdict.HOLDS, statement=r"a \le b", **kw):
    """The metadata every planted claim needs (its check is what a test is about)."""
    return dict(title="planted", source=PLANTED_SOURCE, statement=statement, expected=expected, **kw)


@pytest.fixture
def registry():
    """An empty registry for the test's planted claims; the catalogue is restored after it."""
    with REGISTRY.scratch() as reg:
        yield reg


@pytest.fixture(autouse=True)
def _planted_claims_stay_in_their_test():
    """A planted claim left in the catalogue changes what later tests see (the mutation gate's fixed
    sample is drawn from the whole catalogue): name the test that leaked it."""
    yield
    leaked = [c.id for c in REGISTRY if not c.module.startswith(("checks.", "derivations."))]
    assert not leaked, f"planted claims left in the catalogue (run them inside REGISTRY.scratch()): {leaked}"
