"""Relation chains and properties checked on sampled instances: the declaration units (``@inequality``,
``@identity``, ``@prop``, :mod:`.declare`), the checker (:mod:`.check`) and its evidence's schema
(:mod:`.schema`)."""

from .check import SWEEP_CONFIRMATIONS, NumericChecker, NumericEvidence, counterexample_record
from .declare import identity, inequality, prop

__all__ = [
    "NumericEvidence",
    "NumericChecker",
    "counterexample_record",
    "SWEEP_CONFIRMATIONS",
    "inequality",
    "identity",
    "prop",
]
