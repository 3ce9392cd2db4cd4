"""A counterexample as text, as Hypothesis prints its falsifying example: the dims, each input, both
sides, the ratio and what proved it, on a few lines.  ``run``'s summary, ``watch`` and the JUnit failure
text print it under a claim that differs, so the instance is read where the difference is.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["counterexample_of", "counterexample_lines"]

#: an input longer than this is cut (the report and `lemmacheck show` print it whole)
_INPUT_CHARS = 240


def counterexample_of(claim: dict) -> dict | None:
    """The certified counterexample of a claim's ``to_dict()``: the statement's, else its broken proof's."""
    evidence = claim.get("evidence") or {}
    return evidence.get("counterexample") or (claim.get("proof") or {}).get("counterexample")


def _value(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= _INPUT_CHARS else text[:_INPUT_CHARS] + f" … ({len(text)} characters)"


def counterexample_lines(cx: dict) -> list[str]:
    """The counterexample ``cx`` (the results schema's counterexample object) as indented lines."""
    how = cx.get("certified_by") or (
        "exact arithmetic"
        if cx.get("exact")
        else f"high precision, {cx['dps']} digits"
        if cx.get("dps")
        else ""
    )
    head = "counterexample" + (f" ({how})" if how else "")
    if cx.get("step"):
        head += f" at step {cx['step']}"
    lines = [head + ":"]
    if cx.get("dims"):
        lines.append("  dims " + ", ".join(f"{k} = {v}" for k, v in cx["dims"].items()))
    for name, value in (cx.get("inputs") or {}).items():
        lines.append(f"  {name} = {_value(value)}")
    for side in ("lhs", "rhs"):
        if cx.get(side) is not None:
            lines.append(f"  {side} = {_value(cx[side])}")
    if cx.get("ratio") is not None:
        lines.append(f"  lhs/rhs = {cx['ratio']!r}")
    if cx.get("minimised"):
        lines.append(f"  ({cx['minimised']})")
    return lines
