"""The loss of seeds 000/001: the rewrite E = (f − g)/M, Lemmas 1–2, log-sum-exp, softmax, the bound in V."""
