"""The worked tree of seed 004 Q2.4 (its figure is missing from the text), reconstructed from the numbers."""

from __future__ import annotations


def _r(x: str):
    import sympy as sp

    return sp.Rational(x)


# Conditional log-probabilities log p(w_t | w_{0:t-1}) of the pruned tree, keyed by the prefix w_{1:t-1}.
# Provenance of each number (Q2.4 of seed 004):
#   root -> the -1.5, a -1.8                    stated (2.4.b: argmax{-1.5, -1.8} = the; 2.4.c)
#   the  -> red -3.1, green -3.4                stated (2.4.b: argmax{-3.4, -3.1} = red)
#   the red -> rectangle -4.5, circle -4.8      stated (2.4.b: argmax{-4.8, -4.5} = rectangle; total -9.1)
#   a    -> red -2.7, blue -2.5                 inferred: joints {red(1): -4.5, blue: -4.3} (2.4.c) minus -1.8
#   the green -> rectangle -3.3, ellipse -3.6   inferred: δ3 entries -8.2, -8.5 (2.4.a) minus joint -4.9
#   a blue -> ellipse -5.4, square -5.0         inferred: beams 'a,blue ellipse' -9.7, 'a,blue square' -9.3
#   a red  -> circle -4.9, square -5.1          inferred: beams 'a,red circle' -9.4, 'a,red square' -9.6
# Every one of the 8 leaf joints then appears exactly once in the δ3 lists of 2.4.a (two per word), and
# the-red's joint -4.6 (= -1.5 - 3.1, forced by greedy's total -9.1) is red(2) of the 2.4.c list, so
# red(1) = -4.5 is 'a red'.
TREE = {
    (): {"the": _r("-1.5"), "a": _r("-1.8")},
    ("the",): {"red": _r("-3.1"), "green": _r("-3.4")},
    ("a",): {"red": _r("-2.7"), "blue": _r("-2.5")},
    ("the", "red"): {"rectangle": _r("-4.5"), "circle": _r("-4.8")},
    ("the", "green"): {"rectangle": _r("-3.3"), "ellipse": _r("-3.6")},
    ("a", "blue"): {"ellipse": _r("-5.4"), "square": _r("-5.0")},
    ("a", "red"): {"circle": _r("-4.9"), "square": _r("-5.1")},
}
TREE_DEPTH = 3


def tree_children(prefix):
    return TREE.get(tuple(prefix), {})


def tree_joint(seq):
    """log p(w_{1:t}) = Σ log p(w_s | w_{0:s-1}) along the path (log p(w_0 = <BOS>) = 0)."""
    total = 0
    for s in range(len(seq)):
        total += TREE[tuple(seq[:s])][seq[s]]
    return total


def tree_paths(depth):
    """All root-to-depth paths of the pruned tree, in the order the tree lists its children."""
    paths = [()]
    for _ in range(depth):
        paths = [p + (w,) for p in paths for w in tree_children(p)]
    return paths


def tree_greedy():
    seq = ()
    for _ in range(TREE_DEPTH):
        kids = tree_children(seq)
        seq = seq + (max(kids, key=kids.get),)
    return seq
