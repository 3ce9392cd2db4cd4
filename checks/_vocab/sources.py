"""The five source documents (``/work/shared/seeds/``), named once: ``Source(SEED_001, "§A", …)``."""

SEED_000 = "000_d5611b10136d2275.txt"
SEED_001 = "001_8cf8400e422d2236.txt"
SEED_002 = "002_65c86a72d8dc8382.txt"
SEED_003 = "003_d43fadb84922168d.txt"
SEED_004 = "004_e57a68eb4e5e7a82.txt"
