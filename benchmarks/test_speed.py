"""Speed, measured (never asserted as a time): instances checked per second, time to a certified refutation.

Run with ``python -m pytest benchmarks --benchmark-enable --benchmark-only``; the instances-per-second
figures are in each benchmark's ``extra_info`` (shown with ``--benchmark-json``) and printed.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from lemmacheck.model.claim import REGISTRY
from lemmacheck.model.tolerance import REVERIFY_DPS, tolerance_for
from lemmacheck.model.verdict import Verdict
from lemmacheck.project.discovery import discover
from lemmacheck.run.engine import run_claim
from lemmacheck.search.profile import QUICK
from lemmacheck.search.violations import _hypothesis, _Tracker, evaluate_chain
from lemmacheck.xp import numpy_xp

discover()
BATCH = 2048
EXAMPLES = 200


def _holder_at(n: int):
    check = REGISTRY["schatten.holder"].check
    return dataclasses.replace(check, dims={"m": [n], "k": [n], "n": [n], "p": [2], "q": [math.inf]})


@pytest.mark.parametrize("n", [4, 16])
def test_holder_vectorised_instances_per_second(benchmark, n):
    check = _holder_at(n)
    dims = {"m": n, "k": n, "n": n, "p": 2, "q": math.inf}
    rng = np.random.default_rng(0)
    inputs = {k: spec.draw(rng, BATCH, dims) for k, spec in check.inputs.items()}
    chain = benchmark(evaluate_chain, "schatten.holder", check, numpy_xp, inputs, dims, BATCH)
    assert np.all(chain[0] <= chain[1] * (1 + 1e-9))
    rate = BATCH / benchmark.stats.stats.mean
    benchmark.extra_info["instances_per_second"] = rate
    print(f"\nHölder n={n}, vectorised: {rate:,.0f} instances/s")


@pytest.mark.parametrize("n", [4, 16])
def test_holder_hypothesis_examples_per_second(benchmark, n):
    check = _holder_at(n)
    profile = dataclasses.replace(QUICK, hypothesis_examples=EXAMPLES)

    def search():
        tracker = _Tracker("schatten.holder", check, tolerance_for())
        return _hypothesis("schatten.holder", check, tracker, profile, seed=0, verify=None)

    examples = benchmark.pedantic(search, rounds=3, iterations=1)
    assert examples > 0
    rate = examples / benchmark.stats.stats.mean
    benchmark.extra_info["instances_per_second"] = rate
    print(f"\nHölder n={n}, Hypothesis per example: {rate:,.0f} instances/s")


def test_time_to_certified_minimal_counterexample_eq3(benchmark):
    """Goal (issue 11): under 1 s from the start of the claim to its certified, minimal counterexample."""
    claim = REGISTRY["lse.bound_eq3"]
    result = benchmark.pedantic(run_claim, args=(claim, QUICK.with_seed(1)), rounds=3, iterations=1)
    assert result.verdict is Verdict.REFUTED
    cex = result.evidence["counterexample"]
    assert cex["dps"] >= REVERIFY_DPS and cex["dims"] == {"n": 2}
    print(
        f"\neq. (3) as written: certified minimal counterexample {cex['inputs']} in "
        f"{benchmark.stats.stats.mean:.3f} s"
    )
