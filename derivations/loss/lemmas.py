r"""SymPy derivations for seed 001 §A: the chain rule of eq. (4) and the linearity of eq. (5).

Eq. (4) is proved on a scalar RNN with two tokens and two classes, :math:`s_t = \sigma(u x_t + w s_{t-1})`
with
an arbitrary differentiable activation σ (a SymPy ``Function``, so the proof covers every activation),
:math:`z = (v_1 s_2, v_2 s_2)`, with every parameter of :math:`\Phi = \{u, w, v, s_0\}` perturbed along
:math:`\delta\Phi`: the directional derivative of :math:`f = \log(e^{z_1} + e^{z_2})` along δΦ (differentiated
by SymPy) equals :math:`\mathrm{softmax}(z)^\top \dot z` with :math:`\dot z` the derivative of the logits.
"""

import sympy as sp

from derivations.loss._symbolic import lse_and_softmax
from lemmacheck import derivation

# ---------------------------------------------------------------- eq. (4): chain rule on a scalar RNN
u, w, s0, v1, v2, x1, x2, eps = sp.symbols("u w s0 v1 v2 x1 x2 epsilon", real=True)
sigma = sp.Function("sigma", real=True)
du, dw, ds0, dv1, dv2 = sp.symbols("du dw ds0 dv1 dv2", real=True)


def _logits(u_, w_, s0_, v1_, v2_):
    s1 = sigma(u_ * x1 + w_ * s0_)
    s2 = sigma(u_ * x2 + w_ * s1)
    return v1_ * s2, v2_ * s2


z = _logits(u, w, s0, v1, v2)
z_eps = _logits(u + eps * du, w + eps * dw, s0 + eps * ds0, v1 + eps * dv1, v2 + eps * dv2)
# The perturbed logits V s_t(Φ+ΔΦ) enter eq. (4) only through r, so they stay free symbols.
z_new = sp.symbols("zplus1 zplus2", real=True)
jvp = [sp.diff(zi, eps).subs(eps, 0) for zi in z_eps]  # ⟨∇_Φ V s_t, ΔΦ⟩
r = [zn - zi - ji for zn, zi, ji in zip(z_new, z, jvp, strict=False)]  # the remainder of seed 001 §A
_, p = lse_and_softmax(z)  # ∇_{Vs_t} f_t = softmax
f_eps, _ = lse_and_softmax(z_eps)
grad_f_pair = sp.diff(f_eps, eps).subs(eps, 0)  # ⟨∇_Φ f_t, ΔΦ⟩ (differentiated directly)

derivation(
    "lemma1.eq4",
    chain=[
        p[0] * (z_new[0] - z[0]) + p[1] * (z_new[1] - z[1]),
        "=",
        p[0] * (r[0] + jvp[0]) + p[1] * (r[1] + jvp[1]),
        "=",
        (r[0] * p[0] + r[1] * p[1]) + grad_f_pair,
    ],
    labels=["definition of r", "linearity and the chain rule: softmaxᵀ ż = d/dε f(Φ + εΔΦ)|₀"],
)

# ---------------------------------------------------------------- eq. (5): g_t linear in V s_t
zs = sp.symbols("z1:4", real=True)
zn = sp.symbols("zn1:4", real=True)
ys = sp.symbols("y1:4", real=True)
g_of = lambda zz: -sum(yi * zi for yi, zi in zip(ys, zz, strict=False))  # noqa: E731  g_t = −yᵀ V s_t
grad_g = [-yi for yi in ys]  # ∇_{Vs_t} g_t

derivation(
    "lemma2.eq5",
    chain=[g_of(zn), "=", g_of(zs) + sum(gi * (a - b) for gi, a, b in zip(grad_g, zn, zs, strict=False))],
    labels=["g_t = −yᵀ(Vs_t) is linear in Vs_t"],
)
