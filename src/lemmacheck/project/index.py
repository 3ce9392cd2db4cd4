"""An index of the content: which module declares each claim, and which project files each module imports.

``lemmacheck run -k <id>`` reads it to import only the modules a claim needs instead of the whole
catalogue; the result cache reads it to know which files can change a claim's verdict; ``watch`` reads
it to know which claims a saved file reaches.

What a module *declares* is learned by importing it (ids may be computed, so parsing would guess); that
happens only for files whose size or mtime changed since the index was written, in a fresh Python
process so the caller's registry is never polluted.  What a module *imports* is read from its source
(the ``ast``), so lazy imports inside functions count too.  The index lives in
``<root>/.lemmacheck-cache/index.json`` and is replaced atomically.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from ..libraries import library_versions
from ..model.premises import catalogue_problems
from .content import content_files, import_modules
from .declarations import declarations_into as _declarations_into

__all__ = [
    "ContentIndex",
    "CACHE_DIR",
    "load_index",
    "import_modules",
    "write_atomic",
    "set_aside",
    "known_statements",
]

CACHE_DIR = ".lemmacheck-cache"
_FORMAT = 5  # bump when the index layout changes


@dataclasses.dataclass
class ModuleRecord:
    """One project file: what it declares (filled by importing it) and what it imports (from its source)."""

    file: str  # relative to the project root, POSIX separators
    fingerprint: tuple[int, int, int]  # (mtime_ns, size, ctime_ns): an edit that restores the mtime is seen
    content: bool  # under a content folder (imported by discovery); False for other project files it imports
    imports: list[str] = dataclasses.field(default_factory=list)  # project modules it imports
    claims: list[str] = dataclasses.field(default_factory=list)  # ids it declares (metadata or check)
    derivations: list[str] = dataclasses.field(default_factory=list)  # ids whose derivation it holds
    studies: list[str] = dataclasses.field(default_factory=list)
    errors: list[str] = dataclasses.field(default_factory=list)  # ids of malformed declarations
    error_messages: list[str] = dataclasses.field(default_factory=list)  # their messages, same order
    corrects: dict[str, str] = dataclasses.field(default_factory=dict)  # claim id -> the id it corrects
    uses: dict[str, list[str]] = dataclasses.field(default_factory=dict)  # claim id -> its uses= (if any)
    premises: dict[str, list[str]] = dataclasses.field(default_factory=dict)  # id -> uses= and step_is=
    import_error: str = ""
    statements: list[str] = dataclasses.field(default_factory=list)  # its claims' that latex2mathml converted


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` so a reader sees the old file or the new one, never half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)  # mkstemp makes it private; a report or an index is for every reader
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _declared(rec: ModuleRecord) -> list[str]:
    return rec.claims + rec.derivations + rec.studies + rec.errors


def _module_name(rel: Path) -> str:
    parts = list(rel.with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _content_files(root: Path) -> dict[str, Path]:
    """Every ``*.py`` under the content folders, nested packages included, as module name -> path (odd
    files and links back into the tree are skipped: :func:`.content.content_files`)."""
    return content_files(root)


def _project_module_file(root: Path, name: str) -> Path | None:
    """The file of an importable project module ``name`` (``a.b`` -> a/b.py or a/b/__init__.py), if any."""
    base = root.joinpath(*name.split("."))
    for cand in (base.with_suffix(".py"), base / "__init__.py"):
        if cand.is_file():
            return cand
    return None


def _imports_of(source: str, module: str, *, is_package: bool) -> set[str]:
    """Every dotted module name ``source`` may import (absolute, relative resolved), with its parents."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    names: set[str] = set()
    pkg_parts = module.split(".") if is_package else module.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = pkg_parts[: len(pkg_parts) - (node.level - 1)] if node.level > 1 else pkg_parts
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base:
                names.add(base)
                names.update(f"{base}.{a.name}" for a in node.names if a.name != "*")
    # importing a.b.c runs a/__init__.py and a/b/__init__.py too
    return {".".join(n.split(".")[: i + 1]) for n in names for i in range(len(n.split(".")))}


def _fingerprint(path: Path) -> tuple[int, int, int]:
    st = path.stat()
    return (st.st_mtime_ns, st.st_size, st.st_ctime_ns)


