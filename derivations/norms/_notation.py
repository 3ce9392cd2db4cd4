r"""What seed 001 §B writes in the Schatten derivations: ``\varepsilon`` the SymPy symbol ``epsilon`` of
derivations/norms/schatten.py, ``I_2`` the 2 × 2 identity (norms as in checks/norms/_notation.py)."""

from __future__ import annotations

from checks.norms._notation import symbols as norms

from lemmacheck import Derived, Input


def _identity_2(xp):
    return xp.eye(2)[None]  # one matrix per instance: the batch axis first, as every value has


symbols = norms.extend(
    "derivations/norms/_notation.py",
    {r"\varepsilon": Input("epsilon"), "I_2": Derived(_identity_2, doc="the 2 × 2 identity")},
)
