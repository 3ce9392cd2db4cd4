"""The search reaches the supremum: a sharp constant made a little too small is refuted at every seed, and
the tightness a holding bound reports does not depend on the seed (issue 32, section 1)."""

from __future__ import annotations

import pytest

from conftest import planted_meta
from lemmacheck import Verdict, inequality
from lemmacheck.model.claim import REGISTRY
from lemmacheck.model.inputs import Array
from lemmacheck.mutate.scaled import scaled_bound
from lemmacheck.project.discovery import discover
from lemmacheck.run.engine import run_claim
from lemmacheck.search.profile import QUICK
from lemmacheck.search.seed import DEFAULT_SEED

SEEDS = [1, 2, 3, 4, 5]


def _hoeffding(registry, constant: float, expected: Verdict):
    """Hoeffding's lemma for n independent two-point laws (Bernoulli(p_i), range 1): the log of the moment
    generating function of the centred sum is at most n lambda^2 / 8.  The constant 1/8 is sharp only in
    the limit p_i -> 1/2 and lambda -> 0 (the ratio is 4 p (1 - p) - O(lambda^2)); the sampling scale of
    lambda stays above 0.5 in magnitude, so that limit is never sampled."""

    @inequality(
        "planted.hoeffding_two_point",
        inputs={"p": Array("n", low=0.0, high=1.0), "lam": Array(scale=(0.5, 5.0))},
        dims={"n": [3, 5, 8]},
        **planted_meta(expected),
    )
    def hoeffding(xp, p, lam):
        t = lam[..., None]
        lhs = xp.sum(xp.log1p(p * (xp.exp(t) - 1.0)) - t * p, axis=-1)
        return lhs, constant * p.shape[-1] * lam**2 / 8

    return registry["planted.hoeffding_two_point"]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7])
def test_a_sharp_constant_made_0_08_percent_too_small_near_a_limit_is_refuted(registry, seed):
    # Before the local optimiser: HOLDS at all seven seeds, with tightness 0.993 to 0.9993.
    _assert_refuted(_hoeffding(registry, 1 - 8e-4, Verdict.REFUTED), seed)


def _assert_refuted(claim, seed: int) -> None:
    r = run_claim(claim, QUICK.with_seed(seed))
    assert r.verdict is Verdict.REFUTED, (r.verdict, r.evidence.get("tightness"), r.reason)
    cx = r.evidence["counterexample"]
    assert float(cx["lhs"]) > float(cx["rhs"])  # the high-precision sides, not float64's


def test_the_sharp_constant_itself_holds_with_the_same_tightness_at_every_seed(registry):
    claim = _hoeffding(registry, 1.0, Verdict.HOLDS)
    figures = []
    for seed in SEEDS:
        r = run_claim(claim, QUICK.with_seed(seed))
        assert r.verdict is Verdict.HOLDS, (seed, r.reason)
        figures.append(r.evidence["tightness"])
    assert min(figures) >= 0.999 and max(figures) <= 1.0, figures
    assert max(figures) - min(figures) < 1e-3, figures


def test_a_scaled_bound_tightens_the_ratio_and_keeps_the_claim_id(registry):
    claim = _hoeffding(registry, 1.0, Verdict.HOLDS)
    tighter = scaled_bound(claim, 1e-3)
    assert tighter.id == claim.id
    r = run_claim(tighter, QUICK.with_seed(1))
    assert r.verdict is Verdict.REFUTED, (r.verdict, r.evidence.get("tightness"))


@pytest.mark.parametrize("seed", SEEDS)
def test_a_limit_where_float64_is_rounding_first_is_approached_as_far_as_high_precision_agrees(seed):
    # lse.bound (eq. (2)): the constant 1/2 is sharp only as x -> 0 and dx = (a, -a) with a -> 0 (the
    # ratio is 1 - a^2/6), where the remainder is computed by cancellation and float64's ratio is rounding
    # long before the limit. Before the scan bisected towards its current point: HOLDS at seed 1
    # (tightness 0.99839), the scan's three best rows along dx -> 0 being rounding high precision rejected.
    r = run_claim(scaled_bound(REGISTRY["lse.bound"], 1e-3), QUICK.with_seed(seed))
    assert r.verdict is Verdict.REFUTED, (r.verdict, r.evidence.get("tightness"), r.reason)


