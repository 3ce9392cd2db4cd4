"""Why a statement cannot be given to an exact route: one exception every part of certification raises."""

from __future__ import annotations

__all__ = ["NotCertifiable"]


class NotCertifiable(Exception):
    """The statement cannot be given to an exact route; the message says why."""
