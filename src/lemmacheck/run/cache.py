"""The result cache: a claim is re-checked only when something that can change its verdict changed.

A result is stored under a key hashing everything it depends on:

- the claim id, the search profile (every budget) and the run seed;
- the text of every project file reached from the modules that declare the claim (its check, its
  derivation, the content helpers they import, transitively; from :mod:`lemmacheck.project.index`);
- the engine's own source (every ``.py`` of the ``lemmacheck`` package except the report renderer), and
  the versions of Python and of the libraries a result depends on (:mod:`lemmacheck.libraries`).

The store is SQLite in ``<root>/.lemmacheck-cache/results.sqlite`` (WAL mode, one transaction per write,
so concurrent runs never see half a result).  ERROR results are never stored: a timeout or a crash is
tried again next run (and so is an INCONCLUSIVE, whose budget may be in seconds).
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import hashlib
import json
import sqlite3
import sys
import time
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..libraries import library_versions
from ..project.index import CACHE_DIR, ContentIndex, load_index, set_aside
from ..search.examples import fingerprint as examples_fingerprint
from ..search.profile import Profile
from .results import ClaimResult

__all__ = ["ResultCache", "result_from_dict", "engine_fingerprint"]

# An ERROR (a crash, a timeout) is tried again; an INCONCLUSIVE may come from a budget in seconds, which a
# faster or idler run could complete: neither is a property of the claim alone.
_NEVER_STORED = ("ERROR", "INCONCLUSIVE")


def result_from_dict(data: dict) -> ClaimResult:
    """Rebuild a :class:`ClaimResult` from its ``to_dict()`` form (derived keys such as ``topic`` are
    dropped; nested records and enums are rebuilt from the dataclass's own type hints)."""
    return _rebuild(ClaimResult, data)


def _rebuild(tp, value):
    if value is None:
        return None
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(tp) if a is not type(None)]
        return _rebuild(options[0], value) if len(options) == 1 else value
    if origin is list:
        (item,) = typing.get_args(tp)
        return [_rebuild(item, v) for v in value]
    if dataclasses.is_dataclass(tp) and isinstance(value, dict):
        hints = typing.get_type_hints(tp)
        names = {f.name for f in dataclasses.fields(tp)}
        return tp(**{k: _rebuild(hints[k], v) for k, v in value.items() if k in names})
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(value)
    return value


@functools.lru_cache(maxsize=1)
def engine_fingerprint() -> str:
    """A hash of the engine's source and the numerical stack: any change re-checks every claim."""
    h = hashlib.sha256()
    pkg = Path(__file__).resolve().parent
    for path in sorted(pkg.rglob("*.py")):
        rel = path.relative_to(pkg)
        if rel.parts[0] == "report":  # rendering never changes a verdict
            continue
        h.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    h.update(f"python {sys.version_info[:3]}".encode())
    # a result kept by a run without Z3 must not answer a run that has it: an absent library counts too
    for lib, version in library_versions().items():
        h.update(f"{lib} {version or 'absent'}".encode())
    return h.hexdigest()


T = TypeVar("T")
_FILE_HASHES: dict[tuple[str, int, int, int, int], str] = {}


def _file_hash(path: Path) -> str:
    st = path.stat()
    # st_ctime_ns too: an edit that restores the mtime (os.utime) cannot restore it
    memo = (str(path), st.st_mtime_ns, st.st_size, st.st_ctime_ns, st.st_ino)
    if memo not in _FILE_HASHES:
        _FILE_HASHES[memo] = hashlib.sha256(path.read_bytes()).hexdigest()
    return _FILE_HASHES[memo]


# SQLite's primary result codes (``sqlite_errorcode & 0xFF``) for a store that is not a database (or a
# damaged one, or a folder at its path), and for a full disk.
_DAMAGED_CODES = {11, 14, 26}  # SQLITE_CORRUPT, SQLITE_CANTOPEN, SQLITE_NOTADB
_FULL_CODES = {13}  # SQLITE_FULL


def _trouble(exc: BaseException) -> str:
    """``"damaged"``, ``"full"`` or ``""`` (another error, e.g. a lock held too long: raised)."""
    if isinstance(exc, OSError):
        return "damaged"
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return "damaged" if code in _DAMAGED_CODES else "full" if code in _FULL_CODES else ""


