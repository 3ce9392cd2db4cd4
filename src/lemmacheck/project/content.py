"""Where a project's content lives and how its modules are imported: the content folders, imports
from the modules' current text, and importing named modules with each failure kept.

The bottom of content loading: the index (:mod:`.index`), its import child (:mod:`.declarations`) and
the whole-catalogue import (:mod:`.discovery`) all import it; it imports none of them."""

from __future__ import annotations

import contextlib
import importlib
import importlib.machinery
import importlib.util
import marshal
import os
import stat
import sys
import traceback
from collections.abc import Iterable
from pathlib import Path

__all__ = ["content_dirs", "content_files", "run_current_source", "import_modules"]


def content_dirs(root: Path) -> list[str]:
    import tomllib

    pp = root / "pyproject.toml"
    if pp.is_file():
        cfg = tomllib.loads(pp.read_text()).get("tool", {}).get("lemmacheck", {})
        if "content" in cfg:
            return list(cfg["content"])
    return ["derivations", "checks"]


def content_files(root: Path) -> dict[str, Path]:
    """Every ``*.py`` under the content folders, as module name -> path, in sorted order (a package's
    ``__init__.py`` under the package's name).  Only regular files count: a FIFO named ``x.py`` would
    hang whoever opened it.  A link is followed only when it leads out of the project (shared content
    kept elsewhere); one leading back into it (``loop -> ..``) would import the tree again under new
    names.  What is skipped is said once per process, on stderr."""
    root = Path(root).resolve()
    inside = [root, *((root / d).resolve() for d in content_dirs(root))]
    out: dict[str, Path] = {}
    for pkg in content_dirs(root):
        if (root / pkg).is_dir():
            _walk(root, root / pkg, [pkg], inside, {(root / pkg).resolve()}, out)
    return out


def _walk(root: Path, folder: Path, name: list[str], inside: list[Path], seen: set[Path], out: dict) -> None:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        return _skipped(root, folder, f"could not be read ({exc.strerror or exc})")
    for entry in entries:
        path = Path(entry.path)
        if entry.name.startswith(".") or entry.name == "__pycache__":
            continue
        if entry.is_symlink():
            try:
                target = path.resolve(strict=True)
            except (OSError, RuntimeError):  # dangling, or a loop of links
                _skipped(root, path, f"is a link to {os.readlink(path)!r}, which leads nowhere")
                continue
            if any(target.is_relative_to(t) for t in inside) or target in seen:
                _skipped(root, path, f"is a link back into the project (to {target}); not followed")
                continue
        try:
            mode = path.stat().st_mode
        except OSError:
            continue  # removed while we looked
        if stat.S_ISDIR(mode):
            _walk(root, path, [*name, entry.name], inside, seen | {path.resolve()}, out)
        elif entry.name.endswith(".py"):
            if not stat.S_ISREG(mode):
                _skipped(root, path, "is not a regular file (a FIFO, socket or device); not imported")
                continue
            stem = entry.name[: -len(".py")]
            out[".".join(name if stem == "__init__" else [*name, stem])] = path
    return None


_SAID: set[str] = set()


def _skipped(root: Path, path: Path, why: str) -> None:
    shown = path.relative_to(root) if path.is_relative_to(root) else path
    line = f"lemmacheck: warning: {shown} {why}"
    if line not in _SAID:
        _SAID.add(line)
        print(line, file=sys.stderr, flush=True)


# A pyc whose header says: hash-based, checked against the source (PEP 552), for this interpreter.
_CHECKED_HASH_FLAGS = (0b11).to_bytes(4, "little")


class _HashCheckedLoader(importlib.machinery.SourceFileLoader):
    """Runs a project module from the bytecode of its text as it is now.  Python's default ``.pyc``
    check is the source's modification time and size, so a same-size edit that keeps the time would
    run the old code while the result cache keys the result by the new text's hash; here the ``.pyc``
    is hash-based, and used only when its hash is the source's."""

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        source = self.get_data(path)
        header = importlib.util.MAGIC_NUMBER + _CHECKED_HASH_FLAGS + importlib.util.source_hash(source)
        try:
            cached = importlib.util.cache_from_source(path)
        except NotImplementedError:
            cached = None
        if cached is not None:
            with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
                data = self.get_data(cached)
                if data[:16] == header:
                    return marshal.loads(data[16:])
        code = self.source_to_code(source, path)
        if cached is not None and not sys.dont_write_bytecode:
            with contextlib.suppress(OSError, NotImplementedError):
                self.set_data(cached, header + marshal.dumps(code))
        return code


class _ProjectFinder:
    """Finds modules of one project (files under its root, outside virtual environments) with
    :class:`_HashCheckedLoader`; anything else is left to the usual finders."""

    def __init__(self, root: Path):
        self.root = root

    def find_spec(self, fullname, path=None, target=None):
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or type(spec.loader) is not importlib.machinery.SourceFileLoader:
            return None
        origin = Path(spec.origin)
        if not origin.is_relative_to(self.root) or {".venv", "site-packages"} & set(origin.parts):
            return None
        spec.loader = _HashCheckedLoader(fullname, spec.origin)
        return spec


def run_current_source(root: Path) -> None:
    """From now on, this process imports ``root``'s modules from their current text (see
    :class:`_HashCheckedLoader`).  Idempotent."""
    root = Path(root).resolve()
    if not any(isinstance(f, _ProjectFinder) and f.root == root for f in sys.meta_path):
        sys.meta_path.insert(0, _ProjectFinder(root))


def import_modules(root: Path, modules: Iterable[str]) -> list[tuple[str, str]]:
    """Import content ``modules`` (discovery order); return ``(module, error)`` for those that fail,
    in the form :func:`lemmacheck.project.discovery.discover` returns."""
    root = root.resolve()
    run_current_source(root)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    errors = []
    for name in modules:
        try:
            importlib.import_module(name)
        except (Exception, SystemExit) as exc:  # sys.exit() at import fails that module, not the process
            tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__)[-2:])
            what = f"sys.exit({exc.code!r}) called at import" if isinstance(exc, SystemExit) else exc
            errors.append((name, f"{type(exc).__name__}: {what}\n{tb}"))
    return errors
