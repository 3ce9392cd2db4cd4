"""Singular values, eigenvalues and Schatten norms on SymPy matrices in closed form, where the matrix's
smaller side is at most 2 (a Gram matrix's eigenvalues by the quadratic formula); larger matrices have
no closed form in square roots, and the certification says so (:class:`NotCertifiable`)."""

from __future__ import annotations

import math

import numpy as np
import sympy

from .refusal import NotCertifiable

__all__ = ["small_matrix", "svdvals_one", "eigvalsh_one", "schatten_norm"]


def gram_eigenvalues(g) -> tuple:
    """The eigenvalues (larger first) of a symmetric 2×2 matrix, in closed form."""
    half_trace = (g[0][0] + g[1][1]) / 2
    root = sympy.sqrt(((g[0][0] - g[1][1]) / 2) ** 2 + g[0][1] * g[1][0])
    return half_trace + root, half_trace - root


def small_matrix(fn, what):
    """``fn`` on each matrix of a stack whose smaller side is at most 2, where the spectrum has a
    closed form in square roots; larger matrices are not certifiable."""

    def apply(a, *args):
        arr = np.asarray(a, dtype=object)
        if min(arr.shape[-2:]) > 2:
            raise NotCertifiable(
                f"the check uses xp.{what} on {arr.shape[-2]}×{arr.shape[-1]} matrices"
                " (a closed form only up to 2)"
            )
        lead = arr.shape[:-2]
        first = fn(arr[(0,) * len(lead)].tolist(), *args)
        out = np.empty(lead + np.shape(np.asarray(first, dtype=object)), dtype=object)
        for idx in np.ndindex(lead):
            out[idx] = fn(arr[idx].tolist(), *args)
        return out

    return apply


def svdvals_one(m) -> list:
    a = sympy.Matrix(m)
    g = a.T * a if a.cols <= a.rows else a * a.T
    if g.shape == (1, 1):
        return [sympy.sqrt(g[0, 0])]
    big, small = gram_eigenvalues(g.tolist())
    return [sympy.sqrt(big), sympy.sqrt(small)]


def eigvalsh_one(m) -> list:
    if len(m) == 1:
        return [m[0][0]]
    big, small = gram_eigenvalues(m)
    return [small, big]


def schatten_one(m, p):
    a = sympy.Matrix(m)
    g = a.T * a if a.cols <= a.rows else a * a.T
    if p == 2:
        return sympy.sqrt(g.trace())
    if g.shape == (1, 1):
        return sympy.sqrt(g[0, 0])
    if p == 1:  # σ₁ + σ₂ = √(σ₁² + σ₂² + 2σ₁σ₂) = √(tr G + 2√det G)
        return sympy.sqrt(g.trace() + 2 * sympy.sqrt(g.det()))
    if p == math.inf:
        return sympy.sqrt(gram_eigenvalues(g.tolist())[0])
    raise NotCertifiable(f"the check uses schatten_norm with p = {p!r}")


def schatten_norm(m, p):
    if p == 2:
        s = np.sum(np.sum(np.asarray(m, dtype=object) ** 2, axis=-1), axis=-1)
        return np.frompyfunc(sympy.sqrt, 1, 1)(s)
    return small_matrix(schatten_one, "schatten_norm")(m, p)
