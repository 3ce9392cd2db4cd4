"""An approximation's check as a relation check at fixed step sizes, so that its statement is compared like
any relation's.

``@approximation`` checks ``fn(xp, eps, **inputs) -> (lhs, rhs)`` with ``|lhs - rhs| = O(eps^order)``
measured over ``eps0, eps0/2, ...``.  The statement (``A \\simeq B``, ``A \\le B`` to first order) states the
same two sides: compared at ``eps0`` and ``eps0/16`` (a dim ``eps`` the table maps the statement's step to,
``Input("eps")``), the same margins and ratios are asked of them as of a relation and its check, so a
changed coefficient or a dropped term differs at the first step size already.
"""

from __future__ import annotations

import dataclasses
import inspect

from ..model.claim import ApproximationCheck, Claim, NumericCheck

__all__ = ["as_relation_claim", "STEPS"]

STEPS = (1, 1 / 16)  # the step sizes compared, as fractions of the check's eps0


def as_relation_claim(claim: Claim) -> Claim:
    check = claim.check
    assert isinstance(check, ApproximationCheck)
    params = list(inspect.signature(check.fn).parameters.values())[2:]  # after xp, eps

    def fn(xp, *, eps, **named):
        return check.fn(xp, eps, **named)

    sig = [inspect.Parameter("xp", inspect.Parameter.POSITIONAL_ONLY)]
    sig += [inspect.Parameter("eps", inspect.Parameter.KEYWORD_ONLY)]
    sig += [
        p.replace(kind=inspect.Parameter.KEYWORD_ONLY) if p.kind is not p.VAR_KEYWORD else p for p in params
    ]
    fn.__signature__ = inspect.Signature(sig)  # type: ignore[attr-defined]
    relation = "~" if check.relation in ("~", "=") else check.relation
    numeric = NumericCheck(
        fn=fn,
        inputs=check.inputs,
        dims={**check.dims, "eps": [check.eps0 * s for s in STEPS]},
        relations=(relation,),
    )
    return dataclasses.replace(claim, check=numeric)
