r"""The norm toolbox of seed 000 §Comments item 3 and Lemma 4 of seed 001 (eq. (21)).

Seed 000 compares Schatten-1 (nuclear) norms of matrices through their entries and relates ‖·‖_{S¹} to
entrywise norms; seed 001's Lemma 4 bounds the nuclear norm of a vector-weighted sum of the slices of a
3-tensor.  Notation: ‖X‖_{ℓ1} = Σ|X_ij| and ‖X‖_max = max|X_ij| (entrywise), ‖X‖_{S^p} the Schatten norms.
"""

import math

from checks._vocab.linalg import l1, maxabs, s1
from checks._vocab.sources import S0_COMMENTS, S0_LOSS_W_S, S1_B1
from checks.norms._notation import DOMINATED, DOMINATED_ABS, DOMINATED_NONNEG, ELEMENTWISE_000, LEMMA4
from lemmacheck import Array, Scalar, Verdict, complexity, inequality, value

MN = {"m": [1, 2, 3, 4, 6], "n": [1, 2, 3, 4, 6]}
#: a matrix B and an entrywise dominating A = B + D or |B| + D (D ≥ 0)
_DOMINATED = dict(inputs={"B": Array("m", "n"), "D": Array("m", "n", positive=True)}, dims=MN)
#: one m × n matrix, for the equivalences of ‖·‖_{S¹} with entrywise norms
_ONE_MATRIX = dict(inputs={"X": Array("m", "n")}, dims=MN)


@inequality(
    "norms.s1_monotone",
    uses=("norms.s1_equiv_upper", "norms.s1_equiv_lower"),
    title="'If every element of A is bigger than B's, then ‖A‖_{S¹} ≤ ‖B‖_{S¹}' (as written)",
    source=S0_COMMENTS.at("item 3").quote(
        "I assume that if matrix A's every element is bigger than B's corresponding element, then "
        "||A||_{S^1} ≤ ||B||_{S^1}."
    ),
    statement=r"\mathbf A_{ij} \ge \mathbf B_{ij}\ \forall i,j \Rightarrow \|\mathbf A\|_{S^1} \le "
    r"\|\mathbf B\|_{S^1}",
    expected=Verdict.REFUTED,
    **_DOMINATED,
    notes="A = B + D with D ≥ 0 entrywise. As written the inequality points the wrong way (B = 0, A = any "
    "nonzero nonnegative matrix). The intended reading, domination of the entries ⇒ larger nuclear norm, "
    "is also false (norms.s1_monotone_nonneg); what is true is norms.s1_dominated_l1 and, for the "
    "Schatten-2 norm, norms.s2_monotone.",
)
def norms_s1_monotone(xp, B, D):
    return s1(xp, B + D), s1(xp, B)


@inequality(
    "norms.s1_monotone_nonneg",
    uses=("norms.s1_equiv_upper", "norms.s1_equiv_lower"),
    title="Intended reading: A ≥ B ≥ 0 entrywise ⇒ ‖B‖_{S¹} ≤ ‖A‖_{S¹} (also false)",
    source=S0_COMMENTS.at("item 3 (intended reading) and §Loss Bound w.r.t. W, item 3.3").quote(
        "so we can approximately think that a matrix whose elements are all greater than other one "
        "has a greater Schatten-1 norm"
    ),
    statement=r"\mathbf A \ge \mathbf B \ge 0\ \text{entrywise} \Rightarrow \|\mathbf B\|_{S^1} \le "
    r"\|\mathbf A\|_{S^1}",
    expected=Verdict.REFUTED,
    inputs={
        "B": Array("m", "n", low=0.0, high=1.0),
        "D": Array("m", "n", low=0.0, high=1.0),
        "lam": Scalar(0.0, 1.0),
    },
    dims={"m": [2, 3, 4], "n": [2, 3, 4]},
    notes="A = B + λD + (1 − λ)(J − B) with B, D ∈ [0, 1] entrywise and J the all-ones matrix, so A ≥ B ≥ "
    "0 (λ = 0 gives A = J). Smallest counterexample: B = [[1, 0], [1, 1]] ≤ A = J₂ entrywise, yet ‖B‖_{S¹} "
    "= √5 ≈ 2.236 > 2 = ‖J₂‖_{S¹}; likewise the 3 × 3 circulant [[1,1,0],[0,1,1],[1,0,1]] (‖·‖_{S¹} = 4) ≤ "
    "J₃ (3). Entrywise domination controls the Frobenius norm and (for nonnegative matrices) the spectral "
    "norm, not the nuclear norm. This is the step seed 000 uses to bound ‖M‖_{S¹} in §Loss Bound w.r.t. W "
    "(that section is catalogued elsewhere).",
)
def norms_s1_monotone_nonneg(xp, B, D, lam):
    lam = lam[..., None, None]
    A = B + lam * D + (1 - lam) * (1 - B)
    return s1(xp, B), s1(xp, A)