@dataclasses.dataclass
class ContentIndex:
    root: Path
    modules: dict[str, ModuleRecord]  # in discovery order: content folders in configured order, then name

    # ----------------------------------------------------------------- questions the callers ask

    def claim_ids(self, select: Callable[[str], bool] | None = None) -> list[str]:
        """Claim ids in catalogue order (the order discovery registers them), optionally filtered."""
        seen: dict[str, None] = {}
        for rec in self.modules.values():
            for cid in rec.claims:
                seen.setdefault(cid, None)
        return [c for c in seen if select is None or select(c)]

    def study_ids(self, select: Callable[[str], bool] | None = None) -> list[str]:
        return [s for rec in self.modules.values() for s in rec.studies if select is None or select(s)]

    def declaring_modules(self, ids: Iterable[str]) -> list[str]:
        """The content modules to import so that every id (claim, derivation, study or malformed
        declaration) in ``ids`` is registered whole, in discovery order."""
        wanted = set(ids)
        return [m for m, rec in self.modules.items() if rec.content and not wanted.isdisjoint(_declared(rec))]

    def failed_imports(self) -> list[tuple[str, str]]:
        return [(m, rec.import_error) for m, rec in self.modules.items() if rec.import_error]

    def definition_errors(self) -> list[tuple[str, str, str]]:
        """``(claim id, module, message)`` of every malformed declaration, as the registry keeps them, and
        every problem of the premise graph."""
        return [
            (cid, m, msg)
            for m, rec in self.modules.items()
            for cid, msg in zip(rec.errors, rec.error_messages, strict=True)
        ] + self.premise_problems()

    def corrected_by(self) -> dict[str, list[str]]:
        """For each claim, the claims declared as its corrected forms (the catalogue's links), so a run
        can fill ``corrected_by`` without importing every module."""
        out: dict[str, list[str]] = {}
        for rec in self.modules.values():
            for cid, target in rec.corrects.items():
                out.setdefault(target, []).append(cid)
        return out

    def statements(self) -> set[str]:
        """Every statement the index's interpreter saw latex2mathml convert (with the version installed:
        an index written with another is rebuilt), so a worker need not convert it again."""
        return {t for rec in self.modules.values() for t in rec.statements}

    def premises(self) -> dict[str, list[str]]:
        """Each claim's premises (``uses=`` and ``step_is=``), every claim of the catalogue a key."""
        out: dict[str, list[str]] = {cid: [] for cid in self.claim_ids()}
        for rec in self.modules.values():
            out.update(rec.premises)
        return out

    def premise_problems(self) -> list[tuple[str, str, str]]:
        """Uses naming no claim, and cycles the catalogue closes across modules (a module indexed on its
        own cannot see them when declared)."""
        uses = {cid: u for rec in self.modules.values() for cid, u in rec.uses.items()}
        modules = {cid: m for m, rec in self.modules.items() for cid in rec.claims}
        rejected = (cid for rec in self.modules.values() for cid in rec.errors)
        return catalogue_problems(uses, self.premises(), modules, rejected)

    def with_premises(self, ids: Iterable[str]) -> list[str]:
        """``ids`` and everything they rest on, transitively, in catalogue order."""
        premises, wanted, todo = self.premises(), set(), list(ids)
        while todo:
            cid = todo.pop()
            if cid not in wanted:
                wanted.add(cid)
                todo.extend(premises.get(cid, ()))
        return [c for c in self.claim_ids() if c in wanted]

    def orphan_derivations(self) -> list[str]:
        """Derivations attached to an id that no module declares as a claim."""
        claims = {c for rec in self.modules.values() for c in rec.claims}
        return sorted({d for rec in self.modules.values() for d in rec.derivations} - claims)

    def closure(self, modules: Iterable[str]) -> list[str]:
        """``modules`` and every project module they import, transitively."""
        out: dict[str, None] = {}
        todo = list(modules)
        while todo:
            m = todo.pop()
            if m in out or m not in self.modules:
                continue
            out[m] = None
            todo.extend(self.modules[m].imports)
        return sorted(out)

    def files_of(self, claim_id: str) -> list[Path]:
        """Every project file whose text can change ``claim_id``'s verdict."""
        return [self.root / self.modules[m].file for m in self.closure(self.declaring_modules([claim_id]))]

    def reached_by(self, changed: Iterable[Path]) -> set[str]:
        """Ids of the claims and studies whose verdict an edit of any ``changed`` file can change."""
        changed_rel = set()
        for p in changed:
            try:
                changed_rel.add(Path(p).resolve().relative_to(self.root).as_posix())
            except ValueError:
                continue
        changed_mods = {m for m, rec in self.modules.items() if rec.file in changed_rel}
        reached: set[str] = set()
        for m, rec in self.modules.items():
            if rec.content and changed_mods.intersection(self.closure([m])):
                reached.update(_declared(rec))
        return reached

    # ----------------------------------------------------------------- persistence

    def to_json(self) -> str:
        mods = {m: dataclasses.asdict(r) for m, r in self.modules.items()}
        converter = library_versions()["latex2mathml"]
        head = {"format": _FORMAT, "python": sys.version_info[:2], "latex2mathml": converter}
        return json.dumps(head | {"modules": mods}, indent=0)

    @classmethod
    def from_json(cls, root: Path, text: str) -> ContentIndex | None:
        """The index ``text`` holds; None when another version wrote it; ValueError when damaged."""
        try:
            data = json.loads(text)
            if (
                data.get("format") != _FORMAT
                or tuple(data.get("python", ())) != tuple(sys.version_info[:2])
                # which statements are refused at declaration depends on the converter's version
                or data.get("latex2mathml") != library_versions()["latex2mathml"]
            ):
                return None
            mods = {m: _record(m, r) for m, r in data["modules"].items()}
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise ValueError(f"{type(exc).__name__}: {exc}") from None  # damaged: rebuilt, never trusted
        return cls(root, mods)


_LISTS = ("imports", "claims", "derivations", "studies", "errors", "error_messages", "statements")


