"""Speed of mutation analysis, measured (never asserted as a time): enumerating every mutant of the
catalogue, and running the mutants of one claim (seconds per mutant in ``extra_info``).

Run with ``python -m pytest benchmarks/test_mutate_speed.py --benchmark-enable --benchmark-only``.
"""

from __future__ import annotations

import pytest

from lemmacheck.model.claim import REGISTRY
from lemmacheck.mutate import OPERATORS, Settings, enumerate_mutants, run_mutation
from lemmacheck.project.discovery import discover
from lemmacheck.search.profile import QUICK

discover()


def test_enumerate_every_mutant_of_the_catalogue(benchmark):
    def enumerate_all():
        return sum(len(enumerate_mutants(c, OPERATORS)[0]) for c in REGISTRY)

    total = benchmark.pedantic(enumerate_all, rounds=1, iterations=1)
    benchmark.extra_info["mutants"] = total
    print(f"\n{total} mutants enumerated")


@pytest.mark.parametrize("claim_id", ["lse.bound", "lse.hessian_inf_bound"])
def test_mutants_of_one_claim(benchmark, claim_id):
    settings = Settings(seed=1)
    data = benchmark.pedantic(
        run_mutation, args=([REGISTRY[claim_id]], QUICK.with_seed(1), settings), rounds=1, iterations=1
    )
    benchmark.extra_info |= {
        "mutants": data["selected"],
        "seconds_per_mutant": data["seconds_per_mutant"],
        "score": data["score"],
    }
    print(
        f"\n{claim_id}: {data['selected']} mutants, {data['seconds_per_mutant']:.2f}s each, {data['counts']}"
    )
