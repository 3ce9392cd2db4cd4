"""What a claim costs against its floor: the same mathematics written by hand (issue 35 §3).

The floor of a claim is what its evidence needs at the least: bare NumPy evaluating as many instances as
the claim's sweep did (``evidence["instances"]``, spread evenly over its dims grid, drawn from the same
ranges), plus bare Hypothesis drawing as many examples (``evidence["hypothesis_examples"]``) and
evaluating each, no target phase, no shrinking, no database.  The three floors below are written by hand,
without the content or the engine, and each is first checked to compute the same sides as the claim's
own check on the same inputs (so the floor is the claim's mathematics, not something cheaper).

Each round runs the claim and then the floor (``run_claim``, one process, the quick profile), so both see
the same load; the figure is the ratio of their medians, in ``extra_info["overhead"]`` and printed.  Both are
timed in CPU (``time.process_time``), after one untimed warm-up round (a claim's first run in a process pays
for its imports and strategies' validation, 3-4x a later run), each part from a collected heap: a part that
starts with the other's garbage pays for its collection, which made ``schatten.hadamard``'s figure 1.2x or
3.8x depending on which part a gen-2 collection fell in, from one tree to the next.
Compare it between trees; never against a fixed number.  Run with
``python -m pytest benchmarks/test_floor_overhead.py --benchmark-enable --benchmark-only -n 0 -s`` (and
without ``--benchmark-only`` for the check that each floor computes what its claim computes).  At load
12-16 on the 2-core machine (df1a273 + the §2 change): schatten.hadamard 2.34x, schatten.holder 3.17x,
sens.u_remainder_000 1.50x.
"""

from __future__ import annotations

import gc
import itertools
import math
import statistics
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from lemmacheck.model.claim import REGISTRY
from lemmacheck.project.discovery import discover
from lemmacheck.run.engine import run_claim
from lemmacheck.search.profile import QUICK
from lemmacheck.search.relations import evaluate_chain
from lemmacheck.xp import numpy_xp

ROUNDS = 5
PROFILE = QUICK.with_seed(7)
discover()


# --------------------------------------------------------------------------- the mathematics, by hand


def schatten(M: np.ndarray, p: float) -> np.ndarray:
    s = np.linalg.svd(M, compute_uv=False)
    if p == math.inf:
        return s[..., 0]
    return np.sum(s**p, axis=-1) ** (1.0 / p)


def hadamard(x, y, **_):
    """‖x ⊙ y‖₂ ≤ ‖x‖∞‖y‖₂"""
    return np.linalg.norm(x * y, axis=-1), np.max(np.abs(x), axis=-1) * np.linalg.norm(y, axis=-1)


def holder(A, B, p, q, **_):
    """‖AB‖_{S^r} ≤ ‖A‖_{S^q}‖B‖_{S^p}, 1/r = 1/p + 1/q"""
    inv = 1.0 / p + 1.0 / q
    r = math.inf if inv == 0 else 1.0 / inv
    return schatten(A @ B, r), schatten(A, q) * schatten(B, p)


_ACT = {
    "tanh": (np.tanh, lambda z: 1.0 - np.tanh(z) ** 2),
    "sigmoid": (lambda z: 1.0 / (1.0 + np.exp(-z)), lambda z: np.exp(-z) / (1.0 + np.exp(-z)) ** 2),
    "softplus": (lambda z: np.logaddexp(0.0, z), lambda z: 1.0 / (1.0 + np.exp(-z))),
}
_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(16)
#: 4 panels of 16 Gauss–Legendre nodes on [0, 1]
GL_NODES = np.concatenate([(k + (_NODES + 1) / 2) / 4 for k in range(4)])
GL_WEIGHTS = np.tile(_WEIGHTS / 8, 4)