def _record(module, r: dict) -> ModuleRecord:
    """One module's record as read back; TypeError when any field has another shape than the index
    writes (a list of strings where a list is due, and so on): a hand-edited or foreign file is damaged."""
    rec = ModuleRecord(**(r | {"fingerprint": tuple(r["fingerprint"])}))
    well_formed = (
        isinstance(module, str)
        and isinstance(rec.file, str)
        and len(rec.fingerprint) == 3
        and all(type(n) is int for n in rec.fingerprint)
        and isinstance(rec.content, bool)
        and isinstance(rec.import_error, str)
        and all(
            isinstance(v, list) and all(isinstance(x, str) for x in v)
            for v in map(rec.__getattribute__, _LISTS)
        )
        and len(rec.errors) == len(rec.error_messages)
        and isinstance(rec.corrects, dict)
        and all(isinstance(k, str) and isinstance(v, str) for k, v in rec.corrects.items())
    )
    if not well_formed:
        raise TypeError(f"the record of {module!r} is not of the shape the index writes")
    return rec


def _index_path(root: Path) -> Path:
    return root / CACHE_DIR / "index.json"


def load_index(root: Path, *, rebuild: bool = False) -> ContentIndex:
    """The index of ``root``'s content, refreshed for every file added, removed or changed since it was
    written (by mtime and size: a stat per file, no reading)."""
    root = root.resolve()
    old = None if rebuild else _read(root)
    files = _content_files(root)
    old_mods = old.modules if old is not None else {}
    records: dict[str, ModuleRecord] = {}
    stale: list[str] = []
    for name, path in files.items():
        fp = _fingerprint(path)
        prev = old_mods.get(name)
        if prev is not None and prev.content and prev.fingerprint == fp:
            records[name] = prev
        else:
            records[name] = _static_record(root, name, path, fp, content=True)
            stale.append(name)
    # project files outside the content folders that content imports (shared helpers): tracked, not imported
    changed_extra = _add_imported_project_files(root, records, old_mods)
    if stale:
        _declarations_into(root, stale, records, old_mods)
    index = ContentIndex(root, records)
    if old is None or stale or changed_extra or set(old_mods) != set(records):
        try:
            write_atomic(_index_path(root), index.to_json())
        except OSError:
            pass  # a read-only checkout still works, only without a saved index
    return index


def known_statements(root: Path) -> set[str]:
    """:meth:`ContentIndex.statements` of the index written at ``root``; none when it is missing, damaged
    or from another version (a worker then converts every statement, as the index's interpreter did).
    Read only: setting a damaged index aside is for :func:`load_index`."""
    try:
        index = ContentIndex.from_json(root, _index_path(root).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()
    return index.statements() if index is not None else set()


def _read(root: Path) -> ContentIndex | None:
    path = _index_path(root)
    try:
        return ContentIndex.from_json(root, path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:  # garbled, truncated, not text, a folder: set aside, rebuilt
        set_aside(path, f"the content index could not be read ({exc})")
        return None


def set_aside(path: Path, problem: str, then: str = "rebuilt") -> None:
    """Move a damaged state file (or whatever stands at its path) to ``<name>.damaged`` so it is
    rebuilt, and say so in one line on stderr.  A file that cannot be moved is left (and said)."""
    damaged = path.with_name(path.name + ".damaged")
    try:
        if damaged.is_dir() and not damaged.is_symlink():
            shutil.rmtree(damaged)
        os.replace(path, damaged)
        done = f"set aside as {damaged.name} and {then}"
    except OSError as exc:
        done = f"and could not be set aside ({exc.strerror or exc}); remove it by hand"
    print(f"lemmacheck: warning: {path}: {problem}; {done}", file=sys.stderr, flush=True)


def _static_record(root: Path, name: str, path: Path, fp, *, content: bool) -> ModuleRecord:
    source = path.read_text(encoding="utf-8", errors="replace")
    imports = _imports_of(source, name, is_package=path.name == "__init__.py")
    parts = name.split(".")
    imports.update(".".join(parts[:i]) for i in range(1, len(parts)))  # its packages' __init__ run first
    imports.discard(name)
    return ModuleRecord(
        file=path.relative_to(root).as_posix(), fingerprint=fp, content=content, imports=sorted(imports)
    )


def _add_imported_project_files(root: Path, records: dict[str, ModuleRecord], old_mods) -> bool:
    changed = False
    todo = [i for rec in list(records.values()) for i in rec.imports]
    while todo:
        name = todo.pop()
        if name in records or name.split(".")[0] in ("lemmacheck",):
            continue
        path = _project_module_file(root, name)
        if path is None or ".venv" in path.parts or "site-packages" in path.parts:
            continue
        fp = _fingerprint(path)
        prev = old_mods.get(name)
        if prev is not None and not prev.content and prev.fingerprint == fp:
            records[name] = prev
        else:
            records[name] = _static_record(root, name, path, fp, content=False)
            changed = True
        todo.extend(records[name].imports)
    for rec in records.values():  # keep only edges to project modules
        rec.imports = [i for i in rec.imports if i in records or _project_module_file(root, i) is not None]
    return changed
