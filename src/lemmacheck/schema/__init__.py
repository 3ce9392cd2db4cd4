"""The JSON Schema of ``results.json`` (``results.schema.json``, shipped in the package) and the loader
``lemmacheck render`` uses: one line saying what is wrong with a file it cannot render.

The parts of the schema that depend on the kinds of claim (the ``evidence_kind`` list and the properties
of ``evidence``) come from the kinds' registry (:mod:`lemmacheck.kinds`): :func:`schema` fills them in
from the kinds registered now, and ``python -m lemmacheck.schema`` writes the shipped file from the
built-in kinds (tests/test_kinds.py fails when it is not current)."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

from ..errors import ReportInputError

__all__ = [
    "SCHEMA_PATH",
    "schema",
    "with_kinds",
    "shipped_text",
    "validate_results",
    "validate_written",
    "first_refusal",
    "load_results",
    "readable_versions",
]

SCHEMA_PATH = Path(__file__).with_name("results.schema.json")


@functools.lru_cache(maxsize=1)
def _shipped() -> dict:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _kinds_parts() -> tuple[list[str], dict]:
    """``evidence_kind``'s values and the properties of ``evidence``, from the kinds registered now."""
    from ..kinds import CHECKERS, evidence_kinds

    properties: dict = {}
    for checker in CHECKERS.values():
        for field, fragment in checker.evidence_schema.items():
            if properties.setdefault(field, fragment) != fragment:
                raise ValueError(f"two kinds give the evidence field {field!r} different schemas")
    return [*evidence_kinds(), ""], properties


def with_kinds(base: dict) -> dict:
    """``base`` with its kind-dependent parts generated from the kinds' registry."""
    out = copy.deepcopy(base)
    claim = out["$defs"]["claim"]["properties"]
    claim["evidence_kind"]["enum"], claim["evidence"]["properties"] = _kinds_parts()
    return out


def schema() -> dict:
    return with_kinds(_shipped())


def shipped_text() -> str:
    """The text ``results.schema.json`` should hold: the shipped schema with the registry's kind parts."""
    return json.dumps(with_kinds(_shipped()), indent=1) + "\n"


def readable_versions() -> list[int]:
    return list(_shipped()["properties"]["schema_version"]["enum"])


def validate_results(data: object, *, name: str = "results") -> dict:
    """``data`` if it is a results dict this lemmacheck can render; else :class:`ReportInputError`."""
    if not isinstance(data, dict):
        raise ReportInputError(
            f"{name}: not a lemmacheck results file (a JSON {type(data).__name__}, expected an object)"
        )
    version = data.get("schema_version")
    if version is not None and version not in readable_versions():
        raise ReportInputError(
            f"{name}: schema_version {version!r} is not one this lemmacheck reads "
            f"({', '.join(map(str, readable_versions()))}); re-run `lemmacheck run`, or "
            "render it with the lemmacheck version that wrote it"
        )
    refusal = first_refusal(schema(), data)
    if refusal:
        raise ReportInputError(f"{name}: not a valid lemmacheck results file: {refusal}")
    return data


def first_refusal(shipped: dict, data: object) -> str | None:
    """``at <field>: <why>`` for the first part of ``data`` the JSON Schema ``shipped`` refuses; None if it
    conforms (one wording for every file lemmacheck writes)."""
    import jsonschema

    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(shipped).iter_errors(data))
    if error is None:
        return None
    where = error.json_path if error.json_path != "$" else "the top level"
    return f"at {where}: {error.message}"


def validate_written(data: dict) -> None:
    """Refuse to write results this lemmacheck could not read back: ``lemmacheck render`` validates
    every file against the same schema, so a writer that skipped this would ship files it then refuses.
    Raises :class:`OutputError` naming the first field that does not conform."""
    from ..errors import OutputError

    try:
        validate_results(data, name="results to be written")
    except ReportInputError as exc:
        raise OutputError(
            f"{exc}; the run's own output does not match results.schema.json (a lemmacheck bug, "
            "not the claims'), so it is not written"
        ) from None


def load_results(path: Path) -> dict:
    """Read and validate a ``results.json`` (or a journal ``.jsonl`` left by a killed run)."""
    path = Path(path)
    try:
        if path.exists() and not path.is_dir() and not path.is_file():  # a FIFO would block the read
            raise ReportInputError(f"{path}: not a regular file; give a results.json or a journal")
        raw = path.read_bytes()
    except FileNotFoundError:
        raise ReportInputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ReportInputError(f"{path}: is a folder; give the results.json inside it") from None
    except OSError as exc:
        raise ReportInputError(f"{path}: cannot be read ({exc.strerror})") from None
    if not raw.strip():
        raise ReportInputError(f"{path}: the file is empty (a run that was stopped while writing?)")
    if path.suffix == ".jsonl":  # read whole by read_journal: its last line may be torn mid-character
        from ..report.journal import read_journal

        try:
            data = read_journal(path)
        except (ValueError, KeyError, TypeError) as exc:
            raise ReportInputError(f"{path}: not a readable lemmacheck journal ({exc})") from None
        return validate_results(data, name=str(path))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ReportInputError(f"{path}: not a text file (byte {exc.start} is not UTF-8)") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReportInputError(
            f"{path}: not valid JSON at line {exc.lineno} column {exc.colno} ({exc.msg}); truncated?"
        ) from None
    return validate_results(data, name=str(path))
