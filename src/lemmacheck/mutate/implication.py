"""Is a surviving mutant of a true numeric claim implied by the original?  Asked of lemmacheck itself.

A mutant of ``lhs ≤ rhs`` that computes ``lhs' ≤ rhs'`` is implied by the original wherever
``lhs' ≤ lhs`` and ``rhs ≤ rhs'``: it is a weaker statement, true whenever the original is, so no sound
checker could kill it.  That side condition is itself a chain claim, ``lhs' ≤ lhs ≤ rhs ≤ rhs'``, checked
by the engine with the ordinary search and high-precision re-verification (on the claim's own inputs,
dims and ``where``).  For an identity, or a longer chain, the mutant is equivalent when every expression
it returns equals the original's, again checked as identities.  The answer is exactly as strong as a
HOLDS verdict of the tool: adversarial search, not proof.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable

from ..model.claim import Claim, NumericCheck
from ..model.verdict import Verdict
from ..run.engine import run_claim
from ..search.profile import Profile

__all__ = ["implied_by_original"]

_CONFIRMED = (Verdict.HOLDS.value, Verdict.PROVED.value)
_ORDERED = {"<=": "<=", "<": "<=", ">=": ">=", ">": ">="}


def _side_chain(original: Callable, mutant: Callable, pick: Callable[[tuple, tuple], tuple]) -> Callable:
    """A check with the original's signature (so the engine passes the same inputs and dims)."""

    @functools.wraps(original)
    def chain(xp, *args, **kwargs):
        return pick(tuple(original(xp, *args, **kwargs)), tuple(mutant(xp, *args, **kwargs)))

    # Function objects take any attribute, but typeshed cannot declare one on a function (python/mypy#2087).
    chain.__signature__ = inspect.signature(original)  # type: ignore[attr-defined]
    return chain


def _holds(
    claim: Claim, check: NumericCheck, fn: Callable, relations: tuple[str, ...], profile: Profile, suffix: str
) -> tuple[bool, str]:
    side = dataclasses.replace(
        claim,
        id=f"{claim.id}.mutant_{suffix}",
        derivation=None,
        steps_claimed=False,
        expected=Verdict.HOLDS,
        expected_broken_step=None,
        check=dataclasses.replace(check, fn=fn, relations=relations, labels=()),
    )
    result = run_claim(side, profile).to_dict()
    # A chain's links are checked one by one: a broken link is a failure even where the verdict is HOLDS.
    ok = result["verdict"] in _CONFIRMED and result.get("first_broken_step") is None
    detail = result["verdict"] + (
        f", step {result['first_broken_step']} broken" if result.get("first_broken_step") else ""
    )
    cex = (result.get("evidence") or {}).get("counterexample")
    if cex:
        detail += f" (lhs={str(cex.get('lhs'))[:20]} rhs={str(cex.get('rhs'))[:20]})"
    elif result.get("message"):
        detail += f" ({result['message'].splitlines()[0][:120]})"
    return ok, detail


def implied_by_original(original: Claim, mutated: Claim, profile: Profile) -> tuple[bool, str]:
    """(True, why) when lemmacheck finds the mutant implied by the original; else (False, what failed)."""
    check, mcheck = original.check, mutated.check
    if not isinstance(check, NumericCheck) or not isinstance(mcheck, NumericCheck) or check.is_property:
        return False, "no implication test for this kind of check"
    rels, mrels = check.relations, mcheck.relations
    if len(rels) == 1 and rels == mrels and rels[0] in _ORDERED:
        return _weaker(original, check, mcheck, profile)
    if rels != mrels:
        return False, "the relations changed: no implication test"
    # Equal expressions first: it is the common case (the mutant computes the same values), and each
    # comparison keeps the sides' own scale, where the shift's differences are rounding-sized and every
    # one of them is settled in high precision (30 s on a norm identity against 1 s).
    equal, why = _equal_expressions(original, check, mcheck, profile)
    if not equal and _one_direction(rels):
        widened, detail = _ends_widened(original, check, mcheck, profile)
        return (True, detail) if widened else (False, f"{why}; {detail}")
    if equal or not all(r == "=" for r in rels):
        return equal, why
    # A term common to every side of an identity (e + r = e' + r) does not change what it states,
    # whatever r: the mutant is equivalent when it shifts every expression by the same amount,
    # e_i' − e_i = e_j' − e_j, checked as a chain.
    fn = _side_chain(check.fn, mcheck.fn, lambda o, m: tuple(a - b for a, b in zip(m, o, strict=True)))
    ok, detail = _holds(original, check, fn, rels, profile, "shift")
    if ok:
        return True, (
            f"same identity: the mutant adds the same amount to all {len(rels) + 1} expressions "
            f"(lemmacheck checks e_i' − e_i equal for every i: {detail})"
        )
    return False, f"{why}; nor the same identity shifted: e_i' − e_i equal for every i is {detail}"


