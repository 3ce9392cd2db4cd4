"""Where a claim is stated: a :class:`Source`, and the bindings that let a record write only what differs.

A document is named once (``SEED_003 = Document("003_….txt")``), a section of it once
(``S3_Q4_1 = SEED_003.section("Question 4.1")``); each claim's record then carries only its own part:
``source=S3_Q4_1.quote("…text as written…")``, ``source=S3_Q1.at("part 2 (corrected)").cite()``.
Every binding builds the same :class:`Source` a ``Source(file, location, quote=…)`` call would, which stays
the form for a one-off citation.
"""

from __future__ import annotations

import dataclasses

from ..errors import LemmacheckError

__all__ = ["SOURCE_KINDS", "Source", "Document", "Section", "SourceError"]

SOURCE_KINDS = ("document", "paper", "url", "file", "project")


class SourceError(LemmacheckError, ValueError):
    """A document or section binding built from a bad argument (raised where it is bound)."""

    def __init__(self, call: str, problem: str, fix: str):
        super().__init__(f"{call}: {problem}\n  fix: {fix}")


@dataclasses.dataclass(frozen=True)
class Source:
    """Where a claim is stated, and the label the source itself uses.

    ``kind="document"`` (the default): ``file`` is one of the source documents (``../shared/seeds``),
    given by name or as a :class:`Document`. The other kinds cite what a researcher's own claim rests on:
    :meth:`paper` (a reference string), :meth:`url`, :meth:`local` (a ``.tex`` / ``.md`` file of the
    project) or :meth:`project` (this project).
    """

    file: str
    location: str
    quote: str = ""
    kind: str = "document"

    def __post_init__(self) -> None:
        if isinstance(self.file, Document):  # Source(SEED_003, …) cites the document by its file name
            object.__setattr__(self, "file", self.file.file)

    def problem(self) -> str:
        """What is wrong with this citation ('' when nothing is); checked with the claim's declaration, so a
        bad citation is an error of that claim, never of the module that imports it."""
        if not _text(self.file) or not _text(self.location):
            return "the source needs a file (or reference) and a location (section / question / equation)"
        if not isinstance(self.quote, str):
            return f"quote={self.quote!r} is not a string (the passage as the source writes it)"
        if self.kind not in SOURCE_KINDS:
            return f"source kind {self.kind!r} is not one of {SOURCE_KINDS}"
        return ""

    @classmethod
    def paper(cls, reference: str, location: str, quote: str = "") -> Source:
        """A published source: ``Source.paper("Bernstein, Matrix Mathematics, 2009", "§9.3")``."""
        return cls(reference, location, quote, "paper")

    @classmethod
    def url(cls, address: str, location: str, quote: str = "") -> Source:
        return cls(address, location, quote, "url")

    @classmethod
    def local(cls, path: str, location: str, quote: str = "") -> Source:
        """A file of the project, relative to its root: ``Source.local("notes/bound.tex", "eq. (3)")``."""
        return cls(path, location, quote, "file")

    @classmethod
    def project(cls, location: str, quote: str = "") -> Source:
        """A claim this project states itself (a lemma of its own, a sanity check)."""
        return cls("this project", location, quote, "project")


def _text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


@dataclasses.dataclass(frozen=True)
class Document:
    """A source document, named once by its file name: ``SEED_003 = Document("003_….txt")``."""

    file: str

    def __post_init__(self) -> None:
        if not _text(self.file):
            raise SourceError(
                f"Document(file={self.file!r})",
                "a document needs its file name",
                'Document("003_d43fadb84922168d.txt"), a file of the source documents',
            )

    def section(self, location: str) -> Section:
        """A section, question or equation of this document, as the document labels it."""
        if not _text(location):
            raise SourceError(
                f"{self.file}: section(location={location!r})",
                "a section needs its location as the document writes it",
                'section("Question 4.1") or section("§B.1")',
            )
        return Section(self.file, location)


@dataclasses.dataclass(frozen=True)
class Section:
    """A part of a document bound once; :meth:`quote` and :meth:`cite` make each claim's :class:`Source`."""

    file: str
    location: str

    def at(self, detail: str) -> Section:
        """A narrower place in this section: ``S.at("item 2")`` is "<section>, item 2"; a detail in
        parentheses follows after a space: ``S.at("(corrected)")`` is "<section> (corrected)"."""
        if not _text(detail) or detail != detail.strip():
            raise SourceError(
                f"{self.file}, {self.location!r}: at(detail={detail!r})",
                "the detail must be non-empty text without surrounding spaces",
                'at("item 2") for "<section>, item 2", at("(corrected)") for "<section> (corrected)"',
            )
        separator = " " if detail.startswith("(") else ", "
        return Section(self.file, self.location + separator + detail)

    def quote(self, text: str) -> Source:
        """The claim as the document writes it here."""
        return Source(self.file, self.location, text)

    def cite(self) -> Source:
        """This place, without a quotation (a corrected form, a study, a reading of several passages)."""
        return Source(self.file, self.location)
