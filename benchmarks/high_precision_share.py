"""The high-precision share of a set of claims: seconds inside every evaluation of a check on mpmath object
arrays or balls (``mp_chain`` and ``ball_chain`` of ``lemmacheck.settling``: settling, tightness,
Hypothesis's verifications) against each claim's whole time, in process, at the default seed.  A script,
not a benchmark test, so that it also runs on an older tree of the engine:

    PYTHONPATH=<tree>/src python benchmarks/high_precision_share.py <tree> <id,id,...> out.json [--timers]

Two ways to measure, both kept because they disagree: by default under cProfile (the way the issue's
baseline was measured), which slows every Python call and so weighs the per-entry arithmetic of balls and
mpmath more than NumPy's vectorised float64 work; with ``--timers``, by a clock around the outermost
evaluation of a claim run without a profiler.
"""

import cProfile
import importlib
import json
import pstats
import sys
import time
from pathlib import Path

from lemmacheck.model.claim import REGISTRY
from lemmacheck.project.discovery import discover
from lemmacheck.run.engine import run_claim
from lemmacheck.search.profile import QUICK

HIGH_PRECISION = ("mp_chain", "ball_chain")
#: where each is defined; the enclosure module is absent from trees before ball arithmetic
MODULES = {"mp_chain": "lemmacheck.settling.highprec", "ball_chain": "lemmacheck.settling.enclosure"}


def profiled(cid: str):
    """The claim's result, its seconds and its high-precision seconds, under cProfile."""
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    res = run_claim(REGISTRY[cid], QUICK)
    prof.disable()
    total = time.perf_counter() - t0
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    hp = sum(v[3] for k, v in stats.items() if k[2] in HIGH_PRECISION and "settling" in k[0])
    return res, total, hp


class _Clock:
    """Seconds inside the outermost high-precision evaluation (one may call another)."""

    def __init__(self):
        self.seconds, self.depth = 0.0, 0

    def around(self, evaluate):
        def timed(*args, **kwargs):
            self.depth += 1
            t0 = time.perf_counter()
            try:
                return evaluate(*args, **kwargs)
            finally:
                self.depth -= 1
                if self.depth == 0:
                    self.seconds += time.perf_counter() - t0

        return timed


def clocked():
    """A function measuring a claim as :func:`profiled` does, by a clock around each evaluation."""
    clock = _Clock()
    for name, module in MODULES.items():
        try:
            mod = importlib.import_module(module)
        except ImportError:
            continue
        setattr(mod, name, clock.around(getattr(mod, name)))  # callers look the name up in the module

    def measure(cid: str):
        clock.seconds = 0.0
        t0 = time.perf_counter()
        res = run_claim(REGISTRY[cid], QUICK)
        return res, time.perf_counter() - t0, clock.seconds

    return measure


def main(root: str, ids: list[str], out: str, *, timers: bool = False) -> None:
    measure = clocked() if timers else profiled
    discover(Path(root))
    rows = {}
    for cid in ids:
        res, total, hp = measure(cid)
        rows[cid] = {"verdict": res.verdict.value, "seconds": total, "high_precision": hp}
        print(f"{cid:42s} {res.verdict.value:10s} {total:7.2f} s, high precision {hp:6.2f} s", flush=True)
    total = sum(v["seconds"] for v in rows.values())
    hp = sum(v["high_precision"] for v in rows.values())
    how = "timers" if timers else "cProfile"
    print(f"total {total:.1f} s, high precision {hp:.2f} s ({100 * hp / total:.1f} %, {how})")
    Path(out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2].split(","), sys.argv[3], timers="--timers" in sys.argv[4:])
