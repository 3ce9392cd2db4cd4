r"""The Schatten-norm toolbox of seed 001 §B, eq. (8)–(11).

:math:`\|M\|_{S^p} = \big(\sum_i \sigma_i(M)^p\big)^{1/p}`, :math:`\|M\|_{S^\infty} = \sigma_1(M)`.
"""

import math

from checks._vocab.sources import S1_B
from checks.norms._notation import ANY_MATRIX_EQ9, HOLDER, VECTOR_EQ9
from lemmacheck import Array, Verdict, identity, inequality

EXPONENTS = [1, 2, 4, math.inf]


def holder_exponent(p, q):
    """r with 1/r = 1/p + 1/q (p, q in [1, ∞])."""
    inv = 1.0 / p + 1.0 / q
    return math.inf if inv == 0 else 1.0 / inv


@inequality(
    "schatten.holder_eq8",
    title="Eq. (8) as written: ‖M‖_{S^r} ≤ ‖M‖_{S^q}‖M‖_{S^p} for one matrix M",
    source=S1_B.at("eq. (8)").quote(
        "if q^{-1} + p^{-1} = r^{-1} and p, q ∈ [1, +∞], then ||M||_{S^r} ≤ ||M||_{S^q} ||M||_{S^p}"
    ),
    statement=r"q^{-1}+p^{-1}=r^{-1},\ p,q\in[1,+\infty] \Rightarrow \|\mathbf{M}\|_{S^r} \le "
    r"\|\mathbf{M}\|_{S^q}\|\mathbf{M}\|_{S^p}",
    expected=Verdict.REFUTED,
    inputs={"M": Array("m", "n", scale=(1e-3, 1e1))},
    dims={"m": [1, 2, 3, 5], "n": [1, 2, 3, 5], "p": EXPONENTS, "q": EXPONENTS},
    notes="The same M on both sides makes the right side quadratic in M and the left linear: any M with "
    "small singular values refutes it (M = εI). The cited Hölder inequality (Bernstein §9.3) is for a "
    "product, ‖AB‖_{S^r} ≤ ‖A‖_{S^q}‖B‖_{S^p}; see schatten.holder.",
)
def schatten_holder_eq8(xp, M, p, q):
    r = holder_exponent(p, q)
    return xp.schatten_norm(M, r), xp.schatten_norm(M, q) * xp.schatten_norm(M, p)


@inequality(
    "schatten.holder",
    title="Schatten–Hölder inequality for a product (eq. (8) corrected)",
    source=S1_B.at("eq. (8) (corrected, as in Bernstein 2009 §9.3)").cite(),
    statement=r"q^{-1}+p^{-1}=r^{-1},\ p,q\in[1,+\infty] \Rightarrow \|\mathbf{A}\mathbf{B}\|_{S^r} \le "
    r"\|\mathbf{A}\|_{S^q}\|\mathbf{B}\|_{S^p}",
    expected=Verdict.HOLDS,
    corrects="schatten.holder_eq8",
    inputs={"A": Array("m", "k", scale=(1e-3, 1e1)), "B": Array("k", "n", scale=(1e-3, 1e1))},
    dims={"m": [1, 2, 3, 5], "k": [1, 2, 4], "n": [1, 2, 3, 5], "p": EXPONENTS, "q": EXPONENTS},
    notes="For r < 1 (p = q = 1 gives r = ½) the left side is a quasi-norm; the inequality still holds.",
)
def schatten_holder(xp, A, B, p, q):
    r = holder_exponent(p, q)
    return xp.schatten_norm(A @ B, r), xp.schatten_norm(A, q) * xp.schatten_norm(B, p)


@identity(
    "schatten.vector",
    title="Eq. (9): every Schatten norm of a vector is its Euclidean norm",
    source=S1_B.at("eq. (9)").quote("if v is a vector, then ||r||_{S^p} = ||r||_2 ∀p ∈ [1, +∞]"),
    statement=r"\mathbf{v}\ \text{a vector} \Rightarrow \|\mathbf{r}\|_{S^p} = \|\mathbf{r}\|_2\ \forall "
    r"p\in[1,+\infty]",
    expected=Verdict.PROVED,
    same_as=("schatten.vector.r_as_written",),
    inputs={"v": Array("n", 1)},
    dims={"n": [1, 2, 3, 8, 16], "p": [1, 1.5, 2, 3, math.inf]},
    notes="The hypothesis names v and the conclusion r, read here as a slip of the letter (the reading "
    "with r as written is schatten.vector.r_as_written). A column vector has one "
    "singular value, ‖v‖₂, so every Schatten norm equals it; checked for column vectors.",
)
def schatten_vector(xp, v, p):
    return xp.schatten_norm(v, p), xp.vector_norm(v[..., 0], 2)


