r"""Seed 003, Question 5, Lemma 5.1: the spectra of W W^T and W^T W, and the operator-norm identities.

As written the lemma is for *every* matrix W.  For a non-square W (n x m, n != m) the larger Gram matrix
has the eigenvalue 0 which the smaller one may lack, so the sets differ; the nonzero eigenvalues (with
multiplicity) and the largest eigenvalue always agree, which is all the vanishing-gradient argument needs.
"""

from checks._vocab.linalg import matvec, op_norm
from checks._vocab.sources import S3_Q5, S4_Q1_2
from checks.gradflow._helpers import POLICY_RTOL, relatively_equal
from checks.gradflow._notation import LEMMA51_WITNESS
from lemmacheck import Array, Verdict, identity, prop

RECT_DIMS = {"n": [1, 2, 3, 5], "m": [1, 2, 3, 5]}
LEMMA_QUOTE = (
    "For every matrix W, Sp(WW^T) the set of eigenvalues of WW^T is equal to Sp(W^TW) the set of "
    "eigenvalues of W^TW"
)


def _gram_spectra(xp, W):
    return (xp.eigvalsh(xp.matmul(W, xp.transpose(W))), xp.eigvalsh(xp.matmul(xp.transpose(W), W)))


def _spectral_tol(xp, a, b):
    """Rounding of two float64 spectra: eigvalsh is backward stable (errors ≲ n·eps·‖W‖²), so the
    policy's rtol of the spectra's size is rounding and nothing more; a zero eigenvalue comes out as
    ~1e-16 of it.  Purely relative, so it reads the same at every scale (a failing instance is re-checked
    in high precision)."""
    return POLICY_RTOL * (xp.max(xp.abs(a), axis=-1) + xp.max(xp.abs(b), axis=-1))


def _each_close_to_some(xp, a, b, tol):
    """True where every entry of a is within tol of some entry of b (per batch row)."""
    d = xp.abs(a[:, :, None] - b[:, None, :])
    return xp.max(xp.min(d, axis=-1), axis=-1) <= tol


@prop(
    "eig.s003.lemma51",
    uses=("eig.s003.proof_step",),
    inputs={"W": Array("n", "m", scale=(0.1, 10.0))},
    dims=RECT_DIMS,
    title="Lemma 5.1: Sp(W W^T) = Sp(W^T W) for every matrix W (seed 003, as written)",
    source=S3_Q5.at("part 2, Lemma 5.1").quote(LEMMA_QUOTE),
    statement=r"\forall W,\ \mathrm{Sp}(WW^\top) = \mathrm{Sp}(W^\top W)",
    expected=Verdict.REFUTED,
    notes="Compared as sets (multiplicities ignored). Fails for non-square W: W = (w_1, w_2) (1 x 2) gives "
    "Sp(WW^T) = {|w|^2} but Sp(W^T W) = {0, |w|^2}. The proof's step 'W^T u is an eigenvector' needs W^T u "
    "!= 0, false for lambda = 0 (eig.s003.proof_step). Corrected forms: eig.s003.lemma51_square and "
    "eig.s003.lemma51_nonzero. The answer only uses lambda_1, for which the conclusion is right "
    "(eig.s003.top_eig).",
)
def lemma51(xp, W):
    a, b = _gram_spectra(xp, W)
    tol = _spectral_tol(xp, a, b)
    return _each_close_to_some(xp, a, b, tol) & _each_close_to_some(xp, b, a, tol)


@prop(
    "eig.s003.lemma51_square",
    inputs={"W": Array("n", "n", scale=(0.1, 10.0))},
    dims={"n": [1, 2, 3, 5, 8]},
    title="Lemma 5.1 for square W: W W^T and W^T W have the same eigenvalues with multiplicity",
    source=S3_Q5.at("part 2, Lemma 5.1 (corrected: W square)").cite(),
    statement=r"W \in \mathbb{R}^{n\times n} \implies \mathrm{Sp}(WW^\top) = \mathrm{Sp}(W^\top W)\ "
    r"\text{(with multiplicity)}",
    expected=Verdict.HOLDS,
    corrects="eig.s003.lemma51",
    notes="The RNN's W is square, so the lemma as used in Question 5 is true.",
)
def lemma51_square(xp, W):
    a, b = _gram_spectra(xp, W)
    return relatively_equal(xp, a, b)


@prop(
    "eig.s003.lemma51_nonzero",
    inputs={"W": Array("n", "m", scale=(0.1, 10.0))},
    dims=RECT_DIMS,
    title="Lemma 5.1 corrected: the nonzero eigenvalues of W W^T and W^T W coincide (with multiplicity)",
    source=S3_Q5.at("part 2, Lemma 5.1 (corrected: nonzero spectrum)").cite(),
    statement=r"\mathrm{Sp}(WW^\top)\setminus\{0\} = \mathrm{Sp}(W^\top W)\setminus\{0\}\ \text{(with "
    r"multiplicity)}",
    expected=Verdict.HOLDS,
    corrects="eig.s003.lemma51",
    notes="Checked as: the top min(n, m) eigenvalues agree and every other eigenvalue is 0.",
)
def lemma51_nonzero(xp, W):
    a, b = _gram_spectra(xp, W)  # ascending
    k = min(a.shape[-1], b.shape[-1])
    tol = _spectral_tol(xp, a, b)
    top = xp.max(xp.abs(a[:, -k:] - b[:, -k:]), axis=-1) <= tol
    rest_a = a[:, :-k] if a.shape[-1] > k else None
    rest_b = b[:, :-k] if b.shape[-1] > k else None
    ok = top
    for rest in (rest_a, rest_b):
        if rest is not None:
            ok = ok & (xp.max(xp.abs(rest), axis=-1) <= tol)
    return ok


