"""The high-precision share of a set of claims: seconds inside every evaluation of a check on mpmath object
arrays or balls (``mp_chain`` and ``ball_chain`` of ``lemmacheck.settling``: settling, tightness,
Hypothesis's verifications) against each claim's whole time, in process under cProfile, at the default
seed.  A script, not a benchmark test, so that it also runs on an older tree of the engine:

    PYTHONPATH=<tree>/src python benchmarks/high_precision_share.py <tree> <id,id,...> out.json
"""

import cProfile
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


def main(root: str, ids: list[str], out: str) -> None:
    discover(Path(root))
    rows = {}
    for cid in ids:
        prof = cProfile.Profile()
        t0 = time.perf_counter()
        prof.enable()
        res = run_claim(REGISTRY[cid], QUICK)
        prof.disable()
        total = time.perf_counter() - t0
        stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
        hp = sum(v[3] for k, v in stats.items() if k[2] in HIGH_PRECISION and "settling" in k[0])
        rows[cid] = {"verdict": res.verdict.value, "seconds": total, "high_precision": hp}
        print(f"{cid:42s} {res.verdict.value:10s} {total:7.2f} s, high precision {hp:6.2f} s", flush=True)
    total = sum(v["seconds"] for v in rows.values())
    hp = sum(v["high_precision"] for v in rows.values())
    print(f"total {total:.1f} s, high precision {hp:.1f} s ({100 * hp / total:.1f} %)")
    Path(out).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2].split(","), sys.argv[3])
