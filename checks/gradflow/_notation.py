r"""Seeds 002–004's notation for gradient flow: ``\|A\|`` without an index is the spectral (operator) norm,
as seed 004 defines it (``\|A\| = \sqrt{\lambda_1(A^\top A)}``); ``\lambda_1`` is the largest eigenvalue of a
symmetric matrix; ``A^T`` of a matrix is its transpose (``\gamma^T`` of a number stays a power).
"""

from __future__ import annotations

from checks._vocab.notation import spectral
from checks._vocab.notation import symbols as shared
from lemmacheck import Function


def _top_eigenvalue(xp, S):
    return xp.eigvalsh(S)[..., -1]


symbols = shared.extend(
    "checks/gradflow/_notation.py",
    {r"\lambda_1": Function(_top_eigenvalue, doc="the largest eigenvalue of a symmetric matrix")},
    norm=spectral,
    transpose_letters=("T",),
)
