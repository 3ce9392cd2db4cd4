"""Mutation analysis: how much of a small change to a claim's check or derivation would the run notice?

``lemmacheck mutate`` makes small mutants of each claim (operators in :mod:`.operators`, one module per
operator behind :class:`.base.Operator`), runs each through the engine's public ``run_claim``, classifies
it against the unmutated claim (:mod:`.classify`), and writes ``reports/mutation.json``
(:mod:`.results`); :mod:`.report` turns that into a section of the HTML report.  ``docs/mutation.md``
explains how to read it.
"""

from __future__ import annotations

from .base import Operator, PyContext, Rewrite
from .operators import OPERATORS, operators_named
from .runner import Settings, run_mutation, select_mutants
from .targets import Mutant, enumerate_mutants

__all__ = [
    "Operator",
    "Rewrite",
    "PyContext",
    "OPERATORS",
    "operators_named",
    "Settings",
    "run_mutation",
    "select_mutants",
    "Mutant",
    "enumerate_mutants",
]