@inequality(
    "norms.s1_dominated_l1",
    title="What entrywise domination does give: |B| ≤ A ⇒ ‖B‖_{S¹} ≤ ‖B‖_{ℓ1} ≤ ‖A‖_{ℓ1}",
    source=S0_COMMENTS.at("item 3 (corrected)").cite(),
    statement=r"|\mathbf B_{ij}| \le \mathbf A_{ij}\ \forall i,j \Rightarrow \|\mathbf B\|_{S^1} \le "
    r"\|\mathbf B\|_{\ell_1} \le \|\mathbf A\|_{\ell_1}",
    expected=Verdict.HOLDS,
    corrects="norms.s1_monotone",
    steps_claimed=True,
    proof_not_asserted="the catalogue's own route to what entrywise domination gives (through ‖·‖_{ℓ1}); the "
    "document asserts S¹ monotonicity directly (norms.s1_monotone) with no chain",
    relations=("<=", "<="),
    labels=["triangle inequality over B = Σ B_ij e_i e_jᵀ", "entrywise domination"],
    **_DOMINATED,
    notes="A = |B| + D. Tight (ratio 1) for diagonal B with D = 0; the price is the factor up to √(mn) "
    "between ‖·‖_{ℓ1} and ‖·‖_{S¹} (norms.s1_equiv_l1).",
)
def norms_s1_dominated_l1(xp, B, D):
    return s1(xp, B), l1(xp, B), l1(xp, xp.abs(B) + D)


@inequality(
    "norms.s2_monotone",
    title="'This relation is strict if we use Schatten-2 norm': |B| ≤ A ⇒ ‖B‖_{S²} ≤ ‖A‖_{S²}",
    source=S0_COMMENTS.at("item 3").quote("This relation is strict if we use Schatten-2 norm"),
    statement=r"|\mathbf B_{ij}| \le \mathbf A_{ij}\ \forall i,j \Rightarrow \|\mathbf B\|_{S^2} \le "
    r"\|\mathbf A\|_{S^2}",
    expected=Verdict.HOLDS,
    **_DOMINATED,
    notes="'strict' read as 'rigorous': ‖X‖_{S²} is the Frobenius norm, a monotone function of |X_ij|, so "
    "the comparison the document wants is exactly true for S²; tight as D → 0.",
)
def norms_s2_monotone(xp, B, D):
    return xp.schatten_norm(B, 2), xp.schatten_norm(xp.abs(B) + D, 2)


EQUIV_QUOTE = (
    "Schatten-1 norm and element-wise 1-norm are equivalent. ( 1/sqrt(mn) ||X||_∞ ≤ ||X||_{S^1} ≤ ||X||_∞ "
    "for matrix X of size n × m)"
)