def _forward(U, W, s0, X, act):
    sigma = _ACT[act][0]
    s, pre = s0, []
    for t in range(X.shape[-2]):
        z = np.einsum("...ij,...j->...i", U, X[..., t, :]) + np.einsum("...ij,...j->...i", W, s)
        pre.append(z)
        s = sigma(z)
    return pre, s


def _grad_vs_U(U, W, s0, X, v, act):
    """∇_U v·s_T by backpropagation through time."""
    d1 = _ACT[act][1]
    pre, _ = _forward(U, W, s0, X, act)
    delta = v * d1(pre[-1])
    G = np.zeros_like(U)
    for t in range(len(pre) - 1, -1, -1):
        G = G + delta[..., :, None] * X[..., t, None, :]
        if t:
            delta = np.einsum("...ji,...j->...i", W, delta) * d1(pre[t - 1])
    return G


def u_remainder(U, W, s0, X, v, D, act, **_):
    """r = v·(s_T(U + D) − s_T(U)) − ⟨G(U), D⟩ = ∫⟨G(U + τD) − G(U), D⟩dτ
    ≤ ‖D‖_{S∞}‖∫G(U + τD) − G(U)dτ‖_{S¹}, G = ∇_U v·s_T, the integral by 4×16-point Gauss–Legendre"""
    G0 = _grad_vs_U(U, W, s0, X, v, act)
    n = len(GL_NODES)
    # every node's point in one stacked pass
    stacked = [np.broadcast_to(a, (n,) + a.shape) for a in (W, s0, X, v)]
    Gs = _grad_vs_U(U + GL_NODES[:, None, None, None] * D, *stacked, act)
    integral = np.einsum("k,k...->...", GL_WEIGHTS, Gs - G0)
    r = np.sum(v * (_forward(U + D, W, s0, X, act)[1] - _forward(U, W, s0, X, act)[1]), axis=-1)
    r = r - np.sum(G0 * D, axis=(-2, -1))
    pairing = np.sum(integral * D, axis=(-2, -1))
    return r, pairing, schatten(D, math.inf) * schatten(integral, 1)


# --------------------------------------------------------------------------- what each claim draws


def _uniform(low, high):
    def draw(rng, shape):
        return rng.uniform(low, high, shape)

    draw.bounds = (low, high)  # type: ignore[attr-defined]  (what Hypothesis draws from)
    return draw


def _scaled(rng, shape):  # Gaussian entries, magnitude log-uniform in [1e-3, 1e1] per instance
    return rng.standard_normal(shape) * 10.0 ** rng.uniform(-3, 1, shape[:1] + (1,) * (len(shape) - 1))


_scaled.bounds = (-10.0, 10.0)  # type: ignore[attr-defined]


FLOORS = {
    "schatten.hadamard": (
        hadamard,
        lambda d: {"x": ((d["n"],), _scaled), "y": ((d["n"],), _scaled)},
    ),
    "schatten.holder": (
        holder,
        lambda d: {"A": ((d["m"], d["k"]), _scaled), "B": ((d["k"], d["n"]), _scaled)},
    ),
    "sens.u_remainder_000": (
        u_remainder,
        lambda d: {
            "U": ((d["H"], 2), _uniform(-2.0, 2.0)),
            "W": ((d["H"], d["H"]), _uniform(-1.2, 1.2)),
            "s0": ((d["H"],), _uniform(-1.0, 1.0)),
            "X": ((d["T"], 2), _uniform(-2.0, 2.0)),
            "v": ((d["H"],), _uniform(-2.0, 2.0)),
            "D": ((d["H"], 2), _uniform(-0.15, 0.15)),
        },
    ),
}


def _grid(claim_id: str) -> list[dict]:
    dims = REGISTRY[claim_id].check.dims
    return [dict(zip(dims, values, strict=True)) for values in itertools.product(*dims.values())]


def _draw(claim_id: str, rng, batch: int, d: dict) -> dict:
    return {name: draw(rng, (batch, *shape)) for name, (shape, draw) in FLOORS[claim_id][1](d).items()}


