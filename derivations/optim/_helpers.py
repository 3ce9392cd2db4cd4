"""What the optim derivations share."""


def scalar(m):
    """The entry of a 1 × 1 SymPy matrix (a quadratic form, an inner product written as a matrix product)."""
    return m[0, 0]