@inequality(
    "norms.s1_equiv_upper",
    title="Norm equivalence as written, upper half: ‖X‖_{S¹} ≤ ‖X‖∞ with ‖·‖∞ the entrywise max",
    source=S0_COMMENTS.at("item 3").quote(EQUIV_QUOTE),
    statement=r"\|\mathbf X\|_{S^1} \le \|\mathbf X\|_\infty",
    expected=Verdict.REFUTED,
    **_ONE_MATRIX,
    notes="PUZZLE: the text says 'element-wise 1-norm' but typesets ‖X‖∞. Read literally (entrywise max) "
    "the upper half fails already for X = I₂ (2 > 1); read as the entrywise 1-norm both halves hold with "
    "optimal constants (norms.s1_equiv_l1). The lower half with the max-norm is norms.s1_equiv_lower.",
)
def norms_s1_equiv_upper(xp, X):
    return s1(xp, X), maxabs(xp, X)


@inequality(
    "norms.s1_equiv_lower",
    title="Norm equivalence as written, lower half: ‖X‖∞/√(mn) ≤ ‖X‖_{S¹} (entrywise max)",
    source=S0_COMMENTS.at("item 3").quote(EQUIV_QUOTE),
    statement=r"\frac{1}{\sqrt{mn}}\|\mathbf X\|_\infty \le \|\mathbf X\|_{S^1}",
    expected=Verdict.HOLDS,
    **_ONE_MATRIX,
    notes="True but loose for mn > 1: max|X_ij| ≤ σ₁(X) ≤ ‖X‖_{S¹}, so even without the 1/√(mn); the ratio "
    "reaches 1 only at m = n = 1.",
)
def norms_s1_equiv_lower(xp, X):
    m, n = X.shape[-2], X.shape[-1]
    return maxabs(xp, X) / math.sqrt(m * n), s1(xp, X)


@inequality(
    "norms.s1_equiv_l1",
    title="Norm equivalence with the entrywise 1-norm: ‖X‖_{ℓ1}/√(mn) ≤ ‖X‖_{S¹} ≤ ‖X‖_{ℓ1}",
    source=S0_COMMENTS.at("item 3 (read with the element-wise 1-norm the text names)").quote(EQUIV_QUOTE),
    statement=r"\frac{1}{\sqrt{mn}}\|\mathbf X\|_{\ell_1} \le \|\mathbf X\|_{S^1} \le \|\mathbf "
    r"X\|_{\ell_1}",
    expected=Verdict.HOLDS,
    corrects="norms.s1_equiv_upper",
    steps_claimed=True,
    proof_not_asserted="the document's pair of bounds is norms.s1_equiv_upper; this chain is our ℓ1 reading "
    "of it, with steps (via √(mn)‖X‖_F and the triangle inequality) the document does not write",
    relations=("<=", "<="),
    labels=["‖X‖_{ℓ1} ≤ √(mn)‖X‖_F ≤ √(mn)‖X‖_{S¹}", "triangle inequality over X = Σ X_ij e_i e_jᵀ"],
    **_ONE_MATRIX,
    notes="Both constants are optimal: the left is attained by the all-ones matrix (‖J‖_{ℓ1} = mn, "
    "‖J‖_{S¹} = √(mn)), the right by any matrix with one nonzero per row and column (diagonal).",
)
def norms_s1_equiv_l1(xp, X):
    m, n = X.shape[-2], X.shape[-1]
    return l1(xp, X) / math.sqrt(m * n), s1(xp, X), l1(xp, X)


# Operation counts for an n × n matrix (dense, real).  Schatten-2 = Frobenius: one multiply-add per entry and
# a
# square root.  Schatten-1 needs every singular value: Golub–Kahan bidiagonalisation (~(8/3)n³ flops, Golub &
# Van Loan §5.4.8) plus the bidiagonal QR iterations (O(n²) per sweep, ~n sweeps).
def frobenius_flops(n):
    """Flops of ‖X‖_{S²} = sqrt(Σ X_ij²) for an n × n matrix."""
    return 2 * n * n + 1


