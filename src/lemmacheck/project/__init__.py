"""The project: where its content lives, which module declares which claim, and ``-k`` selection over it."""