@prop(
    "eig.s003.proof_step",
    inputs={"w": Array(2, scale=(0.1, 10.0))},
    dims={},
    title="proof of Lemma 5.1: W W^T u = lambda u => W^T u is an eigenvector of W^T W",
    source=S3_Q5.at("part 2, proof of Lemma 5.1").quote(
        "\\lambda \\in Sp(WW^T) \\Rightarrow \\exists u \\text{ s.t. } WW^T u = \\lambda u "
        "\\Rightarrow W^T W \\underbrace{W^T u}_{=v} = \\lambda \\underbrace{W^T u}_{=v} \\Rightarrow "
        "\\lambda \\in Sp(W^TW)"
    ),
    statement=r"WW^\top u = \lambda u,\ u \ne 0 \implies v = W^\top u \ne 0\ \text{and}\ W^\top W v = "
    r"\lambda v",
    expected=Verdict.REFUTED,
    notes="Witness: W is the 2 x 1 column w, u = (-w_2, w_1) is an eigenvector of W W^T for lambda = 0 and "
    "v = W^T u = 0, which is no eigenvector; indeed 0 is not in Sp(W^T W) = {|w|^2}. The step is valid for "
    "lambda != 0 (then v != 0), which is the corrected lemma.",
)
def proof_step(xp, w):
    W = w[:, :, None]  # (batch, 2, 1)
    u = xp.stack([-w[:, 1], w[:, 0]], axis=-1)  # W W^T u = w (w . u) = 0 = 0 * u
    v = matvec(xp.transpose(W), u)
    nu = xp.sqrt(xp.sum(u * u, axis=-1))
    nw = xp.sqrt(xp.sum(w * w, axis=-1))
    valid = nu > 0
    # ‖v‖ against ‖u‖‖w‖, the size it has when v ≠ 0: relative, as every tolerance here
    return (~valid) | (xp.sqrt(xp.sum(v * v, axis=-1)) > POLICY_RTOL * nu * nw)


@identity(
    "eig.s003.top_eig",
    inputs={"W": Array("n", "m", scale=(0.1, 10.0))},
    dims=RECT_DIMS,
    relations=("=", "="),
    labels=("||A|| = sqrt(lambda_1(A A^T)) for A = W^T", "largest eigenvalues agree"),
    title="||W^T|| = sqrt(lambda_1(W W^T)) = sqrt(lambda_1(W^T W)) (seed 003)",
    source=S3_Q5.at("part 2, after Lemma 5.1").quote(
        "\\|W^T\\| = \\sqrt{\\lambda_1(WW^T)} ... Sp(W^TW) = Sp(WW^T) \\rightarrow \\|W^T\\| = "
        "\\sqrt{\\lambda_1(W^TW)}"
    ),
    statement=r"\|W^\top\| = \sqrt{\lambda_1(WW^\top)} = \sqrt{\lambda_1(W^\top W)}",
    expected=Verdict.HOLDS,
    step_is={2: "eig.s003.lemma51"},
    expected_broken_step=2,
    notes="True for every W, square or not: the largest eigenvalue is the squared top singular value. "
    "The proof's step 2 is 'Sp(W^T W) = Sp(W W^T)', Lemma 5.1 as written for every matrix "
    "(eig.s003.lemma51, REFUTED for non-square W), while this check's step 2 compares only the "
    "largest eigenvalues: so the proof is broken at step 2 over the n x m matrices this claim ranges "
    "over. For the square W of the RNN the step holds (eig.s003.lemma51_square).",
)
def top_eig(xp, W):
    a, b = _gram_spectra(xp, W)
    return op_norm(xp, xp.transpose(W)), xp.sqrt(xp.max(a, axis=-1)), xp.sqrt(xp.max(b, axis=-1))


@identity(
    "eig.s004.opnorm",
    inputs={"A": Array("n", "m", scale=(0.1, 10.0))},
    dims=RECT_DIMS,
    title="||A|| = sqrt(lambda_1(A^T A)) (seed 004, stated property of the L2 operator norm)",
    source=S4_Q1_2.quote(
        "Use the following properties of the L_2 operator norm ||AB|| \\le ||A|| \\, ||B|| and ||A|| "
        "= \\sqrt{\\lambda_1(A^{\\top}A)}"
    ),
    statement=r"\|A\| = \sqrt{\lambda_1(A^\top A)}",
    expected=Verdict.HOLDS,
    same_as=("eig.s003.top_eig",),
)
def opnorm_004(xp, A):
    return op_norm(xp, A), xp.sqrt(xp.max(xp.eigvalsh(xp.matmul(xp.transpose(A), A)), axis=-1))


claim_symbols = {"eig.s003.proof_step": LEMMA51_WITNESS}
