"""A claim's statement at fixed dims, built by running its check once on symbols (:mod:`.symbolic`):
the domain, the hypotheses of its ``where=`` filter, and its goals (the chain end to end, or each step
when the claim asserts every link)."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import sympy

from ..model.claim import NumericCheck
from ..model.inputs import call_with_inputs
from ..search.violations import compose
from .domain import Domain, build_domain
from .exact import goal
from .symbolic import NotCertifiable, exact_constants, sympy_xp

__all__ = ["Step", "Statement", "build_statement"]


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


def build_statement(check: NumericCheck, dims: dict[str, Any], *, every_step: bool) -> Statement:
    """The statement at ``dims``: ``every_step`` when the claim asserts each link of its chain
    (``steps_claimed``), else the chain end to end, as the run's verdict reads it."""
    dom = build_domain(check.inputs, dims)
    out = call_with_inputs(check.fn, sympy_xp, dom.inputs, dims)
    constants: dict[str, str] = {}

    def exact(v, what):
        e, read = exact_constants(_scalar(v, what))
        constants.update(read)
        return e

    hypotheses = []
    if check.where is not None:
        hypotheses.append(exact(call_with_inputs(check.where, sympy_xp, dom.inputs, dims), "where="))
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