def nuclear_flops(n):
    """Flops of ‖X‖_{S¹} via the singular values (bidiagonalisation + implicit QR sweeps)."""
    return (8 * n**3) // 3 + 30 * n**2 * (1 if n < 2 else math.ceil(math.log2(n)))


value(
    "norms.s2_expensive",
    # which of the two norms is cheaper to compute, by operation count (strings: the engine compares booleans
    # through SymPy subtraction, see /tmp/engine-requests/lossbounds.md)
    computed=lambda: ["S1" if nuclear_flops(n) < frobenius_flops(n) else "S2" for n in (4, 16, 64, 256)],
    stated=["S1", "S1", "S1", "S1"],
    title="'S-2 norm is very expensive to compute … so we approximate it by using S-1 norm'",
    source=S0_COMMENTS.at("item 3").quote(
        "but S-2 norm is very expensive to compute.(It can be approximated by super power method) "
        "So, we approximate it by using S-1 norm."
    ),
    statement=r"\mathrm{cost}(\|\mathbf X\|_{S^2}) > \mathrm{cost}(\|\mathbf X\|_{S^1})\ \text{(the "
    r"cheaper norm is } S^1)",
    expected=Verdict.REFUTED,
    notes="Operation counts for n × n, n = 4, 16, 64, 256: the Schatten-2 norm is the Frobenius norm, 2n² "
    "+ 1 flops; the Schatten-1 norm needs all singular values, Θ(n³). So S² is the cheap one. PUZZLE: "
    "'approximated by super power method' fits the spectral norm S^∞ = ‖X‖₂ (power iteration), which the "
    "author may have confused with S²; the monotonicity argument needs S² (norms.s2_monotone), and for "
    "nonnegative matrices it would also hold for S^∞.",
)

complexity(
    "norms.s2_cost",
    cost=frobenius_flops,
    grid={"n": [8, 16, 32, 64, 128, 256]},
    stated={"n": 2},
    title="Computing ‖X‖_{S²} of an n × n matrix costs Θ(n²) (the Frobenius norm)",
    source=S0_COMMENTS.at("item 3 (corrected)").cite(),
    statement=r"\mathrm{cost}(\|\mathbf X\|_{S^2}) = \Theta(n^2)",
    expected=Verdict.HOLDS,
    corrects="norms.s2_expensive",
    notes="Against Θ(n³) for ‖X‖_{S¹}; see norms.s2_expensive.",
)


# ------------------------------------------------------------------------------------------- Lemma 4


def _slices(xp, T, v):
    """Σ_p v_p T_{:,:,p} and the vector of slice nuclear norms. T is stored (P, m, n): slice p = T[:, p]."""
    weighted = xp.sum(v[..., None, None] * T, axis=-3)
    return weighted, xp.schatten_norm(T, 1)


#: a 3-tensor T, stored (P, m, n), and a vector v of P weights
_LEMMA4 = dict(
    inputs={"T": Array("P", "m", "n"), "v": Array("P")},
    dims={"P": [1, 2, 3, 5], "m": [1, 2, 3, 4], "n": [1, 2, 3, 4]},
)
LEMMA4_QUOTE = (
    "||T ṽ||_{S^1} = ||Σ_p v_p T_{:,:,p}||_{S^1} ≤ Σ_p v_p ||T_{:,:,p}||_{S^1} ≤ || ||T_{:,:,*}||_{S^1} "
    "||_2 ||v||_2"
)


