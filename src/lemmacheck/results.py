"""Results as plain data: what the engine computed for one claim, serialisable to JSON.

``reports/results.json`` is the list of :class:`ClaimResult` dicts plus run metadata; the HTML report
and the terminal summary are rendered from it.  Its schema is documented in ``docs/results-schema.md``.
"""

from __future__ import annotations

import dataclasses
import math
from fractions import Fraction
from typing import Any

import numpy as np

from .verdict import Verdict

__all__ = ["ClaimResult", "StepResult", "jsonable"]

SCHEMA_VERSION = 1


@dataclasses.dataclass
class StepResult:
    """One step ``e_{i-1} R_i e_i`` of a chain."""

    index: int
    label: str
    relation: str
    status: str  # "proved" | "holds" | "broken" | "measured" | "unverified"
    checked: int = 0
    violations: int = 0
    max_ratio: float | None = None
    max_rel_gap: float | None = None
    detail: str = ""


@dataclasses.dataclass
class ClaimResult:
    id: str
    title: str
    source: dict
    statement: str
    kind: str
    expected: str
    verdict: Verdict
    evidence: dict = dataclasses.field(default_factory=dict)
    steps: list[StepResult] = dataclasses.field(default_factory=list)
    first_broken_step: int | None = None
    expected_broken_step: int | None = None
    corrects: str | None = None
    corrected_by: list[str] = dataclasses.field(default_factory=list)
    same_as: list[str] = dataclasses.field(default_factory=list)
    notes: str = ""
    message: str = ""
    seed: int = 0
    seconds: float = 0.0
    replay: str = ""
    module: str = ""
    doc: str = ""

    @property
    def matches_expectation(self) -> bool:
        return self.verdict.value == self.expected and self.first_broken_step == self.expected_broken_step

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["verdict"] = self.verdict.value
        d["matches_expectation"] = self.matches_expectation
        d["topic"] = self.id.split(".", 1)[0]
        return jsonable(d)


def jsonable(obj: Any) -> Any:
    """Turn numbers of every kind (NumPy, mpmath, SymPy, Fraction) into JSON-safe values.

    Non-finite floats become the strings "nan", "inf", "-inf" so JSON stays standard.
    """
    import mpmath
    import sympy

    if isinstance(obj, dict):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return jsonable(obj.tolist())
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)) and not isinstance(obj, bool):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        f = float(obj)
        return f if math.isfinite(f) else ("nan" if math.isnan(f) else ("inf" if f > 0 else "-inf"))
    if isinstance(obj, (mpmath.mpf,)):
        return mpmath.nstr(obj, 30)
    if isinstance(obj, Fraction):
        return str(obj)
    if isinstance(obj, sympy.Basic):
        return str(obj)
    if isinstance(obj, Verdict):
        return obj.value
    if obj is None or isinstance(obj, str):
        return obj
    return str(obj)
