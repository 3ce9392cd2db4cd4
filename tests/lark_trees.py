"""Two lark trees compared field by field: what lark's ``==`` compares (rules, token types and values) and
the positions it does not (the compiler and the error messages read them)."""

from __future__ import annotations

from lark import Token

_POSITIONS = ("start_pos", "end_pos", "line", "column", "end_line", "end_column")


def difference(a, b, path: str = "") -> str | None:
    """Where two trees differ (None if nowhere): what lark's ``==`` compares and the positions it does not."""
    if type(a) is not type(b):
        return f"{path}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, Token):
        fields = ("type", "value", *_POSITIONS)
        bad = [f for f in fields if getattr(a, f) != getattr(b, f)]
        return f"{path}: token {bad}: {a!r} vs {b!r}" if bad else None
    if a.data != b.data or type(a.data) is not type(b.data) or len(a.children) != len(b.children):
        return f"{path}: {a.data!r}/{len(a.children)} vs {b.data!r}/{len(b.children)}"
    if (
        a.meta.empty != b.meta.empty
        or not a.meta.empty
        and any(getattr(a.meta, f) != getattr(b.meta, f) for f in _POSITIONS)
    ):
        return f"{path}/{a.data}: positions differ"
    for i, (x, y) in enumerate(zip(a.children, b.children, strict=True)):
        if found := difference(x, y, f"{path}/{a.data}[{i}]"):
            return found
    return None
