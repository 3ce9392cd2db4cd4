"""Find and import content modules (``derivations/`` and ``checks/``): no central list of claims."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import os
import sys
import traceback
from pathlib import Path

from .content import content_dirs, content_files, run_current_source

__all__ = ["find_root", "content_dirs", "discover", "run_current_source"]

_DONE: dict[Path, list[tuple[str, str]]] = {}


def find_root(start: Path | None = None) -> Path:
    """The project root: the nearest folder upwards holding a ``pyproject.toml`` with content folders
    (from ``LEMMACHECK_ROOT`` when it is set and no ``start`` is given)."""
    if start is None and os.environ.get("LEMMACHECK_ROOT"):
        start = Path(os.environ["LEMMACHECK_ROOT"])
    here = (start or Path.cwd()).resolve()
    for d in (here, *here.parents):
        if (d / "pyproject.toml").is_file() and any((d / c).is_dir() for c in ("checks", "derivations")):
            return d
    return here


def _content_modules(pkg_name: str, files: dict[str, Path]) -> list[str]:
    """Dotted names of the content modules below ``pkg_name``, sub-packages included, in sorted order.

    A module or sub-package whose name starts with ``_`` is a helper: it is imported by the modules
    that use it, never on its own account (and nothing below a ``_`` package is scanned); a folder
    without ``__init__.py`` is no package.  ``files`` is the walk of the content folders
    (:func:`.content.content_files`: regular files only, no link back into the tree); it imports
    nothing: :func:`discover` does the imports, with error containment.
    """

    def is_package(name: str) -> bool:
        return name in files and files[name].name == "__init__.py"

    names = []
    for name in sorted(files, key=lambda n: n.split(".")):
        parts = name.split(".")
        below = parts[len(pkg_name.split(".")) :]
        if name.startswith(f"{pkg_name}.") and not any(p.startswith("_") for p in below):
            if all(is_package(".".join(parts[:i])) for i in range(len(parts) - len(below), len(parts))):
                names.append(name)
    return names


def discover(root: Path | None = None) -> list[tuple[str, str]]:
    """Import every module of the content packages (recursively) once; return ``(module, error)`` for those
    that fail.

    Derivations are imported before checks so that either may declare a claim's metadata.  A module
    that raises on import is reported, and the others are still imported.
    """
    root = (root or find_root()).resolve()
    if root in _DONE:
        return _DONE[root]
    from .declarations import UNKNOWN
    from .index import load_index

    # The index imported every module in a child process: one that hung, ended or crashed it there is
    # reported from the index, never imported here (unless the failure was no module's doing).
    index = load_index(root)
    known_bad = {m: e for m, e in index.failed_imports() if index.modules[m].fingerprint != UNKNOWN}
    run_current_source(root)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    errors: list[tuple[str, str]] = []
    files = content_files(root)
    for pkg_name in content_dirs(root):
        pkg_dir = root / pkg_name
        if not pkg_dir.is_dir():
            continue
        if pkg_name in known_bad:
            errors.append((pkg_name, known_bad[pkg_name]))
            continue
        try:
            importlib.import_module(pkg_name)
        except (Exception, SystemExit) as exc:
            errors.append((pkg_name, f"{type(exc).__name__}: {exc}"))
            continue
        failed: list[str] = []
        for name in _content_modules(pkg_name, files):
            if any(name.startswith(f + ".") for f in failed):
                continue  # inside a sub-package that failed to import: reported once, by the package
            if name in known_bad:
                errors.append((name, known_bad[name]))
                failed.append(name)
                continue
            try:
                importlib.import_module(name)
            except (Exception, SystemExit) as exc:
                tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
                errors.append((name, f"{type(exc).__name__}: {exc}\n{''.join(tb[-2:])}"))
                failed.append(name)
    _DONE[root] = errors
    return errors
