"""The ball path against the mpmath path on the same candidates: same decisions, time ratio (issue 22 §4).

``sens.u_remainder_000`` is the slowest claim: each high-precision evaluation of its check is a 64-node
Gauss–Legendre quadrature of the sensitivity recursion (64 forward passes).  The candidates are drawn once,
at its largest quick dims (H = 3, T = 4) for two activations, and each relation step of the chain is
settled on both routes.  Run with ``python -m pytest benchmarks/test_ball_speed.py --benchmark-enable -s``;
the ratio is printed and kept in ``extra_info`` (never asserted as a time).
"""

from __future__ import annotations

import time

import numpy as np

from lemmacheck.model.claim import REGISTRY
from lemmacheck.project.discovery import discover
from lemmacheck.search.candidates import Instance
from lemmacheck.settling.highprec import reverify, reverify_mpmath

discover()
CLAIM = "sens.u_remainder_000"
STEPS = ((1, "="), (2, "<="))
ACTIVATIONS = ("tanh", "softplus")  # one candidate each: the mpmath side takes ~5 s a settlement idle


def _candidates() -> list[Instance]:
    check = REGISTRY[CLAIM].check
    rng = np.random.default_rng(20261126)
    out = []
    for act in ACTIVATIONS:
        dims = {"H": 3, "T": 4, "act": act}
        out.append(Instance(dims=dims, inputs={k: s.draw(rng, 1, dims) for k, s in check.inputs.items()}))
    return out


def _settle_all(route, claim, cands) -> list[tuple[bool, bool]]:
    return [
        (c.confirmed, c.undecided)
        for inst in cands
        for step, rel in STEPS
        for c in [route(claim.id, claim.check, inst, step, rel, claim.tol)]
    ]


def test_ball_path_against_mpmath_path_on_the_same_candidates(benchmark):
    claim, cands = REGISTRY[CLAIM], _candidates()
    start = time.perf_counter()
    by_mpmath = _settle_all(reverify_mpmath, claim, cands)
    mpmath_seconds = time.perf_counter() - start
    by_balls = benchmark.pedantic(_settle_all, args=(reverify, claim, cands), rounds=1, iterations=1)
    ball_seconds = benchmark.stats.stats.mean
    assert by_balls == by_mpmath  # the same decision for every candidate and step
    routes = {reverify(claim.id, claim.check, cands[0], 1, "=", claim.tol).route}
    assert routes == {"enclosure"}
    ratio = mpmath_seconds / ball_seconds
    benchmark.extra_info.update(mpmath_seconds=mpmath_seconds, ball_seconds=ball_seconds, ratio=ratio)
    times = f"mpmath {mpmath_seconds:.1f} s, balls {ball_seconds:.1f} s, {ratio:.2f}×"
    print(f"\n{CLAIM}, {len(by_balls)} settlements: {times}")
