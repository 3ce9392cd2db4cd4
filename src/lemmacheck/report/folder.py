"""Writing the report folder so that nothing is lost and nothing is torn.

- ``results.json`` and ``index.html`` are written to temporary files in the same folder, flushed to
  disk, then moved into place one after the other while holding the folder's lock (``.lemmacheck.lock``,
  an advisory ``flock``) with SIGINT held back: two runs into one folder cannot interleave, a reader
  never sees a 0-byte or half-written file, and the pair always comes from the same run.
- While a run is going, each claim's result is appended to a journal (``.journal-<pid>.jsonl``) as it
  finishes; the journal is removed once the report is written.  If the process is killed outright,
  ``lemmacheck render <folder>/.journal-<pid>.jsonl`` turns what was done into a report marked
  incomplete.
- A folder that cannot be written raises :class:`~lemmacheck.errors.OutputError` with one line saying
  which folder and why.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from ..errors import OutputError

__all__ = [
    "RESULTS_NAME",
    "HTML_NAME",
    "LOCK_NAME",
    "write_report",
    "write_html_only",
    "Journal",
    "folder_problem",
]

RESULTS_NAME = "results.json"
HTML_NAME = "index.html"
LOCK_NAME = ".lemmacheck.lock"


def _why(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def folder_problem(folder: Path) -> str | None:
    """Why ``folder`` cannot take a report (None when it can); creates it if missing."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-", delete=True):
            pass
    except OSError as exc:
        return f"cannot write the report to {folder}: {_why(exc)}"
    return None


@contextlib.contextmanager
def _no_sigint() -> Iterator[None]:
    """Hold SIGINT back for a few system calls (the moves into place), then deliver it."""
    if hasattr(signal, "pthread_sigmask"):
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)
    else:  # pragma: no cover - Windows
        yield


@contextlib.contextmanager
def folder_lock(folder: Path) -> Iterator[None]:
    """An exclusive advisory lock on the folder, held only while files are moved into place."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: no lock (documented)
        yield
        return
    with open(Path(folder) / LOCK_NAME, "a+b") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _temp_file(folder: Path, name: str, text: str) -> Path:
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return Path(tmp)


def _move_into_place(
    folder: Path, files: dict[str, str | None], *, still_newest: Callable[[], bool] = lambda: True
) -> list[Path]:
    """Write each ``name -> text`` to a temporary file, then move all into place together (``None``:
    remove that name, so a stale file from another run never sits beside the new one).  Nothing is
    moved (and ``[]`` returned) when ``still_newest()``, asked under the folder's lock, says no."""
    temps: dict[str, Path] = {}
    moved = False
    try:
        for name, text in files.items():
            if text is not None:
                temps[name] = _temp_file(folder, name, text)
        with folder_lock(folder), _no_sigint():
            if not still_newest():
                return []
            for name, text in files.items():
                if text is None:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(folder / name)
                else:
                    os.replace(temps[name], folder / name)
                    del temps[name]  # moved: no longer ours to clean up
                moved = True
    except OSError as exc:
        if moved:  # some moved, not all: remove the pair rather than leave files of two runs side by side
            for name in files:
                with contextlib.suppress(OSError):
                    os.unlink(folder / name)
        raise OutputError(f"cannot write the report to {folder}: {_why(exc)}") from exc
    finally:
        for tmp in temps.values():
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return [folder / name for name, text in files.items() if text is not None]


def write_report(
    folder: Path, data: dict, *, html: bool = True, plot_cache: Path | None = None
) -> list[Path]:
    """Write ``results.json`` (and ``index.html`` rendered from it) into ``folder`` atomically, as a pair.

    The HTML is rendered before anything is moved, so a failure to render leaves the old pair intact.
    """
    folder = Path(folder)
    problem = folder_problem(folder)
    if problem:
        raise OutputError(problem)
    files: dict[str, str | None] = {RESULTS_NAME: json.dumps(data, indent=1, ensure_ascii=False)}
    if html:
        from .html import render_html

        files[HTML_NAME] = render_html(_with_mutation(folder, data), plot_cache=plot_cache)
    else:
        files[HTML_NAME] = None
    return _move_into_place(folder, files)