def _weaker(original: Claim, check: NumericCheck, mcheck: NumericCheck, profile: Profile) -> tuple[bool, str]:
    """A mutant of ``lhs R rhs`` is implied when ``lhs' ≤ lhs R rhs ≤ rhs'`` (mirrored for ``≥``)."""
    rel = check.relations[0]
    weak = _ORDERED[rel]
    fn = _side_chain(check.fn, mcheck.fn, lambda o, m: (m[0], o[0], o[1], m[1]))
    ok, detail = _holds(original, check, fn, (weak, rel, weak), profile, "implied")
    if ok:
        return True, (
            f"weaker than the original: lemmacheck checks lhs' {weak} lhs {rel} rhs {weak} rhs' "
            f"({detail}), so the mutant is true wherever the original is"
        )
    return False, f"not implied by the original: lhs' {weak} lhs {rel} rhs {weak} rhs' is {detail}"


def _one_direction(rels: tuple[str, ...]) -> bool:
    """A chain of order relations all pointing one way (``≤``/``<``, or ``≥``/``>``)."""
    return all(r in _ORDERED for r in rels) and len({_ORDERED[r] for r in rels}) == 1


def _ends_widened(
    original: Claim, check: NumericCheck, mcheck: NumericCheck, profile: Profile
) -> tuple[bool, str]:
    """A mutant of a chain ``e0 ≤ … ≤ ek`` with its inner expressions unchanged and its ends moved
    outward (``e0' ≤ e0``, ``ek ≤ ek'``) is implied by the original: its first and last links are weaker,
    the others the same (``‖Xv‖ ≤ ‖X‖_S∞ ≤ ‖X‖_S2`` with ``S2`` mutated to ``S1``). Checked as the
    chain ``e0' ≤ e0 R … R ek ≤ ek'`` after each inner ``ei' = ei``, as a one-relation mutant is."""
    rels = check.relations
    for i in range(1, len(rels)):
        ok, detail = _expression_equal(original, check, mcheck, profile, i, i)
        if not ok:
            return False, f"an inner expression moved: e{i}' = e{i} is {detail}"
    weak = _ORDERED[rels[0]]
    fn = _side_chain(check.fn, mcheck.fn, lambda o, m: (m[0], *o, m[-1]))
    ok, detail = _holds(original, check, fn, (weak, *rels, weak), profile, "widened")
    if ok:
        return True, (
            f"weaker than the original: its inner expressions are the original's, and lemmacheck checks "
            f"e0' {weak} e0 … ek {weak} ek' ({detail}), so each link is the original's or weaker"
        )
    return False, f"nor the original with its ends moved outward: e0' {weak} e0 … ek {weak} ek' is {detail}"


def _equal_expressions(
    original: Claim, check: NumericCheck, mcheck: NumericCheck, profile: Profile
) -> tuple[bool, str]:
    """Whether every expression of the mutant equals the original's at the same place, ``e_i' = e_i``,
    or — in a chain of one non-strict relation — at a neighbouring place, in order: the mutant is then
    the original chain with a link collapsed to ``e ≤ e``, and each of its links follows from the
    original's by transitivity (``‖Xv‖ ≤ ‖X‖_S∞ ≤ ‖X‖_S2`` with ``S∞`` mutated to ``S2``)."""
    rels = check.relations
    n = len(rels) + 1
    collapsible = len(set(rels)) == 1 and rels[0] in ("<=", ">=", "=")
    placed: list[int] = []
    for i in range(n):
        ok, detail = _expression_equal(original, check, mcheck, profile, i, i)
        place: int | None = i
        if not ok and collapsible:
            neighbours = (k for k in (i + 1, i - 1) if 0 <= k < n)
            place = next(
                (k for k in neighbours if _expression_equal(original, check, mcheck, profile, i, k)[0]), None
            )
        if place is None or not (ok or collapsible):
            return False, f"not equal to the original: e{i}' = e{i} is {detail}"
        placed.append(place)
    if placed != sorted(placed):
        return False, f"the mutant's expressions equal the original's out of order ({placed})"
    if placed == list(range(n)):
        return True, (
            f"equal to the original: lemmacheck checks e{{i}}' = e{{i}} for all {n} "
            "expressions, so the mutant computes the same chain"
        )
    where = ", ".join(f"e{i}' = e{j}" for i, j in enumerate(placed) if i != j)
    return True, (
        f"the original chain with a link collapsed: lemmacheck checks {where} and the other expressions "
        "unchanged, so every link of the mutant follows from the original's by transitivity"
    )


def _expression_equal(
    original: Claim, check: NumericCheck, mcheck: NumericCheck, profile: Profile, i: int, j: int
) -> tuple[bool, str]:
    def expression_pair(o: tuple, m: tuple) -> tuple:
        return m[i], o[j]

    fn = _side_chain(check.fn, mcheck.fn, expression_pair)
    return _holds(original, check, fn, ("=",), profile, f"e{i}" if i == j else f"e{i}_e{j}")
