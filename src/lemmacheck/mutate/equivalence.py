"""Is a mutated expression of a derivation the original one?  Decided from the two expressions, never
from a run's evidence.

``expand(new − old) = 0`` first (cheap); then both are evaluated at a few random rational points, with
undefined functions instantiated as the derivation checker does (:mod:`lemmacheck.kinds.symbolic_exact`): a
difference there means the mutant changes the expression, and it is run; otherwise SymPy is asked to
``simplify(new − old)`` to 0, under a time cap of its own.  Only a SymPy zero makes a mutant equivalent.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping

import numpy as np
import sympy as sp

from ..kinds.symbolic import sample_symbols
from ..kinds.symbolic_exact import evaluated, instantiations, rational_points
from ..kinds.sympy_cap import SymPyStopped, sympy_cap

__all__ = ["equal_expressions", "EQUIVALENCE_SECONDS"]

# SymPy's time for one mutant's simplification; past it the mutant is run like any other.
EQUIVALENCE_SECONDS = 5.0
# Rational points at which a difference is looked for before SymPy is asked.
_POINTS = 4


def _differs_somewhere(diff, domain: Mapping, rng) -> bool:
    """Whether ``diff`` is visibly nonzero at one of a few rational points (exactly, or at 30 digits)."""
    functions = instantiations([diff], rng)
    syms = sorted(diff.free_symbols, key=str)
    for point in rational_points(sample_symbols(syms, domain, _POINTS, rng), domain):
        try:
            v = evaluated(diff, point, functions)
            if v.is_Rational:
                if v != 0:
                    return True
                continue
            z = complex(sp.N(v, 30))
        except Exception:  # not evaluable here: no evidence either way
            continue
        if np.isfinite(z.real) and np.isfinite(z.imag) and abs(z) > 1e-20:
            return True
    return False


def equal_expressions(old, new, domain: Mapping, seed: str) -> str | None:
    """Why ``new`` is the same expression as ``old`` (SymPy shows their difference is 0), or None."""
    try:
        if new == old or sp.expand(new - old) == 0:
            return "SymPy: expand(new − old) = 0, the mutated expression equals the original"
        if _differs_somewhere(new - old, domain, np.random.default_rng(zlib.crc32(seed.encode()))):
            return None
        with sympy_cap(EQUIVALENCE_SECONDS):
            zero = sp.simplify(new - old) == 0
    except SymPyStopped:
        return None
    except Exception:  # SymPy cannot rewrite it: not known equal
        return None
    return "SymPy: simplify(new − old) = 0, the mutated expression equals the original" if zero else None
