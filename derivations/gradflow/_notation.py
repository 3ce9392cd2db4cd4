r"""What seed 003 Question 1 writes in the initialisation derivations: the fan-in ``d^{(t-1)}`` is the
SymPy symbol ``d`` of derivations/gradflow/init.py (the shared letters name its other symbols)."""

from __future__ import annotations

from derivations._notation import symbols as shared
from lemmacheck import Input

symbols = shared.extend("derivations/gradflow/_notation.py", {"d^{(t-1)}": Input("d")})
