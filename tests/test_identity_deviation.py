"""An identity's max_relative_deviation is taken over the instances that hold (issue 32 §5): 67 identities
reported 1.0 from float64 candidates that settling rejected as rounding."""

from __future__ import annotations

from conftest import planted_meta
from lemmacheck import Verdict, identity
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
