"""SymPy derivations, one folder per topic with the same names as ``checks/`` (see docs/authoring.md)."""