@inequality(
    "lemma4.bound",
    uses=("lemma4.chain",),
    title="Lemma 4: ‖T ṽ‖_{S¹} ≤ ‖(‖T_{:,:,p}‖_{S¹})_p‖₂ ‖v‖₂",
    source=S1_B1.at("Lemma 4").quote(
        "For a 3-d tensor T and a vector v, we have ||T ṽ||_{S^1} ≤ || ||T_{:::,*}||_{S^1} ||_2 ||v||_2"
    ),
    statement=r"\|\mathbf T\tilde{\mathbf v}\|_{S^1} \le \big\|\,\|\mathbf "
    r"T_{:,:,*}\|_{S^1}\big\|_2\,\|\mathbf v\|_2",
    expected=Verdict.HOLDS,
    same_as=("sens.lemma4",),
    **_LEMMA4,
    notes="T ṽ read as the mode-3 product Σ_p v_p T_{:,:,p} (eq. (21)'s first equality); 'T_{:::,*}' is a "
    "garbled T_{:,:,*}. True: triangle inequality with |v_p|, then Cauchy–Schwarz. Tight (ratio 1) when "
    "all slices are positive multiples of one matrix, T_p = v_p M.",
)
def lemma4_bound(xp, T, v):
    weighted, norms = _slices(xp, T, v)
    return s1(xp, weighted), xp.vector_norm(norms, 2) * xp.vector_norm(v, 2)


@inequality(
    "lemma4.chain",
    title="Eq. (21), the proof of Lemma 4 step by step, as written (Σ_p v_p ‖T_p‖ with signed v_p)",
    source=S1_B1.at("eq. (21)").quote(LEMMA4_QUOTE),
    statement=r"\|\mathbf T\tilde{\mathbf v}\|_{S^1} = \|\textstyle\sum_p \mathbf v_p\mathbf "
    r"T_{:,:,p}\|_{S^1} \le \sum_p \mathbf v_p\|\mathbf T_{:,:,p}\|_{S^1} \le \big\|\,\|\mathbf "
    r"T_{:,:,*}\|_{S^1}\big\|_2\|\mathbf v\|_2",
    expected=Verdict.HOLDS,
    expected_broken_step=2,
    same_as=("sens.lemma4_proof",),
    relations=("=", "<=", "<="),
    labels=[
        "definition of the mode-3 product",
        "triangle inequality, written without |v_p|",
        "Cauchy–Schwarz",
    ],
    **_LEMMA4,
    notes="End to end it is Lemma 4 (true). Step 2 fails as soon as some v_p < 0: with P = 1 and v₁ < 0 "
    "its right side is negative. The triangle inequality gives Σ_p |v_p| ‖T_p‖_{S¹} "
    "(lemma4.middle_step.corrected), after which Cauchy–Schwarz applies unchanged.",
)
def lemma4_chain(xp, T, v):
    weighted, norms = _slices(xp, T, v)
    return (
        s1(xp, xp.sum(v[..., None, None] * T, axis=-3)),
        s1(xp, weighted),
        xp.sum(v * norms, axis=-1),
        xp.vector_norm(norms, 2) * xp.vector_norm(v, 2),
    )


@inequality(
    "lemma4.middle_step",
    title="The middle step of eq. (21) on its own: ‖Σ_p v_p T_p‖_{S¹} ≤ Σ_p v_p ‖T_p‖_{S¹}",
    source=S1_B1.at("eq. (21), middle inequality").quote(LEMMA4_QUOTE),
    statement=r"\|\textstyle\sum_p \mathbf v_p\mathbf T_{:,:,p}\|_{S^1} \le \sum_p \mathbf v_p\|\mathbf "
    r"T_{:,:,p}\|_{S^1}",
    expected=Verdict.REFUTED,
    **_LEMMA4,
    notes="v_p may be negative: P = 1, v₁ = −1, T₁ ≠ 0 gives ‖T₁‖ ≤ −‖T₁‖.",
)
def lemma4_middle_step(xp, T, v):
    weighted, norms = _slices(xp, T, v)
    return s1(xp, weighted), xp.sum(v * norms, axis=-1)


