"""``lemmacheck run --junitxml PATH``: the checked claims as JUnit XML, as ``pytest --junitxml`` writes.

One ``testcase`` per claim (classname: its topic, name: its id); a claim whose verdict or proof differs
from the catalogue is a ``failure``, an ERROR verdict an ``error``, with the replay command.  CI systems
that read pytest's XML read this one the same way.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path

from ..run.results import verdict_text
from .falsifying import counterexample_lines, counterexample_of

__all__ = ["junit_xml", "write_junit"]


def _case(claim: dict) -> ET.Element:
    cid = str(claim["id"])
    case = ET.Element(
        "testcase",
        classname=f"lemmacheck.{cid.split('.', 1)[0]}",
        name=cid,
        time=f"{float(claim.get('seconds') or 0.0):.3f}",
    )
    detail = f"{claim.get('message') or claim.get('reason') or ''}\nreplay: {claim.get('replay', '')}".strip()
    cx = counterexample_of(claim)
    if cx and not claim.get("matches_expectation", True):
        detail += "\n" + "\n".join(counterexample_lines(cx))
    if claim.get("verdict") == "ERROR":
        ET.SubElement(
            case, "error", message=f"the check broke: {claim.get('message', '')[:200]}"
        ).text = detail
    elif not claim.get("matches_expectation", True):
        proof = (claim.get("proof") or {}).get("status")
        message = (
            f"computed {verdict_text(str(claim.get('verdict')), claim.get('evidence'))} (proof {proof}), "
            f"expected {claim.get('expected')} "
            f"(proof {claim.get('expected_proof')})"
        )
        ET.SubElement(case, "failure", message=message).text = detail
    return case


def junit_xml(data: dict, checked: Iterable[str] | None = None) -> str:
    """The XML of the claims of ``data`` whose ids are in ``checked`` (all of them with None)."""
    wanted = None if checked is None else set(checked)
    claims = [c for c in data["claims"] if wanted is None or c["id"] in wanted]
    failures = sum(
        1 for c in claims if c.get("verdict") != "ERROR" and not c.get("matches_expectation", True)
    )
    errors = sum(1 for c in claims if c.get("verdict") == "ERROR")
    run = data.get("run", {})
    suite = ET.Element(
        "testsuite",
        name="lemmacheck",
        tests=str(len(claims)),
        failures=str(failures),
        errors=str(errors),
        skipped="0",
        time=f"{float(run.get('seconds') or 0.0):.3f}",
        timestamp=str(run.get("started", "")),
    )
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", name="seed", value=str(run.get("seed", "")))
    ET.SubElement(props, "property", name="profile", value=str(run.get("profile", "")))
    suite.extend(_case(c) for c in claims)
    root = ET.Element("testsuites", name="lemmacheck")
    root.append(suite)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_junit(path: Path, data: dict, checked: Iterable[str] | None = None) -> Path:
    from ..project.index import write_atomic

    path = Path(path)
    write_atomic(path, junit_xml(data, checked))
    return path
