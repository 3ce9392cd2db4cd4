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
from lemmacheck import Input


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
