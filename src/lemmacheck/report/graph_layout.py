"""A dependency graph laid out by Graphviz ``dot``, as coordinates for the report's own SVG template.

``dot`` only places boxes and routes edges (``-Tplain``): no text of a claim is passed to it (nodes are
named ``n0, n1, ...`` and sized from their label's length) and none of its output is put in the page as
markup, so the report's escaping and Content-Security-Policy cover the graph as they cover every card.
Where ``dot`` is not installed, or fails, :func:`layout` says why in one sentence and the report shows
the tables without the drawing.
"""

from __future__ import annotations

import dataclasses
import shlex
import shutil
import subprocess
from collections.abc import Sequence

__all__ = ["Box", "Edge", "Layout", "layout", "DOT_MISSING"]

DOT_MISSING = (
    "Graphviz dot is not installed here (Debian: apt-get install graphviz), so the graph is not drawn; "
    "the table lists what each result rests on"
)
_POINTS = 72.0  # dot's unit: inches in -Tplain, drawn at 72 px to the inch
_CHAR = 7.0  # px per character of the 11 px monospace label (wider fallbacks fit)
_LINE = 14.0  # px per label line
_SECONDS = 60.0  # a few hundred nodes take well under a second; past this dot is stuck


@dataclasses.dataclass(frozen=True)
class Box:
    key: str  # the caller's node key (a claim id)
    x: float  # centre, px, y down
    y: float
    w: float
    h: float


@dataclasses.dataclass(frozen=True)
class Edge:
    tail: str
    head: str
    path: str  # SVG path data (cubic B-spline from dot)
    dashed: bool = False


@dataclasses.dataclass(frozen=True)
class Layout:
    width: float
    height: float
    boxes: dict[str, Box]
    edges: list[Edge]


def _size(lines: Sequence[str]) -> tuple[float, float]:
    """A label's box in inches: its longest line and its line count, with a margin."""
    width = max((len(line) for line in lines), default=4) * _CHAR + 22
    return width / _POINTS, (len(lines) * _LINE + 10) / _POINTS


def _dot_source(
    nodes: dict[str, Sequence[str]], uses: Sequence[tuple[str, str]], beside: Sequence[tuple[str, str]]
) -> tuple[str, dict[str, str]]:
    """The DOT text (names only: ``n<i>``), and name -> key."""
    names = {key: f"n{i}" for i, key in enumerate(nodes)}
    out = [
        "digraph g {",
        # components packed into a roughly square block, not one row thousands of pixels wide
        'rankdir=TB; nodesep=0.25; ranksep=0.45; pack=true; packmode="graph";',
        'node [shape=box, fixedsize=true, label=""];',
    ]
    for key, lines in nodes.items():
        w, h = _size(lines)
        out.append(f"{names[key]} [width={w:.3f}, height={h:.3f}];")
    for tail, head in uses:
        out.append(f"{names[tail]} -> {names[head]};")
    for written, corrected in beside:  # the corrected form beside the form as written, on one rank
        out.append(f"{names[written]} -> {names[corrected]} [style=dashed, constraint=false];")
        out.append(f"{{rank=same; {names[written]}; {names[corrected]};}}")
    out.append("}")
    return "\n".join(out), {v: k for k, v in names.items()}


def _path(points: list[tuple[float, float]]) -> str:
    head, rest = points[0], points[1:]
    d = f"M{head[0]:.1f},{head[1]:.1f}"
    for i in range(0, len(rest) - 2, 3):
        (a, b), (c, e), (f, g) = rest[i : i + 3]
        d += f" C{a:.1f},{b:.1f} {c:.1f},{e:.1f} {f:.1f},{g:.1f}"
    return d


def _parse(plain: str, keys: dict[str, str], dashed: set[tuple[str, str]]) -> Layout:
    width = height = 0.0
    boxes: dict[str, Box] = {}
    edges: list[Edge] = []
    for line in plain.splitlines():
        f = shlex.split(line)
        if not f:
            continue
        if f[0] == "graph":
            width, height = float(f[2]) * _POINTS, float(f[3]) * _POINTS
        elif f[0] == "node":
            x, y, w, h = (float(v) * _POINTS for v in f[2:6])
            boxes[keys[f[1]]] = Box(keys[f[1]], x, height - y, w, h)
        elif f[0] == "edge":
            n = int(f[3])
            pts = [(float(f[4 + 2 * i]) * _POINTS, height - float(f[5 + 2 * i]) * _POINTS) for i in range(n)]
            tail, head = keys[f[1]], keys[f[2]]
            edges.append(Edge(tail, head, _path(pts), (tail, head) in dashed))
    return Layout(width, height, boxes, edges)


def layout(
    nodes: dict[str, Sequence[str]],
    uses: Sequence[tuple[str, str]],
    beside: Sequence[tuple[str, str]] = (),
) -> Layout | str:
    """The layout of ``nodes`` (key -> label lines) with an edge premise -> user for each of ``uses``
    and a dashed one written -> corrected for each of ``beside``; or why there is none."""
    dot = shutil.which("dot")
    if dot is None:
        return DOT_MISSING
    source, keys = _dot_source(nodes, uses, beside)
    try:
        done = subprocess.run(
            [dot, "-Tplain"], input=source, capture_output=True, text=True, timeout=_SECONDS, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"Graphviz dot could not lay the graph out ({type(exc).__name__}: {exc})"
    if done.returncode != 0:
        return (
            f"Graphviz dot could not lay the graph out (exit {done.returncode}: {done.stderr.strip()[:300]})"
        )
    try:
        return _parse(done.stdout, keys, set(beside))
    except (ValueError, IndexError, KeyError) as exc:
        return f"Graphviz dot's layout could not be read ({type(exc).__name__}: {exc})"
