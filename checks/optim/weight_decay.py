"""Weight decay versus L2 regularisation for SGD (seed 004, Question 3.1); Adam (3.2–3.3) is in ``adam``.

The loss is a random quadratic L(θ) = ½θᵀAθ − bᵀθ (its gradient Aθ − b stands for the minibatch
gradient); gradients of the regularised loss are measured with a central difference of step 1 along a
random direction c, which is exact for quadratics.
"""

from checks._vocab.fd import quadratic_directional
from checks._vocab.linalg import dot, matvec
from checks._vocab.sources import S4_Q3_1
from checks.optim._helpers import (
    contraction_spd_transform,
    probe,
    quadratic_gradient,
    sgd_l2_trajectory,
    sgd_weight_decay_trajectory,
)
from checks.optim._notation import symbols as optim_notation
from lemmacheck import Array, Derived, Input, Scalar, Verdict, identity

_Q = {
    "A": Array("n", "n", transform=contraction_spd_transform),
    "b": Array("n"),
    "theta": Array("n"),
    "c": Array("n", scale=(1.0, 1.0)),
    "gamma": Scalar(1e-3, 10.0, log=True),
}
_DIMS = {"n": [1, 2, 3, 5]}


def _loss(xp, A, b, theta):
    return 0.5 * dot(xp, theta, matvec(A, theta)) - dot(xp, b, theta)


def _reg_loss(xp, A, b, gamma, theta):
    """L(θ) + γ‖θ‖² (seed 004 §3: L_reg = L + γ‖θ‖₂²)."""
    return _loss(xp, A, b, theta) + gamma * dot(xp, theta, theta)


def _gradient_at_start(xp, A, b, theta0):
    return quadratic_gradient(xp, A, b, theta0)


#: seed 004 Question 3.1's one step at θ_i, read at the trajectories' sampled start θ_0: ∇L(θ_i) the
#: quadratic loss's gradient Aθ − b there (λ is defined by the statement itself)
ONE_STEP = optim_notation.extend(
    "checks/optim/weight_decay.py (ONE_STEP)",
    {r"\theta_i": Input("theta0"), r"\nabla L(\theta_i)": Derived(_gradient_at_start, doc="Aθ_i − b")},
)


def _sample_loss(xp, losses, j):
    return losses[:, j - 1]


def _regularised_average(xp, losses, theta, gamma):
    return xp.mean(losses + (gamma * dot(xp, theta, theta))[:, None], axis=-1)


def _penalty_gradient(xp, theta):
    """∂‖θ‖²/∂θ coordinate by coordinate from central differences (exact: the penalty is quadratic)."""
    columns = []
    for k in range(theta.shape[-1]):
        e = 0 * theta
        e[:, k] = e[:, k] + 1
        columns.append(quadratic_directional(lambda th: dot(xp, th, th), theta, e))
    return xp.stack(columns, axis=-1)


#: seed 004 Question 3.1: L^j the j-th sample's loss (the sampled losses), j over the m samples, L_reg the
#: average of the per-sample regularised losses L^j + γ‖θ‖²
AVERAGE = optim_notation.extend(
    "checks/optim/weight_decay.py (AVERAGE)",
    {
        "L^j": Derived(_sample_loss, doc="the j-th sample's loss"),
        "L_{reg}": Derived(_regularised_average, doc="(1/m)Σ_j (L^j + γ‖θ‖²)"),
    },
    indices={"j": "m"},
)
#: ∂/∂θ of the penalty, by central differences (exact for a quadratic), compared through the probe c
PENALTY = optim_notation.extend(
    "checks/optim/weight_decay.py (PENALTY)",
    {
        r"\frac{\partial}{\partial\theta}\|\theta\|_2^2": Derived(_penalty_gradient, doc="∂‖θ‖²/∂θ"),
        r"\frac{\partial}{\partial\theta}\theta^\top\theta": Derived(_penalty_gradient, doc="∂(θᵀθ)/∂θ"),
    },
)
#: differences the statement check finds and that are kept, with why
statement_differs = {
    "wd.sgd_equivalence_004": "the statement equates one update from θ_i (θ_i − η∇L(θ_i) + λθ_i and "
    "θ_i − η∇L(θ_i) − 2ηγθ_i); the check equates the whole T-step trajectories of the two optimisers "
    "through a probe c. Both are identities that hold, but they equate different quantities, so the "
    "members differ",
}
claim_symbols = {
    "wd.sgd_equivalence_004": ONE_STEP,
    "wd.l2_average_004": AVERAGE,
    "wd.penalty_gradient_004": PENALTY,
}

# ------------------------------------------------------------------ Question 3.1 (SGD)


