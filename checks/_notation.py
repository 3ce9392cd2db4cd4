"""The notation of every topic that declares none of its own: the shared table of checks/_vocab/notation.py
(the statement compiler looks here last)."""

from checks._vocab.notation import symbols

__all__ = ["symbols"]
