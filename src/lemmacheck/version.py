"""The package's version, in a module of its own so the engine can read it without importing the
public façade (``lemmacheck/__init__``), which imports the engine."""

__version__ = "0.1.0"
