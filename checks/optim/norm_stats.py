r"""Normalisation statistics of seed 004 (IFT6135-H2021 A2) Question 4.1: batch, layer and instance means
and variances of the given 4 × 2 × 3 tensor (batch × channels × features), computed exactly in rationals
(SymPy) and compared with every number the document writes: exact fractions exactly, decimals with
``places=`` the number of decimals the document shows (HOLDS when within half a unit of the last place).

Variances are the biased ones (divide by the count), as the document computes them.
"""

import sympy as sp

from checks._vocab.notation import symbols as shared
from checks._vocab.sources import S4_Q4_1
from lemmacheck import Input, Verdict, value

R = sp.Rational


def hundredths(*values):
    """Numbers the document prints with two decimals, as exact rationals: hundredths(-158, 42) is
    [-1.58, 0.42]."""
    return [R(v, 100) for v in values]


# x[sample][channel][feature], as printed in Q4.1
X = [
    [[1, 3, 2], [1, 2, 3]],
    [[3, 3, 2], [2, 4, 4]],
    [[4, 2, 2], [1, 2, 4]],
    [[3, 3, 2], [3, 3, 2]],
]
S, C, F = len(X), len(X[0]), len(X[0][0])


def _mean(vals):
    return R(sum(vals), len(vals))


def _sq_dev_sum(vals):
    m = _mean(vals)
    return sum((v - m) ** 2 for v in vals)


def _var(vals):
    return _sq_dev_sum(vals) / len(vals)


def _sums_and_variances(groups):
    """The sum of squared deviations and the variance of each group, as the document lists them."""
    return {"sums of squares": [_sq_dev_sum(g) for g in groups], "variances": [_var(g) for g in groups]}


def batch_group(c):
    """Channel c over all samples and features (the batch-norm group), sample by sample."""
    return [X[s][c][f] for s in range(S) for f in range(F)]


def layer_group(s):
    """Sample s over all channels and features (the layer-norm group)."""
    return [X[s][c][f] for c in range(C) for f in range(F)]


def instance_group(s, c):
    return list(X[s][c])


def _deviations(vals):
    m = _mean(vals)
    return [v - m for v in vals]


#: what the statements' symbols denote among each check's computed values (a leaf by name)
NORMSTATS = shared.extend(
    "checks/optim/norm_stats.py (NORMSTATS)",
    {
        r"\mu_{batch}^{(0)}": Input("channel 0"),
        r"\mu_{batch}^{(1)}": Input("channel 1"),
        r"\sigma^{2(0)}_{batch}": Input("value"),
        r"\sigma^{2(1)}_{batch}": Input("variance"),
        r"\mu_{layer}": Input("means"),
        r"\sigma^2_{layer}": Input("variances"),
        # seed 004 Question 4.1 (instance normalization) lists the 8 means, then the 8 variances, in the order
        # (sample 1, channel 0), (sample 1, channel 1), ...: the whole list each check computes
        r"\mu_{instance}": Input("value"),
        r"\sigma^2_{instance}": Input("variances"),
    },
)
symbols = NORMSTATS


# ---------------------------------------------------------------------------------------------- shapes
def shapes():
    return {"tensor": [S, C, F], "mu_batch": [C, 1], "mu_layer": [S, 1], "instance statistics": S * C}


value(
    "normstats.shapes",
    computed=shapes,
    stated={"tensor": [4, 2, 3], "mu_batch": [2, 1], "mu_layer": [4, 1], "instance statistics": 8},
    title="Shapes: tensor 4×2×3; μ_batch 2×1; μ_layer 4×1; 4×2 = 8 instance means and variances",
    source=S4_Q4_1.quote(
        "The size of this tensor is 4 x 2 x 3 … (μ_batch^(2×1)) … the shape of μ_layer is 4 × 1 … So "
        "we will have 4 × 2 = 8 means and variances overall"
    ),
    statement=r"x \in \mathbb R^{4\times2\times3},\ \mu_{batch} \in \mathbb R^{2\times1},\ "
    r"\mu_{layer}\in\mathbb R^{4\times1},\ 4\times2 = 8 \text{ instance statistics}",
    expected=Verdict.PROVED,
    notes="Group sizes follow the document's reading (batch: per channel over samples and features; layer: "
    "per sample over channels and features; instance: per sample and channel over features), the usual "
    "conventions for an (N, C, L) tensor.",
)


