"""Search for violations: vectorised sweeps, Hypothesis, shrinking, tightness, and the seeds and profiles
that make them replay."""
