"""The second-order model of one gradient step and Newton's step (seed 002, Question 3).

f̂_{x0}(x) = f(x0) + (x − x0)ᵀg + ½ (x − x0)ᵀH(x − x0) with a symmetric H (a Hessian, possibly
indefinite). The learning-rate condition is checked as an "if and only if" over step sizes ε > 0, which
is how the document states it.
"""

from checks._vocab.fd import quadratic_directional
from checks._vocab.linalg import dot, matvec
from checks._vocab.sources import S2_Q3_1, S2_Q3_2, S2_Q3_3
from checks.optim._helpers import probe, symmetric_transform
from checks.optim._notation import symbols as optim_notation
from lemmacheck import SPD, Array, Derived, Input, Scalar, Verdict, identity, prop

_MODEL_INPUTS = {
    "x0": Array("n"),
    "g": Array("n"),
    "H": Array("n", "n", transform=symmetric_transform),
    "f0": Scalar(-10.0, 10.0),
    "eps": Scalar(1e-3, 10.0, log=True),
}
_DIMS = {"n": [1, 2, 3, 5, 8]}


#: a quadratic model at x0 (f(x0), g, a symmetric H) and a step size ε > 0
MODEL_STEP = {"inputs": _MODEL_INPUTS, "dims": _DIMS}


def _model(xp, f0, g, H, x0, x):
    d = x - x0
    return f0 + dot(xp, d, g) + 0.5 * dot(xp, d, matvec(H, d))


def _nonzero_curvature(xp, g, H, **_):
    """The condition divides by gᵀHg; the document does not discuss gᵀHg = 0 (nor g = 0)."""
    return xp.abs(dot(xp, g, matvec(H, g))) > 0


def _well_conditioned(xp, H):
    """H invertible, and not so close to singular that H⁻¹g is dominated by rounding."""
    ev = xp.abs(xp.eigvalsh(H))
    return xp.min(ev, axis=-1) > 1e-8 * xp.max(ev, axis=-1)


def _decreases(xp, g, H, eps):
    """f̂(x_1) − f(x_0) < 0 in the factored form ε(−gᵀg + ½εgᵀHg) (quad.change_002 proves the two equal).

    Comparing f̂(x_1) < f(x_0) directly would lose the change below the rounding unit of f(x_0)."""
    return eps * (-dot(xp, g, g) + 0.5 * eps * dot(xp, g, matvec(H, g))) < 0


@identity(
    "quad.model_after_step_002",
    **MODEL_STEP,
    relations=("=", "="),
    labels=("substitute x_1 − x_0 = −εg", "simplify"),
    title="Quadratic model after one gradient step",
    source=S2_Q3_1.quote("\\hat{f}_{x_0}(x_1) = f(x_0) - \\epsilon g^T g + \\frac{1}{2} \\epsilon^2 g^T H g"),
    statement=r"\hat f_{x_0}(x_1) = f(x_0)+(-\epsilon g)^Tg+\tfrac12(-\epsilon g)^TH(-\epsilon g) = "
    r"f(x_0)-\epsilon g^Tg+\tfrac12\epsilon^2 g^THg,\quad x_1 = x_0-\epsilon g",
    expected=Verdict.PROVED,
)
def quad_model_after_step_002(xp, x0, g, H, f0, eps):
    e = eps[:, None]
    x1 = x0 - e * g
    step = -e * g
    return (
        _model(xp, f0, g, H, x0, x1),
        f0 + dot(xp, step, g) + 0.5 * dot(xp, step, matvec(H, step)),
        f0 - eps * dot(xp, g, g) + 0.5 * eps**2 * dot(xp, g, matvec(H, g)),
    )


def _model_after_step(xp, x0, g, H, f0, eps):
    return _model(xp, f0, g, H, x0, x0 - eps[:, None] * g)


#: seed 002 Question 3.2: f̂_{x0} is the second-order model around x0 (module docstring), x1 = x0 − εg the
#: gradient step, f(x0) the sampled value f0 and g^T a transpose
QUAD_MODEL = optim_notation.extend(
    "checks/optim/quadratic.py (QUAD_MODEL)",
    {
        r"\hat{f}_{x_0}(x_1)": Derived(_model_after_step, doc="f̂_{x0}(x0 − εg)"),
        "f(x_0)": Input("f0"),
    },
    transpose_letters=("T",),
)


