"""What a claim's argument rests on (``uses=``), as data: the premises, validated where declared.

A claim's premises are the results its document's argument invokes: those it declares with
``uses=("lemma1.bound", ...)`` and the claims its chain's steps are (``step_is=``).  The premise graph must
be acyclic: a claim whose premises lead back to it is rejected when it is declared, the cycle named, since
a circular argument establishes nothing and no standing could be computed over it.  A premise naming no
claim of the catalogue is an error found once the catalogue is complete, as for ``step_is``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..errors import ClaimDefinitionError

__all__ = ["validate_uses", "premises_of", "find_cycle", "cycle_problem", "catalogue_problems"]

_FIX = 'uses=("topic.claim_id", ...) (the claims whose statements this one\'s argument uses)'


def validate_uses(claim_id: str, meta: Mapping[str, Any], id_pattern) -> tuple[str, ...]:
    """``uses=`` as a tuple of claim ids, or a clear error naming the claim."""
    uses = meta.get("uses") or ()
    if isinstance(uses, str) or not isinstance(uses, (list, tuple)):
        fix = f"uses=({uses!r},)" if isinstance(uses, str) else _FIX
        raise ClaimDefinitionError(claim_id, f"uses must be a list of claim ids, got {uses!r}", fix)
    for other in uses:
        if not isinstance(other, str) or not id_pattern.match(other):
            raise ClaimDefinitionError(claim_id, f"uses: {other!r} is not a claim id", _FIX)
        if other == claim_id:
            raise ClaimDefinitionError(
                claim_id, "uses names the claim itself: an argument cannot use its own result", "drop it"
            )
    if len(set(uses)) != len(uses):
        twice = sorted({u for u in uses if uses.count(u) > 1})
        raise ClaimDefinitionError(claim_id, f"uses names {twice} more than once", "name each premise once")
    return tuple(uses)


def premises_of(uses: Iterable[str], step_links: Iterable[Sequence[Any]]) -> list[str]:
    """The premises of a claim: its declared uses, then the claims its chain's steps are, each once."""
    return list(dict.fromkeys([*uses, *(str(link[1]) for link in step_links)]))


def find_cycle(start: str, premises: Mapping[str, Sequence[str]]) -> list[str] | None:
    """A path ``start -> ... -> start`` through ``premises`` (id -> premise ids), or None when there is
    none.  Depth-first, iterative (a long chain of lemmas must not hit the recursion limit)."""
    stack: list[tuple[str, int]] = [(start, 0)]
    path: list[str] = [start]
    seen: set[str] = set()
    while stack:
        node, i = stack[-1]
        nexts = premises.get(node, ())
        if i >= len(nexts):
            stack.pop()
            path.pop()
            continue
        stack[-1] = (node, i + 1)
        other = nexts[i]
        if other == start:
            return [*path, start]
        if other in seen:
            continue
        seen.add(other)
        stack.append((other, 0))
        path.append(other)
    return None


def cycle_problem(claim_id: str, premises: Mapping[str, Sequence[str]]) -> ClaimDefinitionError | None:
    """The error for a claim whose premises lead back to it, naming the cycle."""
    cycle = find_cycle(claim_id, premises)
    if cycle is None:
        return None
    return ClaimDefinitionError(
        claim_id,
        "its premises (uses= and step_is=) form a cycle: " + " -> ".join(cycle),
        "an argument cannot rest on its own conclusion; remove one of these uses",
    )


def catalogue_problems(
    uses: Mapping[str, Sequence[str]],
    premises: Mapping[str, Sequence[str]],
    modules: Mapping[str, str],
    rejected: Iterable[str] = (),
) -> list[tuple[str, str, str]]:
    """``(claim id, module, message)`` for every declared use naming no claim of the catalogue (a
    ``step_is`` link naming none is reported with the links), and for every cycle the complete catalogue
    closes (one claim per cycle, the first in catalogue order).

    A use naming a ``rejected`` claim (declared, but refused with its own declaration error, e.g. the
    claim that closed a cycle) is no problem of the user's: that claim is reported once, with its own
    error, and the user's standing says the premise was not checked."""
    out = []
    declared = set(rejected)
    for cid, used in uses.items():
        for other in used:
            if other not in premises and other not in declared:
                problem = f"uses={other!r} names a premise no module declares"
                fix = "name a declared claim id (lemmacheck list shows them) or remove it"
                out.append((cid, modules.get(cid, ""), str(ClaimDefinitionError(cid, problem, fix))))
    in_cycle: set[str] = set()
    for cid in premises:
        if cid in in_cycle:
            continue
        error = cycle_problem(cid, premises)
        if error is not None:
            in_cycle.update(find_cycle(cid, premises) or ())
            out.append((cid, modules.get(cid, ""), str(error)))
    return out
