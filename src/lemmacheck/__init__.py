"""lemmacheck: numerical verification and proof checking for the mathematics of RNN optimisation.

Content modules declare claims with the units re-exported here; the engine computes their verdicts.
"""

from __future__ import annotations

from .api import catalogue, check, check_all
from .claim import REGISTRY, Claim, Source
from .declare import (
    Plot,
    Series,
    StudyResult,
    Table,
    approximation,
    complexity,
    derivation,
    identity,
    inequality,
    prop,
    study,
    value,
)
from .errors import CheckError, ClaimDefinitionError, LemmacheckError, SamplerError
from .tolerance import Tolerance
from .verdict import Kind, ProofStatus, Verdict
from .version import __version__

__all__ = [
    "__version__",
    "REGISTRY",
    "Claim",
    "Source",
    "Kind",
    "Verdict",
    "ProofStatus",
    "Tolerance",
    "check",
    "check_all",
    "catalogue",
    "inequality",
    "identity",
    "approximation",
    "prop",
    "value",
    "complexity",
    "derivation",
    "study",
    "StudyResult",
    "Table",
    "Plot",
    "Series",
    "LemmacheckError",
    "ClaimDefinitionError",
    "SamplerError",
    "CheckError",
]
