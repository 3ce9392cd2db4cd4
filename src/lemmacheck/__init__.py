"""lemmacheck: numerical verification and proof checking for the mathematics of RNN optimisation.

Content modules declare claims with the units re-exported here; the engine computes their verdicts.
"""

from __future__ import annotations

from .api import catalogue, check, check_all
from .errors import CheckError, ClaimDefinitionError, LemmacheckError, SamplerError
from .kinds import DECLARATIONS

# The built-in kinds' units, named for type checkers and editors; __all__ lists them from the registry.
from .kinds.approximation import approximation as approximation
from .kinds.complexity import complexity as complexity
from .kinds.derivation import derivation as derivation
from .kinds.numeric import identity as identity
from .kinds.numeric import inequality as inequality
from .kinds.numeric import prop as prop
from .kinds.value import value as value
from .latex import Derived, Function, Input, LatexError, SymbolTable, from_statement
from .model.claim import REGISTRY, Claim
from .model.declare import Plot, Series, StudyResult, Table, study
from .model.inputs import SPD, Array, OneHot, Orthogonal, ProbVector, Scalar
from .model.pairs import WrittenAndCorrected, written_and_corrected
from .model.sources import Document, Section, Source, SourceError
from .model.tolerance import REVERIFY_DPS, Tolerance, tolerance_for
from .model.verdict import Kind, ProofStatus, Verdict
from .version import __version__
from .xp import mpmath_xp, numpy_xp, to_mp

__all__ = [
    "__version__",
    "REGISTRY",
    "Claim",
    "Source",
    "Document",
    "Section",
    "Kind",
    "Verdict",
    "ProofStatus",
    "Tolerance",
    "REVERIFY_DPS",
    "tolerance_for",
    "Array",
    "Scalar",
    "Orthogonal",
    "SPD",
    "ProbVector",
    "OneHot",
    "numpy_xp",
    "mpmath_xp",
    "to_mp",
    "check",
    "check_all",
    "catalogue",
    "written_and_corrected",
    "WrittenAndCorrected",
    "study",
    "StudyResult",
    "Table",
    "Plot",
    "Series",
    "LemmacheckError",
    "ClaimDefinitionError",
    "SamplerError",
    "CheckError",
    "SourceError",
    "SymbolTable",
    "Input",
    "Derived",
    "Function",
    "LatexError",
    "from_statement",
    *DECLARATIONS,  # the declaration unit of every kind (inequality, identity, …), from the kinds' registry
]


def __getattr__(name: str):
    # A kind registered after this import (a project's own kind module) is declared through the façade too.
    try:
        return DECLARATIONS[name]
    except KeyError:
        raise AttributeError(f"module 'lemmacheck' has no attribute {name!r}") from None
