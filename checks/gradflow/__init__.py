"""Gradient flow in RNNs (seeds 002–004): activation placement, vanishing/exploding gradients, init,
dropout, BiRNN."""
