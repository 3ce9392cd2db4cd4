"""A relation between the two sides of a step, in float64: how far it is from failing, and the chain a
check returns (evaluated and validated).

Every measure is relative to ``|lhs| + |rhs|`` (:mod:`lemmacheck.model.tolerance`), so it reads the same at
every magnitude.  :func:`perturbed` moves an instance by a few ulps, which is how the search measures a
candidate's rounding sensitivity.
"""

from __future__ import annotations

import warnings
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import CheckError
from ..model.claim import NumericCheck
from ..model.inputs import call_with_inputs
from ..model.returns import validated_chain
from ..model.tolerance import NOISE_ULPS, Tolerance, slack

__all__ = [
    "evaluate_chain",
    "gap",
    "violated",
    "violated_at",
    "excess",
    "ratio",
    "compose",
    "take",
    "perturbed",
    "perturbed_copies",
]


def evaluate_chain(
    claim_id: str, check: NumericCheck, xp, inputs: Mapping[str, Any], dims: Mapping[str, Any], batch: int
) -> list:
    """Run the check and validate what it returns: a chain of k+1 arrays of shape (batch,)."""
    try:
        # Floating-point warnings are not the verdict's business: non-finite results are caught below,
        # the same way under pytest's warnings-as-errors as on the command line.
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            out = call_with_inputs(check.fn, xp, inputs, dims)
    except CheckError:
        raise
    except Exception as exc:  # the check itself broke: name the claim, the dims and the cause
        raise CheckError(claim_id, f"the check raised {type(exc).__name__}: {exc} (dims {dims})") from exc
    return validated_chain(claim_id, check, out, inputs, dims, batch)


def gap(a, b, relation: str, tol: Tolerance):
    """How far ``a R b`` is from failing, normalised by ``|a| + |b|``: > 0 means violated beyond the slack.

    Purely relative (see :mod:`lemmacheck.model.tolerance`), so it reads the same at every magnitude.  Two
    exact zeros satisfy ``=``, ``<=`` and ``>=`` (gap -inf) and violate ``<`` and ``>`` (gap 0).
    """
    with np.errstate(all="ignore"):  # finite inputs (checked before) can still overflow in |a| + |b|
        return _gap(np.asarray(a, dtype=float), np.asarray(b, dtype=float), relation, tol)


def _gap(a, b, relation: str, tol: Tolerance):
    if relation == "~":  # an approximate step: never a violation
        return np.full(np.shape(a), -np.inf)
    strict = relation in ("<", ">")
    scale = np.abs(a) + np.abs(b)
    num = _excess(a, b, relation, slack(a, b, tol))
    positive = scale > 0
    out = np.where(positive, num / np.where(positive, scale, 1.0), np.where(num > 0, np.inf, -np.inf))
    if strict:
        out = np.where((scale == 0) & (num >= 0), 0.0, out)
    return out


def violated(a, b, relation: str, tol: Tolerance):
    return violated_at(gap(a, b, relation, tol), relation)


def violated_at(g, relation: str):
    """Where a relation whose :func:`gap` is ``g`` is violated (a strict one already at a gap of 0)."""
    return g >= 0 if relation in ("<", ">") else g > 0


def excess(a, b, relation: str, tol: Tolerance):
    """The violation beyond the slack, in the sides' own units (what rounding sensitivity is measured in)."""
    with np.errstate(all="ignore"):
        a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        return _excess(a, b, relation, slack(a, b, tol))


def _excess(a: np.ndarray, b: np.ndarray, relation: str, s: np.ndarray) -> np.ndarray:
    """:func:`excess` given the slack ``s`` (only the difference the relation reads is computed)."""
    if relation in ("<=", "<"):
        d = a - b
    elif relation in (">=", ">"):
        d = b - a
    else:
        d = np.abs(a - b)
    return d + s if relation in ("<", ">") else d - s


