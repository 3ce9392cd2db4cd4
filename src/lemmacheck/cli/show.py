"""``lemmacheck show <id>``: one claim in the terminal, checked now.

Statement, source and quote, the verdict of the statement and the proof as written, the evidence, the
certified counterexample, the replay command, and where the claim lives: the file and line of its
declaration, its check and its derivation.
"""

from __future__ import annotations

import inspect
import json
import textwrap
from pathlib import Path

from ..latex.crosscheck import statement_check_text
from ..model.claim import Claim
from ..model.verdict import ProofStatus
from ..run.results import ClaimResult, verdict_text

__all__ = ["where_defined", "format_claim", "standing_text"]


def _line_of(path: Path, needle: str) -> int | None:
    try:
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if needle in line:
                return i
    except OSError:
        return None
    return None


def _module_file(module: str) -> Path | None:
    import importlib

    try:
        return Path(inspect.getsourcefile(importlib.import_module(module)) or "")
    except (ImportError, TypeError):
        return None


def where_defined(claim: Claim) -> dict[str, str]:
    """``{"declaration": "path:line", "check": ..., "derivation": ...}`` for what the claim has."""
    out: dict[str, str] = {}
    decl = _module_file(claim.module)
    if decl is not None:
        out["declaration"] = f"{decl}:{_line_of(decl, repr(claim.id)[1:-1]) or 1}"
    fn = None
    if claim.check is not None:
        fn = (
            getattr(claim.check, "fn", None)
            or getattr(claim.check, "computed", None)
            or getattr(claim.check, "cost", None)
        )
    if fn is not None:
        try:
            out["check"] = f"{inspect.getsourcefile(fn)}:{inspect.getsourcelines(fn)[1]}"
        except (OSError, TypeError):
            pass
    if claim.derivation is not None and claim.derivation.module:
        dfile = _module_file(claim.derivation.module)
        if dfile is not None:
            out["derivation"] = f"{dfile}:{_line_of(dfile, repr(claim.id)[1:-1]) or 1}"
    return out


def _block(title: str, body: str) -> list[str]:
    return [f"{title}:", textwrap.indent(body.rstrip(), "  ")]


def _tightness(ev: dict) -> str:
    """The tightness figure, where it is attained, what was excluded, and the figure at sizes >= 2."""
    w = ev["tightness_witness"]
    how = f"settled at {w['dps']} digits" if w.get("dps") else "float64 (high precision cannot evaluate it)"
    if w.get("ratio_enclosure"):
        how += " on balls, ratio in [{}, {}]".format(*w["ratio_enclosure"])
    elif w.get("route") == "mpmath":
        how += " in mpmath" + (f" ({w['route_reason']})" if w.get("route_reason") else "")
    f64 = w.get("float64_ratio", w["ratio"])
    if f64 != w["ratio"]:
        how += f"; float64 showed {f64!r}"
    text = f"{w['ratio']:.6g} ({how}) at dims {w['dims']}"
    if w.get("trivial"):
        text += " (a size below 2)"
    text += f"\ninputs {json.dumps(w['inputs'], ensure_ascii=False)[:1000]}"
    if w.get("lhs") is not None:
        text += f"\nlhs {w['lhs']}\nrhs {w['rhs']}"
    if ev.get("tightness_excluded"):
        text += (
            f"\n{ev['tightness_excluded']} instances with a larger float64 ratio excluded: "
            "not resolved above their rounding sensitivity, or rounding in high precision"
        )
    nw = ev.get("nontrivial_witness")
    if nw:
        text += f"\nevery size >= 2: {nw['ratio']:.6g} at dims {nw['dims']}"
    return text


def _also_broken(result: ClaimResult) -> str:
    """The broken steps after the first: each is a false link of its own, not hidden by the first."""
    labels = {s.index: s.label for s in result.steps}
    later = [k for k in result.broken_steps if k != result.proof.step]
    if result.proof.status is not ProofStatus.BROKEN or not later:
        return ""
    return "\nalso broken: " + "; ".join(f"step {k} ({labels.get(k, '')})" for k in later)


