"""Settling candidates in high precision: no numeric refutation is reported before it is re-checked beyond
float64."""
