"""Decoding (seed 004 Question 2): Viterbi, beam search, counting, the worked tree."""
