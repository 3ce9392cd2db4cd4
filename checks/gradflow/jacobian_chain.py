"""Vanishing-gradient statements made in passing: the middle expression of seed 002's Jacobian step and the
submultiplicativity of the operator norm that seeds 003 and 004 invoke by name."""

from checks._vocab.activations import SMOOTH, dact
from checks._vocab.activations import act as apply_act
from checks._vocab.fd import fd_jacobian
from checks._vocab.linalg import matvec, op_norm
from checks._vocab.sources import S2_Q1, S4_Q1_2
from checks.gradflow._helpers import FD_JACOBIAN_TOL, probes, run_g
from checks.gradflow._notation import MIDDLE_002, PRODUCT_ORDER_002
from lemmacheck import Array, Verdict, identity, inequality

STEP_INPUTS = {
    "W": Array("n", "n", scale=(0.3, 2.0)),
    "U": Array("n", 2, scale=(0.1, 2.0)),
    "b": Array("n", scale=(0.1, 2.0)),
    "x": Array(2, scale=(0.1, 2.0)),
    "g": Array("n", scale=(0.1, 2.0)),
    "c": Array("n", low=-1.0, high=1.0),
    "d": Array("n", low=-1.0, high=1.0),
}


#: one step g_{t-1} ↦ g_t with probes c, d, and T steps; sides are central-difference Jacobians
ONE_STEP = {"inputs": STEP_INPUTS, "dims": {"n": [1, 2, 4], "act": list(SMOOTH)}, "tol": FD_JACOBIAN_TOL}
CHAIN_INPUTS = STEP_INPUTS | {"X": Array("T", 2, scale=(0.1, 2.0))}
T_STEPS = {
    "inputs": CHAIN_INPUTS,
    "dims": {"n": [1, 2, 3], "T": [1, 2, 3], "act": list(SMOOTH)},
    "tol": FD_JACOBIAN_TOL,
}


def _middle_links(xp, W, U, b, x, g, c, d, act, middle):
    """Probes cᵀJd of the Jacobians of g ↦ g_t and of g ↦ middle(Wg + Ux_t + b), and of diag(σ'(z))W."""
    X = x[:, None, :]
    step = lambda z: run_g(xp, W, U, b, X, z, act)[-1]  # noqa: E731
    pre = lambda z: matvec(W, z) + matvec(U, x) + b  # noqa: E731
    inner = lambda z: middle(xp, act, pre(z))  # noqa: E731
    written = dact(xp, act, pre(g))[:, :, None] * W
    return probes(xp, c, d, fd_jacobian(xp, step, g), fd_jacobian(xp, inner, g), written)


@identity(
    "vanish.s002.jacobian_middle",
    title="dg_t/dg_{t-1} = ∂σ'(Wg_{t-1} + Ux_t + b)/∂g_{t-1} = σ'(Wg_{t-1} + Ux_t + b)W (every link)",
    source=S2_Q1.at("part 2").quote(
        "\\frac{\\partial g_t}{\\partial g_{t-1}} = \\frac{\\partial \\sigma'(Wg_{t-1} + Ux_t + b)}"
        "{\\partial g_{t-1}} = \\sigma'(Wg_{t-1} + Ux_t + b)W"
    ),
    statement=r"\frac{\partial g_t}{\partial g_{t-1}} = "
    r"\frac{\partial \sigma'(Wg_{t-1} + Ux_t + b)}{\partial g_{t-1}} = \sigma'(Wg_{t-1} + Ux_t + b)W",
    expected=Verdict.REFUTED,
    relations=("=", "="),
    labels=("dg_t/dg_{t-1} = ∂σ'(·)/∂g_{t-1} (as written)", "∂σ'(·)/∂g_{t-1} = σ'(·)W"),
    steps_claimed=True,
    expected_broken_step=1,
    **ONE_STEP,
    notes="The middle expression differentiates σ' instead of σ: ∂σ'(z)/∂g_{t-1} = diag(σ''(z))W, "
    "not the Jacobian of g_t. Each side is the bilinear form cᵀJd of a central-difference Jacobian "
    "(of g_{t-1} ↦ g_t, and of g_{t-1} ↦ σ'(Wg_{t-1} + Ux_t + b) as written); the right side is "
    "diag(σ'(z))W. The end points agree (vanish.s002.jacobian_step, PROVED): only the middle link is "
    "wrong. Previously recorded only in the notes of vanish.s002.jacobian_step. Corrected: "
    "vanish.s002.jacobian_middle.corrected.",
)
def jacobian_middle_002(xp, W, U, b, x, g, c, d, act):
    """Each link as a probe cᵀJd: central differences of g ↦ g_t and of g ↦ σ'(z) against diag(σ'(z))W."""
    return _middle_links(xp, W, U, b, x, g, c, d, act, dact)