def _model_gradient(xp, x0, x, g, H, f0):
    """∇_x f̂_{x0}(x), coordinate by coordinate from central differences (exact: f̂ is quadratic)."""
    n = x.shape[-1]
    columns = []
    for k in range(n):
        e = 0 * x
        e[:, k] = e[:, k] + 1
        columns.append(quadratic_directional(lambda z: _model(xp, f0, g, H, x0, z), x, e))
    return xp.stack(columns, axis=-1)


#: seed 002 Question 3.3: the gradient of the model at the sampled x, compared through the probe c
MODEL_GRADIENT = QUAD_MODEL.extend(
    "checks/optim/quadratic.py (MODEL_GRADIENT)",
    {
        r"\nabla_x\hat{f}_{x_0}(x)": Derived(_model_gradient, doc="∇_x f̂_{x0}(x) by central differences"),
        "x_0": Input("x0"),
    },
)
claim_symbols = {
    "quad.change_002": QUAD_MODEL,
    "quad.model_after_step_002": QUAD_MODEL,
    "quad.lr_condition_iff_002": QUAD_MODEL,
    "quad.lr_condition_iff_spd": QUAD_MODEL,
    "quad.lr_condition_corrected": QUAD_MODEL,
    "newton.model_gradient_002": MODEL_GRADIENT,
}


@identity(
    "quad.change_002",
    uses=("quad.model_after_step_002",),
    **MODEL_STEP,
    relations=("=", "="),
    labels=("subtract f(x_0)", "cancel"),
    title="Change of the quadratic model after one gradient step",
    source=S2_Q3_2.quote(
        "\\hat{f}_{x_0}(x_1) - f(x_0) = -\\epsilon g^T g + \\frac{1}{2} \\epsilon^2 g^T H g"
    ),
    statement=r"\hat f_{x_0}(x_1)-f(x_0) = f(x_0)-\epsilon g^Tg+\tfrac12\epsilon^2g^THg-f(x_0) = -\epsilon "
    r"g^Tg+\tfrac12\epsilon^2 g^THg",
    expected=Verdict.PROVED,
)
def quad_change_002(xp, x0, g, H, f0, eps):
    x1 = x0 - eps[:, None] * g
    gg, gHg = dot(xp, g, g), dot(xp, g, matvec(H, g))
    return (
        _model(xp, f0, g, H, x0, x1) - f0,
        (f0 - eps * gg + 0.5 * eps**2 * gHg - f0),
        -eps * gg + 0.5 * eps**2 * gHg,
    )


# The written condition, on any symmetric H and on a positive-definite H: one check.
@prop(
    "quad.lr_condition_iff_002",
    uses=("quad.change_002",),
    **MODEL_STEP,
    where=_nonzero_curvature,
    title="Gradient descent decreases the model iff ε < 2gᵀg / gᵀHg (as written)",
    source=S2_Q3_2.quote(
        "gradient descent would work if and only if \\epsilon is small enough such that ... or "
        "equivalently, \\epsilon < \\frac{2g^T g}{g^T H g}"
    ),
    statement=r"\hat f_{x_0}(x_1) < f(x_0) \iff -\epsilon g^Tg+\tfrac12\epsilon^2g^THg<0 \iff \epsilon < "
    r"\frac{2g^Tg}{g^THg}",
    expected=Verdict.REFUTED,
    notes="The first equivalence is right; the second divides by gᵀHg as if it were positive. When gᵀHg < "
    "0 (negative curvature along g) every ε > 0 decreases the model while ε < 2gᵀg/gᵀHg < 0 never holds. "
    "Instances with gᵀHg = 0 are excluded (the written ratio is undefined there); ε ranges over positive "
    "step sizes. The decrease is evaluated as ε(−gᵀg + ½εgᵀHg) < 0, equal to f̂(x_1) − f(x_0) by "
    "quad.change_002, so that it is not lost below the rounding unit of f(x_0).",
)
@prop(
    "quad.lr_condition_iff_spd",
    inputs={**_MODEL_INPUTS, "H": SPD("n")},
    dims=_DIMS,
    where=_nonzero_curvature,
    title="Where the written condition is an 'if and only if': H positive definite",
    source=S2_Q3_2.quote(
        "gradient descent would work if and only if ... \\epsilon < \\frac{2g^T g}{g^T H g}"
    ),
    statement=r"H\succ0,\ \epsilon>0,\ g\ne0:\quad \hat f_{x_0}(x_1)<f(x_0) \iff "
    r"\epsilon<\frac{2g^Tg}{g^THg}",
    expected=Verdict.HOLDS,
    same_as=("quad.lr_condition_corrected",),
    notes="The document's statement restricted to a positive-definite Hessian (gᵀHg > 0 for g ≠ 0), the "
    "case its division tacitly assumes. Decrease evaluated in the factored form, as in "
    "quad.lr_condition_iff_002.",
)
def quad_lr_condition_as_written(xp, g, H, eps):
    decreases = _decreases(xp, g, H, eps)
    condition = eps < 2 * dot(xp, g, g) / dot(xp, g, matvec(H, g))
    return decreases == condition


