"""What content modules declare, learned by importing them in a fresh interpreter (for the index).

The modules are imported one after the other, each announced on the child's protocol pipe before its
import and each under a time limit, so a module that hangs, calls ``sys.exit`` or takes its interpreter
down at import is named and fails alone: the others are imported again without it.  An interpreter
that dies importing a module is given one more try before the module is blamed (a kill from outside
is not the module's doing), and a failure no module can be blamed for is never kept in the index: such
records are indexed again next time.

Modules that declare an id another module declares too (a claim's derivation beside its check, or a
duplicate) are imported together, in discovery order, so the registry sees both and a duplicate id is
reported whichever of the two was edited.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

__all__ = ["declarations_into", "UNKNOWN"]

# One module's import, in seconds: the slowest content module imports in ~1 s here (SymPy on a loaded
# machine: a few); past this it is a hang.
_IMPORT_SECONDS = 60.0
# An interpreter's start, importing the engine (~1.5 s on a loaded machine), before the first module.
_STARTUP_SECONDS = 120.0
#: the fingerprint of a record whose declarations are not known (indexed again next time)
UNKNOWN = (0, 0, 0)
_DECLARED = (
    "claims",
    "derivations",
    "studies",
    "errors",
    "error_messages",
    "corrects",
    "uses",
    "premises",
    "import_error",
    "statements",
)


def _ids(rec) -> set[str]:
    return set(rec.claims) | set(rec.derivations) | set(rec.errors)


def _sharing(records: dict, modules: set[str], declared: dict) -> set[str]:
    """Content modules outside ``modules`` declaring an id that one of ``modules`` declares (per
    ``declared``: module -> ids)."""
    ids = set().union(*(declared.get(m, set()) for m in modules))
    return {m for m, rec in records.items() if rec.content and m not in modules and ids & _ids(rec)}


def declarations_into(root: Path, stale: list[str], records: dict, old: dict) -> None:
    """Fill the declarations of the ``stale`` records (and of the records sharing an id with them) by
    importing them in fresh interpreters; ``old``: the previous index's records."""
    before = {m: _ids(old[m]) for m in stale if m in old}
    wanted = set(stale) | _sharing(records, set(stale), before)
    blamed: dict[str, str] = {}
    tries: dict[str, int] = {}
    while True:
        todo = [m for m in records if m in wanted and m not in blamed]
        found, culprit, why = _index_in_child(root, todo) if todo else ({}, None, "")
        if found is None and culprit is not None:
            tries[culprit] = tries.get(culprit, 0) + 1
            if tries[culprit] >= 2 or why.startswith("hung"):
                blamed[culprit] = why
            continue
        if found is None:  # the interpreter failed before any module: nothing to blame, nothing kept
            for m in todo:
                records[m].import_error = f"indexing failed: {why}"
                records[m].fingerprint = UNKNOWN
            break
        _copy(found, records)
        more = _sharing(records, set(todo), {m: _ids(records[m]) for m in todo}) - wanted
        if not more:
            break
        wanted |= more
    for m, why in blamed.items():
        _copy({m: {"import_error": why}}, records)


def _copy(found: dict[str, dict[str, Any]], records: dict) -> None:
    for name, decl in found.items():
        if name in records:
            for key in _DECLARED:
                setattr(records[name], key, decl.get(key, type(getattr(records[name], key))()))


def _pump(stream, lines: queue.Queue) -> None:
    for line in stream:
        lines.put(line)
    lines.put(None)


def _index_in_child(root: Path, modules: list[str]) -> tuple[dict | None, str | None, str]:
    """Import ``modules`` in a fresh interpreter: ``(declarations, None, "")``, or ``(None, module,
    why)`` when it died or hung importing ``module``, or ``(None, None, why)`` when it failed before."""
    cmd = [sys.executable, "-c", "import sys, lemmacheck.project.declarations as d; d.main(sys.argv[1:])"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]))
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            [*cmd, str(root), *modules],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=err,
            env=env,
            cwd=root,
            text=True,
            start_new_session=True,  # Ctrl-C reaches the run, which stops this child
        )
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True).start()
        current = None
        try:
            while (line := lines.get(timeout=_IMPORT_SECONDS if current else _STARTUP_SECONDS)) is not None:
                message = json.loads(line)
                if "declarations" in message:
                    return message["declarations"], None, ""
                current = message["importing"]
        except queue.Empty:
            if current is None:
                return None, None, f"the indexing interpreter did not start within {_STARTUP_SECONDS:g} s"
            return (
                None,
                current,
                f"hung at import: not imported within {_IMPORT_SECONDS:g} s",
            )
        except ValueError:
            pass  # a torn line: the child died writing it
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            if proc.stdout is not None:
                proc.stdout.close()
        err.seek(0)
        tail = err.read().decode("utf-8", "replace").strip()[-2000:]
    why = f"the interpreter importing it ended (exit {proc.returncode})" + (f": {tail}" if tail else "")
    return None, current, why


def _say(protocol, message: dict) -> None:
    protocol.write(json.dumps(message) + "\n")
    protocol.flush()


def main(argv: list[str]) -> None:
    """Child side of :func:`_index_in_child`: announce each module, import it, then print what every
    module declares as one JSON line.  Content that prints goes to stderr, never into the protocol."""
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    from .content import import_modules

    root, modules = Path(argv[0]), argv[1:]
    errors: dict[str, str] = {}
    for name in modules:
        _say(protocol, {"importing": name})
        # the parent stops a hang; this alarm ends the child if the parent itself was killed meanwhile
        signal.alarm(int(_IMPORT_SECONDS) + 30)
        errors.update(import_modules(root, [name]))
    signal.alarm(0)
    _say(protocol, {"declarations": _declared_by(modules, errors)})


def _declared_by(modules: list[str], errors: dict[str, str]) -> dict[str, dict[str, Any]]:
    from ..model.claim import REGISTRY
    from ..model.fields import converted_statements

    converted = converted_statements()

    out: dict[str, dict[str, Any]] = {
        m: {
            "claims": [],
            "derivations": [],
            "studies": [],
            "errors": [],
            "error_messages": [],
            "corrects": {},
            "uses": {},
            "premises": {},
            "import_error": errors.get(m, ""),
            "statements": [],
        }
        for m in modules
    }
    for c in REGISTRY:
        if c.module in out:
            out[c.module]["claims"].append(c.id)
            if c.corrects:
                out[c.module]["corrects"][c.id] = c.corrects
            if c.uses:
                out[c.module]["uses"][c.id] = list(c.uses)
            if c.premises:
                out[c.module]["premises"][c.id] = c.premises
            if c.statement in converted:
                out[c.module]["statements"].append(c.statement)
        if c.derivation is not None and c.derivation.module in out:
            out[c.derivation.module]["derivations"].append(c.id)
    # a derivation whose claim lives in a module not imported here waits in the registry's pending list
    for cid, d in REGISTRY._pending_derivations.items():
        if d.module in out:
            out[d.module]["derivations"].append(cid)
    for s in REGISTRY.studies.values():
        if s.module in out:
            out[s.module]["studies"].append(s.id)
    for cid, m, message in REGISTRY.definition_errors:
        if m in out:
            out[m]["errors"].append(str(cid))
            out[m]["error_messages"].append(message)
    return out