def numpy_floor(claim_id: str, instances: int) -> int:
    """Evaluate ``instances`` instances spread evenly over the dims grid; return how many."""
    fn, _ = FLOORS[claim_id]
    grid, rng, done = _grid(claim_id), np.random.default_rng(0), 0
    for i, d in enumerate(grid):
        batch = instances // len(grid) + (i < instances % len(grid))
        if batch:
            lhs, *rest = fn(**_draw(claim_id, rng, batch, d), **d)
            assert np.all(np.isfinite(lhs))
            done += batch
    return done


def hypothesis_floor(claim_id: str, examples: int) -> int:
    """Bare Hypothesis: ``examples`` draws of a dims combination and its inputs, each evaluated."""
    fn, spec = FLOORS[claim_id]
    grid, seen = _grid(claim_id), []

    @st.composite
    def instance(draw):
        d = draw(st.sampled_from(grid))
        values = {
            name: draw(arrays(np.float64, (1, *shape), elements=st.floats(*how.bounds)))
            for name, (shape, how) in spec(d).items()
        }
        return values, d

    @settings(
        max_examples=examples,
        database=None,
        derandomize=True,
        phases=[Phase.generate],
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(instance())
    def search(case):
        values, d = case
        with np.errstate(
            all="ignore"
        ):  # as the engine evaluates: a non-finite value is a finding, not a crash
            fn(**values, **d)
        seen.append(1)

    search()
    return len(seen)


# --------------------------------------------------------------------------- the benchmark


@pytest.mark.parametrize("claim_id", list(FLOORS))
def test_the_floor_computes_what_the_check_computes(claim_id):
    """Not a timing: the hand-written floor is the claim's mathematics (the same sides on the same inputs)."""
    check = REGISTRY[claim_id].check
    rng = np.random.default_rng(1)
    for d in _grid(claim_id)[:: max(1, len(_grid(claim_id)) // 12)]:
        inputs = _draw(claim_id, rng, 8, d)
        mine = FLOORS[claim_id][0](**inputs, **d)
        theirs = evaluate_chain(claim_id, check, numpy_xp, inputs, d, 8)
        for k, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            # the floor is the same arithmetic in another order: agreement to rounding, not to a slack
            assert np.allclose(a, b, rtol=1e-9, atol=1e-12), f"{claim_id} side {k} at {d}: {a} != {b}"


@pytest.mark.parametrize("claim_id", list(FLOORS))
def test_claim_cost_against_its_floor(benchmark, claim_id):
    claim = REGISTRY[claim_id]
    floor_s, claim_s = [], []
    evidence: dict = {}

    def one_round():
        gc.collect()
        t0 = time.process_time()
        result = run_claim(claim, PROFILE)
        claim_s.append(time.process_time() - t0)
        evidence.update(result.evidence)
        gc.collect()
        t0 = time.process_time()
        numpy_floor(claim_id, evidence["instances"])
        hypothesis_floor(claim_id, evidence["hypothesis_examples"])
        floor_s.append(time.process_time() - t0)

    benchmark.pedantic(one_round, rounds=ROUNDS, iterations=1, warmup_rounds=1)
    del claim_s[:-ROUNDS], floor_s[:-ROUNDS]  # the warm-up round's figures
    ratio = statistics.median(claim_s) / statistics.median(floor_s)
    benchmark.extra_info.update(
        overhead=ratio,
        claim_seconds=claim_s,
        floor_seconds=floor_s,
        instances=evidence["instances"],
        hypothesis_examples=evidence["hypothesis_examples"],
    )
    print(
        f"\n{claim_id}: the claim costs {ratio:.2f}x its floor (medians of {ROUNDS} rounds: claim "
        f"{statistics.median(claim_s):.2f} s, floor {statistics.median(floor_s):.2f} s for "
        f"{evidence['instances']} instances and {evidence['hypothesis_examples']} examples)"
    )
