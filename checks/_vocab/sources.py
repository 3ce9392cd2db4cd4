"""The five source documents (``/work/shared/seeds/``) and their sections, each named once.

A claim cites a section bound here and writes only its own part: ``source=S3_Q4_1.quote("…")``,
``source=S3_Q1.at("part 2 (corrected)").cite()``; ``Source(SEED_001, "§A", quote=…)`` for a one-off.
Sections are named ``S<document>_<label>`` and spelled as the catalogue cites them.
"""

from lemmacheck import Document

SEED_000 = Document("000_d5611b10136d2275.txt")
SEED_001 = Document("001_8cf8400e422d2236.txt")
SEED_002 = Document("002_65c86a72d8dc8382.txt")
SEED_003 = Document("003_d43fadb84922168d.txt")
SEED_004 = Document("004_e57a68eb4e5e7a82.txt")

# SEED_000
S0_BASICS = SEED_000.section("§Basic Knowledge of RNN")
S0_LOSS_FN = SEED_000.section("§Loss Function of RNN")
S0_LOSS_V = SEED_000.section("§Loss Bounded with Respect to V")
S0_LOSS_W = SEED_000.section("Loss Bound with Respect to W")
S0_LOSS_W_S = SEED_000.section("§Loss Bound with Respect to W")
S0_LOSS_U = SEED_000.section("Loss Bound with Respect to U")
S0_COMMENTS = SEED_000.section("§Comments")
S0_APPENDIX = SEED_000.section("handwritten appendix (end of file)")

# SEED_001
S1_A = SEED_001.section("§A")
S1_B = SEED_001.section("§B")
S1_B1 = SEED_001.section("§B.1")
S1_B2 = SEED_001.section("§B.2")

# SEED_002
S2_Q1 = SEED_002.section("Question 1")
S2_Q2_1 = SEED_002.section("Question 2.1")
S2_Q2_2 = SEED_002.section("Question 2.2")
S2_Q2_3 = SEED_002.section("Question 2.3")
S2_Q3_1 = SEED_002.section("Question 3.1")
S2_Q3_2 = SEED_002.section("Question 3.2")
S2_Q3_3 = SEED_002.section("Question 3.3")
S2_Q4_1 = SEED_002.section("Question 4.1")
S2_Q4_2 = SEED_002.section("Question 4.2")
S2_Q4_3 = SEED_002.section("Question 4.3")

# SEED_003
S3_Q1 = SEED_003.section("Question 1")
S3_Q2 = SEED_003.section("Question 2")
S3_Q3_1 = SEED_003.section("Question 3.1")
S3_Q3_2 = SEED_003.section("Question 3.2")
S3_Q3_3 = SEED_003.section("Question 3.3")
S3_Q4_1 = SEED_003.section("Question 4.1")
S3_Q4_2 = SEED_003.section("Question 4.2")
S3_Q4_3 = SEED_003.section("Question 4.3")
S3_Q5 = SEED_003.section("Question 5")
S3_Q6 = SEED_003.section("Question 6")

# SEED_004
S4_Q1_1 = SEED_004.section("Question 1.1")
S4_Q1_2 = SEED_004.section("Question 1.2")
S4_Q1_3 = SEED_004.section("Question 1.3")
S4_Q2 = SEED_004.section("Q2")
S4_Q2_1 = SEED_004.section("Q2.1")
S4_Q2_2A = SEED_004.section("Q2.2.a")
S4_Q2_2B = SEED_004.section("Q2.2.b")
S4_Q2_2C = SEED_004.section("Q2.2.c")
S4_Q2_2D = SEED_004.section("Q2.2.d")
S4_Q2_2E = SEED_004.section("Q2.2.e")
S4_Q2_2F = SEED_004.section("Q2.2.f")
S4_Q2_3 = SEED_004.section("Q2.3")
S4_Q2_4 = SEED_004.section("Q2.4")
S4_Q2_4A = SEED_004.section("Q2.4.a")
S4_Q2_4B = SEED_004.section("Q2.4.b")
S4_Q2_4C = SEED_004.section("Q2.4.c")
S4_Q2_4D = SEED_004.section("Q2.4.d")
S4_Q3_1 = SEED_004.section("Question 3.1")
S4_Q3_2 = SEED_004.section("Question 3.2")
S4_Q3_3 = SEED_004.section("Question 3.3")
S4_Q3_3A = SEED_004.section("Question 3.3(a)")
S4_Q3_3B = SEED_004.section("Question 3.3(b)")
S4_Q4_1 = SEED_004.section("Q4.1")
S4_Q4_2 = SEED_004.section("Question 4.2")
S4_Q4_3 = SEED_004.section("Question 4.3")
