"""Whether float64 evaluated an instance faithfully: no overflow, underflow, invalid operation or division
by zero on the way.

At magnitudes across the float range (:mod:`.wide`) and where the local optimiser drives an entry to
1e-300 (:mod:`.optimise`), a side can underflow to 0 (``σ⁴`` of σ = 1e-90) and pose as a violation that
rounding sensitivity cannot see: a perturbation of a few ulps underflows the same way.  Settling would
reject each such candidate in high precision, but thousands of them spend the settling budget and make a
true claim INCONCLUSIVE.  So a violating instance from those two sources counts only where its float64
evaluation raised no floating-point exception; the others are dropped, never judged, and counted.
Exceptions are located by evaluating the rows in a few groups (a batch raises as a whole).
"""

from __future__ import annotations

import contextlib
import os
import sys
import warnings

import numpy as np

from ..model.inputs import call_with_inputs
from ..xp import numpy_xp

__all__ = ["faithful_rows", "native_output_muted"]


@contextlib.contextmanager
def native_output_muted():
    """File descriptor 1 sent to /dev/null inside the block: LAPACK's error handler writes
    "On entry to DLASCL parameter number 4 had an illegal value" there, from C, for every SVD of a matrix
    that overflowed to inf, and NumPy then raises (or returns NaN), which the caller handles.  Python's
    own ``sys.stdout`` is flushed first, so nothing written before the block is lost."""
    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no file descriptor 1 (an embedded interpreter): nothing to mute
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


def _raises(check, inputs: dict, dims) -> bool:
    try:
        with np.errstate(all="raise"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            call_with_inputs(check.fn, numpy_xp, inputs, dims)
    except Exception:  # FloatingPointError, or the check raising on what it made of it
        return True
    return False


#: groups the rows are tested in when they raise together: at most 1 + FAITHFUL_GROUPS calls, and a
#: group that raises is dropped whole (a wide batch's violations are mostly of one kind)
FAITHFUL_GROUPS = 8


def faithful_rows(check, inputs: dict, dims, rows: np.ndarray) -> np.ndarray:
    """Which of ``rows`` (indices into the batch ``inputs``) float64 evaluates without a floating-point
    exception, as a boolean mask over ``rows``: all of them at once, else in FAITHFUL_GROUPS groups, a
    group that raises counting as raising in every row (conservative: such rows are dropped, never
    judged, and a violation that is real shows again in rows that do not under- or overflow)."""

    def clean(part: np.ndarray) -> bool:
        return not _raises(check, {k: np.asarray(v)[rows[part]] for k, v in inputs.items()}, dims)

    everything = np.arange(rows.size)
    if clean(everything):
        return np.ones(rows.size, dtype=bool)
    ok = np.zeros(rows.size, dtype=bool)
    if rows.size > 1:
        for part in np.array_split(everything, min(FAITHFUL_GROUPS, rows.size)):
            ok[part] = clean(part)
    return ok
