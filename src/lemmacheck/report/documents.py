"""The source documents as people name them: a short title (subject and author, as each document gives
them) shown wherever the report names a document, with the full title and the file name on hover.

A file not in the table (a researcher's own source) is shown by its own name.
"""

from __future__ import annotations

import dataclasses

__all__ = ["DocumentTitle", "DOCUMENTS", "document_title"]


@dataclasses.dataclass(frozen=True)
class DocumentTitle:
    short: str  # for tables, cards and the filter
    full: str  # subject and authors as the document's first lines give them
    file: str

    @property
    def hover(self) -> str:
        return f"{self.full} — {self.file}" if self.full != self.file else self.file


DOCUMENTS = {d.file: d for d in (
    DocumentTitle("Liu: monthly summary", "Summary of Last Month (2.22–3.20), research notes on RNN "
                  "optimisation by non-Euclidean geometry — Chen Liu", "000_d5611b10136d2275.txt"),
    DocumentTitle("Liu, Hsieh, Cevher: appendix", "A Novel Optimization Method for Recurrent Neural Network "
                  "by Non-Euclidean Geometry, Appendix — Chen Liu, Ya-Ping Hsieh, Volkan Cevher (EPFL)",
                  "001_8cf8400e422d2236.txt"),
    DocumentTitle("Wang: homework", "Homework solution (RNN activations, momentum, normalisation) — "
                  "Ziqiang Wang", "002_65c86a72d8dc8382.txt"),
    DocumentTitle("Nabli: IFT 6135 HW2", "IFT 6135 Homework 2 (15/03/2019) — Adel Nabli",
                  "003_d43fadb84922168d.txt"),
    DocumentTitle("IFT6135-H2021 A2", "IFT6135-H2021 Assignment 2, theoretical part (optimization, "
                  "regularization and RNNs) — Prof. Aaron Courville", "004_e57a68eb4e5e7a82.txt"),
)}


def document_title(file: str) -> DocumentTitle:
    return DOCUMENTS.get(file) or DocumentTitle(str(file), str(file), str(file))
