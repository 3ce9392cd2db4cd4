"""Seed 004 Q2.2.e: the time and memory of Viterbi and of the naive search, from instrumented runs."""

import checks.decoding._helpers as dec
from checks._vocab.sources import S4_Q2_2E
from checks.decoding._tree import TREE, TREE_DEPTH
from lemmacheck import Verdict, complexity, value

# ---------------------------------------------------------------------------------------------- 2.2.e
_GRID = {"N": [4, 8, 16, 32, 64], "T": [4, 8, 16, 32, 64]}


def viterbi_time_cost(N, T):
    """Operations (multiplications, comparisons, stores) of the instrumented run."""
    return dec.viterbi_instrumented(N, T).ops


complexity(
    "viterbi.time",
    cost=viterbi_time_cost,
    grid=_GRID,
    stated={"N": 2, "T": 1},
    title="Time complexity of Viterbi decoding: O(TN²)",
    source=S4_Q2_2E.quote("So the overall time complexity would be O(N)+O(TN^2)+O(N)+O(1)+O(NT)=O(TN^2)"),
    statement=r"\text{time}(\mathrm{Viterbi}) = O(TN^2)",
    expected=Verdict.HOLDS,
)


def viterbi_backward_cost(N, T):
    return dec.viterbi_backward_ops(N, T)


complexity(
    "viterbi.time_backward",
    cost=viterbi_backward_cost,
    grid=_GRID,
    stated={"N": 1, "T": 1},
    title="The backward pass of Viterbi costs O(NT)",
    source=S4_Q2_2E.at("time item v").quote(
        "the backward pass will contribute to a time complexity of O(N)×O(1)×O(T)=O(NT)"
    ),
    statement=r"\text{time}(\text{backward pass}) = O(NT)",
    expected=Verdict.HOLDS,
)


def viterbi_memory_cost(N, T):
    """Peak memory cells: P (N²), stored δ_0..δ_T, buffers, the output list."""
    return dec.viterbi_instrumented(N, T).peak


complexity(
    "viterbi.memory",
    cost=viterbi_memory_cost,
    grid=_GRID,
    stated={"N": 2, "T": 0},
    title="Memory complexity of Viterbi decoding: O(N²), as written",
    source=S4_Q2_2E.at("memory items i–vi").quote(
        "So the overall memory complexity would be O(N^2)+O(N)+O(NT)+O(N)+O(N)+O(N)+O(N)=O(N^2)"
    ),
    statement=r"\text{memory}(\mathrm{Viterbi}) = O(N^2)",
    expected=Verdict.REFUTED,
    notes="The document's own sum contains O(NT) for the δ's kept for the backward pass, and drops it: "
    "O(N² + NT) is O(N²) only when T = O(N). The justification 'unless T ≥ N (which always is!), then the "
    "memory complexity doesn't have the T factor' is garbled (it reads as the opposite of what is needed; "
    "as written it is viterbi.t_always_at_least_n). "
    "On the symmetric grid N, T ∈ {4..64} the fitted exponents are ≈ (1.4, 0.5), not (2, 0). Corrected "
    "form: viterbi.memory_deltas (the δ table, O(NT)); total O(N² + NT).",
)


def _worked_example_t_at_least_n():
    """T ≥ N on the document's own language model of Q2.4: T = 3 words after <BOS>, N its vocabulary."""
    vocabulary = {"<BOS>"} | {word for children in TREE.values() for word in children}
    return {"T": TREE_DEPTH, "N": len(vocabulary), "T >= N": TREE_DEPTH >= len(vocabulary)}


value(
    "viterbi.t_always_at_least_n",
    computed=_worked_example_t_at_least_n,
    stated={"T >= N": True},
    title="'unless T ≥ N (which always is!)': the sequence length is always at least the vocabulary size",
    source=S4_Q2_2E.at("(after the complexity table)").quote(
        "Also for the memory complexity, unless T \\geq N (which always is!), then the memory "
        "complexity doesn't have the T factor"
    ),
    statement=r"T \ge N\ \text{for every decoding problem}",
    expected=Verdict.REFUTED,
    same_as=("viterbi.memory",),
    notes="Read literally, 'which always is' asserts T ≥ N; the document's own language model of Q2.4 has "
    "T = 3 and a vocabulary of 10 words with <BOS>. (Read as 'T ≤ N always', it would be what O(N² + NT) = "
    "O(N²) needs, but that is no more always true: long sequences over a small vocabulary; see "
    "viterbi.memory.) Previously recorded only in the notes of viterbi.memory.",
)


