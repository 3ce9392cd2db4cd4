r"""The worked tree of seed 004 (IFT6135-H2021 A2) Question 2.4: exact search, greedy decoding and beam
search with B = 2 on a small pruned language model.

The figure is missing from the text. The tree is reconstructed in checks/decoding/_tree.py (``TREE``) from the
numbers the text gives (each conditional's provenance is listed there): the conditionals stated in 2.4.b
directly, the rest as differences of stated joints. All numbers are exact decimals, compared as
rationals, so a mismatch is a mismatch. Missing branches are absent (log-probability −∞).
"""

import sympy as sp

import checks.decoding._helpers as dec
from checks._vocab.notation import symbols as shared
from checks._vocab.sources import S4_Q2_4A, S4_Q2_4B, S4_Q2_4C, S4_Q2_4D, SEED_004
from checks.decoding._tree import tree_children, tree_greedy, tree_joint, tree_paths
from lemmacheck import Derived, Input, Source, Verdict, value

R = sp.Rational


def _ll(x):
    return R(x)


def _best_by_word():
    """δ_3(word) = max joint over the leaves ending in that word; and the sorted candidate lists."""
    cands = {}
    for path in tree_paths(3):
        cands.setdefault(path[-1], []).append(tree_joint(path))
    return {w: sorted(v, reverse=True) for w, v in cands.items()}


# ---------------------------------------------------------------------------------------------- 2.4.a
def delta3_candidates():
    return _best_by_word()


value(
    "tree.delta3_candidates",
    uses=("tree.log_joint_chain",),
    computed=delta3_candidates,
    stated={
        "ellipse": [_ll("-8.5"), _ll("-9.7")],
        "rectangle": [_ll("-8.2"), _ll("-9.1")],
        "circle": [_ll("-9.4"), _ll("-9.4")],
        "square": [_ll("-9.3"), _ll("-9.6")],
    },
    title="The joint log-likelihoods of the 8 leaves, grouped by last word (the lists inside δ₃'s max)",
    source=S4_Q2_4A.quote(
        "δ3(ellipse) = max{−8.5, −9.7} … δ3(rectangle) = max{−8.2, −9.1} … δ3(circle) = max{−9.4, "
        "−9.4} … δ3(square) = max{−9.3, −9.6}"
    ),
    statement=r"\{\log p(\boldsymbol w_{1:3}) : w_3 = \cdot\} = "
    r"\{-8.5,-9.7\},\{-8.2,-9.1\},\{-9.4,-9.4\},\{-9.3,-9.6\}",
    expected=Verdict.PROVED,
    notes="Consistency check of the reconstruction: the 'the' subtree's leaves follow from the "
    "conditionals stated in 2.4.b (−9.1 and −9.4 under 'the red'); the others were inferred from the δ₃ "
    "lists and the beam lists of 2.4.c, and each of the eight numbers is used by exactly one leaf.",
)


def delta3():
    return {w: v[0] for w, v in _best_by_word().items()}


value(
    "tree.delta3",
    uses=("tree.delta3_candidates",),
    computed=delta3,
    stated={"ellipse": _ll("-8.5"), "rectangle": _ll("-8.2"), "circle": _ll("-9.4"), "square": _ll("-9.3")},
    title="δ₃ (in log space) for the four words at position 3",
    source=S4_Q2_4A.quote("δ3(ellipse) = −8.5, δ3(rectangle) = −8.2, δ3(circle) = −9.4, δ3(square) = −9.3"),
    statement=r"\log\delta_3 = (\text{ellipse}: -8.5,\ \text{rectangle}: -8.2,\ \text{circle}: -9.4,\ "
    r"\text{square}: -9.3)",
    expected=Verdict.PROVED,
)


def map_sequence():
    paths = tree_paths(3)
    best = max(paths, key=tree_joint)
    return {"sequence": ["<BOS>", *best], "log-likelihood": tree_joint(best)}


value(
    "tree.map_sequence",
    uses=("tree.delta3",),
    computed=map_sequence,
    stated={"sequence": ["<BOS>", "the", "green", "rectangle"], "log-likelihood": _ll("-8.2")},
    title="The most likely sequence w*₀:₃ = <BOS>, the, green, rectangle with log-likelihood −8.2",
    source=S4_Q2_4A.quote(
        "This leaves us with w_3^* = arg max_j δ_3(j) = rectangle. Tracing back this leaf to the "
        "root, we get: w_{0:3}^* = {<BOS>, the, green, rectangle}"
    ),
    statement=r"\boldsymbol w^\star_{0:3} = (\langle BOS\rangle, \text{the}, \text{green}, "
    r"\text{rectangle}),\ \log p(\boldsymbol w^\star_{1:3}) = -8.2",
    expected=Verdict.PROVED,
    notes="Computed by exhaustive search over the 8 leaves of the pruned tree. The document's text around "
    "it is garbled by the conversion ('oldsymbol', '{ ext{, the, …'); the <BOS> token was lost.",
)


