"""Reading the journal a killed ``lemmacheck run`` left (``.journal-<pid>.jsonl``, written by
:class:`lemmacheck.report.folder.Journal`) back into a results dict, for ``lemmacheck render``.  Apart
from the folder's writer, which validates what it writes against the schema whose loader reads this."""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["read_journal"]


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
