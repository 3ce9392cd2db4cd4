"""The JSON Schema of ``mutation.json`` (``mutation.schema.json``, shipped in the package), checked by the
writer: a mutation run never leaves a file whose classes or counts the report's section cannot read."""

from __future__ import annotations

import functools
import json
from pathlib import Path

__all__ = ["MUTATION_SCHEMA_PATH", "validate_mutation_written"]

MUTATION_SCHEMA_PATH = Path(__file__).with_name("mutation.schema.json")


@functools.lru_cache(maxsize=1)
def _schema() -> dict:
    return json.loads(MUTATION_SCHEMA_PATH.read_text(encoding="utf-8"))


def validate_mutation_written(data: dict) -> None:
    """:class:`OutputError` naming the first field of ``data`` the schema refuses (nothing is written)."""
    from ..errors import OutputError
    from . import first_refusal

    refusal = first_refusal(_schema(), data)
    if refusal:
        raise OutputError(
            f"mutation results to be written: {refusal}; the run's own output does not match "
            "mutation.schema.json (a lemmacheck bug), so it is not written"
        )
