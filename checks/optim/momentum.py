"""Momentum and the running average of gradients (seed 002 Question 2.1, seed 003 Question 3.1).

Both documents rewrite the two update rules as a recursion in Δθ and identify the coefficients. The
numeric checks compare the rewritten forms on random instances (vectors are compared through a random
linear functional c·(.)), and run both optimisers on a random quadratic loss to see that the identified
coefficients give the same trajectory, not only the same one-step formula.
"""

from checks._vocab.sources import S2_Q2_1, S3_Q3_1
from checks.optim._helpers import (
    contraction_spd_transform,
    momentum_trajectory,
    probe,
    quadratic_gradient,
    running_average_trajectory,
)
from checks.optim._notation import AVERAGE, MOMENTUM
from lemmacheck import Array, Derived, Scalar, Verdict, identity

#: how the statement compiler reads Δθ_t, v_{t-1} (the update rule of each scheme, as the documents define it)
symbols = MOMENTUM

VEC = {"n": [1, 2, 3, 5]}


def _last_step(xp, A, b, theta0, beta, delta, T):
    """The running average's last step on the quadratic: Δθ_{T-1} (0 at T = 1: v_0 = 0) and
    g_T = ∇L(θ_{T-1})."""
    before = running_average_trajectory(xp, A, b, theta0, beta, delta, T - 1)
    earlier = running_average_trajectory(xp, A, b, theta0, beta, delta, T - 2) if T > 1 else before
    return {"dtheta_prev": before - earlier, "g": quadratic_gradient(xp, A, b, before)}


#: seeds 002/003's identification on the trajectories (TRAJECTORIES): α and ε the identified β and (1 − β)δ,
#: the premise; Δθ_{t-1} and g_t the running average's last step on the quadratic loss, t = T
IDENTIFIED = symbols.extend(
    "checks/optim/momentum.py (IDENTIFIED)",
    {
        r"\alpha": Derived(lambda xp, beta: beta, doc="β, as identified"),
        r"\epsilon": Derived(lambda xp, beta, delta: (1 - beta) * delta, doc="(1 − β)δ, as identified"),
        r"\Delta\theta_{t-1}": Derived(_last_step, "dtheta_prev", "θ_{T-1} − θ_{T-2}"),
        "g_t": Derived(_last_step, "g", "∇L(θ_{T-1})"),
    },
)
claim_symbols = {
    "momentum.running_avg_step_002": AVERAGE,
    "momentum.eq18_003": AVERAGE,
    "momentum.equivalence_002": IDENTIFIED,
}
#: differences the statement check finds and that are kept, with why
statement_differs = {
    "momentum.equivalence_002": "the statement equates one step of the two schemes (αΔθ_{t-1} − εg_t and "
    "βΔθ_{t-1} − (1−β)δg_t, read at the running average's last step); the check equates the whole T-step "
    "trajectories of the two optimisers through a probe c (the induction the documents leave implicit). "
    "Both are identities that hold, but they equate different quantities, so the members differ",
}


def _one_step_inputs(rate: str, step: str) -> dict:
    """One step of a scheme: the previous step, the gradient, a probe c, the scheme's rate in [0, 1] and
    its step size, named as the scheme names them."""
    return {
        "dtheta_prev": Array("n"),
        "g": Array("n"),
        "c": Array("n", scale=(1.0, 1.0)),
        rate: Scalar(0.0, 1.0),
        step: Scalar(1e-3, 1.0, log=True),
    }


_STEP_INPUTS = _one_step_inputs("alpha", "eps")
_AVG_INPUTS = _one_step_inputs("beta", "delta")
_TRAJ_INPUTS = {
    "A": Array("n", "n", transform=contraction_spd_transform),
    "b": Array("n"),
    "theta0": Array("n"),
    "c": Array("n", scale=(1.0, 1.0)),
    "beta": Scalar(0.0, 0.99),
    "delta": Scalar(1e-3, 1.0, log=True),
}
_TRAJ_DIMS = {"n": [1, 2, 4], "T": [1, 2, 5, 8]}
#: one step of each scheme from a previous Δθ and a gradient g (vectors compared through a probe c)
MOMENTUM_STEP = {"inputs": _STEP_INPUTS, "dims": VEC}
AVERAGE_STEP = {"inputs": _AVG_INPUTS, "dims": VEC}
#: T steps of both schemes on a quadratic loss ½θᵀAθ − bᵀθ (A SPD with spectrum in (0, 1))
TRAJECTORIES = {"inputs": _TRAJ_INPUTS, "dims": _TRAJ_DIMS}