def _with_mutation(folder: Path, data: dict) -> dict:
    """The data to render: with the folder's ``mutation.json`` (written by ``lemmacheck mutate``), if any, so
    the report shows its section; results.json itself stays the run's."""
    path = folder / "mutation.json"
    if "mutation" in data or not path.is_file():
        return data
    try:
        return data | {"mutation": json.loads(path.read_text(encoding="utf-8"))}
    except (OSError, ValueError):
        return data


def _identity(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def write_html_only(path: Path, data: dict) -> Path:
    """``lemmacheck render``: write one HTML file atomically (results.json is left as it is).

    A run that writes its pair into the same folder while this renders is newer: its ``index.html``
    is kept (said in one line), never replaced by this older one."""
    from .html import render_html

    path = Path(path)
    problem = folder_problem(path.parent)
    if problem:
        raise OutputError(problem)
    results = path.parent / RESULTS_NAME
    before = _identity(results)
    html = render_html(data)
    if path.name != HTML_NAME:
        return _move_into_place(path.parent, {path.name: html})[0]
    if not _move_into_place(
        path.parent, {path.name: html}, still_newest=lambda: _identity(results) == before
    ):
        print(
            f"lemmacheck: a run wrote a newer report into {path.parent} while this was rendered; "
            f"its {HTML_NAME} is kept",
            file=sys.stderr,
            flush=True,
        )
    return path


class Journal:
    """Results appended one JSON line each as claims finish; removed once the report is written.

    A write that fails after the header (a full disk) stops the journal, with a one-line warning, and
    never the run: the verdicts are still computed and printed, as when the report cannot be written.
    """

    def __init__(self, folder: Path, header: dict):
        self.path = Path(folder) / f".journal-{os.getpid()}.jsonl"
        self.failed = ""  # why the journal stopped (it then holds only the results before)
        self._fh = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - kept open for the run
        self._fh.write(json.dumps({"journal": 1, **header}, ensure_ascii=False) + "\n")
        self._fh.flush()

    def append(self, result: dict) -> None:
        if self.failed:
            return
        try:
            self._fh.write(json.dumps(result, ensure_ascii=False) + "\n")
            self._fh.flush()
        except OSError as exc:
            self.failed = f"cannot write the journal {self.path}: {_why(exc)}"
            with contextlib.suppress(OSError):
                self._fh.close()
            print(
                f"lemmacheck: warning: {self.failed}; the run goes on, its last result there may be torn",
                file=sys.stderr,
                flush=True,
            )

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            self._fh.close()
        with contextlib.suppress(OSError):
            self.path.unlink()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._fh.close()


def _records(text: str) -> tuple[list[dict], int]:
    """The JSON objects of a journal's lines, and how many lines were torn (a killed run or a full
    disk can leave its last line half-written)."""
    records, torn = [], 0
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            torn += 1
            continue
        if isinstance(record, dict):
            records.append(record)
        else:
            torn += 1
    return records, torn


def read_journal(path: Path) -> dict:
    """A results dict (marked incomplete) from a journal a killed run left behind: every complete
    result in it (torn lines are skipped and counted)."""
    lines, torn = _records(Path(path).read_text(encoding="utf-8", errors="replace"))
    if not lines or lines[0].get("journal") != 1:
        raise ValueError("not a lemmacheck journal (its first line is not a journal header)")
    header = lines[0]
    claims = [c for c in lines[1:] if isinstance(c.get("id"), str) and isinstance(c.get("verdict"), str)]
    torn += len(lines) - 1 - len(claims)
    data = dict(header["data"])
    data["claims"] = [*data.get("claims", []), *claims]
    counts = dict.fromkeys(data.get("counts", {}), 0)
    for c in data["claims"]:
        counts[c["verdict"]] = counts.get(c["verdict"], 0) + 1
    data["counts"] = counts
    data["mismatches"] = [c["id"] for c in data["claims"] if not c.get("matches_expectation", True)]
    data["run"] = dict(
        data["run"],
        incomplete=f"recovered from the journal of a run that stopped after "
        f"{len(claims)} of {header.get('total', '?')} results"
        + (f" ({torn} torn line{'s' if torn > 1 else ''} skipped)" if torn else ""),
    )
    return data