@inequality(
    "lemma4.middle_step.corrected",
    title="Middle step of eq. (21) corrected: ‖Σ_p v_p T_p‖_{S¹} ≤ Σ_p |v_p| ‖T_p‖_{S¹}",
    source=S1_B1.at("eq. (21), middle inequality (corrected)").cite(),
    statement=r"\|\textstyle\sum_p \mathbf v_p\mathbf T_{:,:,p}\|_{S^1} \le \sum_p |\mathbf "
    r"v_p|\,\|\mathbf T_{:,:,p}\|_{S^1}",
    expected=Verdict.HOLDS,
    corrects="lemma4.middle_step",
    **_LEMMA4,
    notes="Triangle inequality and homogeneity of ‖·‖_{S¹}; tight when the slices are aligned (T_p = "
    "sign(v_p) M).",
)
def lemma4_middle_step_corrected(xp, T, v):
    weighted, norms = _slices(xp, T, v)
    return s1(xp, weighted), xp.sum(xp.abs(v) * norms, axis=-1)


@inequality(
    "norms.equiv_w000",
    title="Norm equivalence in §Loss Bound w.r.t. W as typeset: ‖M‖/H ≤ ‖M‖_{S∞} ≤ ‖M‖ (‖·‖ the entrywise "
    "1-norm; both halves)",
    source=S0_LOSS_W_S.at("item 3.3.3").quote(
        "Note that Schatten-1 norm and element-wise-1 norm are equivalent, 1/H ||M|| ≤ ||M||_{S^∞} ≤ ||M||"
    ),
    statement=r"\frac1H\|\mathbf M\| \le \|\mathbf M\|_{S^\infty} \le \|\mathbf M\|",
    expected=Verdict.REFUTED,
    inputs={"M": Array("H", "H")},
    dims={"H": [1, 2, 3, 4, 6]},
    relations=("<=", "<="),
    labels=("lower half: ‖M‖_{ℓ1}/H ≤ ‖M‖_{S∞}", "upper half: ‖M‖_{S∞} ≤ ‖M‖_{ℓ1}"),
    steps_claimed=True,
    expected_broken_step=1,
    notes="PUZZLE: the sentence names the Schatten-1 norm but the formula has S^∞; ‖M‖ (no index) is read "
    "as the entrywise 1-norm the sentence names (M is H × H). As typeset the lower half fails: a Hadamard "
    "matrix M = [[1, 1], [1, −1]] has ‖M‖_{ℓ1}/2 = 2 > √2 = ‖M‖_{S∞} (in general ‖M‖_{ℓ1} ≤ "
    "H^{3/2}‖M‖_{S∞} only). The upper half ‖M‖_{S∞} ≤ ‖M‖_{ℓ1} is true (also norms.equiv_w000_upper). "
    "The statement is both halves, so the check is the whole chain (steps_claimed): broken at step 1, the "
    "lower half; it used to check the lower half alone, and a false upper half would have gone unseen. "
    "With S¹, as the sentence says, both halves hold: norms.s1_equiv_l1 with m = n = H. Recorded here "
    "because it is a norm-equivalence statement of seed 000 (the W section itself belongs to another "
    "catalogue file).",
)
def norms_equiv_w000(xp, M):
    H = M.shape[-1]
    entrywise = l1(xp, M)
    return entrywise / H, xp.schatten_norm(M, math.inf), entrywise


#: the notation of each statement as its passage defines it (item 3.3.3's unindexed norm, the dominating
#: matrix A as each claim samples it, Lemma 4's tensor in the document's layout)
claim_symbols = {
    "norms.equiv_w000": ELEMENTWISE_000,
    "norms.s1_monotone": DOMINATED,
    "norms.s1_monotone_nonneg": DOMINATED_NONNEG,
    "norms.s1_dominated_l1": DOMINATED_ABS,
    "norms.s2_monotone": DOMINATED_ABS,
    **dict.fromkeys(
        ("lemma4.bound", "lemma4.chain", "lemma4.middle_step", "lemma4.middle_step.corrected"),
        LEMMA4,
    ),
}
