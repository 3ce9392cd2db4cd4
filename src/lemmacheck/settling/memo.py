"""One instance's chain at one precision, evaluated once.

Settling a candidate of a chain judges each step and the chain end to end on the *same* instance at the
same precisions, and Hypothesis's verification of an instance is followed by the settlement of that
instance when it stays in the pool: each judgement read the chain again, and the evaluation (the check on
balls or on mpmath object arrays) is the whole cost of high precision.  A chain depends only on the check,
the instance's inputs and dims, and the precision, so it is remembered under those, and a judgement reads
it from here.  That the evaluation cannot be done (balls cannot evaluate the check) is remembered the same
way; anything else it raises (a time limit) is not.
"""

from __future__ import annotations

import collections
import copy
import functools
import threading
from collections.abc import Callable

from ..search.candidates import Instance, instance_key

__all__ = ["CHAINS_KEPT", "remembered"]

#: chains kept, the most recently read ones: a claim's settlement reads each of its candidates' chains a
#: few times (its steps, the chain end to end, Hypothesis's verification before), within a few hundred
#: evaluations of each other; each is a handful of numbers, so the memory is a few MB at most
CHAINS_KEPT = 1024


def remembered(*refusals: type[Exception]) -> Callable[[Callable], Callable]:
    """``evaluate(claim_id, check, inst, *precision) -> chain``, remembered for the last CHAINS_KEPT
    (check, instance, precision), and so are the ``refusals`` it raised.  The check is held with its chain,
    so the ``id`` in the key names it for as long as the chain is kept."""
    return functools.partial(_remembered, refusals=refusals)


def _remembered(evaluate: Callable, refusals: tuple[type[Exception], ...]) -> Callable:
    kept: collections.OrderedDict = collections.OrderedDict()
    lock = threading.Lock()  # a Dask worker may run claims in threads

    @functools.wraps(evaluate)
    def chain(claim_id: str, check, inst: Instance, *precision) -> list:
        key = (claim_id, id(check), instance_key(inst), precision)
        with lock:
            hit = kept.get(key)
            if hit is not None:
                kept.move_to_end(key)
        if hit is None:
            try:
                hit = (check, evaluate(claim_id, check, inst, *precision), None)
            except refusals as exc:
                hit = (check, None, exc)
            with lock:
                kept[key] = hit
                if len(kept) > CHAINS_KEPT:
                    kept.popitem(last=False)
        _, values, raised = hit
        if raised is not None:
            # raised afresh: a traceback kept on the remembered exception would grow with every raise
            raise raised.with_traceback(None)
        assert values is not None  # an entry holds either what was raised or the chain
        return copy.copy(values)  # the caller's own list (of its type): the values are never changed

    return chain
