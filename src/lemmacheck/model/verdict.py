"""Verdicts and claim kinds."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import ClassVar

__all__ = ["Verdict", "Kind", "ProofStatus"]


class Verdict(enum.StrEnum):
    """The computed outcome of checking one claim.

    PROVED        SymPy (or exact arithmetic) shows it exactly.
    HOLDS         no violation over sampled and adversarially searched instances, and every float64
                  candidate that had to be settled was settled in high precision as rounding.
    REFUTED       a counterexample, certified in high precision (or exact arithmetic).
    APPROXIMATE   a first-order statement: measured remainder order and failure rate.
    INCONCLUSIVE  the evidence cannot decide: candidates remain that high precision did not settle
                  (budget spent, or a check high precision cannot evaluate); the reason is given.
    ERROR         the check itself broke; the message names the claim and the cause.
    """

    PROVED = "PROVED"
    HOLDS = "HOLDS"
    REFUTED = "REFUTED"
    APPROXIMATE = "APPROXIMATE"
    INCONCLUSIVE = "INCONCLUSIVE"
    ERROR = "ERROR"

    def __str__(self) -> str:
        return self.value


class _KindMembers(type):
    """``Kind.IDENTITY``, ``for k in Kind``: the members registered so far, like an enum's."""

    _members: dict[str, Kind]

    def __getattr__(cls, name: str) -> Kind:
        try:
            return cls._members[name]
        except KeyError:
            raise AttributeError(f"no claim kind {name!r}; registered: {sorted(cls._members)}") from None

    def __iter__(cls) -> Iterator[Kind]:
        return iter(list(cls._members.values()))

    def __len__(cls) -> int:
        return len(cls._members)


class Kind(str, metaclass=_KindMembers):
    """A kind of claim (identity, inequality, …), as a string.

    The members are not listed here: each kind module (``lemmacheck.kinds``) registers the kinds it
    declares (:meth:`register`), so adding a kind never edits this file.  A member behaves as the
    ``StrEnum`` member it was: ``Kind.IDENTITY``, ``.name``, ``.value``, ``Kind("identity")``,
    ``isinstance(k, Kind)``, iteration in registration order, and ``str(k) == k.value``.
    """

    _members: ClassVar[dict[str, Kind]] = {}
    name: str

    def __new__(cls, value: str) -> Kind:
        for member in cls._members.values():
            if str.__eq__(member, value):
                return member
        raise ValueError(
            f"{value!r} is not a claim kind; registered: {[str(k) for k in cls._members.values()]}"
        )

    @classmethod
    def register(cls, name: str, value: str) -> Kind:
        """The member ``Kind.<name>`` with this value, made once (registering it again returns it)."""
        member = cls._members.get(name)
        if member is not None:
            if not str.__eq__(member, value):
                raise ValueError(f"Kind.{name} is {str(member)!r} already, not {value!r}")
            return member
        if not name.isidentifier() or not name.isupper():
            raise ValueError(
                f"a kind's name is an upper-case identifier, like 'WORKED_EXAMPLE', not {name!r}"
            )
        member = str.__new__(cls, value)
        member.name = name
        cls._members[name] = member
        return member

    @property
    def value(self) -> str:
        return str.__str__(self)

    def __str__(self) -> str:
        return str.__str__(self)

    def __repr__(self) -> str:
        return f"<Kind.{self.name}: {self.value!r}>"

    def __reduce__(self):
        # A worker unpickling a claim re-creates the member, whether or not its kind module is imported.
        return Kind.register, (self.name, self.value)


class ProofStatus(enum.StrEnum):
    """The status of the proof *as written*, beside the verdict of the statement.

    sound         every link the document asserts was checked and holds
    broken        a link fails: the first broken step is named, with its certified counterexample
    none given    the claim comes with no chain of steps
    not asserted  the chain is not the document's (the claim says why); its steps are shown, not judged
    unsettled     no link is broken, but some link has candidates high precision did not settle
    """

    SOUND = "sound"
    BROKEN = "broken"
    NONE = "none given"
    NOT_ASSERTED = "not asserted"
    UNSETTLED = "unsettled"

    def __str__(self) -> str:
        return self.value
