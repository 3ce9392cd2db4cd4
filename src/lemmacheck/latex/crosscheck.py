"""``statement_check``: the compiled statement and the hand-written check, on the same instances.

Both are evaluated on the claim's own inputs and dims (a fixed sample per dims combination, seeded from
the claim's seed) and on every instance its evidence reports (counterexample, tightness witness).  They
agree on an instance when they state the same relation there: equal margins (the check moved terms across)
or equal ratios lhs/rhs (the check scaled both sides by one positive quantity) -- either is an equivalence
of the two inequalities on that instance, and neither lets a 1/4 pass for a 1/2.  A float64 disagreement
is settled at ``REVERIFY_DPS`` digits, so rounding never counts as a difference.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np

from ..model.claim import ApproximationCheck, Claim, ComplexityCheck, NumericCheck, ValueCheck
from ..model.inputs import call_with_inputs
from ..model.tolerance import REVERIFY_DPS, tolerance_for
from ..settling.highprec import exact_mp_inputs
from ..xp import mp_precision, mpmath_xp, numpy_xp
from .adversarial import harder_instances
from .approx import as_relation_claim
from .declare import COMPILED_ATTR
from .derivation_statement import derivation_statement_check
from .errors import LatexError
from .growth import growth_statement_check
from .instances import check_instances
from .parse import parse
from .propcheck import property_check
from .relation import (
    chain_relation,
    family,
    float_rows,
    margin_gap,
    mismatch,
    mismatches,
    same_equation,
    same_relation,
)
from .statement import CompiledStatement, compile_expression, compile_statement
from .tables import table_for
from .truth import settled_truth
from .worked import value_statement_check

__all__ = ["statement_check", "same_relation", "mismatch", "compiled_for", "statement_check_text"]


def compiled_for(claim: Claim) -> CompiledStatement:
    parse(claim.statement)  # a construct outside the grammar is the first thing to say
    return compile_statement(claim.statement, table_for(claim.module, claim.id))


def not_compiled(reason: str) -> dict:
    return {"status": "not compiled", "reason": reason}


def statement_check(claim: Claim, evidence: dict, seed: int) -> dict:
    """``agrees`` (instances), ``differs`` (the instance and both values) or ``not compiled`` (why); a
    difference the content explains (``statement_differs = {"id": "why"}`` in the claim's module) carries
    the explanation as ``explained``."""
    out = _statement_check(claim, evidence, seed)
    if out["status"] == "differs":
        why = getattr(sys.modules.get(claim.module), "statement_differs", {}).get(claim.id)
        if why:
            out["explained"] = why
    return out


def _statement_check(claim: Claim, evidence: dict, seed: int) -> dict:
    check = claim.check
    if check is None and claim.derivation is not None:
        return derivation_statement_check(claim)  # compared with the SymPy chain, not with instances
    if isinstance(check, ValueCheck):
        try:
            return value_statement_check(claim)
        except LatexError as exc:
            return not_compiled(exc.reason)
    if isinstance(check, ApproximationCheck):
        claim = as_relation_claim(claim)
        check = claim.check
    if isinstance(check, ComplexityCheck):
        return growth_statement_check(claim)
    if not isinstance(check, NumericCheck):
        return not_compiled(_why_not_numeric(claim))
    if getattr(check.fn, COMPILED_ATTR, None) is not None:
        return {
            "status": "agrees",
            "instances": 0,
            "compared": "by construction: the check is this statement",
        }
    try:
        if check.is_property:
            parse(claim.statement)  # a construct outside the grammar is the first thing to say
            return property_check(claim, check, evidence, seed)
        compiled = compiled_for(claim)
        sides = _SidesOnce(claim, compiled)
        instances = check_instances(claim, check, evidence, seed)
        first = [(si, ci, _relations(compiled, check, si, ci)) for si, ci in _pairings(compiled, check)[0]]
        instances += harder_instances(claim, instances, sides, first, seed)
        # the pairings in order, each compared only when the ones before it did not agree
        outcomes = (_compare(claim, check, compiled, p, instances, sides) for p in _pairings(compiled, check))
        first_outcome = next(outcomes)
        if first_outcome["status"] == "agrees":
            return first_outcome
        return next((o for o in outcomes if o["status"] == "agrees"), first_outcome)
    except LatexError as exc:
        return not_compiled(exc.reason)
    except Exception as exc:  # the check or a table's function broke on an instance: say so, run on
        return not_compiled(f"evaluating the two broke: {type(exc).__name__}: {exc}")


def _why_not_numeric(claim: Claim) -> str:
    if claim.check is None:
        return (
            f"no check to compare with (kind {claim.kind.value!r}): the claim declares neither a check nor a "
            "derivation"
        )
    return f"no check the compiler compares with (kind {claim.kind.value!r})"


def _pairings(compiled: CompiledStatement, check: NumericCheck) -> list[list]:
    """Which expressions may be compared, most complete first: step by step when the chains have the
    same length; else the endpoints (``e0 R ek``), then each single step of the statement (a check of one
    link of a chained statement).  The first that agrees on every instance is reported, else the first."""
    stated, checked = compiled.relations, check.relations
    if len(stated) == len(checked):
        return [[((i, i + 1), (i, i + 1)) for i in range(len(stated))]]
    ends = [[((0, len(stated)), (0, len(checked)))]]
    if len(checked) != 1:
        return ends
    return ends + [[((i, i + 1), (0, 1))] for i in range(len(stated))]


def _relations(compiled: CompiledStatement, check: NumericCheck, si, ci) -> tuple[str, str]:
    return chain_relation(compiled.relations, si), chain_relation(check.relations, ci)


def _sides(claim: Claim, compiled: CompiledStatement, xp, inputs: dict, dims: dict) -> tuple[tuple, tuple]:
    """Both chains on the instances; the statement's scaled by the factor the content declares the check
    scales by (``statement_scaled_by = {"id": r"\\|\\mathbf s_t\\|_2^2"}`` in the claim's module)."""
    check = claim.check
    assert isinstance(check, NumericCheck)
    written = compiled.sides(xp, inputs, dims)
    factor = getattr(sys.modules.get(claim.module), "statement_scaled_by", {}).get(claim.id)
    if factor is not None:
        (q,) = compile_expression(factor, table_for(claim.module, claim.id)).sides(xp, inputs, dims)
        if not all(_positive(v) for v in q):
            raise LatexError(f"the declared factor {factor!r} is not positive on every instance")
        written = tuple(w * q for w in written)
    checked = call_with_inputs(check.fn, xp, inputs, dims)
    batch = len(next(iter(inputs.values()))) if inputs else 1
    # a side the check returns as a Python number is a constant, broadcast as the engine does
    checked = tuple(v if getattr(v, "ndim", 0) else xp.zeros(batch) + v for v in checked)
    return tuple(written), checked


class _SidesOnce:
    """Both chains on each instance set evaluated once in float64: ``harder_instances`` scores the sampled
    sets and ``_compare`` reads them again for every pairing (it evaluated both chains again each time: a
    third of the phase's CPU).  A set that broke breaks again, with the same exception, wherever it is read.
    A set is the very dicts of ``instances``, kept here so that their ids stay theirs."""

    def __init__(self, claim: Claim, compiled: CompiledStatement) -> None:
        self.claim, self.compiled = claim, compiled
        self.seen: dict[tuple[int, int], tuple[dict, dict, Any]] = {}

    def __call__(self, xp, inputs: dict, dims: dict) -> tuple[tuple, tuple]:
        if xp is not numpy_xp:
            return _sides(self.claim, self.compiled, xp, inputs, dims)
        key = (id(inputs), id(dims))
        if key not in self.seen:
            try:
                out: Any = _sides(self.claim, self.compiled, xp, inputs, dims)
            except Exception as exc:
                out = exc
            self.seen[key] = (inputs, dims, out)
        out = self.seen[key][2]
        if isinstance(out, Exception):
            raise out
        return out


def _positive(v: Any) -> bool:
    return bool(v > 0)


def _compare(
    claim: Claim, check: NumericCheck, compiled: CompiledStatement, pairs, instances, sides: _SidesOnce
) -> dict:
    for si, ci in pairs:
        rels = (chain_relation(compiled.relations, si), chain_relation(check.relations, ci))
        if family(rels[0]) != family(rels[1]):
            return {"status": "differs", "reason": f"the statement states {rels[0]!r}, the check {rels[1]!r}"}
    # the claim's own tolerance, the one policy (docs/tolerance.md): the two are compared no looser than
    # the run judges the check, and every float64 disagreement is settled at REVERIFY_DPS digits anyway
    rtol = tolerance_for(override=claim.tol).rtol
    n = outside = 0
    for dims, inputs in instances:
        written, checked = sides(numpy_xp, inputs, dims)
        stated = compiled.holds(numpy_xp, inputs, dims, rtol)
        batch = len(next(iter(inputs.values()))) if inputs else 1
        quiet = _agreeing_rows(compiled, check, pairs, (written, checked), batch, rtol)
        for b in range(batch):
            if not stated[b] and not _conditions_settled(claim, compiled, inputs, dims, b):
                outside += 1  # the statement says nothing where its conditions fail
                continue
            for (si, ci), agreeing in zip(pairs, quiet, strict=True):
                if agreeing is not None and agreeing[b]:
                    continue
                rels = (chain_relation(compiled.relations, si), chain_relation(check.relations, ci))
                sk, ck = _members(pairs, si, written, rels), _members(pairs, ci, checked, rels)
                s = tuple(float(written[k][b]) for k in sk)
                c = tuple(float(checked[k][b]) for k in ck)
                if not all(math.isfinite(v) for v in s + c):
                    continue
                if not _agree(s, c, rels, rtol):
                    one = {k: v[b : b + 1] for k, v in inputs.items()}
                    settled = _settle(claim, compiled, one, dims, (sk, ck, si[1]), rels)
                    if settled is not None:
                        return settled
            n += 1
    if n == 0:
        why = (
            "its conditions hold on none of the check's instances"
            if outside
            else "none where both were finite"
        )
        return not_compiled(f"no instance to compare on: {why}")
    compared = _what(pairs, compiled)
    if outside:
        compared += f"; {outside} instances outside the statement's conditions not compared"
    return {"status": "agrees", "instances": n, "compared": compared}


def _agreeing_rows(compiled, check, pairs, sides: tuple, batch: int, rtol: float) -> list:
    """Per pair, the rows where the two state the same relation, all read at once (None for two
    equalities, whose members ``_agree`` compares row by row): the arithmetic ``_agree`` does, so a row
    marked here is one the row loop would have passed without settling anything."""
    out: list = []
    for si, ci in pairs:
        rels = (chain_relation(compiled.relations, si), chain_relation(check.relations, ci))
        if rels == ("=", "="):
            out.append(None)
            continue
        s, c = (
            tuple(float_rows(side[k], batch) for k in span)
            for side, span in zip(sides, (si, ci), strict=True)
        )
        out.append(mismatches(s, c, rels) <= rtol)
    return out


def _conditions_settled(claim: Claim, compiled: CompiledStatement, inputs: dict, dims: dict, b: int) -> bool:
    """Whether the conditions float64 refused on row ``b`` hold at ``REVERIFY_DPS`` digits, their ``=``
    read by the VANISHING rule (:func:`.truth.settled_truth`): ``E[a] = 0`` of a standardised law is
    1e-17 in float64, and a relative test refuses it on every instance but those that round to 0."""
    one = {k: v[b : b + 1] for k, v in inputs.items()}

    def truth_at(rtol: float, **reading: Any) -> Any:
        return compiled.holds(mpmath_xp, exact_mp_inputs(claim.check, one), dims, rtol, **reading)

    try:
        return bool(np.asarray(settled_truth(truth_at, REVERIFY_DPS)).reshape(-1)[0])
    except Exception:  # the conditions do not run in high precision: the row stays outside, as float64 said
        return False


def _members(pairs, span: tuple[int, int], chain, rels: tuple[str, str]) -> tuple[int, ...]:
    """The members compared for one link: for two equalities compared step by step, the whole chain
    (``same_equation`` compares an equality's members together); else the link's two ends."""
    if rels == ("=", "=") and len(pairs) == len(chain) - 1:
        return tuple(range(len(chain)))
    return span


def _agree(s: tuple, c: tuple, rels: tuple[str, str], rtol: float) -> bool:
    """The same relation on this instance: for two equalities the same members (``same_equation``: an
    equality that holds has margin 0 whatever it equates), else the same margins or ratios of the link's
    two sides (``same_relation``)."""
    return same_equation(s, c, rtol) if rels == ("=", "=") else same_relation(s, c, rels, rtol)


def _gap(s: tuple, c: tuple, rels: tuple[str, str]) -> Any:
    """How far apart the two are, for the vanishing rule: the margins' gap, or an equality's members'."""
    if rels != ("=", "="):
        return margin_gap(s, c, rels)
    return min(max(abs(a - b) for a, b in zip(s, cc, strict=True)) for cc in (c, c[::-1]))


def _what(pairs, compiled: CompiledStatement) -> str:
    if len(pairs) == len(compiled.relations):
        return f"every step ({len(pairs)})" if len(pairs) > 1 else "both sides"
    (first, last), _ = pairs[0]
    if (first, last) == (0, len(compiled.relations)):
        return "the chain's endpoints"
    return f"step {last} of the statement (the check states that link only)"


def _settle(claim, compiled, inputs: dict, dims: dict, link, rels) -> dict | None:
    """The float64 disagreement re-evaluated at ``REVERIFY_DPS`` digits: a difference (None if rounding).
    ``link`` is (the statement's members, the check's members, the step).  One that is still there is
    evaluated again at twice the digits: a gap that shrinks with the precision (sides that are both ~0, a
    residue of cancellation) is rounding, as the settling policy's VANISHING rule says; a true difference
    stays."""
    sk, ck, step = link
    s, c = _mp_sides(claim, compiled, inputs, dims, sk, ck, REVERIFY_DPS)
    if _agree(s, c, rels, 10.0 ** (-REVERIFY_DPS // 2)):
        return None
    s2, c2 = _mp_sides(claim, compiled, inputs, dims, sk, ck, 2 * REVERIFY_DPS)
    if _gap(s2, c2, rels) <= _gap(s, c, rels) * 10.0 ** (-REVERIFY_DPS // 2):
        return None
    return {
        "status": "differs",
        "step": step,
        "instance": {"dims": dims, "inputs": {k: np.asarray(v)[0].tolist() for k, v in inputs.items()}},
        "statement": [str(v) for v in s],
        "check": [str(v) for v in c],
        "digits": REVERIFY_DPS,
        "reason": f"at {REVERIFY_DPS} digits the statement's sides are {_pair(s)} and the check's {_pair(c)}",
    }


def _mp_sides(claim, compiled, inputs: dict, dims: dict, sk, ck, digits: int) -> tuple[tuple, tuple]:
    with mp_precision(digits):
        exact = exact_mp_inputs(claim.check, inputs)
        written, checked = _sides(claim, compiled, mpmath_xp, exact, dims)
        return tuple(written[k][0] for k in sk), tuple(checked[k][0] for k in ck)


def _pair(v: tuple) -> str:
    import mpmath

    return "(" + ", ".join(mpmath.nstr(x, 12) for x in v) + ")"


def statement_check_text(sc: dict) -> str:
    """``lemmacheck show``'s words for a statement check."""
    status = sc.get("status", "not compiled")
    if status == "agrees":
        return f"agrees with the check on {sc.get('instances')} instances ({sc.get('compared')})"
    if status == "differs":
        where = f" at step {sc['step']}" if sc.get("step") else ""
        text = f"differs{where}: {sc.get('reason', '')}"
        if sc.get("instance"):
            text += f"\ninstance: {sc['instance']}"
        return text + (f"\nexplained: {sc['explained']}" if sc.get("explained") else "")
    return f"not compiled: {sc.get('reason', '')}"
