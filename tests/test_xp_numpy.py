"""The float64 namespace's own functions: written for speed, each must still round exactly as its
definition does (a figure of the catalogue that moves by an ulp is a changed result)."""

from __future__ import annotations

import numpy as np
import pytest

from lemmacheck.xp import numpy_xp


def _two_branch_sigmoid(x):
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


@pytest.mark.parametrize("dtype", [np.float64, np.longdouble])
def test_sigmoid_is_its_two_branch_definition_bit_for_bit(dtype):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(20_000) * 10.0 ** rng.uniform(-300, 3, 20_000)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 745.0, -745.0, 800.0, -800.0, 5e-324, -5e-324]
    x = np.concatenate([x, special]).astype(dtype)
    got, want = numpy_xp.sigmoid(x), _two_branch_sigmoid(x)
    assert got.dtype == want.dtype
    differ = ~((got == want) | (np.isnan(got) & np.isnan(want)))
    assert not differ.any(), f"sigmoid differs at x={x[differ][:5]}: {got[differ][:5]} vs {want[differ][:5]}"
    assert np.isnan(got[np.isnan(x)]).all()  # NaN never passes as a number
