r"""Seed 004 Q2.1 symbolically: T free positions with N choices each give :math:`\prod_{t=1}^T N = N^T`."""

import sympy as sp
from checks._vocab.sources import S4_Q2_1

from lemmacheck import Verdict, derivation

N, T = sp.symbols("N T", positive=True, integer=True)
t = sp.symbols("t", positive=True, integer=True)

derivation(
    "count.sequences_product",
    chain=[sp.Product(N, (t, 1, T)).doit(), "=", N**T],
    labels=["w_0 = <BOS> fixed; each of w_1..w_T takes any of the N words"],
    title="Product rule behind Q2.1: ∏_{t=1}^{T} N = N^T",
    source=S4_Q2_1.quote(
        "we got T possible spots and each spot has the possibility to be filled with any of the N "
        "words in the vocabulary (which includes <BOS> too). So this gives N^T"
    ),
    statement=r"\prod_{t=1}^{T} N = N^T",
    expected=Verdict.PROVED,
    notes="The symbolic half of count.sequences (which counts by enumeration).",
)