# ---------------------------------------------------------------------------------------------- 2.4.b
def greedy():
    seq = tree_greedy()
    return {
        "step choices": [sorted(tree_children(seq[:t]).values()) for t in range(3)],
        "sequence": list(seq),
        "log-likelihood": tree_joint(seq),
    }


value(
    "tree.greedy",
    uses=("tree.log_joint_chain",),
    computed=greedy,
    stated={
        "step choices": [[_ll("-1.8"), _ll("-1.5")], [_ll("-3.4"), _ll("-3.1")], [_ll("-4.8"), _ll("-4.5")]],
        "sequence": ["the", "red", "rectangle"],
        "log-likelihood": _ll("-9.1"),
    },
    title="Greedy decoding: the, red, rectangle with log-likelihood −9.1",
    source=S4_Q2_4B.quote(
        "w̄1 = argmax{−1.5, −1.8} = the, w̄2 = argmax{−3.4, −3.1} = red, w̄3 = argmax{−4.8, −4.5} = "
        "rectangle … {the, red, rectangle}, and its log-likelihood … is −9.1"
    ),
    statement=r"\overline{\boldsymbol w}_{1:3} = (\text{the}, \text{red}, \text{rectangle}),\ \log "
    r"p(\overline{\boldsymbol w}_{1:3}) = -9.1",
    expected=Verdict.PROVED,
    notes="The candidates at each step are compared as sorted lists (the document lists them in tree order).",
)


# ---------------------------------------------------------------------------------------------- 2.4.c
def beam2_step1():
    return {w: tree_joint((w,)) for w in tree_children(())}


value(
    "tree.beam2_step1",
    computed=beam2_step1,
    stated={"the": _ll("-1.5"), "a": _ll("-1.8")},
    title="Beam search, step 1: the two possibilities {the, a} with log-likelihoods {−1.5, −1.8}",
    source=S4_Q2_4C.quote(
        "Starting from the root, there are only two possibilities: {the, a} with log-likelihoods {−1.5, −1.8}"
    ),
    statement=r"\{\text{the}: -1.5,\ \text{a}: -1.8\}",
    expected=Verdict.PROVED,
)


def joints_depth2():
    paths = tree_paths(2)
    return {
        "candidates": len(paths),
        "distinct words": len({p[-1] for p in paths}),
        "a red": tree_joint(("a", "red")),
        "a blue": tree_joint(("a", "blue")),
        "the red": tree_joint(("the", "red")),
        "the green": tree_joint(("the", "green")),
    }


value(
    "tree.joints_depth2",
    computed=joints_depth2,
    stated={
        "candidates": 4,
        "distinct words": 3,
        "a red": _ll("-4.5"),
        "a blue": _ll("-4.3"),
        "the red": _ll("-4.6"),
        "the green": _ll("-4.9"),
    },
    title="Beam search, step 2: four candidates (three words, red twice) and their joint log-likelihoods",
    source=S4_Q2_4C.quote(
        "there are three possibilities and red appearing twice, so there are four candidates … "
        "{red(1): −4.5, blue: −4.3, red(2): −4.6, green: −4.9}"
    ),
    statement=r"\{\text{red}^{(1)}: -4.5,\ \text{blue}: -4.3,\ \text{red}^{(2)}: -4.6,\ \text{green}: "
    r"-4.9\}",
    expected=Verdict.PROVED,
    notes="Our reading of the labels: red(1) = 'a red', red(2) = 'the red'. It is forced: 'the red' is "
    "−1.5 − 3.1 = −4.6 from the conditionals of 2.4.b (and greedy's total −9.1 needs it), so the other "
    "red, −4.5, is 'a red'. The 'a' subtree's conditionals are inferred from this list, so only the 'the' "
    "half is an independent check.",
)


def _beam_at(B, depth):
    return [
        {"sequence": list(seq), "log-likelihood": ll}
        for seq, ll in dec.tree_beam_search(tree_children, B, depth, distinct_start=True)
    ]


def beam2_step2():
    return _beam_at(2, 2)


