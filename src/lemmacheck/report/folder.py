"""Writing the report folder so that nothing is lost and nothing is torn.

- ``results.json`` and ``index.html`` are written to temporary files in the same folder, flushed to
  disk, then moved into place one after the other while holding the folder's lock (``.lemmacheck.lock``,
  an advisory ``flock``) with SIGINT and SIGTERM held back: two runs into one folder cannot interleave
  and a reader never sees a 0-byte or half-written file.  The pair comes from one run unless the process
  is killed outright (SIGKILL, power loss) between the two moves, which nothing can hold back: then a
  new ``results.json`` stands beside the old ``index.html``.  So both carry the same *generation*
  (``run.generation`` in the JSON, ``<meta name="lemmacheck-generation">`` in the page), a reader that
  needs the pair checks it (:func:`pair_problem`; ``lemmacheck run`` says so in one line), and the next
  report written heals it.
- Temporary files carry their writer's pid; a later report written into the folder removes those of
  processes that are gone, and the journals of runs that were killed (saying so).
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
import re
import signal
import sys
import tempfile
import uuid
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
    "pair_problem",
    "GENERATION_META",
]

RESULTS_NAME = "results.json"
HTML_NAME = "index.html"
LOCK_NAME = ".lemmacheck.lock"
GENERATION_META = "lemmacheck-generation"
_GENERATION_IN_PAGE = re.compile(rf'<meta name="{GENERATION_META}" content="([^"]+)">')
# ".<name>.<pid>.<random>.tmp" (_temp_file, index.write_atomic) and ".journal-<pid>.jsonl" (Journal)
_TEMP = re.compile(r"^\..+\.(\d+)\.[^.]+\.tmp$")
_JOURNAL = re.compile(r"^\.journal-(\d+)\.jsonl$")


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
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{name}.{os.getpid()}.", suffix=".tmp")
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
    folder: Path, data: dict, *, html: bool = True, plot_cache: Path | None = None, history: bool = False
) -> list[Path]:
    """Write ``results.json`` (and ``index.html`` rendered from it) into ``folder`` atomically, as a pair;
    :class:`OutputError`, naming the field, for results the shipped schema refuses (nothing is written).

    The HTML is rendered before anything is moved, so a failure to render leaves the old pair intact.
    ``history``: the caller writes the folder's ``history.html`` beside it, which the page links to.
    """
    from ..schema import validate_written

    folder = Path(folder)
    problem = folder_problem(folder)
    if problem:
        raise OutputError(problem)
    validate_written(data)  # here, the one writer of results.json: no caller can ship what render refuses
    if isinstance(data.get("run"), dict):  # the pair's mark: both files carry it (see the module's text)
        data = data | {"run": data["run"] | {"generation": uuid.uuid4().hex}}
    files: dict[str, str | None] = {RESULTS_NAME: json.dumps(data, indent=1, ensure_ascii=False)}
    if html:
        from .html import render_html

        shown = _with_history(folder, _with_mutation(folder, data), beside=history)
        files[HTML_NAME] = render_html(shown, plot_cache=plot_cache)
    else:
        files[HTML_NAME] = None
    written = _move_into_place(folder, files)
    _remove_leftovers(folder)
    return written


def _generations(folder: Path) -> tuple[str | None, str | None]:
    """The generation ``results.json`` and ``index.html`` carry (None: absent, or the file unreadable)."""
    try:
        run = json.loads((folder / RESULTS_NAME).read_text(encoding="utf-8")).get("run")
        in_json = run.get("generation") if isinstance(run, dict) else None
    except (OSError, ValueError, AttributeError, RecursionError):
        in_json = None
    try:
        with open(folder / HTML_NAME, encoding="utf-8", errors="replace") as fh:
            found = _GENERATION_IN_PAGE.search(fh.read(4096))  # in <head>
    except OSError:
        found = None
    return in_json, found.group(1) if found else None


def pair_problem(folder: Path) -> str:
    """One line when ``folder``'s ``results.json`` and ``index.html`` come from different reports (a
    process killed between the two moves, or a file replaced by hand); "" when they agree or when
    either does not say (a folder without a page, or one written before generations)."""
    in_json, in_page = _generations(Path(folder))
    if in_json and in_page and in_json != in_page:
        return (
            f"{Path(folder) / HTML_NAME} is not the page of {RESULTS_NAME} beside it (generation "
            f"{in_page[:8]} vs {in_json[:8]}: a run was killed between writing the two); "
            f"`lemmacheck render {Path(folder) / RESULTS_NAME}` renders it again, as the next run will"
        )
    return ""


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # another user's, or not ours to signal: alive
        return False
    return False


def _remove_leftovers(folder: Path) -> None:
    """Remove the temporary files of writers that are gone, and the journals of runs that were killed
    (this report has superseded them), each said in one line."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        temp, journal = _TEMP.match(name), _JOURNAL.match(name)
        found = temp or journal
        if not found or not _gone(int(found.group(1))):
            continue
        with contextlib.suppress(OSError):
            os.unlink(folder / name)
            if journal:
                print(
                    f"lemmacheck: removed {folder / name}, the journal of a run that was killed "
                    f"(process {found.group(1)}); this report supersedes it",
                    file=sys.stderr,
                    flush=True,
                )


def _with_mutation(folder: Path, data: dict) -> dict:
    """The data to render: with the folder's ``mutation.json`` (written by ``lemmacheck mutate``), if any, so
    the report shows its section; results.json itself stays the run's.  One the section cannot show (a
    hand-edited or foreign file) is set aside, said in one line, and the page is rendered without it."""
    from ..project.index import set_aside
    from .html import render_mutation_section

    path = folder / "mutation.json"
    if "mutation" in data or not path.is_file():
        return data
    try:
        mutation = json.loads(path.read_text(encoding="utf-8"))
        render_mutation_section(mutation)
    except (OSError, ValueError):
        return data
    except Exception as exc:  # any shape the section's code does not expect
        why = f"not a mutation report the page can show ({type(exc).__name__}: {exc})"
        set_aside(path, why, then="the page rendered without it (`lemmacheck mutate` writes it again)")
        return data
    return data | {"mutation": mutation}


def _with_history(folder: Path, data: dict, *, beside: bool) -> dict:
    """The data to render with the link to the folder's history page, when it is (or is about to be) there;
    results.json itself stays the run's."""
    from .history import HISTORY_HTML

    return data | {"history_page": HISTORY_HTML} if beside or (folder / HISTORY_HTML).is_file() else data


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
    html = render_html(_with_history(path.parent, data, beside=False))
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
