r"""SymPy: the gradient of log-sum-exp is softmax and its Hessian is diag(p) − ppᵀ (K = 3).

These are the facts behind seed 001 §A ('From ∇_{Vs_t} f_t(Φ) = softmax(Vs_t)') and behind the constant of
eq. (2) (the curvature bound itself is the lead's ``lse.hessian_inf_bound``).
"""

import sympy as sp
from checks._vocab.sources import S1_A

from derivations.loss._symbolic import lse_and_softmax
from lemmacheck import Verdict, derivation

x = sp.symbols("x1:4", real=True)
h, p = lse_and_softmax(x)
c = sp.symbols("c1:4", real=True)  # an arbitrary direction: the identities are tested as ⟨·, c⟩ / cᵀ·c
d = sp.symbols("d1:4", real=True)

derivation(
    "softmax.grad_is_softmax",
    chain=[
        sum(ci * sp.diff(h, xi) for ci, xi in zip(c, x, strict=False)),
        "=",
        sum(ci * pi for ci, pi in zip(c, p, strict=False)),
    ],
    labels=["∂/∂x_i log Σ_j e^{x_j} = e^{x_i} / Σ_j e^{x_j}"],
    title="∇ log-sum-exp = softmax",
    source=S1_A.at("proof of Lemma 1 (line after eq. (4))").quote("From ∇_{Vs_t} f_t(Φ) = softmax(Vs_t)"),
    statement=r"\nabla_{\mathbf V\mathbf s_t} f_t(\Phi) = \mathrm{softmax}(\mathbf V\mathbf s_t)",
    expected=Verdict.PROVED,
    notes="Proved for K = 3 as ⟨∇h, c⟩ = ⟨softmax, c⟩ for an arbitrary direction c.",
)

hess = sp.hessian(h, x)
H_claimed = sp.diag(*p) - sp.Matrix(p) * sp.Matrix(p).T
cv, dv = sp.Matrix(c), sp.Matrix(d)
derivation(
    "softmax.lse_hessian",
    chain=[(cv.T * hess * dv)[0, 0], "=", (cv.T * H_claimed * dv)[0, 0]],
    labels=["∂²/∂x_i∂x_j lse = p_i δ_ij − p_i p_j"],
    title="Hessian of log-sum-exp = diag(p) − ppᵀ",
    source=S1_A.at("text before eq. (2) (the fact behind 'Lipschitz constant L∞ = 1/2')").quote(
        "for log-sum-exp function h(x) ... Lipschitz constant L_∞ = 1/2"
    ),
    statement=r"\nabla^2 h(\mathbf x) = \mathrm{diag}(\mathbf p) - \mathbf p\mathbf p^\top,\ \mathbf p = "
    r"\mathrm{softmax}(\mathbf x)",
    expected=Verdict.PROVED,
    same_as=("lse.hessian_inf_bound",),
    notes="Proved for K = 3 as the bilinear form cᵀ∇²h d. Its quadratic form vᵀ(diag p − ppᵀ)v = Var_p(v) "
    "has maximum exactly 1 over ‖v‖∞ ≤ 1 (p = (½, ½), v = (1, −1)), so the curvature constant is 1 and the "
    "coefficient ½ of eq. (2) is L/2; see the study softmax.half_constant_limit.",
)