value(
    "tree.beam2_step2",
    uses=("tree.beam2_step1", "tree.joints_depth2"),
    computed=beam2_step2,
    stated=[
        {"sequence": ["a", "blue"], "log-likelihood": _ll("-4.3")},
        {"sequence": ["a", "red"], "log-likelihood": _ll("-4.6")},
    ],
    title="Beam search B = 2, beams after step 2 (as written: a red → −4.6)",
    source=S4_Q2_4C.quote("b_1: a blue → log-likelihood= −4.3  b_2: a red → log-likelihood= −4.6"),
    statement=r"b_1 = (\text{a}, \text{blue}): -4.3,\quad b_2 = (\text{a}, \text{red}): -4.6",
    expected=Verdict.REFUTED,
    notes="'a red' has log-likelihood −4.5 (red(1) in the document's own list); −4.6 is 'the red'. The "
    "selection itself is right only because 'a red' is −4.5: with −4.6 'the red' would tie it. The leaves "
    "under 'a red' (−9.4, −9.6) do not decide between the two readings; the greedy numbers do.",
)

value(
    "tree.beam2_step2_corrected",
    computed=beam2_step2,
    stated=[
        {"sequence": ["a", "blue"], "log-likelihood": _ll("-4.3")},
        {"sequence": ["a", "red"], "log-likelihood": _ll("-4.5")},
    ],
    title="Corrected: beams after step 2 are a blue (−4.3) and a red (−4.5)",
    source=S4_Q2_4C.at("(corrected)").cite(),
    statement=r"b_1 = (\text{a}, \text{blue}): -4.3,\quad b_2 = (\text{a}, \text{red}): -4.5",
    expected=Verdict.PROVED,
    corrects="tree.beam2_step2",
)


def step3_options():
    return {
        "a blue": sorted(tree_children(("a", "blue"))),
        "a red": sorted(tree_children(("a", "red"))),
    }


value(
    "tree.beam2_step3_options",
    uses=("tree.beam2_step2",),
    computed=step3_options,
    stated={"a blue": ["ellipse", "square"], "a red": ["circle", "rectangle"]},
    title="Beam search B = 2, step 3: the continuations of each beam (as written: a red → circle, rectangle)",
    source=S4_Q2_4C.quote(
        "For the first beam there are two options: {ellipse, square}, and for the second beam there "
        "are two options: {circle, rectangle}"
    ),
    statement=r"\text{a blue} \to \{\text{ellipse}, \text{square}\},\quad \text{a red} \to "
    r"\{\text{circle}, \text{rectangle}\}",
    expected=Verdict.REFUTED,
    notes="The next lines of the document list 'a,red circle' (−9.4) and 'a,red square' (−9.6), and "
    "2.4.a's δ₃(rectangle) = max{−8.2, −9.1} has room for only the two rectangles under 'the'; so the "
    "second beam's options are {circle, square}. Three statements against one: the reconstruction follows "
    "the three.",
)

value(
    "tree.beam2_step3_options_corrected",
    computed=step3_options,
    stated={"a blue": ["ellipse", "square"], "a red": ["circle", "square"]},
    title="Corrected: the continuations are a blue → {ellipse, square}, a red → {circle, square}",
    source=S4_Q2_4C.at("(corrected from the document's own candidate list)").cite(),
    statement=r"\text{a blue} \to \{\text{ellipse}, \text{square}\},\quad \text{a red} \to "
    r"\{\text{circle}, \text{square}\}",
    expected=Verdict.PROVED,
    corrects="tree.beam2_step3_options",
)


def step3_candidates():
    out = {}
    for prefix, _ in dec.tree_beam_search(tree_children, 2, 2, distinct_start=True):
        for w in tree_children(prefix):
            out[" ".join(prefix + (w,))] = tree_joint(prefix + (w,))
    return out


value(
    "tree.beam2_step3_candidates",
    uses=("tree.beam2_step3_options",),
    computed=step3_candidates,
    stated={
        "a blue ellipse": _ll("-9.7"),
        "a blue square": _ll("-9.3"),
        "a red circle": _ll("-9.4"),
        "a red square": _ll("-9.6"),
    },
    title="Beam search B = 2, step 3: the four candidates and their log-likelihoods",
    source=S4_Q2_4C.quote(
        "b_1: a,blue ellipse → −9.7 ✓b_2: a,blue square → −9.3 ✓b_3: a,red circle → −9.4 b_4: a,red "
        "square → −9.6"
    ),
    statement=r"\{\text{a blue ellipse}: -9.7,\ \text{a blue square}: -9.3,\ \text{a red circle}: -9.4,\ "
    r"\text{a red square}: -9.6\}",
    expected=Verdict.PROVED,
    notes="These numbers also fix the 'a' subtree's leaves, so this is a consistency check with 2.4.a's δ₃ "
    "lists rather than an independent computation.",
)


#: the result of beam search with B = 2 that the document states (Q2.4.c)
BEAM2_RESULT = [
    {"sequence": ["a", "blue", "square"], "log-likelihood": _ll("-9.3")},
    {"sequence": ["a", "red", "circle"], "log-likelihood": _ll("-9.4")},
]


def beam2_final():
    return _beam_at(2, 3)


