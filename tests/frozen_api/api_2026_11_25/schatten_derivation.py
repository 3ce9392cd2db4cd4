r"""Symbolic derivations for the Schatten toolbox (seed 001 §B, eq. (8)–(11)).

- eq. (9): SymPy computes the singular values of a symbolic column vector: one, equal to its 2-norm.
- eq. (8) as written: for :math:`M = \varepsilon I_2` and p = q = 2 (r = 1) the two sides are
  :math:`2\varepsilon` and :math:`2\varepsilon^2`; the chain shows the sides and where they cross.
- eq. (11) for n = 2: expanded, the gap is a sum of nonnegative terms when |x_1| is the maximum.
"""

import sympy as sp

from lemmacheck import Source, Verdict, derivation

SEED_001 = "001_8cf8400e422d2236.txt"

v1, v2, v3 = sp.symbols("v1 v2 v3", real=True)
column = sp.Matrix([v1, v2, v3])
singular_values = column.singular_values()  # one nonzero singular value for a 3×1 matrix

derivation(
    "schatten.vector",
    chain=[sp.Add(*[s**3 for s in singular_values]) ** sp.Rational(1, 3), "=",
           sp.sqrt(v1**2 + v2**2 + v3**2)],
    labels=["the 3×1 matrix has the single singular value √(v₁²+v₂²+v₃²); its S³ norm is that value"],
)

eps = sp.symbols("epsilon", positive=True)
derivation(
    "schatten.holder_eq8.scaling",
    title="Eq. (8) as written fails for M = εI₂, p = q = 2 and ε < 1",
    source=Source(SEED_001, "§B, eq. (8)"),
    statement=r"\|\varepsilon I_2\|_{S^1} = 2\varepsilon \le \|\varepsilon I_2\|_{S^2}^2 = 2\varepsilon^2",
    expected=Verdict.REFUTED,
    chain=[2 * eps, "<=", (sp.sqrt(2) * eps) ** 2],
    labels=["‖εI₂‖_{S¹} = 2ε against ‖εI₂‖_{S²}‖εI₂‖_{S²} = 2ε²"],
    domain={eps: (1e-3, 2)},
    notes="The symbolic witness of the refutation of schatten.holder_eq8: the sides scale as ε and ε².",
)

x1, x2, y1, y2 = sp.symbols("x1 x2 y1 y2", real=True)
derivation(
    "schatten.hadamard",
    chain=[(x1 * y1) ** 2 + (x2 * y2) ** 2, "=",
           x1**2 * (y1**2 + y2**2) - (x1**2 - x2**2) * y2**2, "<=",
           sp.Max(x1**2, x2**2) * (y1**2 + y2**2)],
    labels=["regroup", "x₁² − x₂² ≥ −… : both x_i² ≤ max(x₁², x₂²)"],
)
