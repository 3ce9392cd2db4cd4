"""What ``lemmacheck run`` prints: the progress line, the table of verdicts, the changes.

Ids, messages and reasons come from claims: they are printed with control characters escaped
(:mod:`lemmacheck.cli.terminal`).
"""

from __future__ import annotations

import sys
import time

from ..run.results import verdict_text
from .terminal import printable_line

__all__ = ["Progress", "summary", "format_changes", "mismatch_line", "counterexample_block"]


class Progress:
    """A one-line progress display on a terminal; plain lines otherwise (CI logs)."""

    def __init__(self, *, enabled: bool):
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.t0 = time.perf_counter()

    def __call__(self, name: str, i: int, total: int) -> None:
        if not self.enabled:
            return
        elapsed = time.perf_counter() - self.t0
        line = f"[{i + 1:>4}/{total}] {elapsed:6.1f}s  {printable_line(name)}"
        try:
            if self.tty:
                sys.stderr.write("\r\033[K" + line[:120])
            elif (i + 1) % 25 == 0 or i + 1 == total:
                sys.stderr.write(line + "\n")
            sys.stderr.flush()
        except BrokenPipeError:
            self.enabled = False

    def done(self) -> None:
        if self.enabled and self.tty:
            sys.stderr.write("\r\033[K")
            sys.stderr.flush()


def _first_line(text: str) -> str:
    return printable_line(text.splitlines()[0] if text else "")


def _table(run) -> list[str]:
    from ..model.verdict import ProofStatus, Verdict
    from ..run.results import statement_counts

    counts, proofs = run.counts(), run.proof_counts()
    lines = ["", f"{'statement':<14}{'claims':>8}    {'proof as written':<18}{'claims':>8}", "-" * 52]
    rows = max(len(Verdict), len(ProofStatus))
    for v, p in zip([*Verdict, *[None] * rows][:rows], [*ProofStatus, *[None] * rows][:rows], strict=True):
        left = f"{v.value:<14}{counts[v.value]:>8}" if v else " " * 22
        right = f"{p.value:<18}{proofs[p.value]:>8}" if p else ""
        lines.append(f"{left}    {right}".rstrip())
    compiled = statement_counts(r.statement_check for r in run.results)
    words = ", ".join(f"{n} {s}" for s, n in compiled.items() if n)
    return [*lines, "-" * 52, f"{'total':<14}{len(run.results):>8}", f"statement compiled: {words}"]


def mismatch_line(r) -> str:
    extra = ""
    if r.first_broken_step != r.expected_broken_step:
        extra = f" (first broken step {r.first_broken_step}, expected {r.expected_broken_step})"
    if r.proof.status.value != r.expected_proof:
        at = f" at step {r.proof.step}" if r.proof.step else ""
        extra += f" (proof {r.proof.status.value}{at}, expected {r.expected_proof})"
    replay = f"   replay: {r.replay}" if r.replay else ""
    computed = verdict_text(r.verdict.value, r.evidence)
    line = f"  {printable_line(r.id)}: computed {computed}, expected {r.expected}{extra}{replay}"
    return "\n".join([line, *counterexample_block(r)])


def counterexample_block(r) -> list[str]:
    """The certified counterexample of result ``r`` (its statement's, else its broken proof's), indented
    under its line, as Hypothesis prints a falsifying example; nothing when there is none."""
    from ..report.falsifying import counterexample_lines

    cx = r.evidence.get("counterexample") or r.proof.counterexample
    return [f"      {printable_line(line)}" for line in counterexample_lines(cx)] if cx else []


#: at most this many not-certified claims are named in the terminal; the report and results.json hold all
CERTIFICATE_LINES = 20


def _certificates(run) -> list[str]:
    """After ``run --certify``: how many HOLDS were certified, and each one that was not, with the reason."""
    certs = [(r, r.certificate) for r in run.results if r.certificate]
    if not certs:
        return []
    from ..certify.scope import counts_line

    # the counts by scope (lemmacheck show ID prints one certificate), then each HOLDS not certified
    lines = ["", counts_line(run.certificate_counts())]
    refused = [(r, c) for r, c in certs if c.get("status") != "certified"]
    for r, c in refused[:CERTIFICATE_LINES]:
        reason = c.get("reason") or c.get("summary") or c.get("status")
        lines.append(f"  {printable_line(r.id)}: {c.get('status')}: {_first_line(str(reason))}")
    if len(refused) > CERTIFICATE_LINES:
        lines.append(
            f"  … and {len(refused) - CERTIFICATE_LINES} more (the report and results.json list every one)"
        )
    netted = [printable_line(r.id) for r, c in certs if c.get("safety_net_fired")]
    if netted:  # every one named: these are the certificates a reader cannot expect to reproduce
        lines.append(f"  the safety net fired for: {', '.join(netted)}")
    return lines


def summary(run) -> str:
    from ..model.verdict import Verdict

    lines = _table(run) + _certificates(run)
    mism = run.mismatches()
    errors = [r for r in run.results if r.verdict is Verdict.ERROR]
    inconclusive = [r for r in run.results if r.verdict is Verdict.INCONCLUSIVE]
    if inconclusive:
        lines += ["", "INCONCLUSIVE (the evidence cannot decide):"]
        lines += [f"  {printable_line(r.id)}: {printable_line(r.reason)}" for r in inconclusive]
    failed_studies = [s for s in run.studies if s.get("error")]
    if errors:
        lines += ["", "ERROR (the check itself broke):"]
        lines += [f"  {printable_line(r.id)}: {_first_line(r.message)}" for r in errors]
    if failed_studies:
        lines += ["", f"{len(failed_studies)} study(ies) failed:"]
        lines += [f"  {printable_line(s['id'])}: {_first_line(s['error'])}" for s in failed_studies]
    if mism:
        lines += ["", f"{len(mism)} claim(s) differ from the catalogue's expectation:"]
        lines += [mismatch_line(r) for r in mism]
    elif not failed_studies:
        lines += ["", "every computed verdict matches the catalogue's expectation"]
    return "\n".join(lines)


def format_changes(changes: list[dict], previous: dict | None) -> str:
    if previous is None:
        return "\nno previous results in the report folder: nothing to compare with"
    if not changes:
        return "\nno verdict or proof status changed since the previous run"
    lines = [f"\n{len(changes)} change(s) since the previous run:"]
    lines += [f"  {printable_line(c['claim_id'])}: {c['what']} {c['before']} → {c['after']}" for c in changes]
    return "\n".join(lines)
