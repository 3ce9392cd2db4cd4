"""Vanishing-gradient statements made in passing: the middle expression of seed 002's Jacobian step and the
submultiplicativity of the operator norm that seeds 003 and 004 invoke by name."""

from checks._gradflow_helpers import (
    SEED_002,
    SEED_004,
    SMOOTH_ACTS,
    dact,
    fd_jacobian,
    matvec,
    op_norm,
    run_g,
)
from checks._gradflow_helpers import act as apply_act
from lemmacheck import Source, Tolerance, Verdict, identity, inequality
from lemmacheck.inputs import Array

FD_TOL = Tolerance(
    rtol=1e-6,
    atol=1e-8,
    reason="two sides are central-difference Jacobians (step 1e-5 in float64, ~1e-10 relative); "
    "a refutation is re-verified with step 1e-25 at 60 digits",
)

STEP_INPUTS = {
    "W": Array("n", "n", scale=(0.3, 2.0)),
    "U": Array("n", 2, scale=(0.1, 2.0)),
    "b": Array("n", scale=(0.1, 2.0)),
    "x": Array(2, scale=(0.1, 2.0)),
    "g": Array("n", scale=(0.1, 2.0)),
    "c": Array("n", low=-1.0, high=1.0),
    "d": Array("n", low=-1.0, high=1.0),
}


def _probe(xp, c, M, d):
    return xp.sum(c * matvec(xp, M, d), axis=-1)


@identity(
    "vanish.s002.jacobian_middle",
    title="dg_t/dg_{t-1} = ∂σ'(Wg_{t-1} + Ux_t + b)/∂g_{t-1} = σ'(Wg_{t-1} + Ux_t + b)W (every link)",
    source=Source(
        SEED_002,
        "Question 1, part 2",
        quote="\\frac{\\partial g_t}{\\partial g_{t-1}} = \\frac{\\partial \\sigma'(Wg_{t-1} + Ux_t + b)}"
        "{\\partial g_{t-1}} = \\sigma'(Wg_{t-1} + Ux_t + b)W",
    ),
    statement=r"\frac{\partial g_t}{\partial g_{t-1}} = "
    r"\frac{\partial \sigma'(Wg_{t-1} + Ux_t + b)}{\partial g_{t-1}} = \sigma'(Wg_{t-1} + Ux_t + b)W",
    expected=Verdict.REFUTED,
    relations=("=", "="),
    labels=("dg_t/dg_{t-1} = ∂σ'(·)/∂g_{t-1} (as written)", "∂σ'(·)/∂g_{t-1} = σ'(·)W"),
    steps_claimed=True,
    expected_broken_step=1,
    inputs=STEP_INPUTS,
    dims={"n": [1, 2, 4], "act": list(SMOOTH_ACTS)},
    tol=FD_TOL,
    notes="The middle expression differentiates σ' instead of σ: ∂σ'(z)/∂g_{t-1} = diag(σ''(z))W, "
    "not the Jacobian of g_t. Each side is the bilinear form cᵀJd of a central-difference Jacobian "
    "(of g_{t-1} ↦ g_t, and of g_{t-1} ↦ σ'(Wg_{t-1} + Ux_t + b) as written); the right side is "
    "diag(σ'(z))W. The end points agree (vanish.s002.jacobian_step, PROVED): only the middle link is "
    "wrong. Previously recorded only in the notes of vanish.s002.jacobian_step. Corrected: "
    "vanish.s002.jacobian_middle.corrected.",
)
def jacobian_middle_002(xp, W, U, b, x, g, c, d, act):
    """Each link as a probe cᵀJd: central differences of g ↦ g_t and of g ↦ σ'(z) against diag(σ'(z))W."""
    X = x[:, None, :]
    step = lambda z: run_g(xp, W, U, b, X, z, act)[-1]  # noqa: E731
    pre = lambda z: matvec(xp, W, z) + matvec(xp, U, x) + b  # noqa: E731
    slope = lambda z: dact(xp, act, pre(z))  # noqa: E731
    written = dact(xp, act, pre(g))[:, :, None] * W
    return (
        _probe(xp, c, fd_jacobian(xp, step, g), d),
        _probe(xp, c, fd_jacobian(xp, slope, g), d),
        _probe(xp, c, written, d),
    )


@identity(
    "vanish.s002.jacobian_middle.corrected",
    title="dg_t/dg_{t-1} = ∂σ(Wg_{t-1} + Ux_t + b)/∂g_{t-1} = σ'(Wg_{t-1} + Ux_t + b)W (σ in the middle)",
    source=Source(SEED_002, "Question 1, part 2 (corrected: σ, not σ', in the middle expression)"),
    statement=r"\frac{\partial g_t}{\partial g_{t-1}} = "
    r"\frac{\partial \sigma(Wg_{t-1} + Ux_t + b)}{\partial g_{t-1}} = \sigma'(Wg_{t-1} + Ux_t + b)W",
    expected=Verdict.HOLDS,
    relations=("=", "="),
    labels=("dg_t/dg_{t-1} = ∂σ(·)/∂g_{t-1}", "∂σ(·)/∂g_{t-1} = σ'(·)W"),
    steps_claimed=True,
    corrects="vanish.s002.jacobian_middle",
    same_as=("vanish.s002.jacobian_step",),
    inputs=STEP_INPUTS,
    dims={"n": [1, 2, 4], "act": list(SMOOTH_ACTS)},
    tol=FD_TOL,
)
def jacobian_middle_corrected_002(xp, W, U, b, x, g, c, d, act):
    """Central differences of g ↦ g_t and of g ↦ σ(Wg + Ux_t + b) (its own formula) against diag(σ'(z))W."""
    X = x[:, None, :]
    step = lambda z: run_g(xp, W, U, b, X, z, act)[-1]  # noqa: E731
    pre = lambda z: matvec(xp, W, z) + matvec(xp, U, x) + b  # noqa: E731
    value = lambda z: apply_act(xp, act, pre(z))  # noqa: E731
    written = dact(xp, act, pre(g))[:, :, None] * W
    return (
        _probe(xp, c, fd_jacobian(xp, step, g), d),
        _probe(xp, c, fd_jacobian(xp, value, g), d),
        _probe(xp, c, written, d),
    )


@inequality(
    "eig.s004.submultiplicative",
    title="||AB|| <= ||A|| ||B|| for the L2 operator norm (the property seeds 004 and 003 invoke)",
    source=Source(
        SEED_004,
        "Question 1.2",
        quote="Use the following properties of the L_2 operator norm ||AB|| \\le ||A|| \\, ||B||",
    ),
    statement=r"\|AB\| \le \|A\|\,\|B\|",
    expected=Verdict.HOLDS,
    inputs={"A": Array("m", "k"), "B": Array("k", "n")},
    dims={"m": [1, 2, 3, 5], "k": [1, 2, 4], "n": [1, 2, 3, 5]},
    same_as=("vanish.s003.eq24",),
    notes="Stated as a property and used at every step of the vanishing bound; checked for rectangular "
    "A, B. Tight (ratio 1) when the top right-singular vector of A is the top left-singular vector of B "
    "(e.g. k = 1).",
)
def submultiplicative_004(xp, A, B):
    return op_norm(xp, xp.matmul(A, B)), op_norm(xp, A) * op_norm(xp, B)
