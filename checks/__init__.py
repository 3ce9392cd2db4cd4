"""Numeric checks, one folder per topic; shared vocabulary in ``checks._vocab`` (see docs/authoring.md).

``_vocab/`` sources, linalg, activations, rnn, fd: each name defined once.  ``<topic>/_helpers.py``: what
only that topic uses.  ``<topic>/<module>.py``: claims.  Discovery imports every module and sub-package
whose name does not start with ``_``.
"""
