"""Every counterexample ever found for a claim, replayed first at any seed (Hypothesis's example database).

A claim refuted once at one seed stays refuted at every other: the certified counterexample a run finds
is kept in ``.lemmacheck-cache/examples/<claim id>.json``, and every later search of the claim evaluates
the kept instances before drawing its own (beside the instances the claim names in ``examples=``).  A
kept instance is only a candidate: it is settled in high precision like any other, so an edit that
fixes the claim leaves it a harmless extra instance.  An instance that no longer fits the claim (its
inputs or dims were renamed) is skipped.  ``lemmacheck cache clear`` forgets them with the results.

The store is read where the claim runs (a worker's working directory is the project) and written after
the claim's result is known; each claim's file is replaced atomically, so parallel workers never tear it.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import json
import math
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["examples_dir", "stored_examples", "remember", "fingerprint", "keeping"]

#: how many counterexamples are kept per claim (the newest last; the oldest are dropped beyond it)
KEEP_PER_CLAIM = 20
_UNSAFE = re.compile(r"[^A-Za-z0-9_.\-]")
_KEEP = "LEMMACHECK_KEEP_EXAMPLES"


def examples_dir(root: Path | None = None) -> Path:
    """``<project>/.lemmacheck-cache/examples`` (``LEMMACHECK_EXAMPLES`` names another folder)."""
    if os.environ.get("LEMMACHECK_EXAMPLES"):
        return Path(os.environ["LEMMACHECK_EXAMPLES"])
    from ..project.discovery import find_root
    from ..project.index import CACHE_DIR

    return (root or find_root()) / CACHE_DIR / "examples"


def _describe(value: Any) -> str:
    return getattr(value, "__qualname__", None) or repr(value)  # a function's repr holds its address


def _shape_key(check: Any) -> str:
    """What makes an instance valid for a check: its inputs' kinds and domains, and its dims.  Kept
    instances are filed under it, so a claim whose domain changes (or another claim of the same id)
    never replays an instance outside its own domain."""
    specs = {
        name: [type(spec).__name__, {k: _describe(v) for k, v in sorted(vars(spec).items())}]
        for name, spec in sorted(check.inputs.items())
    }
    return json.dumps([specs, {k: [_describe(v) for v in vs] for k, vs in sorted(check.dims.items())}])


def _prefix(claim_id: str) -> str:
    return _UNSAFE.sub("_", claim_id)[:100]


def _file(claim_id: str, check: Any, root: Path | None) -> Path:
    digest = hashlib.sha256((claim_id + "\0" + _shape_key(check)).encode()).hexdigest()[:12]
    return examples_dir(root) / f"{_prefix(claim_id)}-{digest}.json"


@contextlib.contextmanager
def keeping() -> Iterator[None]:
    """Counterexamples found inside this block are kept (``lemmacheck run``, ``watch``, ``show``); a
    mutant's or a test's are not.  An environment variable, so worker processes started inside see it."""
    saved = os.environ.get(_KEEP)
    os.environ[_KEEP] = "1"
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop(_KEEP, None)
        else:
            os.environ[_KEEP] = saved


def _read(path: Path) -> list[dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [e for e in data if isinstance(e, dict)] if isinstance(data, list) else []


def _fits(example: dict, check: Any) -> bool:
    inputs, dims = example.get("inputs"), example.get("dims")
    if not isinstance(inputs, dict) or not isinstance(dims, dict):
        return False
    if set(inputs) != set(check.inputs) or set(dims) != set(check.dims):
        return False
    try:
        values = [float(x) for v in inputs.values() for x in _flat(v)]
    except (TypeError, ValueError):
        return False
    return all(math.isfinite(x) for x in values)


def _flat(value: Any) -> list:
    if isinstance(value, list):
        return [x for v in value for x in _flat(v)]
    return [value]


def stored_examples(claim_id: str, check: Any, root: Path | None = None) -> list[dict]:
    """The kept counterexamples of ``claim_id`` that fit ``check`` (its input names and dims)."""
    return [e for e in _read(_file(claim_id, check, root)) if _fits(e, check)]


def fingerprint(claim_id: str, root: Path | None = None) -> bytes:
    """What the result cache keys on: a claim's result depends on the instances kept for it."""
    h = hashlib.sha256()
    folder = examples_dir(root)
    for path in sorted(folder.glob(f"{glob.escape(_prefix(claim_id))}-*.json")) if folder.is_dir() else []:
        try:
            h.update(path.name.encode() + path.read_bytes())
        except OSError:
            continue
    return h.digest()


def remember(claim: Any, result: Any, root: Path | None = None) -> bool:
    """Keep the certified counterexample of ``result`` (a refuted statement, or a broken step's) when it
    is an instance of the claim's check; True when it was new."""
    check = getattr(claim, "check", None)
    if os.environ.get(_KEEP) != "1" or check is None or not hasattr(check, "inputs"):
        return False
    found = [result.evidence.get("counterexample"), getattr(result.proof, "counterexample", None)]
    new = [
        {"dims": cx["dims"], "inputs": cx["inputs"], "seed": result.seed}
        for cx in found
        if isinstance(cx, dict) and _fits(cx, check)
    ]
    if not new:
        return False
    from ..project.index import write_atomic

    path = _file(claim.id, check, root)
    kept = _read(path)
    seen = {_key(e) for e in kept}
    added = [e for e in new if _key(e) not in seen]
    if not added:
        return False
    try:
        write_atomic(path, json.dumps([*kept, *added][-KEEP_PER_CLAIM:], indent=1))
    except OSError:  # a read-only project: the run goes on without keeping it
        return False
    return True


def _key(example: dict) -> str:
    return json.dumps([example.get("dims"), example.get("inputs")], sort_keys=True)
