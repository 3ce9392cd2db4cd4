r"""The one-line calculus steps behind eq. (15)/(25) of seed 001 and seed 000's W and U sections.

"∫_0^1 (d/dt f)|_{t=0} t dt = ½ (d/dt f)|_{t=0}" is exact (the approximation is the step before it,
measured in ``sens.w_half_derivative_000`` / ``sens.eq15_half_derivative``).  Seed 000's U section drops
the factor t inside the integral, which makes the equality false.
"""

import sympy as sp
from checks._vocab.sources import S0_LOSS_U, S0_LOSS_W

from lemmacheck import Verdict, derivation

t = sp.Symbol("t", real=True)
g = sp.Symbol("g", real=True)  # stands for d/dt V_p ∇ s_t(Φ + tΔ)|_{t=0}, a constant in t

derivation(
    "sens.half_derivative_000",
    chain=[sp.Integral(g * t, (t, 0, 1)), "=", g / 2],
    labels=["∫_0^1 t dt = ½"],
    title="∫_0^1 (d/dt f)|_{t=0} t dt = ½ (d/dt f)|_{t=0} (seed 000, W item 3.2)",
    source=S0_LOSS_W.at("item 3.2").quote(
        "≃ ∫_0^1 d/dt V_{p,:}∇_W s_t(W^k + tΔW)|_{t=0} t dt = 1/2 d/dt V_{p,:}∇_W s_t(W^k + tΔW)|_{t=0}"
    ),
    statement=r"\int_0^1 \frac{d}{dt}f\Big|_{t=0}\,t\,dt = \frac12\frac{d}{dt}f\Big|_{t=0}",
    expected=Verdict.PROVED,
    domain={g: (-5, 5)},
    notes="g stands for the matrix d/dt V_{p,:}∇s_t(Φ + tΔ)|_{t=0} (entrywise the same identity).",
)

derivation(
    "sens.u_half_derivative_000",
    # the integral is evaluated before the chain: the engine's numeric fallback cannot lambdify Integral
    # (/tmp/engine-requests/sensitivity.md)
    chain=[sp.integrate(g, (t, 0, 1)), "=", g / 2],
    labels=["∫_0^1 g dt (= g) against the written ½ g"],
    title="Seed 000 (U): ∫_0^1 (d/dt f)|_{t=0} dt = ½ (d/dt f)|_{t=0}, as written (no factor t)",
    source=S0_LOSS_U.at("second item 2.2").quote(
        "≃ ∫_0^1 d/dt V_{p,:}∇_U s_t(U^k + tΔU)|_{t=0} dt = 1/2 d/dt V_{p,:}∇_U s_t(U^k + tΔU)|_{t=0}"
    ),
    statement=r"\int_0^1 \frac{d}{dt}\mathbf{V}_{p,:}\nabla_{\mathbf{U}}\mathbf{s}_t(\mathbf{U}^k+t\Delta"
    r"\mathbf{U})\Big|_{t=0}dt = \frac12\frac{d}{dt}\mathbf{V}_{p,:}\nabla_{\mathbf{U}}\mathbf{s}_t("
    r"\mathbf{U}^k+t\Delta\mathbf{U})\Big|_{t=0}",
    expected=Verdict.REFUTED,
    domain={g: (-5, 5)},
    same_as=("sens.eq15_half_derivative", "sens.half_derivative_000"),
    notes="The integrand is constant in t, so the integral is g, not g/2: the factor t of the first-order "
    "Taylor term (present in the W section and in seed 001 eq. (15)) was dropped. Probably a transcription "
    "slip; the corrected step is sens.half_derivative_000.",
)
