"""lemmacheck: numerical verification and proof checking for the mathematics of RNN optimisation.

Content modules declare claims with the units re-exported here; the engine computes their verdicts.
"""

from __future__ import annotations

from .api import catalogue, check, check_all
from .errors import CheckError, ClaimDefinitionError, LemmacheckError, SamplerError
from .model.claim import REGISTRY, Claim, Source
from .model.declare import (
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
from .model.inputs import SPD, Array, OneHot, Orthogonal, ProbVector, Scalar
from .model.tolerance import REVERIFY_DPS, Tolerance
from .model.verdict import Kind, ProofStatus, Verdict
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
    "REVERIFY_DPS",
    "Array",
    "Scalar",
    "Orthogonal",
    "SPD",
    "ProbVector",
    "OneHot",
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
