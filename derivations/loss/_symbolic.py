"""Log-sum-exp and its gradient, softmax, of a vector of SymPy expressions (for the loss derivations)."""

import sympy as sp


def lse_and_softmax(z):
    """(log Σ_j e^{z_j}, [e^{z_i} / Σ_j e^{z_j}]_i)."""
    den = sum(sp.exp(zi) for zi in z)
    return sp.log(den), [sp.exp(zi) / den for zi in z]
