"""One checker per kind of claim, behind one interface (:mod:`.base`); importing this package registers them."""

from . import approximation, complexity, derivation, numeric, value
from .base import CHECKERS, Checker, Context, Outcome, checker_for, register

__all__ = ["CHECKERS", "Checker", "Context", "Outcome", "checker_for", "register", "approximation", "complexity",
           "derivation", "numeric", "value"]
