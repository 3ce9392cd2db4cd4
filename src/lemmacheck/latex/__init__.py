"""Statements compiled to checks: the LaTeX a report shows, parsed (``grammar.lark``) and given meaning by
the content's symbol tables, as a function of ``xp`` like a hand-written check."""

from .declare import from_statement
from .errors import LatexError
from .statement import CompiledStatement, compile_statement
from .symbols import Derived, Function, Input, SymbolTable

__all__ = [
    "from_statement",
    "LatexError",
    "CompiledStatement",
    "compile_statement",
    "SymbolTable",
    "Input",
    "Derived",
    "Function",
]
