"""Which symbol table a claim's statement is read with: the content declares it, next to its claims.

A content module's ``symbols = SymbolTable(...)`` reads every statement it declares (its
``claim_symbols[id]`` one claim's); without one, the nearest package's ``_notation`` module's ``symbols``
going up (``checks/<topic>/_notation.py``, then ``checks/_notation.py``).  The engine never holds a
document's notation: it only looks where the content says its notation is.
"""

from __future__ import annotations

import importlib
import sys

from .errors import LatexError
from .symbols import SymbolTable

__all__ = ["table_for"]


def table_for(module: str, claim_id: str = "") -> SymbolTable:
    """The table of ``module`` (a content module's name); :class:`LatexError` says where to declare one.
    ``claim_symbols = {"id": table}`` in the module reads one claim with its own table (a passage that
    says what its notation means, as seed 000's "element-wise-1 norm" for an unindexed norm)."""
    mod = sys.modules.get(module) or importlib.import_module(module)
    table = getattr(mod, "claim_symbols", {}).get(claim_id) or getattr(mod, "symbols", None)
    package = module
    while table is None and "." in package:  # the topic's _notation, then the content tree's
        package = package.rsplit(".", 1)[0]
        try:
            table = getattr(importlib.import_module(package + "._notation"), "symbols", None)
        except ModuleNotFoundError:
            table = None
    if not isinstance(table, SymbolTable):
        package = module.rsplit(".", 1)[0]
        raise LatexError(
            f"no symbol table for {module}",
            fix=f"declare `symbols = SymbolTable(...)` in {module} or in {package}._notation",
        )
    return table
