"""When each part of one ``lemmacheck run`` happens, to see where the cores idle: the start-up, the
content index, each worker's start-up and each claim on each worker, and the report.

    python benchmarks/run_timeline.py OUT.json -- run --no-cache -j 2 --seed 7 --quiet

Runs the command in this process with the pool's worker class and the run's phases wrapped to note the
time of each event (seconds since this process started), then writes them to OUT.json and prints a
summary: how long each phase took, when each worker was first ready, and how long each worker idled
(between its claims and after its last one while the other still worked).  Times on a shared machine
say little alone: compare two trees run one after the other at the same load.
"""

from __future__ import annotations

import json
import sys
import time

T0 = time.perf_counter()
EVENTS: list[tuple[float, str, str, str]] = []  # (seconds, what, worker, claim id)


def note(what: str, worker: str = "", claim: str = "") -> None:
    EVENTS.append((round(time.perf_counter() - T0, 3), what, worker, claim))


def _wrap(owner, name: str, before: str, after: str) -> None:
    original = getattr(owner, name)

    def wrapped(*args, **kwargs):
        note(before)
        try:
            return original(*args, **kwargs)
        finally:
            note(after)

    setattr(owner, name, wrapped)


def _instrument() -> None:
    from lemmacheck.cli import run_session
    from lemmacheck.project import index
    from lemmacheck.run import worker

    _wrap(index, "load_index", "index start", "index end")
    _wrap(run_session.RunSession, "execute", "execute start", "execute end")
    _wrap(run_session.RunSession, "_write", "report start", "report end")
    init, give, answered = worker.Worker.__init__, worker.Worker.give, worker.Worker.answered

    def spawned(self, *args, **kwargs):
        init(self, *args, **kwargs)
        note("spawn", str(self.proc.pid))

    def given(self, claim_id, *args, **kwargs):
        note("give", str(self.proc.pid), claim_id)
        return give(self, claim_id, *args, **kwargs)

    def heard(self, *args, **kwargs):
        kind, payload = answered(self, *args, **kwargs)
        note(kind, str(self.proc.pid), self.claim_id or "")
        return kind, payload

    worker.Worker.__init__, worker.Worker.give, worker.Worker.answered = spawned, given, heard


def summary(events: list) -> dict:
    """Each phase's seconds, and per worker: first claim started, last done, seconds busy (give to
    done) and idle within [first spawn, execute end]."""
    first = {w: t for t, what, w, _ in reversed(events) if what == "spawn"}
    at = {what: t for t, what, w, _ in events if not w}
    workers = {}
    for w, spawned in first.items():
        gives = [t for t, what, ww, _ in events if ww == w and what == "give"]
        dones = [t for t, what, ww, _ in events if ww == w and what == "done"]
        starts = [t for t, what, ww, _ in events if ww == w and what == "start"]
        busy = sum(d - g for g, d in zip(gives, dones, strict=False))
        workers[w] = {
            "spawned": spawned,
            "first_claim_started": starts[0] if starts else None,
            "last_done": dones[-1] if dones else None,
            "claims": len(dones),
            "busy": round(busy, 1),
            "idle_until_execute_end": round(at.get("execute end", 0) - spawned - busy, 1),
        }
    phases = {
        "to_index": at.get("index start"),
        "index": round(at.get("index end", 0) - at.get("index start", 0), 1),
        "execute": round(at.get("execute end", 0) - at.get("execute start", 0), 1),
        "report": round(at.get("report end", 0) - at.get("report start", 0), 1),
        "total": events[-1][0] if events else 0,
    }
    return {"phases": phases, "workers": workers}


def main(out: str, argv: list[str]) -> int:
    _instrument()
    from lemmacheck.cli.main import main as lemmacheck

    note("main start")
    try:
        code = lemmacheck(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    note("main end")
    result = {"events": EVENTS, **summary(EVENTS)}
    with open(out, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    print(json.dumps({k: result[k] for k in ("phases", "workers")}, indent=1), file=sys.stderr)
    return code


if __name__ == "__main__":
    args = sys.argv[1:]
    if len(args) < 3 or args[1] != "--":
        sys.exit("usage: python benchmarks/run_timeline.py OUT.json -- run [OPTIONS]")
    sys.exit(main(args[0], args[2:]))