def viterbi_delta_table_cells(N, T):
    """Cells allocated for the δ table by the instrumented run."""
    return dec.viterbi_instrumented(N, T).delta_cells


complexity(
    "viterbi.memory_deltas",
    cost=viterbi_delta_table_cells,
    grid=_GRID,
    stated={"N": 1, "T": 1},
    title="Keeping all δ's for the backward pass takes O(NT) memory",
    source=S4_Q2_2E.at("memory item iii").quote("But for keeping all δs we need O(NT) memory"),
    statement=r"\text{memory}(\delta_{1..T}) = O(NT)",
    expected=Verdict.HOLDS,
    corrects="viterbi.memory",
    notes="With P (N² cells, an input) the total is O(N² + NT).",
)


def naive_time_cost(N):
    """Operations of the instrumented naive search at T = 4 (2T + 1 per sequence)."""
    return dec.naive_instrumented(N, 4, keep_all=False).ops


complexity(
    "viterbi.naive_time",
    uses=("count.naive_evaluations",),
    cost=naive_time_cost,
    grid={"N": [2, 3, 4, 5, 6]},
    stated={"N": 4},
    title="Naive search by enumeration costs O(T N^T) time (growth in N at T = 4)",
    source=S4_Q2_2E.at("(naive approach)").quote(
        "the total computation for all the probabilities would give rise to an exponential time "
        "complexity of O(TN^T)"
    ),
    statement=r"\text{time}(\text{naive}) = O(T N^T)",
    expected=Verdict.HOLDS,
    notes="Exponential in T, so a power law can only be fitted in N at fixed T: at T = 4 the stated "
    "O(TN^T) predicts exponent 4 in N. The count per sequence is exactly 2T + 1, so the total is (2T+1)N^T.",
)


def naive_memory_all_cost(N):
    """Peak cells of the instrumented naive search keeping everything, at T = 3."""
    return dec.naive_instrumented(N, 3, keep_all=True).peak


complexity(
    "viterbi.naive_memory",
    cost=naive_memory_all_cost,
    grid={"N": [2, 3, 4, 5, 6]},
    stated={"N": 3},
    title="Naive search keeping all sequences needs O(T N^T) memory (growth in N at T = 3)",
    source=S4_Q2_2E.at("(naive approach)").quote(
        "we need to keep all N^T probabilities … so it'll consume O(N^T)+O(N^T×T)=O(TN^T)"
    ),
    statement=r"\text{memory}(\text{naive, keep all}) = O(T N^T)",
    expected=Verdict.HOLDS,
)


def naive_memory_index_cost(N, T):
    """Peak cells of the instrumented naive search by index."""
    return dec.naive_instrumented(N, T, keep_all=False, run=False).peak


complexity(
    "viterbi.naive_memory_index",
    cost=naive_memory_index_cost,
    grid={"N": [2, 4, 8, 16], "T": [8, 16, 32, 64]},
    stated={"N": 0, "T": 1},
    title="Enumerating sequences by index, keeping only the best so far, needs O(T) memory",
    source=S4_Q2_2E.at("(after the table)").quote(
        "In this case, the space complexity of the naive approach would just be O(T) so Viterbi will "
        "only be advantageous only in terms of time complexity"
    ),
    statement=r"\text{memory}(\text{naive, by index}) = O(T)",
    expected=Verdict.HOLDS,
    notes="True, and then Viterbi's O(N² + NT) memory is *worse* than naive's O(T) (P aside), as the "
    "document concludes. Memory of this variant is allocated before the enumeration, so the cost function "
    "does not run the N^T loop.",
)
