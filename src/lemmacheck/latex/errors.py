"""Why a statement does not compile: the construct, its column, and what to extend."""

from __future__ import annotations

from ..errors import LemmacheckError

__all__ = ["LatexError"]


class LatexError(LemmacheckError):
    """A statement the compiler cannot read: where and why, and what would make it readable."""

    def __init__(
        self, why: str, *, construct: str = "", column: int | None = None, text: str = "", fix: str = ""
    ):
        self.why, self.construct, self.column, self.fix = why, construct, column, fix
        where = f"{construct!r} at column {column}" if column else repr(construct) if construct else ""
        message = f"{where}: {why}" if where else why
        if text and column:
            message += f"\n    {text}\n    {' ' * (column - 1)}^"
        if fix:
            message += f"\nfix: {fix}"
        super().__init__(message)

    @property
    def reason(self) -> str:
        """One line for results.json: the construct, its column, why, and the fix."""
        where = (
            f"{self.construct!r} at column {self.column}: "
            if self.column
            else (f"{self.construct!r}: " if self.construct else "")
        )
        return f"{where}{self.why}" + (f"; fix: {self.fix}" if self.fix else "")
