"""One module (or package) per kind of claim, behind one interface (:mod:`.base`); the import registers them.

Each kind module holds the declaration units content uses (re-exported by the ``lemmacheck`` façade from
:data:`DECLARATIONS`, filled by :func:`declaration_unit`), its checker, its evidence record, its mutation
targets and its evidence's schema fragment.
"""

from . import approximation, complexity, derivation, numeric, value
from .base import (
    CHECKERS,
    DECLARATIONS,
    Checker,
    Context,
    MutationTargets,
    Outcome,
    checker_for,
    declaration_unit,
    evidence_kinds,
    merge_backing,
    register,
)

__all__ = [
    "CHECKERS",
    "DECLARATIONS",
    "Checker",
    "Context",
    "MutationTargets",
    "Outcome",
    "checker_for",
    "declaration_unit",
    "evidence_kinds",
    "merge_backing",
    "register",
    "approximation",
    "complexity",
    "derivation",
    "numeric",
    "value",
]
