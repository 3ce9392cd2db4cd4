"""Where drawn plots and converted statements are kept between renders (``render_html(plot_cache=...)``).

Drawing and converting are most of a render, and each is a pure function of its data and of the code
that draws, converts and sanitises it: an entry's key is its data and that code's source, so a change to
either draws again.  Without a folder (the default) nothing is kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from markupsafe import Markup

__all__ = ["cached", "kept_in"]

# the modules whose output is kept: a drawn plot is kept only as long as the code that draws and
# sanitises it is the same
_PRODUCERS = ("render_cache.py", "sanitize.py", "mathml.py", "plots.py")
_SOURCE_FINGERPRINT = hashlib.sha256(
    b"".join(Path(__file__).with_name(name).read_bytes() for name in _PRODUCERS)
).hexdigest()

#: the folder of the render in progress (empty: nothing is kept)
_FOLDER: list[Path] = []


@contextlib.contextmanager
def kept_in(folder: Path | None) -> Iterator[None]:
    """Within this block, :func:`cached` keeps its values in ``folder`` (``None``: nowhere)."""
    _FOLDER[:] = [Path(folder)] if folder is not None else []
    try:
        yield
    finally:
        _FOLDER.clear()


def _key(*parts) -> str:
    blob = json.dumps(parts, sort_keys=True, default=str) + _SOURCE_FINGERPRINT
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def cached(key_parts, compute: Callable[[], Any], fits: Callable[[Any], bool] = lambda value: True):
    """``compute()`` (Markup, None, or a JSON-able value), kept in the render cache under ``key_parts``.
    A kept entry is used only when it has the shape ``compute`` returns (``fits``, asked of the value read
    back); any other (a file damaged, or written by hand) is removed and computed again."""
    if not _FOLDER:
        return compute()
    path = _FOLDER[0] / (_key(*key_parts) + ".json")
    kept = _read(path, fits)
    if kept is not _MISSING:
        return kept
    value = compute()
    stored = ["markup", str(value)] if isinstance(value, Markup) else ["value", value]
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(stored), encoding="utf-8")
        os.replace(tmp, path)  # atomic: a concurrent render reads a whole entry or none
    except (OSError, TypeError):
        pass  # a read-only cache only costs the time to compute again
    return value


_MISSING = object()


def _read(path: Path, fits: Callable[[Any], bool]):
    """The value kept at ``path``, or _MISSING (nothing there, or an entry of the wrong shape, removed)."""
    try:
        entry = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return _MISSING
    except (OSError, ValueError):
        entry = None
    if isinstance(entry, list) and len(entry) == 2 and entry[0] in ("markup", "value"):
        kind, value = entry
        if kind == "markup" and isinstance(value, str):
            value = Markup(value)
        if (kind == "value" or isinstance(value, Markup)) and fits(value):
            return value
    with contextlib.suppress(OSError):
        path.unlink()
    return _MISSING
