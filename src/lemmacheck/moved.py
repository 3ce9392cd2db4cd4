"""Import paths that the documentation once showed and that have since moved.

An author's claim file is the project's most valuable data, so a path the authoring guide or the README
ever printed keeps working for a deprecation period: the old module is a shim whose module-level
``__getattr__`` (PEP 562) hands out the name from its new home and raises a ``DeprecationWarning`` that
names the import to write instead.  The names an author needs all come from the façade
(``from lemmacheck import Array``); a name the façade does not export points at its engine module.
The table of moves, each with the date it was made, is in CHANGELOG.md.
"""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Callable
from typing import Any

__all__ = ["REMOVED_AFTER", "moved_module", "new_import"]

#: the old paths are removed in the first release after this date (CHANGELOG.md, "Deprecated")
REMOVED_AFTER = "2027-06-01"


def new_import(name: str, new_module: str) -> str:
    """The import line an author should write for ``name`` now: the façade's when it exports it."""
    facade = sys.modules.get("lemmacheck")  # always imported before any of its submodules
    if facade is not None and name in getattr(facade, "__all__", ()):
        return f"from lemmacheck import {name}"
    return f"from {new_module} import {name}"


def moved_module(old_module: str, new_module: str) -> Callable[[str], Any]:
    """The ``__getattr__`` of the shim ``old_module``: every name of ``new_module``, with a warning."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):  # import machinery probing (__path__, __file__ …) is no author's use
            raise AttributeError(name)
        value = getattr(importlib.import_module(new_module), name)  # AttributeError names new_module
        warnings.warn(
            f"`{old_module}` has moved: write `{new_import(name, new_module)}` "
            f"(the old path works until {REMOVED_AFTER}; see CHANGELOG.md)",
            DeprecationWarning,
            stacklevel=2,
        )
        return value

    return __getattr__
