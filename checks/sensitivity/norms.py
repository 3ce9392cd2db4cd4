r"""The three norm facts seed 000 lists in its W section (item 3.3.1, "We have taken advantage of …").

Seed 001 states the same facts as eq. (8)–(11) (``checks/norms/schatten.py``); here they are catalogued as
seed
000 writes them and linked with ``same_as``.  (Seed 000's Comment 3 and the norm equivalence of item 3.3.3
are catalogued in ``checks/norms/schatten1.py``.)
"""

import math

from checks._vocab.sources import S0_LOSS_W
from checks.norms.schatten import schatten_hadamard, schatten_holder
from checks.sensitivity._notation import HOLDER_PQ
from lemmacheck import Array, Tolerance, Verdict, identity, inequality

claim_symbols = {"sens.holder_000": HOLDER_PQ}

_QUOTE = (
    "1) ||x ⊙ y||_2 ≤ ||x||_∞ ||y||_2. 2) ||AB||_{S^r} ≤ ||A||_{S^q} ||B||_{S^p} if r^{−1} = p^{−1} + "
    "q^{−1}. 3) For vector (no matter row or column) x, we have ||x||_{S∞} = ||x||_{S1} = ||x||_2."
)


@inequality(
    "sens.hadamard_000",
    title="Seed 000's fact 1: ‖x ⊙ y‖₂ ≤ ‖x‖_∞‖y‖₂",
    source=S0_LOSS_W.at("item 3.3.1 ('We have taken advantage of the conclusion')").quote(_QUOTE),
    statement=r"\|\mathbf{x}\odot\mathbf{y}\|_2 \le \|\mathbf{x}\|_\infty\|\mathbf{y}\|_2",
    expected=Verdict.HOLDS,
    same_as=("schatten.hadamard",),
    inputs={"x": Array("n"), "y": Array("n")},
    dims={"n": [1, 2, 3, 5, 8]},
)
def hadamard_000(xp, x, y):
    return schatten_hadamard(xp, x, y)


@inequality(
    "sens.holder_000",
    title="Seed 000's fact 2: ‖AB‖_{S^r} ≤ ‖A‖_{S^q}‖B‖_{S^p} when 1/r = 1/p + 1/q",
    source=S0_LOSS_W.at("item 3.3.1 ('We have taken advantage of the conclusion')").quote(_QUOTE),
    statement=r"\|\mathbf{A}\mathbf{B}\|_{S^r} \le \|\mathbf{A}\|_{S^q}\|\mathbf{B}\|_{S^p},\quad r^{-1} = "
    r"p^{-1} + q^{-1}",
    expected=Verdict.HOLDS,
    same_as=("schatten.holder",),
    inputs={"A": Array("m", "k", scale=(1e-1, 1e1)), "B": Array("k", "n", scale=(1e-1, 1e1))},
    dims={
        "m": [1, 2, 3],
        "k": [1, 2, 4],
        "n": [1, 3],
        "pq": [(math.inf, math.inf), (1, math.inf), (2, 2), (math.inf, 2), (1, 1)],
    },
    tol=Tolerance(
        rtol=1e-7,
        reason="Schatten-½ quasi-norms from float64 SVDs lose a few digits (σ^½ of a rounding-level σ); "
        "equality is attained for rank-one factors; candidates beyond it are still settled in high precision",
    ),
    notes="Written correctly here with two matrices (seed 001 eq. (8) has the same M on both sides). For p "
    "= q = 1 the left side is the Schatten-½ quasi-norm; Hölder still holds.",
)
def holder_000(xp, A, B, pq):
    return schatten_holder(xp, A, B, *pq)


@identity(
    "sens.vector_norms_000",
    title="Seed 000's fact 3: for a vector (row or column) x, ‖x‖_{S∞} = ‖x‖_{S¹} = ‖x‖₂",
    source=S0_LOSS_W.at("item 3.3.1 ('We have taken advantage of the conclusion')").quote(_QUOTE),
    statement=r"\|\mathbf{x}\|_{S^\infty} = \|\mathbf{x}\|_{S^1} = \|\mathbf{x}\|_2",
    expected=Verdict.HOLDS,
    same_as=("schatten.vector",),
    inputs={"x": Array("n")},
    dims={"n": [1, 2, 3, 5, 8]},
    relations=("=", "="),
    labels=("a rank-one matrix has one singular value", "it equals ‖x‖₂"),
    steps_claimed=True,  # a fact the document lists, both equalities stated: no proof, the chain is the claim
)
def vector_norms_000(xp, x):
    col = x[..., :, None]
    return xp.schatten_norm(col, math.inf), xp.schatten_norm(col, 1), xp.vector_norm(x, 2)
