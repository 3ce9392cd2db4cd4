r"""Counting sequences, seed 004 (IFT6135-H2021 A2) Question 2.1, and the count the naive search of 2.2.e
relies on. Counted by enumeration (itertools), never by the formula being checked."""

import itertools

import checks.decoding._helpers as dec
from checks._vocab.sources import S4_Q2_1, S4_Q2_2E
from lemmacheck import Verdict, value

GRID = [(N, T) for N in (1, 2, 3, 4, 5) for T in (1, 2, 3, 4, 5)]


def _over_grid(count):
    """count(N, T) at every point of the grid, keyed "N=…, T=…"."""
    return {f"N={N}, T={T}": count(N, T) for N, T in GRID}


#: what both claims state: N^T
N_TO_THE_T = _over_grid(lambda N, T: N**T)


def sequences_by_enumeration():
    """Sequences w_0 … w_T with w_0 = <BOS>, counted by enumeration."""
    # <BOS> is word 0 and may reappear, the document's (Piazza) reading
    return _over_grid(
        lambda N, T: sum(1 for seq in itertools.product(range(N), repeat=T + 1) if seq[0] == dec.BOS)
    )


value(
    "count.sequences",
    uses=("count.sequences_product",),
    computed=sequences_by_enumeration,
    stated=N_TO_THE_T,
    title="Number of sequences of length T+1 starting with <BOS>: N^T",
    source=S4_Q2_1.quote("So this gives N^T possible sequences of length T+1 starting with token <BOS>"),
    statement=r"\#\{\boldsymbol w_{0:T} : w_0 = \langle BOS\rangle\} = N^T",
    expected=Verdict.PROVED,
    notes="Under the document's reading (from Piazza) that <BOS> is one of the N words and may appear "
    "again after position 0. Counted by enumerating all N^{T+1} sequences and keeping those starting with "
    "<BOS>, on N, T ∈ {1..5}. Under the other natural reading (<BOS> only at the start) the count would be "
    "(N−1)^T; the document chose its reading explicitly, so no correction is recorded.",
)


def naive_evaluations():
    """Sequence probabilities computed by the instrumented naive search."""
    return _over_grid(lambda N, T: dec.naive_instrumented(N, T, keep_all=False).evaluations)


value(
    "count.naive_evaluations",
    computed=naive_evaluations,
    stated=N_TO_THE_T,
    title="The naive search computes N^T sequence probabilities",
    source=S4_Q2_2E.at("(naive approach)").quote(
        "Using the naive approach, requires computing N^T probabilities for sequences of length T"
    ),
    statement=r"\#\{\text{probabilities computed by the naive search}\} = N^T",
    expected=Verdict.PROVED,
    same_as=("count.sequences",),
    notes="Same number as count.sequences (Q2.1), restated in 2.2.e; counted from the instrumented naive "
    "search of checks/decoding/_helpers.py.",
)
