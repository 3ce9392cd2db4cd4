"""Study: signal propagation through deep random networks under the initialisations of seed 003."""

import numpy as np

from checks._vocab.sources import S3_Q1
from lemmacheck import Plot, Series, StudyResult, Table, study

# --------------------------------------------------------------------------- study: deep random networks


@study(
    "init.propagation",
    title="Variance of pre-activations through deep random networks (seed 003 Q1 schemes)",
    source=S3_Q1.at("parts 1-2").cite(),
    related=(
        "init.s003.linear_gauss",
        "init.s003.linear_uniform",
        "init.s003.relu_gauss",
        "init.s003.relu_uniform",
        "init.s003.relu_cov_zero",
    ),
)
def propagation(profile):
    """Monte Carlo: fresh weights per network, input with E = 0, V = 1 entries; V[a] is estimated as E[a^2]
    (E[a] = 0 by symmetry of the weights)."""
    rng = profile.rng
    nets = 2000 if profile.name == "quick" else 20000
    rows, series = [], []
    for label, kind, draw in _schemes(rng):
        var_by_depth, corr_h, se = _propagate(rng, kind, draw, nets)
        rows.append(
            [
                label,
                round(var_by_depth[0], 3),
                round(var_by_depth[-1], 3),
                f"±{2 * se:.3f}",
                round(float(np.mean(corr_h[1:])), 3),
            ]
        )
        series.append(Series(label=label, x=list(range(1, _DEPTH + 1)), y=var_by_depth))
    return StudyResult(tables=[_table(rows)], plots=[_plot(series)], conclusion=_conclusion(rows, nets))


#: the width of every layer and the number of layers
_D, _DEPTH = 16, 10


def _schemes(rng) -> list:
    """(label, activation, draw(size) of the weights) for each initialisation scheme compared."""
    d = _D
    return [
        ("linear, N(0, 1/d)", "linear", lambda size: rng.normal(0.0, np.sqrt(1 / d), size)),
        (
            "linear, U(-sqrt(3/d), sqrt(3/d))",
            "linear",
            lambda size: rng.uniform(-np.sqrt(3 / d), np.sqrt(3 / d), size),
        ),
        ("ReLU, N(0, 2/d)", "relu", lambda size: rng.normal(0.0, np.sqrt(2 / d), size)),
        (
            "ReLU, U(-sqrt(6/d), sqrt(6/d))",
            "relu",
            lambda size: rng.uniform(-np.sqrt(6 / d), np.sqrt(6 / d), size),
        ),
        ("ReLU, N(0, 1/d) (linear scheme)", "relu", lambda size: rng.normal(0.0, np.sqrt(1 / d), size)),
    ]


def _propagate(rng, kind, draw, nets):
    """V[a^(t)] by depth, corr(h_1, h_2) by depth and the standard error of the last variance."""
    # layer-1 input: a^{(0)} standard normal, h^{(0)} = g(a^{(0)}) as the derivation assumes
    a = rng.standard_normal((nets, _D))
    var_by_depth, corr_h = [], []
    for _ in range(_DEPTH):
        h = a if kind == "linear" else np.maximum(a, 0.0)
        hc = h - h.mean(axis=0)
        cov = (hc[:, 0] * hc[:, 1]).mean()
        corr_h.append(cov / np.sqrt(hc[:, 0].var() * hc[:, 1].var()))
        W = draw((nets, _D, _D))
        a = np.einsum("nij,nj->ni", W, h)
        var_by_depth.append(float((a * a).mean()))
    # networks are independent, units within one network are not: the s.e. is taken across networks
    per_net = (a * a).mean(axis=1)
    return var_by_depth, corr_h, float(per_net.std() / np.sqrt(nets))


def _table(rows) -> Table:
    return Table(
        title="V[a^(t)] by depth (pooled over units and networks)",
        columns=[
            "scheme",
            "V after 1 layer",
            f"V after {_DEPTH} layers",
            "±2 s.e. (across networks)",
            "mean corr(h_1, h_2)",
        ],
        rows=rows,
    )


def _plot(series) -> Plot:
    return Plot(
        title="Variance of pre-activations by depth",
        x_label="layer t",
        y_label="V[a^(t)]",
        logy=True,
        series=series,
    )


def _conclusion(rows, nets) -> str:
    return (
        f"With d = {_D} and {nets} random networks per scheme, the variance of a^(t) after {_DEPTH} layers "
        f"is {rows[0][2]} and {rows[1][2]} for the linear schemes and {rows[2][2]} and {rows[3][2]} for the "
        f"ReLU schemes (target 1), while the linear scale with ReLU decays to {rows[4][2]}. The entries "
        f"of h are not uncorrelated under ReLU: mean correlation of h_1, h_2 = {rows[2][4]} (N(0, 2/d)), "
        "because the pre-activations of one layer share the previous layer."
    )
