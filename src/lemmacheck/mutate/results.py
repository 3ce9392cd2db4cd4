"""Write ``mutation.json`` atomically, and the terminal summary of a mutation run."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from . import classify as C

__all__ = ["write_json", "summary_text", "survivors"]


def write_json(data: dict, path: Path) -> Path:
    """Write through a temporary file in the same folder and ``os.replace``: never half-written, and never
    a file the shipped schema refuses."""
    from ..schema.mutation import validate_mutation_written

    validate_mutation_written(data)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1, ensure_ascii=False)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 is for secrets; a report is readable like any output
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return path


def survivors(data: dict, statuses: tuple[str, ...] = (C.SURVIVED,)) -> list[dict]:
    return [m for c in data.get("claims", []) for m in c["mutants"] if m["status"] in statuses]


def _pct(score) -> str:
    return "—" if score is None else f"{100 * score:.1f} %"


def summary_text(data: dict) -> str:
    counts = data["counts"]
    lines = ["", f"{'status':<14}{'mutants':>8}", "-" * 22]
    lines += [f"{s:<14}{counts[s]:>8}" for s in C.STATUSES]
    lines += [
        "-" * 22,
        f"{'total':<14}{counts['total']:>8}",
        "",
        f"score {_pct(data['score'])} (killed / (killed + survived + timed out)); "
        f"on claims that hold: {_pct(data['score_true_claims'])}",
        f"{data['selected']} of {data['enumerated']} mutants run in {data['run']['seconds']:.1f}s "
        f"({data['seconds_per_mutant']:.2f}s per mutant)",
    ]
    crashed = [m for m in survivors(data, (C.INVALID,)) if m["reason"].startswith("crashed")]
    if crashed:  # apart from the score, and shown: each is a change whose code cannot run
        lines += ["", f"{len(crashed)} invalid (crashed on a structural edit, not in the score):"]
        lines += [f"  {m['id']} [{m['operator']}] {m['location']}: {m['reason'][:300]}" for m in crashed]
    for status, title in ((C.SURVIVED, "survivor(s)"), (C.TIMED_OUT, "timed out (counted as survivors)")):
        listed = survivors(data, (status,))
        if listed:
            lines += ["", f"{len(listed)} {title}:"]
            for m in listed:
                lines.append(f"  {m['id']} [{m['operator']}] {m['location']}: {m['description']}")
                lines.append(f"      {m['reason'][:400]}")
    return "\n".join(lines)
