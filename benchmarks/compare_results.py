"""Compare two results.json claim by claim: every field but times and the rounding-estimate counts.

A speed change must leave every verdict, proof, counterexample and tightness figure as it was; only
the settlement's counts that rest on the rounding estimate (``significant``, ``estimated``,
``to_settle`` and the ``reason`` made from them) may differ when fewer candidates are estimated.
Run both trees at the same seed, each from a fresh cache (kept counterexamples change the instances)::

    python benchmarks/compare_results.py before/results.json after/results.json

Prints each claim that differs, by JSON path, and each whose counts alone differ; exit 1 if any
claim differs beyond them. ``--common`` compares only the claims both files hold (a ``-k`` selection
against a whole catalogue's results), and not their ``standing``, which a selection changes: a premise
left out of it is "not in these results".
"""

from __future__ import annotations

import json
import sys

#: times and run stamps, never compared
TIMES = {"seconds", "phase_seconds", "checked", "cached"}
#: a settlement's counts that rest on the rounding estimate
ESTIMATE_COUNTS = {"significant", "estimated", "to_settle", "reason"}


def differences(a, b, path: str = "", *, in_settlement: bool = False) -> tuple[list, list]:
    """``(other, counts)``: the paths where ``a`` and ``b`` differ, each ``(path, a, b)``."""
    other: list = []
    counts: list = []
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k in TIMES and not in_settlement:
                continue
            if in_settlement and k in ESTIMATE_COUNTS:
                if a.get(k) != b.get(k):
                    counts.append((f"{path}/{k}", a.get(k), b.get(k)))
                continue
            if k not in a or k not in b:
                other.append((f"{path}/{k}", a.get(k, "<absent>"), b.get(k, "<absent>")))
                continue
            o, c = differences(a[k], b[k], f"{path}/{k}", in_settlement=in_settlement or k == "settlement")
            other += o
            counts += c
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            o, c = differences(x, y, f"{path}[{i}]", in_settlement=in_settlement)
            other += o
            counts += c
    elif a != b:
        other.append((path, a, b))
    return other, counts


def main(before: str, after: str, *, common: bool = False) -> int:
    with open(before, encoding="utf-8") as f:
        old = {c["id"]: c for c in json.load(f)["claims"]}
    with open(after, encoding="utf-8") as f:
        new = {c["id"]: c for c in json.load(f)["claims"]}
    differ = counted = 0
    ids = set(old) & set(new) if common else set(old) | set(new)
    for cid in sorted(ids):
        if cid not in old or cid not in new:
            print(f"{cid}: only {'before' if cid in old else 'after'}")
            differ += 1
            continue
        a, b = old[cid], new[cid]
        if common:
            a, b = ({k: v for k, v in c.items() if k != "standing"} for c in (a, b))
        other, counts = differences(a, b)
        if other:
            differ += 1
            print(f"DIFFERS {cid} [{old[cid]['verdict']}]")
            for p, x, y in other[:12]:
                print(f"   {p}: {str(x)[:90]} -> {str(y)[:90]}")
        if counts:
            counted += 1
            shown = [f"{p} {x}->{y}" for p, x, y in counts if "/per_dims/" not in p and "reason" not in p]
            print(f"counts  {cid} [{old[cid]['verdict']}]: " + "; ".join(shown)[:300])
    print(f"{len(old)} claims before, {len(new)} after; {counted} differ in rounding-estimate counts only")
    print(f"{differ} claims differ beyond times and rounding-estimate counts")
    return 1 if differ else 0


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--common"]
    sys.exit(main(*args[:2], common="--common" in sys.argv[1:]))