@identity(
    "vanish.s002.jacobian_middle.corrected",
    title="dg_t/dg_{t-1} = ∂σ(Wg_{t-1} + Ux_t + b)/∂g_{t-1} = σ'(Wg_{t-1} + Ux_t + b)W (σ in the middle)",
    source=S2_Q1.at("part 2 (corrected: σ, not σ', in the middle expression)").cite(),
    statement=r"\frac{\partial g_t}{\partial g_{t-1}} = "
    r"\frac{\partial \sigma(Wg_{t-1} + Ux_t + b)}{\partial g_{t-1}} = \sigma'(Wg_{t-1} + Ux_t + b)W",
    expected=Verdict.HOLDS,
    relations=("=", "="),
    labels=("dg_t/dg_{t-1} = ∂σ(·)/∂g_{t-1}", "∂σ(·)/∂g_{t-1} = σ'(·)W"),
    steps_claimed=True,
    corrects="vanish.s002.jacobian_middle",
    proof_not_asserted="the catalogue's corrected chain (σ, not the document's σ', in the middle "
    "expression); the chain as written is vanish.s002.jacobian_middle, broken at step 1",
    same_as=("vanish.s002.jacobian_step",),
    **ONE_STEP,
)
def jacobian_middle_corrected_002(xp, W, U, b, x, g, c, d, act):
    """Central differences of g ↦ g_t and of g ↦ σ(Wg + Ux_t + b) (its own formula) against diag(σ'(z))W."""
    return _middle_links(xp, W, U, b, x, g, c, d, act, apply_act)


_PRODUCT = "\\frac{\\partial g_T}{\\partial g_0} = \\prod_{t=1}^T \\frac{\\partial g_t}{\\partial g_{t-1}}"


def _chain(xp, W, U, b, X, g, c, d, act, *, increasing):
    """(cᵀ(∂g_T/∂g_0)d by central differences, cᵀ(J_1 J_2 ⋯ J_T or J_T ⋯ J_1)d), J_t = diag(σ'(a_t))W."""
    gs = run_g(xp, W, U, b, X, g, act)
    jacs = [
        dact(xp, act, matvec(W, gs[t]) + matvec(U, X[:, t]) + b)[:, :, None] * W for t in range(X.shape[1])
    ]
    product = jacs[0]
    for J in jacs[1:]:
        product = xp.matmul(product, J) if increasing else xp.matmul(J, product)
    full = lambda z: run_g(xp, W, U, b, X, z, act)[-1]  # noqa: E731
    return probes(xp, c, d, fd_jacobian(xp, full, g), product)


@identity(
    "vanish.s002.chain_product_order",
    title="∂g_T/∂g_0 = ∏_{t=1}^T ∂g_t/∂g_{t-1} with the product read in increasing t (J_1 J_2 ⋯ J_T)",
    source=S2_Q1.at("part 2").quote(_PRODUCT),
    statement=r"\frac{\partial g_T}{\partial g_0} = \frac{\partial g_1}{\partial g_0}\frac{\partial g_2}"
    r"{\partial g_1}\cdots\frac{\partial g_T}{\partial g_{T-1}}",
    expected=Verdict.REFUTED,
    **T_STEPS,
    notes="Seed 002's step Jacobian σ'(·)W is in numerator layout (rows index g_t), and in that "
    "layout the chain "
    "rule orders the factors J_T ⋯ J_1; the unordered ∏ read left to right in t gives J_1 ⋯ J_T, "
    "which differs "
    "as soon as n ≥ 2 and T ≥ 2. Seed 004 writes the order explicitly (J_T ⋯ J_1) and seed 003 uses the "
    "denominator layout, where increasing order is right. An index-order convention previously "
    "recorded only "
    "in the notes of vanish.s002.chain_product (which checks J_T ⋯ J_1, the corrected order). Corrected: "
    "vanish.s002.chain_product_order.corrected.",
)
def chain_product_order_002(xp, W, U, b, X, g, c, d, act):
    return _chain(xp, W, U, b, X, g, c, d, act, increasing=True)


@identity(
    "vanish.s002.chain_product_order.corrected",
    title="∂g_T/∂g_0 = J_T ⋯ J_1 (decreasing t, the order of the numerator layout)",
    source=S2_Q1.at("part 2 (corrected: decreasing order)").quote(_PRODUCT),
    statement=r"\frac{\partial g_T}{\partial g_0} = \frac{\partial g_T}{\partial g_{T-1}}\cdots"
    r"\frac{\partial g_1}{\partial g_0}",
    expected=Verdict.HOLDS,
    corrects="vanish.s002.chain_product_order",
    same_as=("vanish.s002.chain_product", "vanish.s004.chain"),
    **T_STEPS,
)
def chain_product_order_corrected_002(xp, W, U, b, X, g, c, d, act):
    return _chain(xp, W, U, b, X, g, c, d, act, increasing=False)


@inequality(
    "eig.s004.submultiplicative",
    title="||AB|| <= ||A|| ||B|| for the L2 operator norm (the property seeds 004 and 003 invoke)",
    source=S4_Q1_2.quote("Use the following properties of the L_2 operator norm ||AB|| \\le ||A|| \\, ||B||"),
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


claim_symbols = {
    "vanish.s002.chain_product_order": PRODUCT_ORDER_002,
    "vanish.s002.chain_product_order.corrected": PRODUCT_ORDER_002,
    "vanish.s002.jacobian_middle": MIDDLE_002,
    "vanish.s002.jacobian_middle.corrected": MIDDLE_002,
}