# ---------------------------------------------------------------------------------------------- batch norm
def batch_mean():
    return {
        "channel 0 row sums": [sum(X[s][0]) for s in range(S)],
        "channel 0": _mean(batch_group(0)),
        "channel 1 row sums": [sum(X[s][1]) for s in range(S)],
        "channel 1": _mean(batch_group(1)),
    }


value(
    "normstats.batch_mean",
    computed=batch_mean,
    stated={
        "channel 0 row sums": [6, 8, 8, 8],
        "channel 0": R(5, 2),
        "channel 1 row sums": [6, 10, 7, 8],
        "channel 1": R(258, 100),
    },
    places=2,
    title="Batch-norm means: μ⁽⁰⁾ = (6+8+8+8)/12 = 2.5, μ⁽¹⁾ = (6+10+7+8)/12 = 2.58",
    source=S4_Q4_1.at("batch normalization").quote(
        "μ_batch^(0): 1/12 (6+8+8+8) = 2.5 … μ_batch^(1): 1/12 (6+10+7+8) = 2.58"
    ),
    statement=r"\mu_{batch}^{(0)} = \tfrac1{12}(6+8+8+8) = 2.5,\quad \mu_{batch}^{(1)} = "
    r"\tfrac1{12}(6+10+7+8) = 2.58",
    expected=Verdict.HOLDS,
    notes="Exactly 5/2 and 31/12 = 2.58333…; 2.58 is the 2-decimal rounding.",
)


def batch_deviations():
    return {
        "channel 0 |x − μ|": [abs(d) for d in _deviations(batch_group(0))],
        "channel 1 x − μ": _deviations(batch_group(1)),
    }


value(
    "normstats.batch_deviations",
    computed=batch_deviations,
    stated={
        "channel 0 |x − μ|": hundredths(150, 50, 50, 50, 50, 50, 150, 50, 50, 50, 50, 50),
        "channel 1 x − μ": hundredths(-158, -58, 42, -58, 142, 142, -158, -58, 142, 42, 42, -58),
    },
    places=2,
    title="The deviations the batch variances square: channel 0 (1.5, 0.5, …), channel 1 (−1.58, −0.58, "
    "0.42, …)",
    source=S4_Q4_1.at("batch normalization (variance)").quote(
        "(1.5^2 + 0.5^2 + 0.5^2) + (0.5^2 + 0.5^2 + 0.5^2) + (1.5^2 + 0.5^2 + 0.5^2) + (0.5^2 + "
        "0.5^2 + 0.5^2) … ((−1.58)^2 + (−0.58)^2 + 0.42^2) + ((−0.58)^2 + 1.42^2 + 1.42^2) + …"
    ),
    statement=r"\text{ch. 0: } 1.5, 0.5, 0.5;\ 0.5, 0.5, 0.5;\ 1.5, 0.5, 0.5;\ 0.5, 0.5, 0.5 \quad "
    r"\text{ch. 1: } -1.58, -0.58, 0.42;\ -0.58, 1.42, 1.42;\ -1.58, -0.58, 1.42;\ 0.42, 0.42, -0.58",
    expected=Verdict.HOLDS,
    notes="Channel 0's deviations are written without signs (they are −1.5, 0.5, −0.5; 0.5, 0.5, −0.5; "
    "1.5, −0.5, −0.5; 0.5, 0.5, −0.5); only their squares enter, so absolute values are compared. Channel "
    "1's are signed and compared as written (exact: −19/12, −7/12, 5/12, 17/12).",
)


def batch_var_ch0():
    return _var(batch_group(0))


value(
    "normstats.batch_var_ch0",
    computed=batch_var_ch0,
    stated=R(7, 12),
    title="Batch-norm variance of channel 0: 7/12",
    source=S4_Q4_1.at("batch normalization (variance)").quote("σ²_batch^(0) = 1/(4×3) ( … ) = 7/12"),
    statement=r"\sigma^{2\,(0)}_{batch} = \tfrac{7}{12}",
    expected=Verdict.PROVED,
)


def batch_var_ch1():
    return {"sum of squares": _sq_dev_sum(batch_group(1)), "variance": _var(batch_group(1))}


value(
    "normstats.batch_var_ch1",
    computed=batch_var_ch1,
    stated={"sum of squares": R(1292, 100), "variance": R(108, 100)},
    places=2,
    title="Batch-norm variance of channel 1: 12.92/12 = 1.08",
    source=S4_Q4_1.at("batch normalization (variance)").quote("= 12.92/12 = 1.08"),
    statement=r"\sigma^{2\,(1)}_{batch} = \tfrac{12.92}{12} = 1.08",
    expected=Verdict.HOLDS,
    notes="Exactly 155/12 = 12.9166… and 155/144 = 1.0763…",
)