# ------------------------------------------------------------------ seed 002, Question 2.1


@identity(
    "momentum.step_002",
    **MOMENTUM_STEP,
    relations=("=", "="),
    labels=("substitute v_{t-1} = −Δθ_{t-1}", "simplify"),
    title="SGD momentum as a recursion in Δθ",
    source=S2_Q2_1.quote(
        "\\Delta \\theta_t = -\\alpha(-\\Delta \\theta_{t-1}) - \\epsilon g_t = \\alpha \\Delta "
        "\\theta_{t-1} - \\epsilon g_t"
    ),
    statement=r"\Delta\theta_t = -(\alpha v_{t-1}+\epsilon g_t) = -\alpha(-\Delta\theta_{t-1})-\epsilon "
    r"g_t = \alpha\Delta\theta_{t-1}-\epsilon g_t",
    expected=Verdict.PROVED,
    same_as=("momentum.eq17_003",),
)
def momentum_step_002(xp, dtheta_prev, g, c, alpha, eps):
    v_prev = -dtheta_prev  # Δθ_{t-1} = −v_{t-1}
    a, e = alpha[:, None], eps[:, None]
    return (
        probe(xp, c, -(a * v_prev + e * g)),
        probe(xp, c, -a * (-dtheta_prev) - e * g),
        probe(xp, c, a * dtheta_prev - e * g),
    )


@identity(
    "momentum.running_avg_step_002",
    **AVERAGE_STEP,
    relations=("=", "="),
    labels=("substitute v_{t-1} = −Δθ_{t-1}/δ", "simplify"),
    title="SGD with a running average of g_t as a recursion in Δθ",
    source=S2_Q2_1.quote("= \\beta \\Delta \\theta_{t-1} - (1 - \\beta) \\delta g_t"),
    statement=r"\Delta\theta_t = -\delta(\beta v_{t-1}+(1-\beta)g_t) = -\delta\beta\left(-\frac{1}{\delta}"
    r"\Delta\theta_{t-1}\right)-\delta(1-\beta)g_t = \beta\Delta\theta_{t-1}-(1-\beta)\delta g_t",
    expected=Verdict.PROVED,
    same_as=("momentum.eq18_003",),
)
def momentum_running_avg_step_002(xp, dtheta_prev, g, c, beta, delta):
    b, d = beta[:, None], delta[:, None]
    v_prev = -dtheta_prev / d  # Δθ_{t-1} = −δ v_{t-1}
    return (
        probe(xp, c, -d * (b * v_prev + (1 - b) * g)),
        probe(xp, c, -d * b * (-dtheta_prev / d) - d * (1 - b) * g),
        probe(xp, c, b * dtheta_prev - (1 - b) * d * g),
    )


# ------------------------------------------------------------------ seed 003, Question 3.1


@identity(
    "momentum.eq17_003",
    **MOMENTUM_STEP,
    relations=("=", "="),
    labels=("expand v_t", "v_{t-1} = −Δθ_{t-1}"),
    title="SGD momentum as a recursion in Δθ, eq. (17)",
    source=S3_Q3_1.at("eq. (17)").quote(
        "\\Delta \\theta_t = -\\alpha v_{t-1} - \\epsilon g_t = \\alpha \\Delta \\theta_{t-1} - "
        "\\epsilon g_t \\quad (17)"
    ),
    statement=r"\Delta\theta_t = -\alpha v_{t-1}-\epsilon g_t = \alpha\Delta\theta_{t-1}-\epsilon g_t",
    expected=Verdict.PROVED,
    same_as=("momentum.step_002",),
)
def momentum_eq17_003(xp, dtheta_prev, g, c, alpha, eps):
    e0, _, e2 = momentum_step_002(xp, dtheta_prev, g, c, alpha, eps)
    v_prev = -dtheta_prev
    e1 = probe(xp, c, -alpha[:, None] * v_prev - eps[:, None] * g)
    return e0, e1, e2


