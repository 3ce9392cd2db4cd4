"""written_and_corrected declares a claim as written and its corrected form, linked, from one record."""

from __future__ import annotations

import pytest

from conftest import PLANTED_SOURCE
from lemmacheck import Array, ClaimDefinitionError, Verdict, inequality, written_and_corrected

SHARED = dict(inputs={"x": Array()}, dims={}, statement=r"a \le b", source=PLANTED_SOURCE)


def _pair(**kw):
    return written_and_corrected(
        inequality,
        "planted.bound",
        written=kw.pop("written", dict(title="as written", expected=Verdict.REFUTED)),
        corrected=kw.pop("corrected", dict(title="corrected", expected=Verdict.HOLDS)),
        **{**SHARED, **kw},
    )


def test_the_pair_declares_two_linked_claims(registry):
    pair = _pair()

    @pair.as_written
    def bound(xp, x):
        return x * x, x

    @pair.as_corrected
    def bound_corrected(xp, x):
        return x * x, x * x + 1

    written, corrected = registry["planted.bound"], registry["planted.bound.corrected"]
    assert (written.title, written.expected, written.corrects) == ("as written", Verdict.REFUTED, None)
    assert (corrected.title, corrected.expected, corrected.corrects) == (
        "corrected",
        Verdict.HOLDS,
        "planted.bound",
    )
    assert written.check.fn is not corrected.check.fn
    assert written.source == corrected.source == PLANTED_SOURCE


def test_both_declares_one_function_twice_under_its_own_id(registry):
    pair = _pair(corrected_id="planted.bound_fixed")

    @pair.both
    def same_sides(xp, x):
        return x, x

    assert registry["planted.bound_fixed"].corrects == "planted.bound"
    assert registry["planted.bound"].check.fn is registry["planted.bound_fixed"].check.fn


@pytest.mark.parametrize(
    ("kw", "names"),
    [
        (dict(written="as written"), ("planted.bound", "written='as written'", "mapping")),
        (dict(corrected=dict(title="c", corrects="x.y")), ("planted.bound", "corrects='x.y'")),
        (dict(written=dict(title="w", source=PLANTED_SOURCE)), ("written=", "['source']")),
        (dict(corrected_id="planted.bound"), ("corrected_id=",)),
    ],
)
def test_a_malformed_pair_is_an_error_naming_the_claim_and_the_argument(kw, names):
    with pytest.raises(ClaimDefinitionError) as info:
        _pair(**kw)
    assert "fix:" in str(info.value)
    for name in names:
        assert name in str(info.value), str(info.value)
