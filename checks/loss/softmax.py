r"""The softmax facts used in the proof of Lemma 1 (seed 001 §A) and in seed 000's handwritten appendix.

:math:`h(x) = \log\sum_j e^{x_j}`, :math:`\nabla h = \mathrm{softmax}`, :math:`\nabla^2 h = \mathrm{diag}(p) -
pp^\top` (symbolic proofs in derivations/loss/softmax.py).  Hölder's inequality pairs ‖·‖∞ with ‖·‖₁;
the proof of Lemma 1 pairs it with ‖·‖∞.
"""

import numpy as np

from checks._vocab.linalg import inf_norm
from checks._vocab.sources import S0_APPENDIX, S1_A
from checks.loss._helpers import softmax_rows
from lemmacheck import Array, Plot, Series, StudyResult, Table, Verdict, inequality, study

DIMS = {"n": [1, 2, 3, 5, 8]}
#: the logits x alone, with a vector r, or with a second point y
ON_X = dict(inputs={"x": Array("n")}, dims=DIMS)
ON_XR = dict(inputs={"x": Array("n"), "r": Array("n")}, dims=DIMS)
ON_XY = dict(inputs={"x": Array("n"), "y": Array("n")}, dims=DIMS)


def _softmax_gap(xp, x, y):
    """‖softmax(x) − softmax(y)‖₁."""
    return xp.sum(xp.abs(xp.softmax(x, axis=-1) - xp.softmax(y, axis=-1)), axis=-1)


@inequality(
    "softmax.inf_norm",
    title="‖softmax(Vs_t)‖∞ ≤ 1",
    source=S1_A.at("proof of Lemma 1 (line after eq. (4))").quote(
        "||softmax(Vs_t)||_∞ ≤ ||r||_∞ ... ≤ ||r||_∞"
    ),
    statement=r"\|\mathrm{softmax}(\mathbf V\mathbf s_t)\|_\infty \le 1",
    expected=Verdict.HOLDS,
    **ON_X,
    notes="Entries of a probability vector are ≤ 1; tightness 1 (attained at n = 1, approached by one "
    "dominant logit).",
)
def softmax_inf_norm(xp, x):
    return inf_norm(xp, xp.softmax(x, axis=-1)), inf_norm(xp, x) * 0 + 1


@inequality(
    "softmax.grad_le_one_hw",
    title="Handwritten: '∇_{VS_t} f_{-t}(θ) ≤ 1 (softmax)'",
    source=S0_APPENDIX.at("proof of Lemma 1").quote(
        "It can be proved that ∇_{VS_t(θ)} f_{-t}(θ) ≤ 1 (softmax)"
    ),
    statement=r"\nabla_{VS_t(\theta)} f_{-t}(\theta) \le 1",
    expected=Verdict.HOLDS,
    same_as=("softmax.inf_norm",),
    **ON_X,
    notes="Read entrywise: the gradient is softmax(VS_t), every entry of which is ≤ 1 (checked as its "
    "largest entry ≤ 1).",
)
def softmax_grad_le_one_hw(xp, x):
    return xp.max(xp.softmax(x, axis=-1), axis=-1), inf_norm(xp, x) * 0 + 1


@inequality(
    "softmax.holder_inf_inf",
    title="rᵀ softmax ≤ ‖r‖∞ ‖softmax‖∞ (Hölder with the wrong dual norm)",
    source=S1_A.at("proof of Lemma 1 (line after eq. (4))").quote(
        "we have r^T ∇_{Vs_t} f_t(Φ) ≤ ||r||_∞ ||softmax(Vs_t)||_∞"
    ),
    statement=r"\mathbf r^\top\nabla_{\mathbf V\mathbf s_t} f_t(\Phi) \le \|\mathbf "
    r"r\|_\infty\|\mathrm{softmax}(\mathbf V\mathbf s_t)\|_\infty",
    expected=Verdict.REFUTED,
    **ON_XR,
    notes="False for any r with entries of one sign and a spread-out softmax: r = (1, 1), x = (0, 0) gives "
    "1 > ½. The dual of ‖·‖∞ is ‖·‖₁: rᵀp ≤ ‖r‖∞‖p‖₁ = ‖r‖∞ (softmax.r_dot_softmax), which is all Lemma 1 "
    "needs, so the lemma survives.",
)
def softmax_holder_inf_inf(xp, x, r):
    p = xp.softmax(x, axis=-1)
    return xp.sum(r * p, axis=-1), inf_norm(xp, r) * inf_norm(xp, p)


