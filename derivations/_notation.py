"""The notation of every derivation topic that declares none of its own: the shared table of
checks/_vocab/notation.py, whose letters here name the derivation's own SymPy symbols (a Latin or Greek
letter is the symbol of that name; the statement compiler looks here last)."""

from checks._vocab.notation import symbols as shared

__all__ = ["symbols"]

symbols = shared.extend("derivations/_notation.py")
