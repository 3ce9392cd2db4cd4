"""Deprecated path of the tolerance policy (claim files of 2026-11-25 imported ``REVERIFY_DPS`` from it).

Write ``from lemmacheck import REVERIFY_DPS, Tolerance``; see :mod:`lemmacheck.moved`.
"""

from .moved import moved_module

__getattr__ = moved_module(__name__, "lemmacheck.model.tolerance")