@identity(
    "momentum.eq18_003",
    **AVERAGE_STEP,
    relations=("=", "="),
    labels=("expand v_t", "δ v_{t-1} = −Δθ_{t-1}"),
    title="SGD with a running average as a recursion in Δθ, eq. (18)",
    source=S3_Q3_1.at("eq. (18)").quote(
        "\\Delta \\theta_t = -\\delta \\beta v_{t-1} - \\delta(1 - \\beta) g_t = \\beta \\Delta "
        "\\theta_{t-1} - \\delta(1 - \\beta) g_t \\quad (18)"
    ),
    statement=r"\Delta\theta_t = -\delta\beta v_{t-1}-\delta(1-\beta)g_t = "
    r"\beta\Delta\theta_{t-1}-\delta(1-\beta)g_t",
    expected=Verdict.PROVED,
    same_as=("momentum.running_avg_step_002",),
)
def momentum_eq18_003(xp, dtheta_prev, g, c, beta, delta):
    b, d = beta[:, None], delta[:, None]
    v_prev = -dtheta_prev / d
    return (
        probe(xp, c, -d * (b * v_prev + (1 - b) * g)),
        probe(xp, c, -d * b * v_prev - d * (1 - b) * g),
        probe(xp, c, b * dtheta_prev - d * (1 - b) * g),
    )


# The equivalence that seeds 002 and 003 both state is checked once, on trajectories.
@identity(
    "momentum.equivalence_002",
    uses=("momentum.step_002", "momentum.running_avg_step_002"),
    **TRAJECTORIES,
    title="Momentum and running-average SGD coincide when α = β, ε = (1 − β)δ",
    source=S2_Q2_1.quote("\\alpha = \\beta \\quad \\text{and} \\quad \\epsilon = (1 - \\beta) \\delta"),
    statement=r"\alpha = \beta,\ \epsilon = (1-\beta)\delta \implies \alpha\Delta\theta_{t-1}-\epsilon g_t "
    r"= \beta\Delta\theta_{t-1}-(1-\beta)\delta g_t",
    expected=Verdict.PROVED,
    same_as=("momentum.equivalence_003",),
    notes="Checked twice: symbolically on the one-step recursion, and numerically by running both "
    "optimisers for T steps on a random quadratic loss (gradients depend on θ, so this also checks the "
    "induction the documents leave implicit). Both start from v_0 = 0; with non-zero starts one also needs "
    "v_0^{mom} = δ v_0^{avg}. The document writes 'we need', i.e. also necessity: for g_t ≠ 0 and Δθ_{t-1} "
    "not parallel to g_t the coefficients must match, which the identification argument gives.",
)
@identity(
    "momentum.equivalence_003",
    uses=("momentum.eq17_003", "momentum.eq18_003"),
    **TRAJECTORIES,
    title="Identifying (17) with (18): α = β and ε = δ(1 − β) make the schemes equivalent",
    source=S3_Q3_1.quote(
        "if \\alpha = \\beta and \\epsilon = \\delta(1 - \\beta), then the two schemes are equivalent"
    ),
    statement=r"\alpha=\beta,\ \epsilon=\delta(1-\beta) \implies \text{(17)} \equiv \text{(18)}",
    expected=Verdict.PROVED,
    same_as=("momentum.equivalence_002",),
    notes="Seed 003 states only sufficiency ('if ... then'), seed 002 says 'we need'. The document allows "
    "β ∈ [0, 1] with ε > 0: at β = 1 the identification gives ε = 0, outside its own range (the running "
    "average then ignores the gradients), so β < 1 is tacit. Checked on trajectories of a random quadratic "
    "loss with β ∈ [0, 0.99].",
)
def momentum_equivalence(xp, A, b, theta0, c, beta, delta, T):
    # α = β and ε = (1 − β) δ, the identification both documents make
    mom = momentum_trajectory(xp, A, b, theta0, beta, (1 - beta) * delta, T)
    avg = running_average_trajectory(xp, A, b, theta0, beta, delta, T)
    return probe(xp, c, mom), probe(xp, c, avg)