def _explored(explored: dict) -> str:
    """The range of |entry| the search evaluated per input, and the float-range instances (search/wide.py)."""
    per_input = [f"{k} {lo:.2g} to {hi:.2g}" for k, (lo, hi) in (explored.get("magnitudes") or {}).items()]
    text = "; ".join(per_input) or "none recorded"
    wide, dropped = explored.get("wide_instances", 0), explored.get("wide_dropped", 0)
    text += f"\n{wide} instances across the float range"
    if dropped:
        text += f", {dropped} more that float64 could not evaluate, not judged"
    if explored.get("wide_skipped"):
        text += f"\nnot explored across the float range: {explored['wide_skipped']}"
    return text


def format_claim(claim: Claim, result: ClaimResult) -> str:
    lines = [f"{result.id} — {result.title}", ""]
    lines += _block("statement", result.statement)
    src = result.source
    lines += _block(
        "source",
        f"{src.get('file')} · {src.get('location')}"
        + (f"\n“{src.get('quote')}”" if src.get("quote") else ""),
    )
    verdict = f"{verdict_text(result.verdict.value, result.evidence)} (catalogue expects {result.expected})"
    if result.reason:
        verdict += f"\nwhy: {result.reason}"
    lines += _block("verdict of the statement", verdict)
    proof = result.proof.status.value + (
        f" at step {result.proof.step} ({result.proof.label})" if result.proof.step else ""
    )
    lines += _block(
        "proof as written",
        f"{proof} (catalogue expects {result.expected_proof})"
        + (f"\n{result.proof.reason}" if result.proof.reason else "")
        + _also_broken(result),
    )
    for s in result.steps:
        lines.append(f"  step {s.index} [{s.status}] {s.label}: {s.detail}")
    if result.statement_check:
        lines += _block("statement as compiled", statement_check_text(result.statement_check))
    shown_apart = ("counterexample", "settlement", "tightness_witness", "nontrivial_witness", "explored")
    ev = {k: v for k, v in result.evidence.items() if k not in shown_apart}
    if ev:
        lines += _block("evidence", json.dumps(ev, indent=1, ensure_ascii=False)[:3000])
    if result.evidence.get("explored"):  # apart: the evidence above is cut at 3000 characters
        lines += _block("magnitudes explored", _explored(result.evidence["explored"]))
    if result.evidence.get("tightness_witness"):
        lines += _block("tightness", _tightness(result.evidence))
    settled = result.evidence.get("settlement")
    if settled:
        lines += _block(
            "settled in high precision",
            f"{settled['tried']} of {settled['candidates']} float64 candidates tried, "
            f"{settled['rejected']} rounding, {settled['unsettled']} unsettled",
        )
    cx = result.evidence.get("counterexample") or result.proof.counterexample
    if cx:
        lines += _block("counterexample (certified)", json.dumps(cx, indent=1, ensure_ascii=False)[:3000])
    if result.certificate:
        from ..certify.text import certificate_text

        lines += _block("certificate", certificate_text(result.certificate))
    if result.message:
        lines += _block("error", result.message)
    lines += _block("replay", result.replay)
    lines += _block("defined at", "\n".join(f"{k}: {v}" for k, v in where_defined(claim).items()))
    return "\n".join(lines)


def standing_text(standing: dict, results: list[ClaimResult]) -> str:
    """Premises (with the verdicts this show computed), dependents (the catalogue's) and standing."""
    verdicts = {r.id: f"{r.verdict.value}, proof {r.proof.status.value}" for r in results}
    premises = (
        "\n".join(f"{p} ({verdicts.get(p, 'not checked')})" for p in standing["premises"]) or "none recorded"
    )
    dependents = "\n".join(standing["dependents"]) or "none recorded"
    lines = _block("premises (uses= and step_is=)", premises)
    lines += _block("dependents (claims that use it)", dependents)
    lines += _block("standing", f"{standing['status']}: {standing['summary']}")
    return "\n".join(lines)
