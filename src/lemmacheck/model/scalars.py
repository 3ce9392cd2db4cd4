"""What a declaration may give as a number: a finite real, and a size (the length of an axis).

Shared by the field checks (:mod:`.fields`), the input specifications (:mod:`.inputs`) and the
profiles (:mod:`.profile`), which all sit above this module.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

__all__ = ["is_finite_real", "is_size"]


def is_finite_real(x: Any) -> bool:
    """A real number that is not a bool, NaN or infinite."""
    return isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(x)


def is_size(x: Any) -> bool:
    """A length of an axis: a positive whole number (not a bool, not 2.0)."""
    return isinstance(x, numbers.Integral) and not isinstance(x, bool) and int(x) > 0
