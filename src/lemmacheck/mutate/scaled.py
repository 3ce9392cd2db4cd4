"""A claim's bound made tighter by a factor: the variant that measures whether a search reaches the supremum.

A relation chain ``e0 R ... R ek`` whose tightness (lhs/rhs over the instances that hold, rhs/lhs for
``>=``) reaches t is stated again with its end-to-end ratio divided by ``1 - delta``: the last side times
``1 - delta`` for ``<=``, divided by it for ``>=``.  Where t > 1 - delta the variant is false, and a search
that reaches the supremum refutes it.  Built from the check's function as the mutation targets name it
(:func:`.mutant.kind_targets`), so it applies to every kind whose check is a relation chain.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

from ..model.claim import Claim
from .mutant import kind_targets

__all__ = ["scaled_bound"]


def scaled_bound(claim: Claim, delta: float) -> Claim:
    """``claim`` with its end-to-end ratio divided by ``1 - delta`` (same id, so it replays the same seeds).
    Raises ValueError for a claim whose check is not an inequality chain."""
    check = claim.check
    targets = kind_targets(check)
    rels = targets.relations if targets is not None else ()
    ups, downs = set(rels) <= {"<=", "<", "="}, set(rels) <= {">=", ">", "="}
    chain = targets is not None and targets.function is not None and bool(rels) and not set(rels) <= {"="}
    if check is None or targets is None or targets.function is None or not chain or not (ups or downs):
        raise ValueError(f"{claim.id}: its check is not an inequality chain, so it has no bound to scale")
    field, fn = targets.function
    factor = 1 - delta if ups else 1 / (1 - delta)

    @functools.wraps(fn)  # the signature is what the engine reads the inputs and dims from
    def tightened(*args, **kwargs):
        out = list(fn(*args, **kwargs))
        out[-1] = out[-1] * factor
        return tuple(out)

    changes: dict[str, Any] = {field: tightened}
    return dataclasses.replace(claim, check=dataclasses.replace(check, **changes))
