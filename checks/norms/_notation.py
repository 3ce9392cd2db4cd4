r"""What seed 001 §B and seed 000 write for norms: an unindexed ``\|M\|`` and a matrix's ``\|M\|_p``.

In the norms topic ``\|M\|`` without an index is the spectral norm (seed 000's convention, which seed 001
follows) and ``\|M\|_\infty`` of a matrix the largest entry in absolute value, ``\|M\|_1``
(``\|M\|_{\ell_1}``) the sum of absolute entries, as the equivalence remarks use them.
"""

from __future__ import annotations

import math

from checks._vocab.linalg import l1, maxabs
from checks._vocab.notation import spectral
from checks._vocab.notation import symbols as shared
from lemmacheck import Derived, Input


def _entrywise(xp, M, p):
    if p == math.inf:
        return maxabs(xp, M)
    if p == 1:
        return l1(xp, M)
    return xp.sum(xp.sum(xp.abs(M) ** p, axis=-1), axis=-1) ** (1 / p)


symbols = shared.extend(
    "checks/norms/_notation.py",
    {r"\mathbf{M}_1": Input("M1"), r"\mathbf{M}_2": Input("M2")},
    norm=spectral,
    matrix_norm=_entrywise,
)


def entrywise_l1(xp, a, rank):
    """``\\|M\\|`` read as the sum of absolute entries (seed 000 item 3.3.3: "element-wise-1 norm")."""
    return l1(xp, a) if rank == 2 else xp.vector_norm(a, 1)


#: seed 000 item 3.3.3 says in words that its unindexed norm is the element-wise 1-norm
ELEMENTWISE_000 = symbols.extend("checks/norms/_notation.py (ELEMENTWISE_000)", norm=entrywise_l1)


def _holder_r(xp, p, q):
    """r with 1/r = 1/p + 1/q (p, q in [1, ∞]): the exponent eq. (8)'s premise ties to p and q."""
    inv = 1.0 / p + 1.0 / q
    return math.inf if inv == 0 else 1.0 / inv


#: seed 001 eq. (8): r is the exponent its premise q^{-1} + p^{-1} = r^{-1} fixes (the claim samples p, q)
HOLDER = symbols.extend("checks/norms/_notation.py (HOLDER)", {"r": Derived(_holder_r, doc="1/(1/p + 1/q)")})


def _b_plus_d(xp, B, D):
    return B + D


def _abs_b_plus_d(xp, B, D):
    return xp.abs(B) + D


def _dominating_nonneg(xp, B, D, lam):
    lam = lam[..., None, None]
    return B + lam * D + (1 - lam) * (1 - B)


#: seed 000 §Comments item 3: the dominating matrix A, as each claim samples it from B and D ≥ 0
#: (A = B + D; |B| ≤ A as A = |B| + D; A ≥ B ≥ 0 as B + λD + (1 − λ)(J − B) with B, D ∈ [0, 1])
#: (the entries' indices i, j run over the m rows and n columns)
DOMINATED = symbols.extend(
    "checks/norms/_notation.py (DOMINATED)", {r"\mathbf A": Derived(_b_plus_d)}, indices={"i": "m", "j": "n"}
)
DOMINATED_ABS = DOMINATED.extend(
    "checks/norms/_notation.py (DOMINATED_ABS)", {r"\mathbf A": Derived(_abs_b_plus_d)}
)
DOMINATED_NONNEG = symbols.extend(
    "checks/norms/_notation.py (DOMINATED_NONNEG)", {r"\mathbf A": Derived(_dominating_nonneg)}
)


def lemma4_table(base, where: str, *, tensor: str = "T", slices: str = "P", **options):
    """Seed 001 Lemma 4 (eq. (21)) for a claim that stores its m × n × P tensor slice-first, (P, m, n), as the
    input ``tensor`` with P the dim ``slices``: T in the document's layout (T_{:,:,p} its p-th slice), Tṽ the
    mode-3 product Σ_p v_p T_{:,:,p} that eq. (21) writes out, ‖T_{:,:,*}‖_{S¹} the vector of the slices'
    nuclear norms, p = 1..P.  One definition for the norms claims (lemma4.*) and the sensitivity ones
    (sens.lemma4*, which name their tensor Tt and its dim p)."""

    def as_written(xp, **inputs):
        return xp.einsum("bpij->bijp", inputs[tensor])

    def times_v(xp, v, **inputs):
        return xp.sum(v[..., None, None] * inputs[tensor], axis=-3)

    def slice_norms(xp, **inputs):
        return xp.schatten_norm(inputs[tensor], 1)

    return base.extend(
        where,
        {
            r"\mathbf T": Derived(as_written, doc="T in the m × n × P layout"),
            r"\mathbf T\tilde{\mathbf v}": Derived(times_v, doc="Σ_p v_p T_{:,:,p}"),
            r"\|\mathbf T_{:,:,*}\|_{S^1}": Derived(slice_norms, doc="(‖T_{:,:,p}‖_{S¹})_p"),
        },
        indices={"p": slices},
        **options,
    )


#: seed 001 Lemma 4 (eq. (21)): T an m × n × P tensor whose slices p = 1..P are weighted by v
LEMMA4 = lemma4_table(symbols, "checks/norms/_notation.py (LEMMA4)")


def _is_column(xp, v):
    """'v a vector': true on an instance where v has one column (the claim draws it n × 1)."""
    return _any_matrix(xp, v) == (v.shape[-1] == 1)


def _any_matrix(xp, r):
    """'r any matrix': no condition beyond r being the claim's matrix (true on every instance)."""
    return xp.sum(xp.abs(r), axis=(-2, -1)) >= 0


#: seed 001 eq. (9) "if v is a vector, then ||r||_{S^p} = ||r||_2": its r is the v of its premise
VECTOR_EQ9 = symbols.extend(
    "checks/norms/_notation.py (VECTOR_EQ9)",
    {r"\mathbf{v}\ \text{a vector}": Derived(_is_column), r"\mathbf{r}": Input("v")},
)
#: the same equation with r read as it is written, any matrix (schatten.vector.r_as_written)
ANY_MATRIX_EQ9 = symbols.extend(
    "checks/norms/_notation.py (ANY_MATRIX_EQ9)", {r"\mathbf{r}\ \text{any matrix}": Derived(_any_matrix)}
)
