"""Text from claims (ids, titles, messages) on a terminal: control characters shown, never obeyed.

A claim's id, title or error message is content, and content may hold an escape sequence (``\\x1b[2J``
clears the screen, OSC 8 forges a link) or a bidirectional override that reorders what is shown.  Every
such character is printed as its escape (``\\x1b``, ``\\u202e``) instead.
"""

from __future__ import annotations

import re

from ..report.sanitize import BIDI_CONTROLS

__all__ = ["printable", "printable_line"]

# C0 controls but tab and newline, DEL, C1 controls, and the bidirectional overrides and isolates
# (and the line and paragraph separators, which a terminal may break a line at)
_CONTROL = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029{BIDI_CONTROLS}]")
_CONTROL_OR_BREAK = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{BIDI_CONTROLS}]")


def _escape(m: re.Match) -> str:
    c = ord(m.group(0))
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def printable(text: object) -> str:
    """``text`` with every control character escaped; line breaks and tabs kept (messages)."""
    return _CONTROL.sub(_escape, str(text))


def printable_line(text: object) -> str:
    """``text`` on one line: line breaks escaped too (ids, titles, one-line reasons)."""
    return _CONTROL_OR_BREAK.sub(_escape, str(text))