@inequality(
    "softmax.r_dot_softmax",
    title="rᵀ softmax ≤ ‖r‖∞ ‖softmax‖₁ = ‖r‖∞ (Hölder corrected)",
    source=S1_A.at("proof of Lemma 1 (corrected)").cite(),
    statement=r"\mathbf r^\top\mathrm{softmax}(\mathbf V\mathbf s_t) \le \|\mathbf "
    r"r\|_\infty\|\mathrm{softmax}(\mathbf V\mathbf s_t)\|_1 = \|\mathbf r\|_\infty",
    expected=Verdict.HOLDS,
    corrects="softmax.holder_inf_inf",
    steps_claimed=True,
    proof_not_asserted="the catalogue's corrected Hölder step (‖·‖∞ with ‖·‖₁): the document pairs ‖r‖∞ with "
    "‖softmax‖∞ (softmax.holder_inf_inf)",
    relations=("<=", "="),
    labels=["Hölder (‖·‖∞, ‖·‖₁)", "‖softmax‖₁ = 1"],
    **ON_XR,
    notes="Tight (ratio 1) when r is constant and positive on the support of the softmax.",
)
def softmax_r_dot_softmax(xp, x, r):
    p = xp.softmax(x, axis=-1)
    return xp.sum(r * p, axis=-1), inf_norm(xp, r) * xp.sum(xp.abs(p), axis=-1), inf_norm(xp, r)


@inequality(
    "softmax.lipschitz_half",
    title="'Lipschitz constant L∞ = ½' of log-sum-exp: ‖∇h(x) − ∇h(y)‖₁ ≤ ½‖x − y‖∞",
    source=S1_A.at("text before eq. (2)").quote(
        "for log-sum-exp function h(x) = log Σ_{j=1}^J e^{x_j}, Lipschitz constant L_∞ = 1/2"
    ),
    statement=r"\|\nabla h(\mathbf x) - \nabla h(\mathbf y)\|_1 \le \tfrac12\|\mathbf x - \mathbf "
    r"y\|_\infty",
    expected=Verdict.REFUTED,
    **ON_XY,
    notes="PUZZLE (terminology): read as the Lipschitz constant of ∇h from (ℝ^J, ‖·‖∞) to its dual (ℝ^J, "
    "‖·‖₁), the constant L of the bound h(x+Δ) ≤ h(x) + ⟨∇h, Δ⟩ + (L/2)‖Δ‖∞², ½ is wrong: x = 0, y = (ε, "
    "−ε) gives ‖softmax(x) − softmax(y)‖₁ ≈ ε. The right constant is L = 1 (softmax.lipschitz_one), and "
    "eq. (2)'s coefficient ½ is L/2 — so eq. (2) is right and the sentence calls L/2 'the Lipschitz "
    "constant'. Hessian view: lse.hessian_inf_bound.",
)
def softmax_lipschitz_half(xp, x, y):
    return _softmax_gap(xp, x, y), 0.5 * inf_norm(xp, x - y)


@inequality(
    "softmax.lipschitz_one",
    title="The gradient of log-sum-exp is 1-Lipschitz from ‖·‖∞ to ‖·‖₁ (L∞ = 1, coefficient L/2 = ½)",
    source=S1_A.at("text before eq. (2) (corrected)").cite(),
    statement=r"\|\mathrm{softmax}(\mathbf x) - \mathrm{softmax}(\mathbf y)\|_1 \le \|\mathbf x - \mathbf "
    r"y\|_\infty",
    expected=Verdict.HOLDS,
    corrects="softmax.lipschitz_half",
    same_as=("lse.hessian_inf_bound",),
    **ON_XY,
    notes="‖∇²h(ξ) d‖₁ = Σ_i p_i|d_i − pᵀd| is a mean absolute deviation of values in [−‖d‖∞, ‖d‖∞], hence "
    "≤ ‖d‖∞; integrate along the segment. Tightness → 1 at x = 0, y = (ε, −ε), ε → 0.",
)
def softmax_lipschitz_one(xp, x, y):
    return _softmax_gap(xp, x, y), inf_norm(xp, x - y)