# ---------------------------------------------------------------------------------------------- layer norm
def layer_mean():
    return {
        "row sums": [[sum(X[s][c]) for c in range(C)] for s in range(S)],
        "means": [_mean(layer_group(s)) for s in range(S)],
    }


value(
    "normstats.layer_mean",
    computed=layer_mean,
    stated={"row sums": [[6, 6], [8, 10], [8, 7], [8, 8]], "means": [2, 3, R(25, 10), R(267, 100)]},
    places=2,
    title="Layer-norm means: 12/6 = 2, 18/6 = 3, 15/6 = 2.5, 16/6 = 2.67",
    source=S4_Q4_1.at("layer normalization").quote(
        "1/6 (6+6) = 2 … 1/6 (8+10) = 3 … 1/6 (8+7) = 2.5 … 1/6 (8+8) = 2.67"
    ),
    statement=r"\mu_{layer} = \big(\tfrac16(6+6), \tfrac16(8+10), \tfrac16(8+7), \tfrac16(8+8)\big) = (2, "
    r"3, 2.5, 2.67)",
    expected=Verdict.HOLDS,
    notes="The last is 8/3 = 2.666…, rounded.",
)


def layer_deviations():
    return [_deviations(layer_group(s)) for s in range(S)]


value(
    "normstats.layer_deviations",
    computed=layer_deviations,
    stated=[
        [-1, 1, 0, -1, 0, 1],
        [0, 0, -1, -1, 1, 1],
        [R(15, 10), R(-5, 10), R(-5, 10), R(-15, 10), R(-5, 10), R(15, 10)],
        [R(33, 100), R(33, 100), R(-67, 100), R(33, 100), R(33, 100), R(-67, 100)],
    ],
    places=2,
    title="The deviations the layer variances square, sample by sample",
    source=S4_Q4_1.at("layer normalization (variance)").quote(
        "((−1)^2 + 1^2 + 0^2) + ((−1)^2 + 0^2 + 1^2) … (0^2 + 0^2 + (−1)^2) + ((−1)^2 + 1^2 + 1^2) … "
        "(1.5^2 + (−0.5)^2 + (−0.5)^2) + ((−1.5)^2 + (−0.5)^2 + (1.5)^2) … (0.33^2 + 0.33^2 + (−0.67)^2) + "
        "(0.33^2 + 0.33^2 + (−0.67)^2)"
    ),
    statement=r"(-1,1,0,-1,0,1),\ (0,0,-1,-1,1,1),\ (1.5,-0.5,-0.5,-1.5,-0.5,1.5),\ "
    r"(0.33,0.33,-0.67,0.33,0.33,-0.67)",
    expected=Verdict.HOLDS,
)


def layer_var():
    return _sums_and_variances([layer_group(s) for s in range(S)])


value(
    "normstats.layer_var",
    computed=layer_var,
    stated={
        "sums of squares": [4, 4, R(75, 10), R(133, 100)],
        "variances": [R(67, 100), R(67, 100), R(125, 100), R(22, 100)],
    },
    places=2,
    title="Layer-norm variances: 4/6 = 0.67, 4/6 = 0.67, 7.5/6 = 1.25, 1.33/6 = 0.22",
    source=S4_Q4_1.at("layer normalization (variance)").quote(
        "= 4/6 = 0.67 … = 4/6 = 0.67 … = 7.5/6 = 1.25 … = 1.33/6 = 0.22"
    ),
    statement=r"\sigma^2_{layer} = (\tfrac46, \tfrac46, \tfrac{7.5}6, \tfrac{1.33}6) = (0.67, 0.67, 1.25, "
    r"0.22)",
    expected=Verdict.HOLDS,
    notes="Exactly 2/3, 2/3, 5/4, 2/9 (sum of squares 4/3 for the last).",
)


# ---------------------------------------------------------------------------------------------- instance norm
_PAIRS = [(s, c) for s in range(S) for c in range(C)]


def instance_means():
    return [_mean(instance_group(s, c)) for s, c in _PAIRS]