def test_a_supremum_on_the_kink_of_an_infinity_norm_is_reached():
    # loss.lse_bound_hw: the bound is 1/2 ||x2 - x1||_inf^2, largest (relative to the remainder) where the
    # two entries of x2 - x1 tie in size, a kink. L-BFGS-B's line search failed there at its first step
    # (0 iterations) and the climb stayed where the tie was off by 0.45 %: before the compass search
    # (search/pattern.py), tightness 0.99554531 at seed 3 and HOLDS for the bound scaled by 1 - 1e-3.
    r = run_claim(scaled_bound(REGISTRY["loss.lse_bound_hw"], 1e-3), QUICK.with_seed(3))
    assert r.verdict is Verdict.REFUTED, (r.verdict, r.evidence.get("tightness"), r.reason)


def test_a_supremum_on_the_faces_of_a_box_of_40_entries_is_approached():
    # sens.general_bound_000 at seed 5: a box of 40-odd entries where 30 forward-difference gradients do
    # not converge. Before the compass search: tightness 0.98450 (0.9907-0.9984 at seeds 1-4).
    r = run_claim(REGISTRY["sens.general_bound_000"], QUICK.with_seed(5))
    assert r.verdict is Verdict.HOLDS and r.evidence["tightness"] > 0.999, r.evidence.get("tightness")


def _one_layer_loss(registry, constant: float, expected: Verdict):
    """The second-order bound of a cross-entropy loss through one tanh layer, z = V tanh(W x), moved along
    ΔW = step·D: E(W + ΔW) - E(W) - <∇E, ΔW> <= 1/2 ||Δz||∞² + 2 ||Δz - <∇z, ΔW>||∞ (the log-sum-exp
    bound plus <p - y, r> <= 2 ||r||∞). Its ratio tends to 1 only as the softmax saturates and the step
    balances the two terms, on the faces of a box of 49 entries at H = 4, with several local maxima."""

    @inequality(
        "planted.one_layer_loss",
        inputs={
            "V": Array(3, "H", low=-2.0, high=2.0),
            "W": Array("H", "H", low=-1.0, high=1.0),
            "x": Array("H", low=-2.0, high=2.0),
            "D": Array("H", "H", low=-1.0, high=1.0),
            "step": Array(scale=(1e-3, 2.0)),
        },
        dims={"H": [2, 4]},
        **planted_meta(expected),
    )
    def one_layer_loss(xp, V, W, x, D, step):
        def logits(w):
            return xp.einsum("bij,bj->bi", V, xp.tanh(xp.einsum("bij,bj->bi", w, x)))

        def loss(z):  # cross-entropy with the label 0
            return xp.log(xp.sum(xp.exp(z), axis=-1)) - z[..., 0]

        dW = D * step[:, None, None]
        z0, z1 = logits(W), logits(W + dW)
        s = xp.tanh(xp.einsum("bij,bj->bi", W, x))
        first = xp.einsum("bij,bj->bi", V, (1 - s * s) * xp.einsum("bij,bj->bi", dW, x))
        residual = xp.softmax(z0, axis=-1) - xp.asarray([1.0, 0.0, 0.0])
        lhs = loss(z1) - loss(z0) - xp.sum(residual * first, axis=-1)
        dz = z1 - z0
        rhs = 0.5 * xp.max(xp.abs(dz), axis=-1) ** 2 + 2 * xp.max(xp.abs(dz - first), axis=-1)
        return lhs, constant * rhs

    return registry["planted.one_layer_loss"]


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6, 7])
def test_a_bound_false_by_1e_3_at_a_supremum_among_local_maxima_on_a_box_is_refuted(registry, seed):
    # Before the hops of the compass search (search/hop.py): HOLDS at seeds 1 and 3 (tightness 0.99953 and
    # 0.99930), the strongest start's compass search stopping on a lower local maximum.
    _assert_refuted(_one_layer_loss(registry, 1 - 1e-3, Verdict.REFUTED), seed)


