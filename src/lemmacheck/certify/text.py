"""A certificate as text for ``lemmacheck show``: the summary line, then per dims tried its domain,
hypotheses, constants, and per step the route with what replays it (or why the dims were not
certified)."""

from __future__ import annotations

from typing import Any

from .certificate import certificate_summary

__all__ = ["certificate_text"]

#: characters of a shipped query, margin or tree shown (results.json holds them whole)
SHOWN = 1500


def _clip(text: str) -> str:
    return text if len(text) <= SHOWN else text[:SHOWN] + f" … ({len(text)} characters in results.json)"


def _step_text(step: dict[str, Any]) -> str:
    head = "the statement" if step["index"] == 0 else f"step {step['index']}"
    route = step["route"]
    if route == "sympy":
        return f"{head} ({step['relation']}): SymPy, {step['method']} of the margin\n{_clip(step['margin'])}"
    if route == "z3":
        return f"{head} ({step['relation']}): Z3 answers unsat to\n{_clip(step['query'])}"
    return (
        f"{head} ({step['relation']}): arb box tree over {', '.join(step['variables'])} on "
        f"{step['root']}, {step['boxes']} boxes at {step['prec_bits']} bits\ntree {_clip(step['tree'])}"
    )


def _dims_text(entry: dict[str, Any]) -> str:
    dims = ", ".join(f"{k} = {v}" for k, v in entry["dims"].items()) or "(no dims)"
    lines = [f"dims {dims}: {entry['status']}"]
    if entry["status"] != "certified":
        return "\n".join(lines + [f"  {entry.get('reason', '')}"])
    lines.append(
        f"  domain {entry['domain']}" + (f", witness {entry['witness']}" if entry.get("witness") else "")
    )
    if entry["hypotheses"]:
        lines.append(f"  where {' and '.join(entry['hypotheses'])}")
    if entry["constants"]:
        lines.append("  constants read as " + ", ".join(f"{k} = {v}" for k, v in entry["constants"].items()))
    lines += ["  " + line for s in entry["steps"] for line in _step_text(s).splitlines()]
    return "\n".join(lines)


def certificate_text(cert: dict[str, Any]) -> str:
    lines = [cert.get("summary") or certificate_summary(cert)]
    fired = (
        f" (it fired: {'; '.join(cert.get('safety_nets', []))}; this certificate may depend on the machine)"
        if cert.get("safety_net_fired")
        else ""
    )
    lines.append(
        f"{cert['seconds']:.3g} s; budgets by work (Python calls of symbolic work, Z3 rlimit, boxes), a "
        f"{cert['cap_seconds']:g} CPU-second safety net{fired}"
    )
    if cert.get("unavailable"):
        lines.append("routes unavailable: " + ", ".join(cert["unavailable"]))
    lines += [_dims_text(t) for t in cert.get("tried", [])]
    return "\n".join(lines)