value(
    "normstats.instance_mean",
    computed=instance_means,
    stated=[2, 2, R(8, 3), R(10, 3), R(8, 3), R(7, 3), R(8, 3), R(8, 3)],
    title="Instance-norm means as fractions: 2, 2, 8/3, 10/3, 8/3, 7/3, 8/3, 8/3",
    source=S4_Q4_1.at("instance normalization").quote(
        "1/3(1+3+2) = 2 … 1/3(1+2+3) = 2 … 8/3 … 10/3 … 8/3 … 7/3 … 8/3 … 8/3"
    ),
    statement=r"\mu_{instance} = (2, 2;\ \tfrac83, \tfrac{10}3;\ \tfrac83, \tfrac73;\ \tfrac83, \tfrac83)",
    expected=Verdict.PROVED,
    notes="Order: (sample 1, channel 0), (sample 1, channel 1), … (the document numbers samples from 1 and "
    "channels from 0).",
)


value(
    "normstats.instance_mean_decimal",
    computed=instance_means,
    stated=[2, 2, R(267, 100), R(333, 100), R(267, 100), R(233, 100), R(267, 100), R(267, 100)],
    places=2,
    title="Instance-norm means as decimals: 2, 2, 2.67, 3.33, 2.67, 2.33, 2.67, 2.67",
    source=S4_Q4_1.at("instance normalization").quote(
        "= 8/3 = 2.67 … = 10/3 = 3.33 … = 8/3 = 2.67 … = 7/3 = 2.33 … = 8/3 = 2.67"
    ),
    statement=r"\mu_{instance} = (2, 2;\ 2.67, 3.33;\ 2.67, 2.33;\ 2.67, 2.67)",
    expected=Verdict.HOLDS,
)


def instance_deviations():
    return [_deviations(instance_group(s, c)) for s, c in _PAIRS]


value(
    "normstats.instance_deviations",
    computed=instance_deviations,
    stated=[
        [-1, 1, 0],
        [-1, 0, 1],
        [R(33, 100), R(33, 100), R(-67, 100)],
        [R(-133, 100), R(67, 100), R(67, 100)],
        [R(133, 100), R(-67, 100), R(-67, 100)],
        [R(-133, 100), R(-33, 100), R(167, 100)],
        [R(33, 100), R(33, 100), R(-67, 100)],
        [R(33, 100), R(33, 100), R(-67, 100)],
    ],
    places=2,
    title="The deviations the instance variances square",
    source=S4_Q4_1.at("instance normalization (variance)").quote(
        "((−1)^2 + 1^2 + 0^2) … (0.33^2+0.33^2+(−0.67)^2) … ((−1.33)^2+0.67^2+0.67^2) … (1.33^2 + "
        "(−0.67)^2 + (−0.67)^2) … ((−1.33)^2 + (−0.33)^2 + 1.67^2)"
    ),
    statement=r"(-1,1,0), (-1,0,1);\ (0.33,0.33,-0.67), (-1.33,0.67,0.67);\ (1.33,-0.67,-0.67), "
    r"(-1.33,-0.33,1.67);\ (0.33,0.33,-0.67), (0.33,0.33,-0.67)",
    expected=Verdict.HOLDS,
)


def instance_var():
    return _sums_and_variances([instance_group(s, c) for s, c in _PAIRS])


value(
    "normstats.instance_var",
    computed=instance_var,
    stated={
        "sums of squares": [2, 2, R(67, 100), R(267, 100), R(267, 100), R(467, 100), R(67, 100), R(67, 100)],
        "variances": hundredths(67, 67, 22, 89, 89, 156, 22, 22),
    },
    places=2,
    title="Instance-norm variances: 2/3, 2/3, 0.67/3, 2.67/3, 2.67/3, 4.67/3, 0.67/3, 0.67/3 and their "
    "decimals",
    source=S4_Q4_1.at("instance normalization (variance)").quote(
        "= 2/3 = 0.67 … = 2/3 = 0.67 … = 0.67/3 = 0.22 … = 2.67/3 = 0.89 … = 2.67/3 = 0.89 … = "
        "4.67/3 = 1.56 … = 0.67/3 = 0.22 … = 0.67/3 = 0.22"
    ),
    statement=r"\sigma^2_{instance} = (0.67, 0.67;\ 0.22, 0.89;\ 0.89, 1.56;\ 0.22, 0.22)",
    expected=Verdict.HOLDS,
    notes="Exactly 2/3, 2/3, 2/9, 8/9, 8/9, 14/9, 2/9, 2/9. Every rounded number is within half a unit of "
    "its last decimal.",
)