@identity(
    "wd.l2_average_004",
    inputs={"losses": Array("m"), "theta": Array("n"), "gamma": Scalar(1e-3, 10.0, log=True)},
    dims={"m": [1, 2, 5, 16], "n": [1, 3]},
    relations=("=", "="),
    labels=("average the per-sample regularised losses", "the penalty does not depend on j"),
    title="Averaging the per-sample regularised loss keeps γ‖θ‖² once",
    source=S4_Q3_1.quote(
        "L_{reg} = \\frac{1}{m} \\sum_{j} L(...) + \\frac{1}{m} \\sum_{j} \\gamma "
        "\\|\\theta\\|_{2}^{2} = \\frac{1}{m} \\sum_{j} L(...) + \\gamma \\|\\theta\\|_{2}^{2}"
    ),
    statement=r"L_{reg} = \frac1m\sum_j L^j + \frac1m\sum_j\gamma\|\theta\|_2^2 = \frac1m\sum_j L^j + "
    r"\gamma\|\theta\|_2^2",
    expected=Verdict.PROVED,
)
def wd_l2_average_004(xp, losses, theta, gamma):
    pen = gamma * dot(xp, theta, theta)
    per_sample = losses + pen[:, None]
    return (
        xp.mean(per_sample, axis=-1),
        xp.mean(losses, axis=-1) + xp.mean(per_sample - losses, axis=-1),
        xp.mean(losses, axis=-1) + pen,
    )


@identity(
    "wd.penalty_gradient_004",
    inputs={"theta": Array("n"), "c": Array("n", scale=(1.0, 1.0))},
    dims=_DIMS,
    title="Gradient of the squared norm: ∂(θᵀθ)/∂θ = 2θ",
    source=S4_Q3_1.quote(
        "\\frac{\\partial}{\\partial \\theta}\\|\\theta\\|_2^2 = \\frac{\\partial}{\\partial "
        "\\theta}\\theta^{\\top}\\theta = 2\\theta"
    ),
    statement=r"\frac{\partial}{\partial\theta}\|\theta\|_2^2 = "
    r"\frac{\partial}{\partial\theta}\theta^\top\theta = 2\theta",
    expected=Verdict.PROVED,
)
def wd_penalty_gradient_004(xp, theta, c):
    return quadratic_directional(lambda th: dot(xp, th, th), theta, c), probe(xp, c, 2 * theta)


@identity(
    "wd.l2_sgd_update_004",
    uses=("wd.l2_average_004", "wd.penalty_gradient_004"),
    inputs={**_Q, "eta": Scalar(1e-3, 1.0, log=True)},
    dims=_DIMS,
    title="SGD on the L2-regularised loss",
    source=S4_Q3_1.quote(
        "\\theta_{t+1} = \\theta_t - \\eta \\frac{1}{m} \\sum_{i} \\frac{\\partial L}{\\partial "
        "\\theta} - 2\\eta \\gamma \\theta_t"
    ),
    statement=r"\theta_{t+1} = \theta_t-\eta\nabla_\theta L_{reg} = "
    r"\theta_t-\eta\frac1m\sum_j\frac{\partial L^j}{\partial\theta}-2\eta\gamma\theta_t",
    expected=Verdict.PROVED,
    notes="The document's sum index is i while the summand uses j: a typo, read as one index.",
)
def wd_l2_sgd_update_004(xp, A, b, theta, c, gamma, eta):
    grad_reg_c = quadratic_directional(lambda th: _reg_loss(xp, A, b, gamma, th), theta, c)
    return (
        probe(xp, c, theta) - eta * grad_reg_c,
        probe(
            xp,
            c,
            theta - eta[:, None] * quadratic_gradient(xp, A, b, theta) - 2 * (eta * gamma)[:, None] * theta,
        ),
    )


@identity(
    "wd.sgd_equivalence_004",
    uses=("wd.l2_sgd_update_004",),
    inputs={
        "A": _Q["A"],
        "b": _Q["b"],
        "theta0": Array("n"),
        "c": _Q["c"],
        "gamma": _Q["gamma"],
        "eta": Scalar(1e-3, 0.05, log=True),
    },
    dims={"n": [1, 2, 4], "T": [1, 2, 5, 8]},
    title="SGD with weight decay (+λθ) equals SGD on the L2 loss when λ = −2ηγ",
    source=S4_Q3_1.quote("they're identical if we set \\lambda = -2\\eta\\gamma"),
    statement=r"\lambda = -2\eta\gamma:\quad \theta_i-\eta\nabla L(\theta_i)+\lambda\theta_i = "
    r"\theta_i-\eta\nabla L(\theta_i)-2\eta\gamma\theta_i",
    expected=Verdict.PROVED,
    notes="The sign is right for the update as the question writes it, θ_{i+1} = θ_i − η∇L + λθ_i: the "
    "match needs λ = −2ηγ < 0. The question's words ('decay exponentially by a factor of λ') fit the usual "
    "form θ_{i+1} = (1 − λ)θ_i − η∇L, for which the match is λ = +2ηγ; the document follows its formula, "
    "not its words. Checked on T-step trajectories of a random quadratic loss.",
)
def wd_sgd_equivalence_004(xp, A, b, theta0, c, gamma, eta, T):
    lam = -2 * eta * gamma
    return (
        probe(xp, c, sgd_weight_decay_trajectory(xp, A, b, theta0, eta, lam, T)),
        probe(xp, c, sgd_l2_trajectory(xp, A, b, theta0, eta, gamma, T)),
    )
