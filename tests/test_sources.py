"""Section bindings build the same Source a Source(...) call builds, and bad arguments are named."""

from __future__ import annotations

import pytest

from lemmacheck import Document, Source, SourceError
from lemmacheck.model.claim import validate_meta
from lemmacheck.model.verdict import Verdict

DOC = Document("planted.txt")
Q41 = DOC.section("Question 4.1")


def test_a_section_quote_is_the_source_written_out():
    assert Q41.quote("x ≤ y") == Source("planted.txt", "Question 4.1", quote="x ≤ y")
    assert Q41.cite() == Source("planted.txt", "Question 4.1")


@pytest.mark.parametrize(
    ("detail", "location"),
    [
        ("part 2", "Question 4.1, part 2"),
        ("(corrected)", "Question 4.1 (corrected)"),
        ("part 2 (corrected: β < 1)", "Question 4.1, part 2 (corrected: β < 1)"),
    ],
)
def test_at_narrows_the_location(detail, location):
    assert Q41.at(detail).cite() == Source("planted.txt", location)


def test_a_document_stands_for_its_file_name_in_a_one_off_source():
    assert Source(DOC, "§A", quote="q") == Source("planted.txt", "§A", quote="q")
    assert isinstance(Source(DOC, "§A").file, str)


@pytest.mark.parametrize(
    ("bind", "names"),
    [
        (lambda: Document(""), ("Document(file=''", "file name")),
        (lambda: Document(None), ("Document(file=None",)),
        (lambda: DOC.section(""), ("section(location=''", "Question 4.1")),
        (lambda: DOC.section(3), ("section(location=3",)),
        (lambda: Q41.at(""), ("at(detail=''", "'Question 4.1'")),
        (lambda: Q41.at(" part 2"), ("at(detail=' part 2'", "surrounding spaces")),
    ],
)
def test_a_bad_binding_is_an_error_naming_the_argument(bind, names):
    with pytest.raises(SourceError) as info:
        bind()
    message = str(info.value)
    assert "fix:" in message
    for name in names:
        assert name in message, message


def test_a_quote_that_is_not_text_is_the_claims_error():
    meta = {"title": "t", "source": Q41.quote(42), "statement": "x", "expected": Verdict.HOLDS}
    with pytest.raises(Exception, match=r"(?s)planted\.bad.*quote=42"):
        validate_meta("planted.bad", meta)
