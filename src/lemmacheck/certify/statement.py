"""A claim's statement at fixed dims, built by running its check once on symbols (:mod:`.symbolic`):
the domain, the hypotheses of its ``where=`` filter, and its goals (the chain end to end, or each step
when the claim asserts every link)."""

from __future__ import annotations

import dataclasses
import traceback
from pathlib import Path
from typing import Any

import numpy as np
import sympy

from ..model.claim import NumericCheck
from ..model.inputs import call_with_inputs
from ..search.violations import compose
from .domain import Domain, build_domains
from .exact import goal
from .refusal import NotCertifiable
from .symbolic import SymbolicBranch, branched_on_relational, exact_constants, sympy_xp

__all__ = ["Step", "Statement", "build_statements"]


@dataclasses.dataclass
class Step:
    index: int  # 1-based, as the claim's chain counts; 0 for the chain end to end
    relation: str  # "=", "<=", "<", ">=", ">"; "holds" for a property
    lhs: Any
    rhs: Any

    @property
    def goal(self):
        return self.lhs if self.relation == "holds" else goal(self.lhs, self.relation, self.rhs)


@dataclasses.dataclass
class Statement:
    domain: Domain
    hypotheses: list[Any]
    steps: list[Step]
    constants: dict[str, str]  # float text -> the rational it was read as

    @property
    def constraints(self) -> list[Any]:
        return self.domain.constraints + self.hypotheses


def _scalar(value, what: str):
    arr = np.asarray(value, dtype=object)
    if arr.shape not in ((1,), ()):
        raise NotCertifiable(f"{what} has shape {arr.shape}, not one value per instance")
    v = arr.reshape(-1)[0]
    if isinstance(v, (bool, np.bool_)):
        return sympy.true if v else sympy.false
    return sympy.sympify(v)


def _on_symbols(fn, dom: Domain, dims: dict[str, Any], what: str):
    """``fn`` run on the domain's symbols; a Python branch on a symbolic truth value (SymPy's TypeError
    for ``bool`` of a relational, or a symbolic array's) is refused naming the line, never decided by
    picking a side."""
    try:
        return call_with_inputs(fn, sympy_xp, dom.inputs, dims)
    except (TypeError, SymbolicBranch) as exc:
        if not (isinstance(exc, SymbolicBranch) or branched_on_relational(exc)):
            raise
        frames = traceback.extract_tb(exc.__traceback__)
        ours = Path(__file__).parent
        checks = [f for f in frames if "site-packages" not in f.filename and Path(f.filename).parent != ours]
        where = f" at {Path(checks[-1].filename).name}:{checks[-1].lineno}" if checks else ""
        raise NotCertifiable(
            f"{what} branches in Python (an if, and/or, a built-in max){where} on a symbolic truth value,"
            " which has none on symbols"
        ) from None


def build_statements(check: NumericCheck, dims: dict[str, Any], *, every_step: bool) -> list[Statement]:
    """The statement at ``dims``, one per case of the inputs with finitely many values or families
    (:func:`~.domain.build_domains`; together they are the statement): ``every_step`` when the claim
    asserts each link of its chain (``steps_claimed``), else the chain end to end, as the run's verdict
    reads it."""
    return [_statement(check, dom, dims, every_step=every_step) for dom in build_domains(check.inputs, dims)]


def _statement(check: NumericCheck, dom: Domain, dims: dict[str, Any], *, every_step: bool) -> Statement:
    out = _on_symbols(check.fn, dom, dims, "the check")
    constants: dict[str, str] = {}

    def exact(v, what):
        e, read = exact_constants(_scalar(v, what))
        constants.update(read)
        return e

    hypotheses = []
    if check.where is not None:
        where = exact(_on_symbols(check.where, dom, dims, "the where= filter"), "where=")
        hypotheses += [
            h for h in (where.args if isinstance(where, sympy.And) else [where]) if h is not sympy.true
        ]
    if check.is_property:
        return Statement(dom, hypotheses, [Step(1, "holds", exact(out, "the property"), None)], constants)
    sides = [exact(v, f"side {i}") for i, v in enumerate(out)]
    if not every_step:  # the statement is e0 R ek; the links are its proof, judged by the run
        end_to_end = compose(check.relations)
        if end_to_end == "~":
            raise NotCertifiable("the chain asserts no relation end to end (approximate or mixed directions)")
        return Statement(dom, hypotheses, [Step(0, end_to_end, sides[0], sides[-1])], constants)
    steps = [
        Step(i + 1, rel, sides[i], sides[i + 1])
        for i, rel in enumerate(check.relations)
        if rel != "~"  # an approximate step is measured, never asserted
    ]
    return Statement(dom, hypotheses, steps, constants)
