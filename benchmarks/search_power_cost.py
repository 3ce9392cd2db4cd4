"""What fewer Hypothesis examples, or no target phase, would save in CPU and cost in search power (issue 35).

The issue asks, if the catalogue's goal needed them, for both sides: the CPU saved, and the needles of
the search-power issue (``tests/test_search_supremum.py``) missed.  Each variant of the quick profile
runs, in this one process and interleaved claim by claim (so the load falls on every variant alike):

* the needles: the planted Hoeffding bound made 0.08 % too small (seeds 1-7) and the same bound scaled by
  1 - 1e-3 (seed 1), ``lse.bound`` scaled by 1 - 1e-3 (seeds 1-5), each a REFUTED found or missed; the
  two claims whose supremum far rounding crowded out (tightness > 0.9999 found or missed); and the
  catalogue's holding bounds whose tightness at seed 1 is above 0.999, scaled by 1 - 1e-3, at seed 1
  (``--bounds N``: the first N of them);
* the cost: the CPU of every run above, and of every ``--every``-th claim of the catalogue as it is.

    PYTHONPATH=src python benchmarks/search_power_cost.py --bounds 40 --every 4 > out.json

Prints one JSON line per variant: needles found of needles, CPU of the needles, CPU of the catalogue
sample, and the needles each variant missed.  No kept counterexamples are read (a fresh folder).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

os.environ["LEMMACHECK_EXAMPLES"] = tempfile.mkdtemp(prefix="kept-examples-")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from hypothesis import Phase  # noqa: E402

import lemmacheck.search.adversarial as adversarial  # noqa: E402
from lemmacheck import Verdict  # noqa: E402
from lemmacheck.model.claim import REGISTRY  # noqa: E402
from lemmacheck.mutate.scaled import scaled_bound  # noqa: E402
from lemmacheck.project.discovery import discover  # noqa: E402
from lemmacheck.run.engine import run_claim  # noqa: E402
from lemmacheck.search.profile import QUICK, Profile  # noqa: E402

#: name -> (hypothesis examples, whether the target phase runs)
VARIANTS = {
    "default (60 examples, target phase)": (60, True),
    "30 examples": (30, True),
    "no target phase": (60, False),
    "30 examples, no target phase": (30, False),
}
_REAL_PHASE = adversarial.Phase
#: the phases with the target phase replaced by a second generate (Hypothesis keeps each phase once)
_NO_TARGET = SimpleNamespace(generate=Phase.generate, target=Phase.generate, shrink=Phase.shrink)


def _profile(variant: tuple[int, bool], seed: int) -> Profile:
    examples, target = variant
    adversarial.Phase = _REAL_PHASE if target else _NO_TARGET  # type: ignore[attr-defined]
    return dataclasses.replace(QUICK, hypothesis_examples=examples).with_seed(seed)


def _timed(fn: Callable, *args) -> tuple[object, float]:
    t = time.process_time()
    out = fn(*args)
    return out, time.process_time() - t


def _needles(bounds: int) -> list[tuple[str, Callable[[Profile], bool], int]]:
    """(name, found(profile) -> bool, seed) for every needle."""
    from test_search_supremum import _hoeffding

    def refuted(make) -> Callable[[Profile], bool]:
        return lambda p: run_claim(make(), p).verdict is Verdict.REFUTED

    def planted(constant: float, expected: Verdict, scale: float | None = None) -> Callable[[Profile], bool]:
        def found(p: Profile) -> bool:
            with REGISTRY.scratch() as reg:  # the planted claim stays out of the catalogue
                claim = _hoeffding(reg, constant, expected)
                return run_claim(claim if scale is None else scaled_bound(claim, scale), p).verdict is (
                    Verdict.REFUTED
                )

        return found

    def tight(cid: str) -> Callable[[Profile], bool]:
        return lambda p: (run_claim(REGISTRY[cid], p).evidence.get("tightness") or 0) > 0.9999

    out = [(f"hoeffding 1-8e-4 seed {s}", planted(1 - 8e-4, Verdict.REFUTED), s) for s in range(1, 8)]
    out.append(("hoeffding scaled 1e-3 seed 1", planted(1.0, Verdict.HOLDS, 1e-3), 1))
    out += [
        (f"lse.bound scaled 1e-3 seed {s}", refuted(lambda: scaled_bound(REGISTRY["lse.bound"], 1e-3)), s)
        for s in range(1, 6)
    ]
    out += [
        ("lemma1.bound_hw.max_entry far seed 2", tight("lemma1.bound_hw.max_entry"), 2),
        ("lemma1.bound far seed 4", tight("lemma1.bound"), 4),
    ]
    for cid in _sharp_bounds(bounds):
        out.append(
            (f"{cid} scaled 1e-3 seed 1", refuted(lambda cid=cid: scaled_bound(REGISTRY[cid], 1e-3)), 1)
        )
    return out


def _sharp_bounds(limit: int) -> list[str]:
    """The catalogue's holding bounds whose tightness at seed 1 (default profile) is above 0.999."""
    found = []
    for c in sorted(REGISTRY, key=lambda c: c.id):
        rels = getattr(c.check, "relations", None)
        if c.expected is not Verdict.HOLDS or not rels or getattr(c.check, "is_property", True):
            continue
        if not set(rels) - {"=", "~"}:
            continue
        r = run_claim(c, _profile(VARIANTS["default (60 examples, target phase)"], 1))
        if r.verdict is Verdict.HOLDS and (r.evidence.get("tightness") or 0) > 0.999 * (1 + 1e-9):
            found.append(c.id)
        if len(found) >= limit:
            break
    return found


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bounds", type=int, default=40)
    ap.add_argument("--every", type=int, default=4)
    args = ap.parse_args()
    discover()
    needles = _needles(args.bounds)
    sample = sorted(REGISTRY, key=lambda c: c.id)[:: args.every]
    stats = {
        v: {"found": 0, "needles": 0, "missed": [], "needle_cpu": 0.0, "sample_cpu": 0.0} for v in VARIANTS
    }
    for name, found, seed in needles:
        for v, variant in VARIANTS.items():
            ok, cpu = _timed(found, _profile(variant, seed))
            s = stats[v]
            s["needles"] += 1
            s["found"] += bool(ok)
            s["needle_cpu"] += cpu
            if not ok:
                s["missed"].append(name)
    for claim in sample:
        for v, variant in VARIANTS.items():
            _, cpu = _timed(run_claim, claim, _profile(variant, 7))
            stats[v]["sample_cpu"] += cpu
    adversarial.Phase = _REAL_PHASE  # type: ignore[attr-defined]
    for v, s in stats.items():
        print(json.dumps({"variant": v, "sample_claims": len(sample), **s}), flush=True)


if __name__ == "__main__":
    main()
