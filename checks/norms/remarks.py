"""Seed 000's norm remarks: the equivalence of §Loss Bound w.r.t. W item 3.3.3 in both readings, and the
'super power method' of Comments item 3."""

import math

from checks._vocab.linalg import l1, maxabs
from checks._vocab.sources import S0_COMMENTS, S0_LOSS_W_S
from checks.norms._notation import symbols as norms_notation
from lemmacheck import Array, Derived, Verdict, identity, inequality

_EQUIV = "Note that Schatten-1 norm and element-wise-1 norm are equivalent, 1/H ||M|| ≤ ||M||_{S^∞} ≤ ||M||"


#: one H × H matrix M
_SQUARE = dict(inputs={"M": Array("H", "H")}, dims={"H": [1, 2, 3, 5, 8]})


@inequality(
    "norms.equiv_w000_upper",
    title="Upper half of the W-section equivalence as typeset: ‖M‖_{S∞} ≤ ‖M‖ (entrywise 1-norm)",
    source=S0_LOSS_W_S.at("item 3.3.3").quote(_EQUIV),
    statement=r"\|M\|_{S^\infty} \le \|M\|_{\ell_1}",
    expected=Verdict.HOLDS,
    **_SQUARE,
    notes="σ₁(M) ≤ ‖M‖_{S¹} ≤ ‖M‖_{ℓ1}; tight (ratio 1) for a single nonzero entry. Previously only "
    "noted in "
    "norms.equiv_w000 as covered by norms.s1_equiv_l1.",
)
def equiv_w000_upper(xp, M):
    return xp.schatten_norm(M, math.inf), l1(xp, M)


@inequality(
    "norms.equiv_w000_s1",
    title="The equivalence with the Schatten-1 norm the sentence names: ‖M‖/H ≤ ‖M‖_{S¹} ≤ ‖M‖ (H × H)",
    source=S0_LOSS_W_S.at("item 3.3.3 (read with S¹, as the sentence says)").quote(_EQUIV),
    statement=r"\frac1H\|M\|_{\ell_1} \le \|M\|_{S^1} \le \|M\|_{\ell_1}",
    expected=Verdict.HOLDS,
    relations=("<=", "<="),
    labels=("‖M‖_{ℓ1}/H ≤ ‖M‖_{S¹}", "‖M‖_{S¹} ≤ ‖M‖_{ℓ1}"),
    corrects="norms.equiv_w000",
    same_as=("norms.s1_equiv_l1",),
    steps_claimed=True,
    proof_not_asserted="the document's pair of bounds is norms.equiv_w000, with S^∞ as typeset; this chain "
    "is our S¹ reading of it",
    **_SQUARE,
    notes="The typeset S^∞ makes the lower half false (norms.equiv_w000); with S¹ both halves hold, "
    "the lower "
    "one attained by the all-ones matrix (‖J‖_{ℓ1}/H = H = ‖J‖_{S¹}).",
)
def equiv_w000_s1(xp, M):
    entrywise = l1(xp, M)
    return entrywise / M.shape[-1], xp.schatten_norm(M, 1), entrywise


#: power iterations: enough for the ratio σ₂/σ₁ of the sampled matrices to die out in most instances
POWER_STEPS = 60
_POWER = (
    "but S-2 norm is very expensive to compute.(It can be approximated by super power method) So, we "
    "approximate it by using S-1 norm."
)


def _power_iterate(xp, X, v0):
    """v_k after k = POWER_STEPS steps of v ← XᵀX v/‖XᵀX v‖ from v0/‖v0‖ (a unit vector)."""
    X = X / maxabs(xp, X)[:, None, None]  # iterate on X/scale: no underflow in XᵀX; v_k is the same
    G = xp.matmul(xp.transpose(X), X)
    v = v0 / xp.vector_norm(v0, 2)[..., None]
    for _ in range(POWER_STEPS):
        w = xp.matmul(G, v[..., None])[..., 0]
        v = w / xp.vector_norm(w, 2)[..., None]
    return v


def _power_estimate(xp, X, v0):
    """‖X v_k‖: the power method's estimate of a matrix norm."""
    scale = maxabs(xp, X)
    v = _power_iterate(xp, X, v0)
    return scale * xp.vector_norm(xp.matmul(X / scale[:, None, None], v[..., None])[..., 0], 2)


def _nondegenerate(xp, X, v0, **_):
    """X ≠ 0 and a start vector that X does not annihilate (else the iteration divides by 0)."""
    Xv = xp.matmul(X, v0[..., None])[..., 0]
    return xp.vector_norm(Xv, 2) > 1e-6 * xp.vector_norm(v0, 2) * xp.schatten_norm(X, 2)


@identity(
    "norms.s2_power_method",
    title="'S-2 norm … can be approximated by super power method': the power method's value is ‖X‖_{S²}",
    source=S0_COMMENTS.at("item 3").quote(_POWER),
    statement=r"\lim_{k\to\infty}\|X v_k\|_2 = \|X\|_{S^2},\quad v_{k+1} = \frac{X^\top X "
    r"v_k}{\|X^\top X v_k\|}",
    expected=Verdict.REFUTED,
    inputs={"X": Array("m", "n"), "v0": Array("n")},
    dims={"m": [1, 2, 3], "n": [1, 2, 3]},
    where=_nondegenerate,
    notes="PUZZLE: we know no 'super power method'; read as the power method. It converges to the "
    "top singular "
    "value σ₁ = ‖X‖_{S∞} (from below), and ‖X‖_{S∞} < ‖X‖_{S²} = ‖X‖_F as soon as X has rank ≥ 2, so it "
    "does not approximate the Schatten-2 norm (which needs no approximation: it is the Frobenius norm, "
    "norms.s2_cost). The remark fits S^∞. Previously recorded only in the notes of norms.s2_expensive. "
    "Corrected: norms.power_method_spectral.",
)
def s2_power_method(xp, X, v0):
    return _power_estimate(xp, X, v0), xp.schatten_norm(X, 2)


@inequality(
    "norms.power_method_spectral",
    title="Corrected: the power method's value never exceeds ‖X‖_{S∞}, itself ≤ ‖X‖_{S²}",
    source=S0_COMMENTS.at("item 3 (corrected: the power method targets S^∞)").quote(_POWER),
    statement=r"\|X v_k\|_2 \le \|X\|_{S^\infty} \le \|X\|_{S^2}",
    expected=Verdict.HOLDS,
    relations=("<=", "<="),
    labels=("power estimate ≤ σ₁", "σ₁ ≤ ‖X‖_F"),
    corrects="norms.s2_power_method",
    steps_claimed=True,
    proof_not_asserted="the catalogue's own chain: the document says the power method approximates the S² "
    "norm (norms.s2_power_method) and gives no chain; this one bounds the estimate by σ₁ ≤ ‖X‖_F",
    inputs={"X": Array("m", "n"), "v0": Array("n")},
    dims={"m": [1, 2, 3], "n": [1, 2, 3]},
    where=_nondegenerate,
    notes="Tight (ratio 1) in the first step once the iteration has converged, and in the second "
    "for rank-1 X.",
)
def power_method_spectral(xp, X, v0):
    return _power_estimate(xp, X, v0), xp.schatten_norm(X, math.inf), xp.schatten_norm(X, 2)


#: seed 000 item 3's power method: v_k is its iterate after POWER_STEPS steps from the input v0
POWER_METHOD = norms_notation.extend(
    "checks/norms/remarks.py (POWER_METHOD)",
    {"v_k": Derived(_power_iterate, doc="the power method's k-th iterate from v0")},
)
claim_symbols = {"norms.power_method_spectral": POWER_METHOD}
