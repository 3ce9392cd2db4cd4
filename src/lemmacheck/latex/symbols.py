"""What a statement's notation denotes: a symbol table declared by the content, never guessed.

A key is the LaTeX of a symbol or phrase as the documents write it, normalised (spaces dropped,
``\\mathbf x`` as ``\\mathbf{x}``, ``_{t}`` as ``_t``): ``"x"``, ``"\\mathbf{s}_t"``,
``"\\Delta\\mathbf{x}"``, ``"\\nabla_{\\mathbf{x}}h(\\mathbf{x})"``.  Its meaning is one of:

- :class:`Input` -- a claim's input or dim, by name (``Input("x")``);
- :class:`Derived` -- a quantity computed from the claim's inputs and dims by the content's vocabulary
  (``Derived(lambda xp, W, U, X: hidden_states(xp, W, U, X)[..., -1, :])``);
- :class:`Function` -- a function applied to what the statement writes in its parentheses, with its
  gradient where ``\\nabla`` is written (``Function(logsumexp, grad=softmax)``).

Norms: ``\\|v\\|_p`` of a vector is the l_p norm and ``\\|M\\|_{S^p}`` of a matrix the Schatten-p norm
everywhere; what an unindexed ``\\|\\cdot\\|`` or ``\\|M\\|_p`` of a matrix means differs between documents,
so a table says it (``norm=``, ``matrix_norm=``).  ``transpose_letters=("T",)`` reads ``A^T`` of a matrix
or vector as its transpose where a document writes it so (``\\top`` always is one; ``\\gamma^T`` of a number
stays a power).  ``probe="c"`` compares vector-valued sides through the claim's probe input, as the
checks of that topic do (``c^\\top`` lhs against ``c^\\top`` rhs).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from typing import Any

from .errors import LatexError

__all__ = ["SymbolTable", "Input", "Derived", "Function", "normalise"]


@dataclasses.dataclass(frozen=True)
class Input:
    """A claim's input or dim, by name."""

    name: str
    row: bool = False  # a row vector (V_{p,:} of a document that writes rows)


@dataclasses.dataclass(frozen=True)
class Derived:
    """A quantity computed from the claim's inputs and dims: ``fn(xp, **the ones it names)``, or its
    ``item`` when ``fn`` computes several (computed once per evaluation for every symbol naming it)."""

    fn: Callable[..., Any]
    item: Any = None
    doc: str = ""
    row: bool = False  # a row vector


@dataclasses.dataclass(frozen=True)
class Function:
    """A function of what the statement writes in its parentheses: ``fn(xp, *args)``; ``grad(xp, *args)``
    is its gradient (``\\nabla f(x)``), with respect to its first argument."""

    fn: Callable[..., Any]
    grad: Callable[..., Any] | None = None
    doc: str = ""


Meaning = Input | Derived | Function
_FONT_SINGLE = re.compile(r"\\(mathbf|boldsymbol|mathrm|bm|mathcal)\s*([A-Za-z0-9])")
_BRACED_ONE = re.compile(r"([_^])\{([A-Za-z0-9])\}")
_SPACING = re.compile(
    r"\\(left|right|bigl|bigr|Bigl|Bigr|big|Big|textstyle|displaystyle)(?![A-Za-z])|\\[ ,;!]|\s+"
)


_COMMAND_SPACE_LETTER = re.compile(
    r"\\(tilde|hat|bar|overline|dot|mathbf|boldsymbol|mathrm|bm|mathcal)\s+([A-Za-z0-9])"
)


def normalise(latex: str) -> str:
    """The key of a symbol or phrase: spacing dropped, single-character arguments braced one way
    (``\\hat m_t`` and ``\\hat{m}_t`` are one key, never ``\\hatm_t``)."""
    s = _COMMAND_SPACE_LETTER.sub(lambda m: f"\\{m.group(1)}{{{m.group(2)}}}", latex)
    s = _SPACING.sub("", s)
    s = _FONT_SINGLE.sub(lambda m: f"\\{m.group(1)}{{{m.group(2)}}}", s)
    return _BRACED_ONE.sub(lambda m: f"{m.group(1)}{m.group(2)}", s)


@dataclasses.dataclass(frozen=True)
class SymbolTable:
    """A topic's notation.  ``where`` names the module declaring it (an error says which table to extend)."""

    where: str
    symbols: Mapping[str, Meaning] = dataclasses.field(default_factory=dict)
    norm: Callable[..., Any] | None = None  # \|A\| without an index: fn(xp, a, rank)
    matrix_norm: Callable[..., Any] | None = None  # \|M\|_p of a matrix, p a number: fn(xp, M, p)
    transpose_letters: tuple[str, ...] = ()
    # \sum_j: j runs over 1..dim, a dim's name, or 1..n where the document writes the count out (d = 3)
    indices: Mapping[str, str | int] = dataclasses.field(default_factory=dict)
    euler: str = ""  # the letter whose power is exp (``e^{u_j}``), where a document writes one
    probe: str = ""  # the input a check compares vector sides through (c^T lhs = c^T rhs), if any
    probe_fn: Callable[..., Any] | None = None  # fn(xp, side, inputs) -> (batch,): how a check compares
    # sides of rank >= 1 (<B, M> for a matrix, c^T M d ...); it replaces ``probe`` where given
    odot_binds: str = ""  # a \odot b c: "tight" (a \odot b) c, "loose" a \odot (b c); unset: refused
    elementwise_powers: bool = False  # g_t^2 of a vector is its entrywise square, a/b entrywise (Adam's)

    def __post_init__(self) -> None:
        keys = {normalise(k): v for k, v in self.symbols.items()}
        for k, v in keys.items():
            if not isinstance(v, (Input, Derived, Function)):
                raise TypeError(
                    f"symbol table {self.where}: {k!r} maps to {v!r}; use Input, Derived or Function"
                )
        object.__setattr__(self, "symbols", keys)

    def extend(self, where: str, symbols: Mapping[str, Meaning] | None = None, **changes: Any) -> SymbolTable:
        """This table with more entries (later ones win) declared in ``where``."""
        merged = {**self.symbols, **(symbols or {})}
        return dataclasses.replace(self, where=where, symbols=merged, **changes)

    def index_count(self, var: str, dims: Mapping[str, Any]) -> int:
        """How many values the index ``var`` runs over (1..count) on an instance with ``dims``."""
        spec = self.indices[var]
        return spec if isinstance(spec, int) else int(dims[spec])

    def get(self, key: str) -> Meaning | None:
        return self.symbols.get(normalise(key))

    def unknown(self, key: str, column: int | None, text: str, what: str = "symbol") -> LatexError:
        return LatexError(
            f"{what} not in the symbol table {self.where}",
            construct=key,
            column=column,
            text=text,
            fix=f"add {key!r} to {self.where} (Input('name'), Derived(fn) or Function(fn))",
        )
