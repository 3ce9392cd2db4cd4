"""Sensitivities of the RNN of seeds 000/001 (P_t, Q_t), their U and W mirrors, Lemma 3, the Lipschitz
constants."""
