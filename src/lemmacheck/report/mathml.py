"""A claim's LaTeX statement as MathML (latex2mathml: no CDN, no script needed to show math).

The MathML passes the allowlist of :mod:`.sanitize` before it is marked safe; a statement that does not
convert, or whose MathML the allowlist would change, is shown as its source text with the reason.
"""

from __future__ import annotations

import re

from markupsafe import Markup

from .render_cache import cached
from .sanitize import sanitize_mathml

__all__ = ["latex_to_mathml"]

# Operator names latex2mathml does not know: \\arg is standard LaTeX; the others are the usual
# \\DeclareMathOperator names.  Each is written as \\operatorname{...}, which it renders upright.
_OPERATOR_NAMES = ("arg", "sgn", "diag", "rank", "tr", "Tr")
_OPERATOR_RE = re.compile(r"\\(" + "|".join(_OPERATOR_NAMES) + r")(?![A-Za-z])")


def _teach_operators(latex: str) -> str:
    return _OPERATOR_RE.sub(lambda m: r"\operatorname{" + m.group(1) + "}", latex)


def latex_to_mathml(latex: str) -> tuple[Markup | None, str]:
    """``(MathML, "")`` or ``(None, reason)`` when the LaTeX will not render."""
    mathml, reason = cached(("mathml", latex), lambda: _markup_pair(_latex_to_mathml(latex)), _is_pair)
    return (Markup(mathml) if mathml is not None else None), reason


def _is_pair(value) -> bool:
    """The shape :func:`_markup_pair` returns: [MathML text or None, reason]."""
    return (
        isinstance(value, list)
        and len(value) == 2
        and (value[0] is None or isinstance(value[0], str))
        and isinstance(value[1], str)
    )


def _markup_pair(pair: tuple[Markup | None, str]) -> list:
    return [None if pair[0] is None else str(pair[0]), pair[1]]


def _latex_to_mathml(latex: str) -> tuple[Markup | None, str]:
    if not latex:
        return None, "no statement"
    try:
        from latex2mathml.converter import convert

        mathml = convert(_teach_operators(latex), display="block")
    except Exception as exc:  # the converter's own errors vary by version
        return None, f"LaTeX did not render ({type(exc).__name__}: {exc})"
    # latex2mathml passes unknown commands through as text; flag them rather than show broken math.
    unknown = re.findall(r"<mi>\\([A-Za-z]+)</mi>", mathml)
    if unknown:
        return None, f"LaTeX did not render (unknown command \\{unknown[0]})"
    return sanitize_mathml(mathml)
