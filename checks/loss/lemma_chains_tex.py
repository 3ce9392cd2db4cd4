r"""The proofs of Lemma 1 and Lemma 2 (seed 001 §A) written as ``align*`` blocks and checked from the
LaTeX alone: no check function, the statement compiles into the check (lemmacheck.from_statement), each row a
step labelled by its ``\text{...}``.  The hand-written chains of the same proofs are lemma1.proof_chain and
lemma2.proof_chain_as_written in checks/loss/lemmas.py; these expect the same statuses.
"""

from checks.loss._helpers import ON_RNN, ON_SMALL_RNN
from checks.loss._notation import LEMMAS
from checks.loss.lemmas import LEMMA1_PROOF_SOURCE, LEMMA2_PROOF_SOURCE
from lemmacheck import Verdict, from_statement, inequality

symbols = LEMMAS

LEMMA1_PROOF = r"""\begin{align*}
f_t(\Phi+\Delta\Phi) &\le f_t + \langle p, z^+ - z\rangle + \tfrac12\|z^+-z\|_\infty^2
  \text{eq. (3) at z = Vs_t (printed without the square of eq. (2))} \\
&= f_t + r^\top p + \langle\nabla_\Phi f_t,\Delta\Phi\rangle + \tfrac12\|z^+-z\|_\infty^2
  \text{eq. (4) and the chain rule} \\
&\le f_t + \|r\|_\infty\|\mathrm{softmax}(Vs_t)\|_\infty + \langle\nabla_\Phi f_t,\Delta\Phi\rangle
  + \tfrac12\|z^+-z\|_\infty^2 \text{Hölder with the sup norm of softmax (as written)} \\
&\le f_t + \|r\|_\infty + \langle\nabla_\Phi f_t,\Delta\Phi\rangle + \tfrac12\|z^+-z\|_\infty^2
  \text{the sup norm of softmax is at most 1}
\end{align*}"""

from_statement(
    inequality,
    "lemma1.proof_chain.tex",
    title="Proof of Lemma 1 from its LaTeX alone (align*, no check function)",
    source=LEMMA1_PROOF_SOURCE,
    statement=LEMMA1_PROOF,
    expected=Verdict.HOLDS,
    expected_broken_step=1,
    step_is={1: "lse.bound_eq3"},
    same_as=("lemma1.proof_chain",),
    **ON_RNN,
    notes="The chain of lemma1.proof_chain, checked from the LaTeX: step 1 is eq. (3) as printed "
    "(lse.bound_eq3, REFUTED), so the proof breaks there; step 3 (Hölder with ‖softmax‖∞) is false too.",
)

LEMMA2_PROOF = r"""\begin{align*}
g_t(\Phi+\Delta\Phi) &= g_t(\Phi) + \langle\nabla_{Vs_t} g_t, Vs_t(\Phi+\Delta\Phi)-Vs_t(\Phi)\rangle
  \text{eq. (5)} \\
&\le g_t(\Phi) + \langle\nabla_\Phi g_t(\Phi),\Delta\Phi\rangle + \|r\|_\infty \text{eq. (6)} \\
&\le \langle\nabla_\Phi g_t(\Phi),\Delta\Phi\rangle + \|r\|_\infty
  \text{we will get Lemma 2 (printed without g_t)}
\end{align*}"""

from_statement(
    inequality,
    "lemma2.proof_chain_as_written.tex",
    title="Proof of Lemma 2 as written, from its LaTeX alone (align*, no check function)",
    source=LEMMA2_PROOF_SOURCE,
    statement=LEMMA2_PROOF,
    expected=Verdict.REFUTED,
    expected_broken_step=3,
    same_as=("lemma2.proof_chain_as_written",),
    **ON_SMALL_RNN,
    notes="The chain of lemma2.proof_chain_as_written, checked from the LaTeX: eq. (5) and (6) hold, the "
    "last step drops g_t(Φ) = −yᵀVs_t(Φ) and breaks where g_t(Φ) > 0; end to end it is the printed Lemma 2.",
)