@identity(
    "schatten.vector.r_as_written",
    title="Eq. (9) with its letters as written: the hypothesis is on v, the conclusion on r, which nothing "
    "makes a vector",
    source=S1_B.at("eq. (9) (r read as written, a matrix the hypothesis says nothing about)").quote(
        "if v is a vector, then ||r||_{S^p} = ||r||_2 ∀p ∈ [1, +∞]"
    ),
    statement=r"\|\mathbf{r}\|_{S^p} = \|\mathbf{r}\|_2\ \forall p\in[1,+\infty],\ \mathbf{r}\ "
    r"\text{any matrix}",
    expected=Verdict.REFUTED,
    same_as=("schatten.vector",),
    inputs={"r": Array("m", "n")},
    dims={"m": [1, 2, 3], "n": [1, 2, 3], "p": [1, 2, math.inf]},
    notes="The second reading of eq. (9): schatten.vector reads r as the vector v (a slip of the letter). "
    "Read as written, the hypothesis constrains v and the conclusion is about r; for a matrix r with two "
    "nonzero singular values ‖r‖_{S^p} depends on p, so it cannot equal ‖r‖₂ (here the Euclidean norm of "
    "its entries, ‖r‖_{S²}) for every p.",
)
def schatten_vector_r_as_written(xp, r, p):
    return xp.schatten_norm(r, p), xp.sqrt(xp.sum(r * r, axis=(-2, -1)))


@inequality(
    "schatten.trace_duality",
    title="Eq. (10): trace duality tr(M₁M₂) ≤ ‖M₁‖_{S¹}‖M₂‖_{S^∞}",
    source=S1_B.at("eq. (10)").quote("tr(M1 M2) ≤ ||M1||_{S^1} ||M2||_{S^∞}"),
    statement=r"\mathrm{tr}(\mathbf{M}_1\mathbf{M}_2) \le \|\mathbf{M}_1\|_{S^1}\|\mathbf{M}_2\|_{S^\infty}",
    expected=Verdict.HOLDS,
    inputs={"M1": Array("m", "n", scale=(1e-2, 1e1)), "M2": Array("n", "m", scale=(1e-2, 1e1))},
    dims={"m": [1, 2, 3, 5, 8], "n": [1, 2, 3, 5, 8]},
    notes="Von Neumann's trace inequality; attained by M₂ = V Uᵀ from the SVD M₁ = U Σ Vᵀ, so tightness → 1.",
)
def schatten_trace_duality(xp, M1, M2):
    return xp.trace(M1 @ M2), xp.schatten_norm(M1, 1) * xp.schatten_norm(M2, math.inf)


@inequality(
    "schatten.hadamard",
    title="Eq. (11): ‖x ⊙ y‖₂ ≤ ‖x‖∞‖y‖₂",
    source=S1_B.at("eq. (11)").quote("||x ⊙ y||_2 ≤ ||x||_∞ ||y||_2"),
    statement=r"\|\mathbf{x}\odot\mathbf{y}\|_2 \le \|\mathbf{x}\|_\infty\|\mathbf{y}\|_2",
    expected=Verdict.HOLDS,
    proof_not_asserted="the document states eq. (11) among the facts whose proofs it refers to [2], [3]; the "
    "SymPy chain (derivations/norms/schatten.py, n = 2) is the catalogue's own",
    inputs={"x": Array("n"), "y": Array("n")},
    dims={"n": [1, 2, 3, 5, 8, 16]},
    notes="Attained when |x| is constant on the support of y (tightness → 1; exactly 1 at n = 1).",
)
def schatten_hadamard(xp, x, y):
    return xp.vector_norm(x * y, 2), xp.vector_norm(x, math.inf) * xp.vector_norm(y, 2)


claim_symbols = {
    "schatten.holder_eq8": HOLDER,
    "schatten.holder": HOLDER,
    "schatten.vector": VECTOR_EQ9,
    "schatten.vector.r_as_written": ANY_MATRIX_EQ9,
}
