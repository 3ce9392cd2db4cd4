r"""Seed 004 Q2.2.e: "the exponential dependence on the very huge number N" of the naive search (cost
:math:`O(TN^T)` in the document): its growth rate in N, computed by SymPy."""

import sympy as sp
from checks._vocab.sources import S4_Q2_2E

from lemmacheck import Verdict, derivation

N = sp.Symbol("N", positive=True)
T = sp.Symbol("T", positive=True, integer=True)
NAIVE_COST = T * N**T  # the document's O(T N^T)
_QUOTE = (
    "So we observe a significant improvement from the exponential dependence on the very huge "
    "number N to a "
    "squared dependence to N which is a significant improvement."
)

derivation(
    "viterbi.naive_exponential_in_n",
    chain=[sp.limit(sp.log(NAIVE_COST) / N, N, sp.oo), ">", 0],
    labels=["exponential in N: log(cost)/N tends to a positive rate"],
    title="'Exponential dependence on N' of the naive O(TN^T): lim_{N→∞} log(TN^T)/N > 0",
    source=S4_Q2_2E.at("(comparison after the table)").quote(_QUOTE),
    statement=r"\lim_{N\to\infty}\frac{\log(TN^T)}{N} > 0",
    expected=Verdict.REFUTED,
    notes="A cost c(N) grows exponentially in N when log c(N)/N tends to a positive rate; SymPy "
    "computes the "
    "limit for the document's own O(TN^T) as 0 (T fixed): the dependence on N is polynomial of "
    "degree T, the "
    "exponential dependence is on T. The same wording recurs in Q2.3 ('instead of being exponential and "
    "polynomial N^T, N^2'). The measured power law is viterbi.naive_time. Corrected: "
    "viterbi.naive_polynomial_in_n.",
)

derivation(
    "viterbi.naive_polynomial_in_n",
    chain=[sp.limit(sp.log(NAIVE_COST) / sp.log(N), N, sp.oo), "=", T],
    labels=["log(TN^T)/log N → T: a power law of degree T in N"],
    title="Corrected: the naive O(TN^T) is polynomial of degree T in N (exponential in T)",
    source=S4_Q2_2E.at("(corrected)").quote(_QUOTE),
    statement=r"\lim_{N\to\infty}\frac{\log(TN^T)}{\log N} = T",
    expected=Verdict.PROVED,
    corrects="viterbi.naive_exponential_in_n",
    same_as=("viterbi.naive_time",),
)