def test_the_sound_one_layer_bound_holds_near_its_supremum_where_the_climb_plateaued(registry):
    # The same bound with its constant: true (so the refutations above are at the supremum), and at seed 3
    # the search now reaches it; before the hops, tightness 0.99853 (0.99864 at seed 1).
    r = run_claim(_one_layer_loss(registry, 1.0, Verdict.HOLDS), QUICK.with_seed(3))
    assert r.verdict is Verdict.HOLDS and r.evidence["tightness"] > 0.999, (
        r.verdict,
        r.evidence.get("tightness"),
    )


@pytest.mark.parametrize("claim_id, seed", [("lemma1.bound_hw.max_entry", 2), ("lemma1.bound", 4)])
def test_rounding_at_1e200_does_not_crowd_out_the_instances_that_reach_the_supremum(claim_id, seed):
    # Before the far instances had a record of their own: tightness 0.74 and 0.82. The float-range share
    # drew instances at 1e100-1e280 whose sides cancel to the same rounding (float64 ratio exactly 1,
    # settled ratio 0); they filled all 16 witnesses, were the optimiser's starts, and its climbs' own
    # rounding displaced what it confirmed.
    r = run_claim(REGISTRY[claim_id], QUICK.with_seed(seed))
    assert r.verdict is Verdict.HOLDS and r.evidence["tightness"] > 0.9999, r.evidence.get("tightness")


# --------------------------------------------------------------------------- the catalogue

discover()
INEQUALITIES = sorted(
    c.id
    for c in REGISTRY
    if c.expected is Verdict.HOLDS
    and getattr(c.check, "relations", None)
    and not getattr(c.check, "is_property", True)
    and set(c.check.relations) - {"=", "~"}
)


# Known failures of the goal, as measured on the search branch (tightness by seed 1-5): data with the
# figures, not a skip. strict: the day the search reaches them, the test says so and the entry goes.
SUPREMUM_NOT_REACHED_AT_EVERY_SEED: dict[str, str] = {}


@pytest.mark.slow
@pytest.mark.parametrize(
    "claim_id",
    [
        pytest.param(
            cid,
            marks=pytest.mark.xfail(
                strict=True,
                reason=f"the optimiser misses the supremum: {SUPREMUM_NOT_REACHED_AT_EVERY_SEED[cid]}",
            ),
        )
        if cid in SUPREMUM_NOT_REACHED_AT_EVERY_SEED
        else cid
        for cid in INEQUALITIES
    ],
)
def test_every_holding_bound_reaches_its_supremum_at_every_seed(claim_id):
    """A bound whose tightness at the default seed is >= 0.999, scaled by 1 - 1e-3, is refuted at each of
    seeds 1-5; and the tightness of every holding bound varies by less than 1e-3 over those seeds."""
    claim = REGISTRY[claim_id]
    base = run_claim(claim, QUICK.with_seed(DEFAULT_SEED))
    if base.verdict is not Verdict.HOLDS or base.evidence.get("tightness") is None:
        pytest.skip(f"{claim_id}: {base.verdict.name}, no tightness figure to reach")
    figures = {s: run_claim(claim, QUICK.with_seed(s)).evidence.get("tightness") for s in SEEDS}
    known = [f for f in figures.values() if f is not None]
    assert known and max(known) - min(known) < 1e-3, f"tightness by seed: {figures}"
    # A supremum of exactly 1 - 1e-3 (vanish.s003.not_met_no_explosion: the constant 0.999 is the claim's
    # own) scaled by 1 - 1e-3 is attained with equality, not exceeded: only a figure above it can refute.
    if base.evidence["tightness"] > 0.999 * (1 + 1e-9):
        tighter = scaled_bound(claim, 1e-3)
        verdicts = {s: run_claim(tighter, QUICK.with_seed(s)).verdict.name for s in SEEDS}
        assert set(verdicts.values()) == {"REFUTED"}, (
            f"the bound scaled by 1 - 1e-3 (tightness {base.evidence['tightness']!r} at the default seed) "
            f"by seed: {verdicts}; tightness by seed {figures}"
        )
