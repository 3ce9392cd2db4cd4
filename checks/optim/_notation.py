r"""The optimisation topic's notation: its checks compare vectors through a random probe ``c``
(``c^\top`` lhs against ``c^\top`` rhs, ``checks/optim/_helpers.py``'s ``probe``), and so does the statement
compiler (``probe="c"``); the schemes' own symbols are in the modules that check them.
"""

from __future__ import annotations

from checks._vocab.notation import spectral
from checks._vocab.notation import symbols as shared
from lemmacheck import Derived, Input


def _momentum_v_prev(xp, dtheta_prev):
    return -dtheta_prev  # momentum: Δθ_{t-1} = −v_{t-1}


def _momentum_step(xp, dtheta_prev, g, alpha, eps):
    return -(alpha[:, None] * _momentum_v_prev(xp, dtheta_prev) + eps[:, None] * g)


def _average_v_prev(xp, dtheta_prev, delta):
    return -dtheta_prev / delta[:, None]  # running average: Δθ_{t-1} = −δ v_{t-1}


def _average_step(xp, dtheta_prev, g, beta, delta):
    b, d = beta[:, None], delta[:, None]
    return -d * (b * _average_v_prev(xp, dtheta_prev, delta) + (1 - b) * g)


symbols = shared.extend("checks/optim/_notation.py", probe="c")

_ONE_STEP = {r"\Delta\theta_{t-1}": Input("dtheta_prev"), "g_t": Input("g")}

#: seeds 002/003 on SGD with momentum: v_{t-1} = −Δθ_{t-1}, Δθ_t = −(αv_{t-1} + εg_t)
MOMENTUM = symbols.extend(
    "checks/optim/_notation.py (MOMENTUM)",
    {
        **_ONE_STEP,
        "v_{t-1}": Derived(_momentum_v_prev, doc="−Δθ_{t-1}"),
        r"\Delta\theta_t": Derived(_momentum_step, doc="the momentum update"),
    },
)
#: seeds 002/003 on SGD with a running average: δ v_{t-1} = −Δθ_{t-1}, Δθ_t = −δ(βv_{t-1} + (1−β)g_t)
AVERAGE = symbols.extend(
    "checks/optim/_notation.py (AVERAGE)",
    {
        **_ONE_STEP,
        "v_{t-1}": Derived(_average_v_prev, doc="−Δθ_{t-1}/δ"),
        r"\Delta\theta_t": Derived(_average_step, doc="the running-average update"),
    },
)


def _row(k: int):
    def pick(xp, g):
        return g[:, k, :]

    return pick


def _ema_back(steps: int):
    """v_{t-steps} from v_{t-3} (the input v3) and the three gradients g_{t-2}, g_{t-1}, g_t."""

    def v(xp, v3, g, beta):
        out, b = v3, beta[:, None]
        for k in range(3 - steps):
            out = b * out + (1 - b) * g[:, k, :]
        return out

    return v


def _ema_last(xp, g, v0, beta, T):
    out, b = v0, beta[:, None]
    for k in range(T):
        out = b * out + (1 - b) * g[:, k, :]
    return out


#: seed 002 Question 2.2 unrolled three steps: v_t = βv_{t-1} + (1−β)g_t from v_{t-3}, gradients g_{t-2..t}
EMA_UNROLL = symbols.extend(
    "checks/optim/_notation.py (EMA_UNROLL)",
    {
        "v_{t-3}": Input("v3"),
        **{key: Derived(_ema_back(k)) for key, k in (("v_{t-2}", 2), ("v_{t-1}", 1), ("v_t", 0))},
        **{key: Derived(_row(k)) for key, k in (("g_{t-2}", 0), ("g_{t-1}", 1), ("g_t", 2))},
    },
)
#: seed 002 Question 2.2's closed form: t steps from v_0 (t is the dim T), g_i the i-th gradient
EMA_CLOSED = symbols.extend(
    "checks/optim/_notation.py (EMA_CLOSED)",
    {
        "v_t": Derived(_ema_last, doc="the recursion run T steps from v_0"),
        "v_0": Input("v0"),
        "t": Input("T"),
    },
)


def _moment(xp, prev, g, beta):
    return beta[:, None] * prev + (1 - beta[:, None]) * g


def _second(xp, prev, g, beta):
    return beta[:, None] * prev + (1 - beta[:, None]) * g * g


def _corrected(moment):
    def hat(xp, prev, g, beta, t):
        return moment(xp, prev, g, beta) / (1 - beta**t)[:, None]

    return hat


_ADAM_STEP = {r"\beta_1": Input("beta"), r"\beta_2": Input("beta"), "g_t": Input("g"), "t": Input("t")}
#: seed 004 Question 3.3(a): one step of Adam's moments from the previous one (prev), with g_t^2 entrywise
ADAM = symbols.extend(
    "checks/optim/_notation.py (ADAM)",
    {
        **_ADAM_STEP,
        "m_{t-1}": Input("prev"),
        "v_{t-1}": Input("prev"),
        "m_t": Derived(_moment, doc="β₁m_{t-1} + (1−β₁)g_t"),
        "v_t": Derived(_second, doc="β₂v_{t-1} + (1−β₂)g_t²"),
        r"\hat{m}_t": Derived(_corrected(_moment), doc="m_t/(1−β₁^t)"),
        r"\hat{v}_t": Derived(_corrected(_second), doc="v_t/(1−β₂^t)"),
    },
    elementwise_powers=True,
)


def _wn_weight(gain: str):
    def w(xp, u, **inputs):
        return inputs[gain][:, None] * u / xp.sqrt(xp.sum(u * u, axis=-1))[:, None]

    return w


def _projection(xp, u, x):
    return xp.sum(u * x, axis=-1)


#: seeds 002-004 on weight normalisation: w = g u/‖u‖ (seed 003 and 004 write the gain γ), y = uᵀx, ‖·‖ of a
#: vector Euclidean, u^T a transpose
WEIGHT_NORM = symbols.extend(
    "checks/optim/_notation.py (WEIGHT_NORM)",
    {"w": Derived(_wn_weight("gamma"), doc="γu/‖u‖"), "y": Derived(_projection, doc="uᵀx")},
    norm=spectral,
    transpose_letters=("T",),
)
