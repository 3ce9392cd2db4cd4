"""The optional extras of ``pyproject.toml`` and the features that need them, named once.

A feature whose extra is missing raises :class:`lemmacheck.errors.MissingExtraError` naming the extra to
install; the CLI prints it as a usage error (exit 4), never as a bug in lemmacheck.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

from .errors import MissingExtraError

__all__ = ["EXTRAS", "require", "available", "install_hint"]

#: extra -> (the module it provides, the feature that needs it)
EXTRAS: dict[str, tuple[str, str]] = {
    "dask": ("distributed", "--dask (each claim a task on a Dask scheduler)"),
    "watch": ("watchfiles", "lemmacheck watch"),
    "certify": ("z3", "--certify's Z3 route"),
    "notebook": ("pandas", ".to_dataframe()"),
}


def install_hint(extra: str) -> str:
    return f"pip install 'lemmacheck[{extra}]' (in a checkout of lemmacheck: pip install -e '.[{extra}]')"


def available(extra: str) -> bool:
    module = EXTRAS[extra][0]
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a module set to None in sys.modules: treated as absent
        return False


def require(extra: str) -> ModuleType:
    """The module of ``extra``, imported; :class:`MissingExtraError` naming the extra when it is absent."""
    module, feature = EXTRAS[extra]
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"{feature} needs the optional extra '{extra}' ({module} is not installed): {install_hint(extra)}"
        ) from exc
