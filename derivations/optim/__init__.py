"""Optimisers and normalisation (seeds 002–004): momentum, EMA, weight decay/Adam, quadratic model, BN/WN."""