def ratio(a, b, relation: str):
    """Tightness: lhs/rhs for <= (1.0 means attained), rhs/lhs for >=; NaN where undefined."""
    with np.errstate(all="ignore"):  # a ratio that overflows is +inf, and counts as such
        if relation in ("<=", "<"):
            r = np.where(b > 0, a / np.where(b > 0, b, 1.0), np.nan)
        elif relation in (">=", ">"):
            r = np.where(a > 0, b / np.where(a > 0, a, 1.0), np.nan)
        else:
            r = np.full(np.shape(a), np.nan)
    return r


def compose(relations: Sequence[str]) -> str:
    """The relation a chain asserts end to end; mixed directions assert nothing checkable."""
    rel = [r for r in relations if r != "~"]
    if not rel:
        return "~"
    if all(r == "=" for r in rel):
        return "="
    if all(r in ("=", "<=", "<") for r in rel):
        return "<" if "<" in rel else "<="
    if all(r in ("=", ">=", ">") for r in rel):
        return ">" if ">" in rel else ">="
    return "~"


def take(inputs: Mapping[str, np.ndarray], j: int) -> dict:
    return {k: np.asarray(v)[j : j + 1].copy() for k, v in inputs.items()}


def take_rows(inputs: Mapping[str, np.ndarray], rows: np.ndarray) -> list[dict]:
    """:func:`take` of each of ``rows``, gathered in one copy per input: each row's arrays are slices of
    that copy, disjoint from every other row's, so they hold the same values as separate copies would
    (a row at a time cost a Python dict and a copy per input, over a million times in a catalogue run)."""
    gathered = {k: np.asarray(v)[rows] for k, v in inputs.items()}
    return [{k: v[i : i + 1] for k, v in gathered.items()} for i in range(len(rows))]


#: the signs a perturbation moves an entry by, indexed by the generator's 0/1 draws
_SIGNS = np.array([-1.0, 1.0])


def perturbed(inputs: Mapping[str, np.ndarray], repeat: int) -> dict:
    """The inputs with every float entry moved by NOISE_ULPS ulps (relative, random sign).

    The signs are drawn from the inputs' own bytes, so the same instance is always perturbed the same
    way: a candidate's significance is a function of the candidate (Hypothesis replays it identically).
    """
    return _perturbed(inputs, _digest(inputs), repeat)


def perturbed_copies(inputs: Mapping[str, np.ndarray], repeats: int) -> list[dict]:
    """``[perturbed(inputs, r) for r in range(repeats)]``, the inputs' bytes read once for all of them."""
    digest = _digest(inputs)
    return [_perturbed(inputs, digest, r) for r in range(repeats)]


def _digest(inputs: Mapping[str, np.ndarray]) -> int:
    digest = 0
    for v in inputs.values():
        digest = _crc32(np.ascontiguousarray(v), digest)  # of the inputs' bytes end to end
    return digest


def _perturbed(inputs: Mapping[str, np.ndarray], digest: int, repeat: int) -> dict:
    out = {k: np.asarray(v) for k, v in inputs.items()}
    floats = [k for k, v in out.items() if v.dtype.kind == "f"]
    if not floats:
        return out
    rng = np.random.default_rng([digest, repeat])
    # Generator.choice((-1.0, 1.0), size) draws integers(0, 2, size) and indexes; each of those draws
    # takes one 32-bit word of the stream, so one call for every float input gives each input the draws
    # its own call would (a call per input cost as much as the rest of the perturbation)
    signs = _SIGNS[rng.integers(0, 2, size=sum(out[k].size for k in floats))]
    at = 0
    for k in floats:
        v = out[k]
        u = signs[at : at + v.size].reshape(v.shape) * (NOISE_ULPS * np.finfo(v.dtype).eps)
        out[k] = v * (1.0 + u)
        at += v.size
    return out


def _crc32(a: np.ndarray, start: int) -> int:
    """The CRC-32 of ``a``'s bytes continuing ``start``, read in place (a copy only where the array
    offers no buffer, as an object array does)."""
    try:
        return zlib.crc32(a.data, start)
    except (TypeError, ValueError, BufferError):
        return zlib.crc32(a.tobytes(), start)
