"""Array namespaces: one check function runs on float64 NumPy batches, on mpmath object arrays and on balls.

A check is written once against ``xp`` (the Array-API convention).  :data:`numpy_xp` evaluates it on
float64 batches for search; :data:`mpmath_xp` evaluates the *same* function on object arrays of
``mpmath.mpf`` at 50+ digits; :data:`ball_xp` on object arrays of :class:`Ball` (Arb balls, rounded
outward), where every result encloses the exact value, so a margin that excludes 0 proves its sign.
All are batched along leading axes.  docs/authoring.md ("the xp vocabulary") lists the functions.
"""

from ._common import Namespace
from .ball import Ball, NotEnclosable, Undecided, ball_precision, bits_for, to_ball
from .ball_ns import ball_xp
from .mpmath_ns import mp_precision, mpmath_xp, to_mp
from .numpy_ns import numpy_xp

__all__ = [
    "numpy_xp",
    "mpmath_xp",
    "ball_xp",
    "to_mp",
    "to_ball",
    "mp_precision",
    "ball_precision",
    "bits_for",
    "Namespace",
    "Ball",
    "NotEnclosable",
    "Undecided",
]