value(
    "tree.beam2_final",
    uses=("tree.beam2_step3_candidates",),
    computed=beam2_final,
    stated=BEAM2_RESULT,
    title="Beam search B = 2 result: a blue square (−9.3) and a red circle (−9.4)",
    source=S4_Q2_4C.quote(
        "w_{1:3}^{(1)}: a,blue,square → log-likelihood= −9.3  w_{1:3}^{(2)}: a,red,circle → "
        "log-likelihood= −9.4"
    ),
    statement=r"\boldsymbol w^{(1)}_{1:3} = (\text{a}, \text{blue}, \text{square}): -9.3,\quad \boldsymbol "
    r"w^{(2)}_{1:3} = (\text{a}, \text{red}, \text{circle}): -9.4",
    expected=Verdict.PROVED,
    notes="Computed with distinct beams (one live <BOS> at t = 0), which is what the document does by "
    "hand. Algorithm 2 read literally gives something else: tree.beam2_final_alg2_literal.",
)


def beam2_final_alg2_literal():
    return [
        {"sequence": list(seq), "log-likelihood": ll}
        for seq, ll in dec.tree_beam_search(tree_children, 2, 3, distinct_start=False)
    ]


value(
    "tree.beam2_final_alg2_literal",
    uses=("tree.beam2_step3_candidates",),
    computed=beam2_final_alg2_literal,
    stated=BEAM2_RESULT,
    title="The same result attributed to Algorithm 2 as written (both beams start as <BOS> with l₀ = 0)",
    source=Source(
        SEED_004,
        "Q2.4.c with Algorithm 2",
        quote="Apply beam search decoding (question 3) with a beam width B=2 to this language model",
    ),
    statement=r"\mathrm{Alg.\,2}(B=2) \to (\text{a}, \text{blue}, \text{square}): -9.3,\ (\text{a}, "
    r"\text{red}, \text{circle}): -9.4",
    expected=Verdict.REFUTED,
    notes="Literal reading (flagged): with w_0^{(1)} = w_0^{(2)} = <BOS> and l_0 = 0, the scores s_1(j) "
    "and s_2(j) coincide, the two largest are both 'the' (−1.5), and the beams stay identical: Algorithm 2 "
    "returns (the, red, rectangle) −9.1 twice, i.e. greedy decoding. The document's answer is that of the "
    "corrected algorithm (beam.full_beam_exact's initialisation).",
)


# ---------------------------------------------------------------------------------------------- 2.4.d
def beam_width4():
    return _beam_at(4, 3)[0]


value(
    "tree.beam_width4",
    computed=beam_width4,
    stated={"sequence": ["the", "green", "rectangle"], "log-likelihood": _ll("-8.2")},
    title="A beam width of 4 recovers the exact solution",
    source=S4_Q2_4D.quote(
        "In this problem it can be easily seen that a beam width of 4 could recover the exact solution"
    ),
    statement=r"B = 4:\ \boldsymbol w^{(1)}_{1:3} = \boldsymbol w^\star_{1:3}",
    expected=Verdict.PROVED,
)


def _exact_best_words(xp):
    return map_sequence()["sequence"][1:]  # w*_{1:3}: the sequence after <BOS>


#: seed 004 Question 2.4.d: w^{(1)}_{1:3} the top sequence of the beam run with B = 4 (the check's computed
#: value), w*_{1:3} the most likely sequence by exhaustive search (2.4.a's answer, tree.map_sequence)
BEAM_AGAINST_EXACT = shared.extend(
    "checks/decoding/worked_tree.py (BEAM_AGAINST_EXACT)",
    {
        r"\boldsymbol w^{(1)}_{1:3}": Input("sequence"),
        r"\boldsymbol w^\star_{1:3}": Derived(_exact_best_words, doc="w*_{1:3} by exhaustive search"),
    },
)
claim_symbols = {"tree.beam_width4": BEAM_AGAINST_EXACT}


def min_beam_width():
    best = max(tree_joint(p) for p in tree_paths(3))
    for B in range(1, 9):
        if _beam_at(B, 3)[0]["log-likelihood"] == best:
            return B
    return None


value(
    "tree.min_beam_width",
    computed=min_beam_width,
    stated=4,
    title="The smallest beam width that recovers the exact answer is 4",
    source=S4_Q2_4D.quote("a beam width of 4 could recover the exact solution"),
    statement=r"\min\{B : \boldsymbol w^{(1)}_{1:3}(B) = \boldsymbol w^\star_{1:3}\} = 4",
    expected=Verdict.PROVED,
    notes="The document says 4 suffices; we also check it is the smallest: with B = 3 the step-2 "
    "candidates −4.3, −4.5, −4.6 survive and 'the green' (−4.9), the prefix of the optimum, is dropped. "
    "(In the pruned tree B = 4 keeps every path, so it is exhaustive search.)",
)