class ResultCache:
    """``lookup`` / ``store`` / ``clear`` results of one project, keyed as the module docstring says.

    A store that is damaged (truncated, garbled, a folder at its path) is set aside with a one-line
    warning and started afresh; on a full disk the cache stops storing for the run, with a warning.
    Either way the run goes on: the cache only ever saves time."""

    def __init__(self, root: Path, *, index: ContentIndex | None = None, path: Path | None = None):
        self.root = Path(root).resolve()
        self._index = index
        self.path = Path(path) if path is not None else self.root / CACHE_DIR / "results.sqlite"
        self._connection: sqlite3.Connection | None = None
        self._off = ""  # why the cache is off for this run (a warning said so)
        self._use(lambda db: None, otherwise=None)

    def _use(self, op: Callable[[sqlite3.Connection], T], *, otherwise: T) -> T:
        """``op`` in one transaction; ``otherwise`` when the cache is off or turns off now."""
        for attempt in (1, 2):
            if self._off:
                return otherwise
            try:
                with self._db() as db:
                    return op(db)
            except (sqlite3.DatabaseError, OSError) as exc:
                trouble = _trouble(exc)
                if not trouble:
                    raise
                self.close()
                if trouble == "damaged" and attempt == 1 and self._set_aside(exc):
                    continue
                self._off = f"{self.path}: {exc}"
                print(
                    f"lemmacheck: warning: {self._off}; results are neither read from nor kept in the "
                    "cache this run",
                    file=sys.stderr,
                    flush=True,
                )
        return otherwise

    def _set_aside(self, exc: BaseException) -> bool:
        """Move the damaged store away (its WAL files belong to it: removed); whether it moved."""
        set_aside(self.path, f"the result cache could not be read ({exc})")
        for suffix in ("-wal", "-shm"):
            with contextlib.suppress(OSError):
                self.path.with_name(self.path.name + suffix).unlink()
        return not self.path.exists()

    @contextlib.contextmanager
    def _db(self):
        """One transaction on this cache's connection (opened once: a lookup per claim stays cheap)."""
        if self._connection is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._connection = self._connect()
            with self._connection as db:
                db.execute(
                    "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, claim_id TEXT, "
                    "profile TEXT, seconds REAL, result TEXT, stored REAL)"
                )
                db.execute(
                    "CREATE INDEX IF NOT EXISTS results_by_claim ON results (profile, claim_id, stored)"
                )
        with self._connection as db:  # committed whole or rolled back
            yield db

    def _connect(self) -> sqlite3.Connection:
        # One object is used by one thread at a time, but may be collected (and closed) on another.
        conn = sqlite3.connect(self.path, timeout=60, check_same_thread=False)
        deadline = time.monotonic() + 60
        while True:
            try:
                conn.execute("PRAGMA journal_mode=WAL")
                return conn
            except sqlite3.DatabaseError as exc:
                # Switching to WAL needs an exclusive lock, and SQLite answers "locked" at once instead
                # of waiting on the busy timeout: processes opening a new cache together retry.
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    conn.close()
                    raise
                time.sleep(0.05)

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def __enter__(self) -> ResultCache:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:  # Python 3.13 warns about a connection left open
        self.close()

    @property
    def index(self) -> ContentIndex:
        """The content index the keys are read from (loaded when a key is first needed)."""
        if self._index is None:
            self._index = load_index(self.root)
        return self._index

    @index.setter
    def index(self, index: ContentIndex) -> None:
        self._index = index

    def refresh(self) -> None:
        """Re-read the index after files changed (``watch``)."""
        self._index = load_index(self.root)

    def key(self, claim_id: str, profile: Profile, *, kind: str = "claim") -> str | None:
        """The key of ``claim_id`` (a claim, or a study with ``kind="study"``) under ``profile``; None
        when the index does not know it."""
        texts = self.texts(claim_id)
        if texts is None:
            return None
        h = hashlib.sha256()
        h.update(f"{kind}:{claim_id}".encode() + b"\0")
        h.update(json.dumps(dataclasses.asdict(profile), sort_keys=True).encode())
        h.update(engine_fingerprint().encode())
        h.update(examples_fingerprint(claim_id, self.root))  # the instances kept for it are replayed too
        h.update(texts.encode())
        return h.hexdigest()

    def texts(self, claim_id: str) -> str | None:
        """A digest of the text of every project file ``claim_id`` depends on (None when the index does not
        know it): what a save changes, unlike the examples a run keeps (see :meth:`store`)."""
        files = self.index.files_of(claim_id)
        if not files:
            return None
        h = hashlib.sha256()
        for path in files:
            h.update(path.relative_to(self.root).as_posix().encode() + b"\0" + _file_hash(path).encode())
        return h.hexdigest()

    def _row(self, key: str) -> dict | None:
        """The stored dict under ``key``; None if absent or unreadable (a garbled row is a miss)."""
        row = self._use(
            lambda db: db.execute("SELECT result FROM results WHERE key = ?", (key,)).fetchone(),
            otherwise=None,
        )
        try:
            return json.loads(row[0]) if row is not None else None
        except (TypeError, ValueError):
            return None

    def _put(self, key: str, claim_id: str, profile: Profile, seconds: float, data: dict) -> bool:
        """Store ``data`` under ``key``; whether it was kept (not when the cache is off)."""
        row = (key, claim_id, profile.name, seconds, json.dumps(data), time.time())

        def insert(db) -> bool:
            db.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?, ?)", row)
            return True

        return self._use(insert, otherwise=False)

    def lookup(self, claim, profile: Profile) -> ClaimResult | None:
        """The stored result of ``claim`` (a Claim or its id), marked ``cached``, or None."""
        claim_id = claim if isinstance(claim, str) else claim.id
        key = self.key(claim_id, profile)
        data = self._row(key) if key is not None else None
        if data is None:
            return None
        try:
            result = result_from_dict(data)
        except (TypeError, ValueError, KeyError, AttributeError):  # a row of another shape: a miss
            return None
        result.cached = True
        return result

    def store(self, result: ClaimResult, profile: Profile, *, texts_before: str | None = None) -> bool:
        """Keep ``result`` (not an ERROR nor an INCONCLUSIVE); return whether it was stored.

        ``texts_before``: :meth:`texts` of the claim before its check.  A file it depends on saved while it
        ran changes them, and which text the check ran is then unknown: the result is not stored (under the
        new key it would answer for a text it may never have run, and a re-check would repeat the stale
        verdict).  The counterexamples the run keeps change the key too, and rightly do not count here."""
        if result.verdict.value in _NEVER_STORED:
            return False
        key = self.key(result.id, profile)
        if key is None or (texts_before is not None and self.texts(result.id) != texts_before):
            return False
        data = result.to_dict()
        data["corrected_by"] = []  # a property of the catalogue, filled by the run, not of this result
        data.pop("cached", None)
        return self._put(key, result.id, profile, result.seconds, data)

    def stored_study(self, study, profile: Profile) -> dict | None:
        """A study's stored result dict, marked ``"cached": True``, when nothing it depends on changed."""
        key = self.key(study.id, profile, kind="study")
        stored = self._row(key) if key is not None else None
        return stored | {"cached": True} if isinstance(stored, dict) else None

    def keep_study(self, study, profile: Profile, result: dict) -> None:
        """Store a study's result dict, unless it reports an error."""
        key = self.key(study.id, profile, kind="study")
        if key is not None and not result.get("error"):
            self._put(key, f"study:{study.id}", profile, result.get("seconds", 0.0), result)

    def study(self, study, profile: Profile, compute: Callable[[], dict]) -> dict:
        """A study's result dict: stored (:meth:`stored_study`) when nothing it depends on changed; else
        ``compute()``, kept (:meth:`keep_study`)."""
        stored = self.stored_study(study, profile)
        if stored is not None:
            return stored
        result = compute()
        self.keep_study(study, profile, result)
        return result

    def timings(self, profile_name: str) -> dict[str, float]:
        """The last measured seconds of each claim under a profile (to schedule the longest first)."""
        query = "SELECT claim_id, seconds FROM results WHERE profile = ? ORDER BY stored"
        return dict(self._use(lambda db: db.execute(query, (profile_name,)).fetchall(), otherwise=[]))

    def clear(self) -> int:
        """Forget every stored result; return how many there were."""

        def forget(db) -> int:
            n = db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
            db.execute("DELETE FROM results")
            return n

        return self._use(forget, otherwise=0)
