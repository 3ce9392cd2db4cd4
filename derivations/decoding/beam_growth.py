r"""Seed 004 Q2.3: how the costs compared there grow with the vocabulary size N, computed by SymPy.

"Not polynomial in N" admits two readings (not bounded by any power of N; or slower than the powers of N
it is compared with), each a claim of its own; "exponential N^T" repeats the slip of Q2.2.e for memory.
"""

import sympy as sp
from checks._vocab.sources import S4_Q2_3

from lemmacheck import Verdict, derivation, value

N, B = sp.symbols("N B", positive=True)
T = sp.Symbol("T", positive=True, integer=True)
BEAM_TIME = B * T * (N + T + B * N * sp.log(B * N))  # the document's O(BT(N + T + BN log BN))
NAIVE_MEMORY = T * N**T  # the document's O(TN^T) for the naive search
_TIME_QUOTE = (
    "its time complexity is not polynomial or exponential in N but only in the worst case grows with N log N"
)
_TIME_SOURCE = S4_Q2_3.at("(conclusion)").quote(_TIME_QUOTE)
_TIME_STATEMENT = r"c(N) = BT(N + T + BN\log BN)"


def _beam_time_degree():
    """The power of N the beam-search time grows like: lim log c(N) / log N."""
    return sp.limit(sp.log(BEAM_TIME) / sp.log(N), N, sp.oo)


value(
    "beam.not_polynomial_in_n",
    computed=_beam_time_degree,
    stated=sp.oo,
    title="Reading 1 of 'not polynomial in N': beam-search time is bounded by no power of N",
    source=_TIME_SOURCE,
    statement=_TIME_STATEMENT + r":\ \lim_{N\to\infty}\frac{\log c(N)}{\log N} = \infty",
    expected=Verdict.REFUTED,
    same_as=("beam.subquadratic_in_n",),
    notes="A cost is bounded by no polynomial in N when its degree lim log c(N)/log N is infinite; SymPy "
    "computes the degree of the document's own O(BT(N + T + BN log BN)) as 1 (B, T fixed): the time is "
    "polynomially bounded (it is O(N²)). Reading 2, 'slower than the N² of Viterbi', holds: "
    "beam.subquadratic_in_n.",
)

derivation(
    "beam.subquadratic_in_n",
    chain=[sp.limit(BEAM_TIME / N**2, N, sp.oo), "=", 0],
    labels=["c(N)/N² → 0"],
    title="Reading 2 of 'not polynomial in N': beam-search time grows more slowly than N² (Viterbi's)",
    source=_TIME_SOURCE,
    statement=_TIME_STATEMENT + r":\ \lim_{N\to\infty}\frac{c(N)}{N^2} = 0",
    expected=Verdict.PROVED,
    same_as=("beam.not_polynomial_in_n", "beam.practical_large_vocab"),
    notes="The reading under which the sentence is true: N log N is not itself a polynomial and grows "
    "more slowly than the N² and N^T it is compared with. beam.practical_large_vocab measures the exponent "
    "on the instrumented algorithm.",
)

derivation(
    "beam.naive_memory_exponential_in_n",
    chain=[sp.limit(sp.log(NAIVE_MEMORY) / N, N, sp.oo), ">", 0],
    labels=["exponential in N: log(memory)/N tends to a positive rate"],
    title="'Exponential N^T' memory of the naive search (Q2.3): lim_{N→∞} log(TN^T)/N > 0",
    source=S4_Q2_3.at("(conclusion)").quote(
        "The same goes for the memory complexity as well, instead of being exponential and polynomial "
        "N^T, N^2, it only linearly grows with N"
    ),
    statement=r"\lim_{N\to\infty}\frac{\log(TN^T)}{N} > 0",
    expected=Verdict.REFUTED,
    same_as=("viterbi.naive_exponential_in_n",),
    notes="The naive search's O(TN^T) memory (the document's table) is polynomial of degree T in N, not "
    "exponential in N: SymPy computes the rate as 0. The same slip as Q2.2.e for time "
    "(viterbi.naive_exponential_in_n); corrected there (viterbi.naive_polynomial_in_n).",
)
