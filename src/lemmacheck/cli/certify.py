"""``lemmacheck certify --replay [results.json]``: every certificate of a results file checked again
against its claim (the proof obligation re-derived from the claim's own check at the stated dims and
domain, then discharged again by the shipped text); exit 1 on any failure."""

from __future__ import annotations

import json
from pathlib import Path

from .common import UsageError, add_root_option, emit, project_root
from .exitcodes import ExitCode

__all__ = ["add_parser", "cmd_certify"]


def add_parser(sub) -> None:
    p = sub.add_parser(
        "certify",
        help="replay the certificates of a results.json against their claims (exit 1 on any failure)",
    )
    p.add_argument("--replay", action="store_true", required=True, help="replay every certificate")
    p.add_argument("results", type=Path, nargs="?", default=None, help="default: reports/results.json")
    add_root_option(p)


def _certified(path: Path) -> list[dict]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UsageError(f"cannot read {path}: {exc}; write one with `lemmacheck run --certify`") from None
    return [c for c in data.get("claims", []) if (c.get("certificate") or {}).get("status") == "certified"]


def cmd_certify(args) -> int:
    from ..certify import replay_certificate
    from ..model.claim import REGISTRY
    from ..run.timelimit import load_claims

    root = project_root()
    path = (args.results or root / "reports" / "results.json").resolve()
    claims = _certified(path)
    load_claims(root, [c["id"] for c in claims])
    failed = 0
    for c in claims:
        if c["id"] not in REGISTRY:
            problems = [f"no claim {c['id']!r} in {root} to replay it against"]
        else:
            problems = replay_certificate(c["certificate"], REGISTRY[c["id"]])
        failed += bool(problems)
        emit(f"{c['id']}: " + ("replays" if not problems else "FAILS: " + "; ".join(problems)))
    emit(f"{len(claims) - failed} of {len(claims)} certificates replay ({path})")
    return ExitCode.TESTS_FAILED if failed else ExitCode.OK
