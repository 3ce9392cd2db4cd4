"""Schatten norms and the Hölder/trace-norm facts seeds 000/001 use."""
