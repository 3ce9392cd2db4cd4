"""The README example of 2026-11-26 (7753874) under the authoring guide's import block of that day, and the
engine imports a claim file of that day made (checks/sensitivity/groundtruth.py at 7753874~1).
"""

from lemmacheck import (
    Source,
    Verdict,
    inequality,
    identity,
    approximation,
    prop,
    value,
    complexity,
    derivation,
)
from lemmacheck.model.inputs import Array, Scalar, ProbVector, OneHot, SPD, Orthogonal
from lemmacheck.tolerance import REVERIFY_DPS
from lemmacheck.xp import mpmath_xp, numpy_xp, to_mp


@inequality(
    "schatten.hadamard_l1",
    title="‖x ⊙ y‖₁ ≤ ‖x‖₂‖y‖₂ (Cauchy–Schwarz on |x| and |y|)",
    # or Source("001_….txt", "§B, eq. (11)", quote=…), Source.paper("Author, Title, 2013", "§5"), Source.url(…)
    source=Source.project("my derivation, step 2"),
    statement=r"\|\mathbf{x}\odot\mathbf{y}\|_1 \le \|\mathbf{x}\|_2\|\mathbf{y}\|_2",
    expected=Verdict.HOLDS,
    inputs={"x": Array("n"), "y": Array("n")},
    dims={"n": [1, 2, 3, 5, 8, 16]},
)
def schatten_hadamard_l1(xp, x, y):
    return xp.vector_norm(x * y, 1), xp.vector_norm(x, 2) * xp.vector_norm(y, 2)
