"""Shared vocabulary of the content: every name here is defined once and imported by the topics.

``sources`` the five documents, ``linalg`` batched linear algebra, ``activations`` the table of
activations (σ, σ′, σ″ and their bounds), ``rnn`` the RNN model of seeds 000/001, ``fd`` finite
differences (one step policy).  Nothing here registers a claim.
"""
