"""Results as plain data: what the engine computed for one claim, serialisable to JSON.

``reports/results.json`` is the list of :class:`ClaimResult` dicts plus run metadata; the HTML report
and the terminal summary are rendered from it.  Its schema is documented in ``docs/results-schema.md``.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from fractions import Fraction
from typing import Any

import numpy as np

from ..model.verdict import ProofStatus, Verdict

__all__ = [
    "ClaimResult",
    "StepResult",
    "Proof",
    "jsonable",
    "record_to_json",
    "SCHEMA_VERSION",
    "TIMING_FIELDS",
    "statement_counts",
    "verdict_text",
]

#: 2: INCONCLUSIVE verdict, per-claim ``proof``, settlement statistics in the evidence
SCHEMA_VERSION = 2

#: a result's fields that measure time: the only ones two runs of one seed may disagree on, so a comparison
#: of runs (serial against parallel, a chunk order, a rerun) leaves them out
TIMING_FIELDS = ("seconds", "phase_seconds")


def verdict_text(verdict: str, evidence: dict | None) -> str:
    """The verdict with the bounded domain its claim declares ("HOLDS for ‖v‖∞ ≤ 30"): a verdict computed
    on a declared domain printed without it would read as one about every real input (issue 32 §2)."""
    domain = (evidence or {}).get("domain")
    return f"{verdict} for {', '.join(domain)}" if domain else verdict


@dataclasses.dataclass
class StepResult:
    """One step ``e_{i-1} R_i e_i`` of a chain."""

    index: int
    label: str
    relation: str
    status: str  # "proved" | "holds" | "broken" | "measured" | "unsettled"
    checked: int = 0
    violations: int = 0
    max_ratio: float | None = None
    max_rel_gap: float | None = None
    detail: str = ""
    settlement: dict | None = None


@dataclasses.dataclass
class Proof:
    """The proof as written: its status, and where and why it breaks."""

    status: ProofStatus
    step: int | None = None
    label: str = ""
    reason: str = ""
    counterexample: dict | None = None
    linked_claim: str | None = None  # the claim whose statement the named step is (step_is=)


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
    # every step found broken, its own or a linked claim's, the first included: a second false link in a
    # chain broken earlier changes what the claim reports
    broken_steps: list[int] = dataclasses.field(default_factory=list)
    expected_broken_step: int | None = None
    corrects: str | None = None
    corrected_by: list[str] = dataclasses.field(default_factory=list)
    same_as: list[str] = dataclasses.field(default_factory=list)
    step_links: list[tuple[int, str]] = dataclasses.field(default_factory=list)  # (step, claim id)
    uses: list[str] = dataclasses.field(default_factory=list)  # the premises declared with uses=
    notes: str = ""
    message: str = ""
    seed: int = 0
    seconds: float = 0.0
    # a numeric check's seconds by phase (sweep, hypothesis, refine, optimise, settle): beside the
    # evidence, never in it, since a time does not replay from a seed
    phase_seconds: dict[str, float] = dataclasses.field(default_factory=dict)
    replay: str = ""
    module: str = ""
    doc: str = ""
    proof: Proof = dataclasses.field(default_factory=lambda: Proof(ProofStatus.NONE))
    expected_proof: str = ProofStatus.NONE.value
    reason: str = ""  # why the verdict is INCONCLUSIVE
    evidence_kind: str = ""  # which checker produced the evidence (the report's partial for it)
    cached: bool = False  # answered from the result cache (nothing that can change it has changed)
    certificate: dict | None = None  # run --certify: proved at stated dims and domain, or why not
    statement_check: dict | None = None  # the LaTeX statement compiled and compared with the check

    @property
    def matches_expectation(self) -> bool:
        return (
            self.verdict.value == self.expected
            and self.first_broken_step == self.expected_broken_step
            and self.proof.status.value == self.expected_proof
        )

    def _repr_html_(self) -> str:
        """The report's card for this claim, in a notebook."""
        from ..report.notebook import cards_html

        return cards_html([self.to_dict()])

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["verdict"] = self.verdict.value
        d["matches_expectation"] = self.matches_expectation
        d["topic"] = self.id.split(".", 1)[0]
        return jsonable(d)


STATEMENT_STATUSES = ("agrees", "differs", "differs (explained)", "not compiled")


def statement_counts(checks) -> dict[str, int]:
    """Claims by their ``statement_check`` status; a difference the content explains is counted apart,
    and a result without one (a cached or older result) as ``not compiled``."""
    out = dict.fromkeys(STATEMENT_STATUSES, 0)
    for sc in checks:
        status = (sc or {}).get("status", "not compiled")
        out["differs (explained)" if status == "differs" and (sc or {}).get("explained") else status] += 1
    return out


def record_to_json(record: Any) -> dict:
    """A typed record (evidence, settlement, proof) as JSON: fields left ``None`` are omitted."""
    return {k: jsonable(v) for k, v in dataclasses.asdict(record).items() if v is not None}


def jsonable(obj: Any) -> Any:
    """Turn numbers of every kind (NumPy, mpmath, SymPy, Fraction) into JSON-safe values.

    Non-finite floats become the strings "nan", "inf", "-inf" so JSON stays standard.
    """
    # SymPy is only looked for when already imported: a value can only be SymPy's if SymPy made it.
    sympy = sys.modules.get("sympy")
    import mpmath

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
    if sympy is not None and isinstance(obj, sympy.Basic):
        return str(obj)
    if isinstance(obj, (Verdict, ProofStatus)):
        return obj.value
    if obj is None or isinstance(obj, str):
        return obj
    return str(obj)
