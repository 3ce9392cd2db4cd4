"""Deprecated path of the input specs (the authoring guide of 2026-11-25 printed it).

Write ``from lemmacheck import Array, Scalar, ProbVector, OneHot, SPD, Orthogonal``; see
:mod:`lemmacheck.moved`.
"""

from .moved import moved_module

__getattr__ = moved_module(__name__, "lemmacheck.model.inputs")
