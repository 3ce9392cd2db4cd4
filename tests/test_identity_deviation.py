"""An identity's max_relative_deviation is taken over the instances that hold (issue 32 §5): 67 identities
reported 1.0 from float64 candidates that settling rejected as rounding."""

from __future__ import annotations

from conftest import planted_meta
from lemmacheck import Tolerance, Verdict, identity
from lemmacheck.model.inputs import Array, Scalar
from lemmacheck.run.engine import run_claim
from lemmacheck.search.profile import QUICK


def test_rounding_candidates_rejected_by_settling_leave_the_deviation_of_an_identity_that_holds(registry):
    # (a + b) - b = a cancels a in float64 when |b| >> |a|: candidates with a float64 deviation near 1,
    # every one rounding in high precision, so the identity HOLDS; its deviation must not read 1.0
    @identity(
        "planted.cancels",
        inputs={"a": Array(1, scale=(1e-9, 1e-6)), "b": Scalar(1e6, 1e9, log=True)},
        **planted_meta(Verdict.HOLDS, statement="(a + b) - b = a"),
    )
    def cancels(xp, a, b):
        return (a[..., 0] + b) - b, a[..., 0]

    r = run_claim(registry["planted.cancels"], QUICK.with_seed(3))
    ev = r.evidence
    assert r.verdict is Verdict.HOLDS, (r.verdict, r.reason)
    assert ev["settlement"]["rejected"] > 0, ev["settlement"]  # the planted rounding candidates were seen
    tol = ev["tolerance"]["rtol"]
    assert ev["max_relative_deviation"] <= tol, (ev["max_relative_deviation"], tol)


def test_where_an_absolute_floor_decides_an_identity_the_deviation_says_nothing(registry):
    # As the FD-probed identities showed it (sens.u_linking, sens.eq16_grad: 1.0): a probe that cancels to
    # ~0 passes under the override's absolute floor with a deviation up to 1, which tightness already
    # leaves out; when no instance is above the floor there is no figure, not an exact 0.
    floor = Tolerance(rtol=1e-6, atol=1e-9, reason="planted: sides below the floor")

    @identity("planted.floored", inputs={"x": Array(1)}, tol=floor, **planted_meta(Verdict.HOLDS))
    def floored(xp, x):
        return x[..., 0] * 0 + 1e-12, x[..., 0] * 0

    @identity("planted.resolved", inputs={"x": Array(1)}, tol=floor, **planted_meta(Verdict.HOLDS))
    def resolved(xp, x):
        return x[..., 0] * (1 + 1e-9) + 1e-12, x[..., 0]

    below = run_claim(registry["planted.floored"], QUICK.with_seed(3))
    above = run_claim(registry["planted.resolved"], QUICK.with_seed(3))
    assert below.verdict is Verdict.HOLDS and "max_relative_deviation" not in below.evidence, below.evidence
    assert above.verdict is Verdict.HOLDS and above.evidence["max_relative_deviation"] < 1e-6, above.evidence
