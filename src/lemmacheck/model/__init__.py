"""The claim model: what a declaration says (claims, inputs, relations, links, tolerances, verdicts),
checked where it is declared."""
