"""A chain step that is the statement of another claim (``step_is=``): the chain stands or falls with it.

A check computes its chain's own steps; whether a linked step holds is the linked claim's verdict, known
only once that claim has run.  :func:`pending` is what a claim run alone reports (never ``sound`` over a
link nobody checked); :func:`resolve` judges the links from the run's results, so the proof status is
computed, never declared.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..run.results import ClaimResult, Proof
from .verdict import ProofStatus, Verdict

__all__ = ["pending", "resolve", "linked_ids", "judge_links", "AwaitingLinks"]

#: verdicts under which the linked step stands (APPROXIMATE: a first-order statement, measured as one)
_STANDS = (Verdict.PROVED, Verdict.HOLDS, Verdict.APPROXIMATE)


def linked_ids(results) -> list[str]:
    """Every claim id some result's chain links a step to, in first-seen order."""
    return list(dict.fromkeys(other for r in results for _, other in r.step_links))


def _label(result: ClaimResult, step: int) -> str:
    return next((s.label for s in result.steps if s.index == step), "")


def _unchecked(result: ClaimResult, step: int, other: str, why: str) -> Proof:
    return Proof(
        ProofStatus.UNSETTLED,
        step,
        _label(result, step),
        f"step {step} is the statement of claim {other}, {why}: the link is unchecked",
        linked_claim=other,
    )


def pending(result: ClaimResult, own: Proof) -> Proof:
    """The proof of a chain whose linked claims have not been seen: the first link is unchecked."""
    if not result.step_links or own.status not in (ProofStatus.SOUND, ProofStatus.UNSETTLED):
        return own
    step, other = result.step_links[0]
    return _unchecked(result, step, other, f"which was not checked with it (run -k '{result.id} or {other}')")


def _own(result: ClaimResult) -> Proof:
    """The chain's own status from its steps, when none of them is broken."""
    unsettled = next((s for s in result.steps if s.status == "unsettled"), None)
    if unsettled is None:
        return Proof(ProofStatus.SOUND)
    return Proof(ProofStatus.UNSETTLED, unsettled.index, unsettled.label, unsettled.detail)


def _verdict(verdicts: Mapping[str, ClaimResult], other: str) -> Verdict | None:
    linked = verdicts.get(other)
    return linked.verdict if linked is not None else None


def resolve(result: ClaimResult, verdicts: Mapping[str, ClaimResult]) -> None:
    """Judge ``result``'s linked steps from ``verdicts`` (claim id -> result): the first linked step whose
    claim is REFUTED breaks the chain there (earlier than any step its own check broke), naming that claim
    and carrying its counterexample; a link whose claim is missing, ERROR or INCONCLUSIVE is unchecked."""
    status = result.proof.status
    if not result.step_links or status not in (ProofStatus.SOUND, ProofStatus.UNSETTLED, ProofStatus.BROKEN):
        return
    refuted = {step for step, other in result.step_links if _verdict(verdicts, other) is Verdict.REFUTED}
    result.broken_steps = sorted(set(result.broken_steps) | refuted)  # a later broken link is listed too
    own_break = result.first_broken_step if status is ProofStatus.BROKEN else None
    for step, other in result.step_links:
        if own_break is not None and step >= own_break:
            return  # broken already, no later than this link
        linked = verdicts.get(other)
        verdict = linked.verdict if linked is not None else None
        if linked is not None and verdict is Verdict.REFUTED:
            result.proof = Proof(
                ProofStatus.BROKEN,
                step,
                _label(result, step),
                f"step {step} is the statement of claim {other}, which is REFUTED",
                linked.evidence.get("counterexample"),
                linked_claim=other,
            )
            result.first_broken_step = step
            return
        if own_break is None and verdict not in _STANDS:
            why = "which this run did not check" if verdict is None else f"whose verdict is {verdict.value}"
            result.proof = _unchecked(result, step, other, why)
            return
    if own_break is None:
        result.proof = _own(result)


def judge_links(results: list[ClaimResult], run_missing: Callable[[list[str]], list[ClaimResult]]) -> None:
    """Judge every linked step from the linked claims' results: those of the run, and for a claim the
    selection left out, the result ``run_missing`` computes for it (not added to the run's results)."""
    by_id = {r.id: r for r in results}
    missing = [i for i in linked_ids(results) if i not in by_id]
    if missing:
        by_id |= {r.id: r for r in run_missing(missing)}
    for r in results:
        resolve(r, by_id)


class AwaitingLinks:
    """Passes each result on (to ``pass_on``) once its linked steps are judged, so what a caller sees as a
    result arrives (a journal, ``-x``'s stop) is what the whole run reports: a chain whose linked claim runs
    after it waits for that claim, and one linked outside the selection waits for :meth:`flush`, called
    once :func:`judge_links` has run the missing links.  A result without links passes on at once."""

    def __init__(self, pass_on: Callable[[ClaimResult], None]):
        self.pass_on = pass_on
        self.seen: dict[str, ClaimResult] = {}
        self.waiting: list[ClaimResult] = []

    def __call__(self, result: ClaimResult) -> None:
        self.seen[result.id] = result
        self.waiting.append(result)
        ready = [w for w in self.waiting if all(other in self.seen for _, other in w.step_links)]
        self.waiting = [w for w in self.waiting if not any(w is r for r in ready)]
        for w in ready:
            resolve(w, self.seen)
            self.pass_on(w)

    def flush(self) -> None:
        """Pass on the results still waiting (their links judged by :func:`judge_links` meanwhile)."""
        waiting, self.waiting = self.waiting, []
        for w in waiting:
            self.pass_on(w)
