"""The history of a report folder: one entry per commit (per run outside git), as a static page.

Each ``lemmacheck run`` records the folder's full report in ``reports/history.jsonl``: when, the seed,
the git commit (``+dirty`` when the work tree differs from it), the counts, and each claim's verdict and
proof status.  A later run of the same clean commit replaces that commit's entry, so the file is a history
of the project, not of every rerun; a run of a modified work tree is an entry of its own (the tree differs
from run to run while the commit does not).  ``history.html`` (linked from the report's header) draws the
catalogue's counts over time, lists them, and shows each claim's verdict run by run (the claims whose
verdict changed first): Allure's history and trends, as a page with no script that a group can publish.
"""

from __future__ import annotations

import json
import subprocess
from html import escape
from pathlib import Path

from .sanitize import bidi_shown

__all__ = [
    "HISTORY_NAME",
    "HISTORY_HTML",
    "git_commit",
    "entry",
    "record",
    "read",
    "history_html",
    "trend_svg",
]

HISTORY_NAME = "history.jsonl"
HISTORY_HTML = "history.html"
DIRTY = "+dirty"
#: entries kept (the oldest are dropped beyond it)
KEEP_ENTRIES = 200


def git_commit(root: Path) -> str | None:
    """The checked-out commit (short), ``+dirty`` when tracked files differ; None outside git."""

    def git(*args: str) -> str:
        return subprocess.run(
            ["git", "-C", str(root), *args], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()

    try:
        commit = git("rev-parse", "--short=12", "HEAD")
        dirty = bool(git("status", "--porcelain", "--untracked-files=no"))
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + (DIRTY if dirty else "")


def entry(data: dict, commit: str | None) -> dict:
    run = data.get("run", {})
    return {
        "started": run.get("started", ""),
        "seed": run.get("seed"),
        "profile": run.get("profile", ""),
        "commit": commit,
        "counts": data.get("counts", {}),
        "proof_counts": data.get("proof_counts", {}),
        "claims": {
            c["id"]: [c.get("verdict"), (c.get("proof") or {}).get("status")] for c in data.get("claims", [])
        },
    }


def read(folder: Path) -> list[dict]:
    try:
        lines = (Path(folder) / HISTORY_NAME).read_text(encoding="utf-8").splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        try:
            item = json.loads(line)
        except ValueError:
            continue  # a line torn by a crash: the others still count
        if _well_formed(item):
            out.append(item)
    return out


def _well_formed(item) -> bool:
    """An entry of the shape :func:`entry` writes; any other (a hand-edited or foreign line) is dropped as
    a torn one is, and the next :func:`record` rewrites the file without it."""
    if not isinstance(item, dict) or not isinstance(item.get("claims"), dict):
        return False
    pairs = item["claims"].values()
    counts = [item.get("counts", {}), item.get("proof_counts", {})]
    return (
        all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str | None) for x in p) for p in pairs)
        and all(isinstance(c, dict) and all(type(n) is int for n in c.values()) for c in counts)
        and all(isinstance(item.get(k), str | int | None) for k in ("commit", "started", "seed"))
    )


def record(folder: Path, data: dict, root: Path) -> list[dict]:
    """Add the report ``data`` to the folder's history (replacing the entry of its commit when the tree is
    clean; every run of a modified tree is kept); the history."""
    from ..project.index import write_atomic

    new = entry(data, git_commit(root))
    replaces = new["commit"] is not None and not new["commit"].endswith(DIRTY)
    history = [h for h in read(folder) if not replaces or h.get("commit") != new["commit"]]
    history = [*history, new][-KEEP_ENTRIES:]
    write_atomic(Path(folder) / HISTORY_NAME, "".join(json.dumps(h) + "\n" for h in history))
    return history


_STYLE = """body{font:14px/1.4 system-ui,sans-serif;margin:16px 24px;color:#1d1d1f}
table{border-collapse:collapse;font-size:12.5px}th,td{border:1px solid #ddd;padding:2px 6px}
th{background:#f0f1f3}td.n{text-align:right}td.v{text-align:center;font-weight:600;color:#fff}
.PROVED{background:#1b7f3b}.HOLDS{background:#2f6fb0}.REFUTED{background:#b3261e}
.APPROXIMATE{background:#a86400}.INCONCLUSIVE{background:#6d6d6d}.ERROR{background:#6b2c91}
.broken{outline:2px solid #b3261e;outline-offset:-3px}code{font-size:12px}"""
_CSP = "default-src 'none'; style-src 'unsafe-inline'"