@prop(
    "quad.lr_condition_corrected",
    **MODEL_STEP,
    where=_nonzero_curvature,
    title="For ε > 0: the model decreases iff gᵀHg ≤ 0 or ε < 2gᵀg / gᵀHg",
    source=S2_Q3_2.quote("or equivalently, \\epsilon < \\frac{2g^T g}{g^T H g}"),
    statement=r"\epsilon>0,\ g\ne0:\quad \hat f_{x_0}(x_1)<f(x_0) \iff g^THg\le0 \ \lor\ "
    r"\epsilon<\frac{2g^Tg}{g^THg}",
    expected=Verdict.HOLDS,
    corrects="quad.lr_condition_iff_002",
    notes="With H positive definite (a convex model) the document's condition is exactly this one. The "
    "comparison is computed in the factored form ε(−gᵀg + ½εgᵀHg) < 0 on the left, so near the threshold ε "
    "= 2gᵀg/gᵀHg only rounding can disagree; such candidates are re-checked in high precision.",
)
def quad_lr_condition_corrected(xp, g, H, eps):
    gg, gHg = dot(xp, g, g), dot(xp, g, matvec(H, g))
    decreases = _decreases(xp, g, H, eps)
    condition = (gHg <= 0) | (eps < 2 * gg / gHg)
    return decreases == condition


@identity(
    "newton.model_gradient_002",
    inputs={
        "x0": Array("n"),
        "x": Array("n"),
        "g": Array("n"),
        "H": Array("n", "n", transform=symmetric_transform),
        "f0": Scalar(-10.0, 10.0),
        "c": Array("n", scale=(1.0, 1.0)),
    },
    dims=_DIMS,
    relations=("=", "="),
    labels=("central difference, exact for a quadratic", "½·2 = 1"),
    title="Gradient of the quadratic model",
    source=S2_Q3_3.quote("\\nabla_x \\hat{f}_{x_0}(x) = g + \\frac{1}{2} * 2H((x - x_0)) = g + H(x - x_0)"),
    statement=r"\nabla_x\hat f_{x_0}(x) = g+\tfrac12\cdot2H(x-x_0) = g+H(x-x_0)",
    expected=Verdict.PROVED,
    notes="Uses H = Hᵀ (true for a Hessian); for a non-symmetric H the gradient is g + ½(H + Hᵀ)(x − x_0). "
    "The numeric side is the directional derivative cᵀ∇f̂ from a central difference with step 1, which is "
    "exact for a quadratic.",
)
def newton_model_gradient_002(xp, x0, x, g, H, f0, c):
    central = quadratic_directional(lambda z: _model(xp, f0, g, H, x0, z), x, c)
    d = x - x0
    return (central, probe(xp, c, g + 0.5 * 2 * matvec(H, d)), probe(xp, c, g + matvec(H, d)))


@identity(
    "newton.step_002",
    uses=("newton.model_gradient_002",),
    inputs={
        "x0": Array("n"),
        "g": Array("n"),
        "H": Array("n", "n", transform=symmetric_transform),
        "c": Array("n", scale=(1.0, 1.0)),
    },
    dims=_DIMS,
    where=lambda xp, H, **_: _well_conditioned(xp, H),
    title="Setting the model gradient to zero gives Newton's step x = x_0 − H⁻¹g",
    source=S2_Q3_3.quote("x = x_0 - H^{-1}g which is the Newton's Method"),
    statement=r"g+H(x-x_0)=0 \iff x = x_0-H^{-1}g",
    expected=Verdict.PROVED,
    notes="Needs H invertible. The point is a stationary point of the model; it is its minimiser only when "
    "H is positive definite (for indefinite H Newton's step goes to a saddle), which the document does not "
    "say. Checked as H(x − x_0) = −g at x = x_0 − H⁻¹g.",
)
def newton_step_002(xp, x0, g, H, c):
    x = x0 - matvec(xp.inv(H), g)
    return probe(xp, c, matvec(H, x - x0)), probe(xp, c, -g)
