r"""The log-sum-exp bound of seed 001 §A, eq. (2) and (3), and the Hessian fact behind its constant ½.

:math:`h(x) = \log\sum_j e^{x_j}`; :math:`\nabla h = \mathrm{softmax}`;
:math:`\nabla^2 h = \mathrm{diag}(p) - pp^\top`.
"""

from checks._vocab.sources import S1_A
from checks.loss._notation import SAMPLED_P
from lemmacheck import Array, ProbVector, Verdict, inequality

DIMS = {"n": [1, 2, 3, 5, 8, 16]}
#: a point x and a step Δx of any size, for the bound of eq. (2) and its restatement eq. (3)
_STEP = dict(inputs={"x": Array("n"), "dx": Array("n", scale=(1e-3, 3e1))}, dims=DIMS)


def lse_remainder(xp, x, dx):
    """h(x+Δx) − h(x) − ⟨∇h(x), Δx⟩, the part eq. (2) bounds (≥ 0 by convexity)."""
    return (
        xp.logsumexp(x + dx, axis=-1)
        - xp.logsumexp(x, axis=-1)
        - xp.sum(xp.softmax(x, axis=-1) * dx, axis=-1)
    )


@inequality(
    "lse.bound",
    uses=("softmax.lipschitz_half",),
    title="Log-sum-exp upper bound with ½‖Δx‖∞² (Lipschitz gradient in the ∞-norm)",
    source=S1_A.at("eq. (2)").quote("h(x + Δx) ≤ h(x) + ⟨∇x h(x), Δx⟩ + 1/2 ||Δx||_∞^2"),
    statement=r"h(\mathbf{x}+\Delta\mathbf{x}) \le h(\mathbf{x}) + \langle \nabla_{\mathbf{x}} "
    r"h(\mathbf{x}),\Delta\mathbf{x}\rangle + \frac{1}{2}\|\Delta\mathbf{x}\|_\infty^2",
    expected=Verdict.HOLDS,
    **_STEP,
    notes="Checked as remainder ≤ ½‖Δx‖∞² (h(x) + ⟨∇h, Δx⟩ moved to the left), so the tightness ratio "
    "measures the constant ½ itself rather than being ≈ 1 trivially.",
)
def lse_bound(xp, x, dx):
    return lse_remainder(xp, x, dx), 0.5 * xp.max(xp.abs(dx), axis=-1) ** 2


@inequality(
    "lse.bound_eq3",
    uses=("lse.bound",),
    title="Eq. (3): the bound of eq. (2) applied to V s_t, as written (norm not squared)",
    source=S1_A.at("eq. (3)").quote(
        "f_t(Φ+ΔΦ) ≤ f(Φ) + ⟨∇_{Vs_t} f_t(Φ), Vs_t(Φ+ΔΦ) − Vs_t(Φ)⟩ + 1/2 ||Vs_t(Φ+ΔΦ) − Vs_t(Φ)||_∞"
    ),
    statement=r"f_t(\Phi+\Delta\Phi) \le f(\Phi) + \langle \nabla_{V s_t} f_t(\Phi), V "
    r"s_t(\Phi+\Delta\Phi) - V s_t(\Phi)\rangle + \frac12 \|V s_t(\Phi+\Delta\Phi) - V s_t(\Phi)\|_\infty",
    expected=Verdict.REFUTED,
    **_STEP,
    notes="As written the ∞-norm is not squared (and f(Φ) lacks its index t). Since f_t = h(V s_t), the "
    "claim is eq. (2) at x = V s_t(Φ), Δx = V s_t(Φ+ΔΦ) − V s_t(Φ) with ½‖Δx‖∞ in place of ½‖Δx‖∞²: false "
    "once ‖Δx‖∞ is large (the remainder grows like ‖Δx‖∞ − log 2 along Δx = (a, −a)). Lemma 1 uses the "
    "square.",
)
def lse_bound_eq3(xp, x, dx):
    return lse_remainder(xp, x, dx), 0.5 * xp.max(xp.abs(dx), axis=-1)


@inequality(
    "lse.bound_eq3.corrected",
    title="Eq. (3) corrected: the squared ∞-norm, as eq. (2) gives and Lemma 1 uses",
    source=S1_A.at("eq. (3) (corrected) and Lemma 1").cite(),
    statement=r"f_t(\Phi+\Delta\Phi) \le f_t(\Phi) + \langle \nabla_{V s_t} f_t(\Phi), V "
    r"s_t(\Phi+\Delta\Phi) - V s_t(\Phi)\rangle + \frac12 \|V s_t(\Phi+\Delta\Phi) - V s_t(\Phi)\|_\infty^2",
    expected=Verdict.HOLDS,
    corrects="lse.bound_eq3",
    same_as=("lse.bound",),
    **_STEP,
)
def lse_bound_eq3_corrected(xp, x, dx):
    return lse_bound(xp, x, dx)


@inequality(
    "lse.hessian_inf_bound",
    title="The Hessian of log-sum-exp has curvature at most 1 in the ∞-norm (why ½ is the constant)",
    source=S1_A.at("text before eq. (2)").quote(
        "for log-sum-exp function h(x) ... Lipschitz constant L_∞ = 1/2"
    ),
    statement=r"v^\top\left(\mathrm{diag}(p) - pp^\top\right)v \le \|v\|_\infty^2 \quad (p = "
    r"\mathrm{softmax}(x))",
    expected=Verdict.HOLDS,
    proof_not_asserted="the document cites the constant from [1] and gives no derivation; the SymPy chain "
    "(derivations/loss/lse.py, n = 2) is the catalogue's own",
    inputs={"p": ProbVector("n"), "v": Array("n")},
    dims=DIMS,
    notes="vᵀ∇²h v is the variance of v under p, at most ((max v − min v)/2)² ≤ ‖v‖∞² (Popoviciu); the "
    "bound is attained by p = (½, ½), v = (a, −a), so the gradient's Lipschitz constant in ‖·‖∞ is 1 and "
    "the Taylor constant L/2 = ½ of eq. (2) cannot be improved. The text calls ½ itself the Lipschitz "
    "constant.",
)
def lse_hessian_inf_bound(xp, p, v):
    quad = xp.sum(p * v * v, axis=-1) - xp.sum(p * v, axis=-1) ** 2
    return quad, xp.max(xp.abs(v), axis=-1) ** 2


#: the statement compiler reads lse.hessian_inf_bound's p = softmax(x) with x = log p (its check samples p)
claim_symbols = {"lse.hessian_inf_bound": SAMPLED_P}