def _lse(x):
    m = x.max(axis=-1, keepdims=True)
    return (m + np.log(np.exp(x - m).sum(axis=-1, keepdims=True)))[..., 0]


def _ratio(x, d):
    """(h(x+d) − h(x) − ⟨∇h(x), d⟩) / (½‖d‖∞²): how much of eq. (2)'s constant ½ is used."""
    rem = _lse(x + d) - _lse(x) - (softmax_rows(x) * d).sum(axis=-1)
    return rem / (0.5 * np.abs(d).max(axis=-1) ** 2)


@study(
    "softmax.half_constant_limit",
    title="Is the constant ½ of the log-sum-exp bound (eq. (2)) attained? The ratio remainder / (½‖Δx‖∞²)",
    source=S1_A.at("eq. (2) and 'Lipschitz constant L∞ = 1/2'").cite(),
    related=("lse.bound", "lse.hessian_inf_bound", "softmax.lipschitz_half", "softmax.lipschitz_one"),
)
def half_constant_limit(profile):
    eps = np.logspace(-4, 1, 11)
    worst = np.array([_ratio(np.zeros((1, 2)), np.array([[e, -e]]))[0] for e in eps])
    n_random = 20000 if profile.name == "quick" else 200000
    rows = []
    for n in (2, 3, 8):
        x = profile.rng.standard_normal((n_random, n)) * 10 ** profile.rng.uniform(-2, 1, (n_random, 1))
        d = profile.rng.standard_normal((n_random, n)) * 10 ** profile.rng.uniform(-3, 1, (n_random, 1))
        r = _ratio(x, d)
        rows.append([n, n_random, float(np.median(r)), float(np.quantile(r, 0.99)), float(r.max())])
    table_eps = Table(
        title="Along x = (0, 0), Δx = (ε, −ε): remainder / (½‖Δx‖∞²) = log cosh ε / (½ε²)",
        columns=["ε", "ratio"],
        rows=[[float(e), float(w)] for e, w in zip(eps, worst, strict=False)],
    )
    table_rand = Table(
        title="Random x, Δx (log-uniform scales)",
        columns=["n", "instances", "median ratio", "99% quantile", "max ratio"],
        rows=rows,
    )
    plot = Plot(
        title="Ratio along the extremal direction",
        x_label="ε",
        y_label="ratio",
        logx=True,
        series=[Series(label="x = 0, Δx = (ε, −ε)", x=[float(e) for e in eps], y=[float(w) for w in worst])],
    )
    conclusion = (
        f"The ratio approaches 1 as ε → 0 along p = (½, ½), Δx = (ε, −ε) (ratio {worst[0]:.6f} at "
        f"ε = {eps[0]:.0e}, {worst[-1]:.3f} at ε = {eps[-1]:.0f}) but never reaches it: the constant ½ "
        f"of eq. (2) is the smallest possible (sup ratio = 1, not attained), consistent with the "
        f"Hessian bound vᵀ(diag p − ppᵀ)v ≤ ‖v‖∞² whose maximum 1 is reached at p = (½, ½). Random "
        f"instances use much less of it (median ratio {rows[0][2]:.3f} for n = 2, "
        f"{rows[-1][2]:.3f} for n = 8; largest seen {max(r[4] for r in rows):.4f}). So the "
        f"'Lipschitz constant' of the gradient is L∞ = 1 and ½ is L/2."
    )
    return StudyResult(tables=[table_eps, table_rand], plots=[plot], conclusion=conclusion)