def _name(h: dict) -> str:
    """An entry's column name: its commit, with the run's time where the commit alone does not name it."""
    commit, started = h.get("commit"), str(h.get("started", ""))[:19]
    if not commit:
        return started
    return f"{commit} {started[5:16]}" if commit.endswith(DIRTY) else commit


def trend_svg(history: list[dict], verdicts: list[str]):
    """The catalogue's counts over the entries (oldest first), one line per verdict and one for broken
    proofs: an inline SVG (None for an empty history)."""
    from .plots import svg_plot

    if not history:
        return None
    xs = list(range(1, len(history) + 1))
    series = [
        {"label": v, "x": xs, "y": [int(h.get("counts", {}).get(v, 0)) for h in history]}
        for v in verdicts
        if any(h.get("counts", {}).get(v) for h in history)
    ]
    broken = [int(h.get("proof_counts", {}).get("broken", 0)) for h in history]
    if any(broken):
        series.append({"label": "proof broken", "x": xs, "y": broken})
    title = f"Claims by verdict over {len(history)} entries (oldest first; the table below names them)"
    return svg_plot(title, "entry", "claims", series)


def _head(history: list[dict]) -> str:
    cells = "".join(
        f"<th title='{escape(str(h.get('started')))} · seed {escape(str(h.get('seed')))}'>"
        f"{escape(_name(h))}</th>"
        for h in history
    )
    return f"<tr><th>claim</th>{cells}</tr>"


def _counts_table(history: list[dict], verdicts: list[str]) -> str:
    rows = "".join(
        f"<tr><td class=n>{i}</td><td><code>{escape(str(h.get('commit') or '—'))}</code></td>"
        f"<td>{escape(str(h.get('started')))}</td>"
        f"<td class=n>{escape(str(h.get('seed')))}</td><td class=n>{len(h['claims'])}</td>"
        + "".join(f"<td class=n>{int(h.get('counts', {}).get(v, 0))}</td>" for v in verdicts)
        + f"<td class=n>{int(h.get('proof_counts', {}).get('broken', 0))}</td></tr>"
        for i, h in enumerate(history, start=1)
    )
    head = "".join(f"<th>{v}</th>" for v in verdicts)
    columns = "<th>entry</th><th>commit</th><th>run</th><th>seed</th><th>claims</th>"
    columns += f"{head}<th>proof broken</th>"
    return f"<table><tr>{columns}</tr>{rows}</table>"


def _claim_rows(history: list[dict], ids: list[str]) -> str:
    rows = []
    for cid in ids:
        cells = []
        for h in history:
            verdict, proof = h["claims"].get(cid) or (None, None)
            v = escape(str(verdict)) if verdict else ""
            cls = f"v {v}" + (" broken" if proof == "broken" else "")
            cells.append(f"<td class='{cls}' title='{v} · proof {escape(str(proof))}'>{v[:1]}</td>")
        rows.append(f"<tr><td><code>{escape(cid)}</code></td>{''.join(cells)}</tr>")
    return "".join(rows)


def history_html(history: list[dict]) -> str:
    from ..model.verdict import Verdict

    verdicts = [v.value for v in Verdict]
    ids = list(dict.fromkeys(cid for h in history for cid in h["claims"]))
    changed = [cid for cid in ids if len({tuple(h["claims"].get(cid) or ()) for h in history}) > 1]
    steady = [cid for cid in ids if cid not in changed]
    return bidi_shown(
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<meta http-equiv='Content-Security-Policy' content=\"{_CSP}\"><title>lemmacheck history</title>"
        f"<style>{_STYLE}</style></head><body><h1>lemmacheck — history</h1>"
        f"<p>{len(history)} entries, one per commit (the latest run of each) and one per run of a modified "
        "work tree (+dirty). A cell is a claim's verdict "
        "(P proved, H holds, R refuted, A approximate, I inconclusive, E error); a red outline marks a "
        "broken proof as written.</p><h2>The catalogue over time</h2>"
        + str(trend_svg(history, verdicts) or "")
        + _counts_table(history, verdicts)
        + f"<h2>Claims whose verdict or proof changed ({len(changed)})</h2><table>{_head(history)}"
        + _claim_rows(history, changed)
        + f"</table><details><summary>Claims that never changed ({len(steady)})</summary><table>"
        + _head(history)
        + _claim_rows(history, steady)
        + "</table></details></body></html>\n"
    )
