r"""Seed 000's notation in the sensitivity topic, where a check samples the quantities directly:
``\Delta\mathbf{U}`` is the input ``dU``, ``\mathbf{x}_t`` the input ``x``, and a power of a vector is
entrywise (the document's ``\mathbf{x}_t^2``).  Chains written in LaTeX alone declare their own tables
(chains_tex.py).
"""

from __future__ import annotations

from checks._vocab.notation import symbols as shared
from lemmacheck import Input

symbols = shared.extend(
    "checks/sensitivity/_notation.py",
    {r"\Delta\mathbf{U}": Input("dU"), r"\mathbf{x}_t": Input("x")},
    elementwise_powers=True,
)
