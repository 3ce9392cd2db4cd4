r"""The notation every document shares, as a symbol table the statement compiler reads.

A Latin letter, plain or bold (``x``, ``\mathbf{x}``), or a Greek one (``\beta``), denotes the claim's input
or dim of that name (a
statement using a letter the claim does not declare is `not compiled`, naming it); ``\mathrm{tr}``,
``\mathrm{diag}``, ``\mathrm{softmax}`` are the usual functions.  A topic extends this table in its
``_notation.py`` with what its documents mean by the rest (seed 000's unindexed norm is the spectral one).
"""

from __future__ import annotations

import math
import string

from lemmacheck import Function, Input, SymbolTable


def _trace(xp, M):
    return xp.trace(M)


def _softmax(xp, v):
    return xp.softmax(v, axis=-1)


def _diag(xp, v):
    return xp.diag_embed(v)


def spectral(xp, a, rank):
    """``\\|A\\|`` read as the spectral norm of a matrix (the Euclidean norm of a vector)."""
    return xp.schatten_norm(a, math.inf) if rank == 2 else xp.vector_norm(a, 2)


#: a Greek letter is the input or dim named after it (\beta -> beta); \epsilon and \varepsilon -> eps
GREEK = {
    **{
        rf"\{name}": Input(name)
        for name in ("alpha", "beta", "gamma", "delta", "eta", "theta", "lambda", "mu", "sigma", "tau", "rho")
    },
    r"\epsilon": Input("eps"),
    r"\varepsilon": Input("eps"),
}

LETTERS = {
    **{c: Input(c) for c in string.ascii_letters},
    **{rf"\mathbf{{{c}}}": Input(c) for c in string.ascii_letters},
    **{rf"\boldsymbol{{{c}}}": Input(c) for c in string.ascii_letters},
}

FUNCTIONS = {
    r"\mathrm{tr}": Function(_trace, doc="trace"),
    r"\mathrm{diag}": Function(_diag, doc="the diagonal matrix of a vector"),
    r"\mathrm{softmax}": Function(_softmax, doc="softmax along the last axis"),
}

symbols = SymbolTable("checks/_vocab/notation.py", {**LETTERS, **GREEK, **FUNCTIONS}, euler="e")
