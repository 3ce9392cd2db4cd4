r"""The optimisation topic's notation: its checks compare vectors through a random probe ``c``
(``c^\top`` lhs against ``c^\top`` rhs, ``checks/optim/_helpers.py``'s ``probe``), and so does the statement
compiler (``probe="c"``); the schemes' own symbols are in the modules that check them.
"""

from __future__ import annotations

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
