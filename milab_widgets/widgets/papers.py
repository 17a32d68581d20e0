"""The five papers as the lab names them to a user: authors, title, venue, year, short name.

Taken from the papers' own texts (the project's source texts, in Chinese; titles given in
English). Where the extracted text lost the author line, venue or year, the record says so
instead of guessing.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

__all__ = ["PAPERS", "Paper", "paper_header"]


@dataclass(frozen=True)
class Paper:
    """A paper's citation as shown in the lab."""

    short: str
    authors: str
    title: str
    venue: str

    def citation(self) -> str:
        authors = f"{self.authors}. " if self.authors else ""
        return f"{authors}{self.title}. {self.venue}."


_NOT_GIVEN = "not given in the source text"

PAPERS = {
    "intH": Paper(
        "intH", "",
        "Integrated Hausdorff distance for multi-instance learning, its weight tuned by NCA "
        "and golden-section search (Citation-KNN, bag KNN)",
        f"Chinese journal; authors, venue and year {_NOT_GIVEN} (it cites work up to 2012)"),
    "MFSEF": Paper(
        "MFSEF", "Cheng Yusheng, Song Fan, Wang Yibin, Qian Kun (Anqing Normal University)",
        "Multi-label feature selection algorithm based on conditional mutual information of "
        "expert features",
        f"Chinese journal; venue and year {_NOT_GIVEN}"),
    "CDVSE": Paper(
        "CDVSE", "Xing Hongjie, Wei Yongle (Hebei University)",
        "Selective ensemble of support vector data descriptions based on correntropy and "
        "distance variance",
        "Computer Science (Jisuanji Kexue), 2016, DOI 10.11896/j.issn.1002-137X.2016.5.047"),
    "TwoViewMIC": Paper(
        "TwoViewMIC", "Cai Hao, Liu Bo",
        "A semi-supervised two-view multiple-instance clustering model",
        "Journal of Guangdong University of Technology 38(3):22-28, 47, 2021, "
        "DOI 10.12052/gdutxb.200120"),
    "LSkMDDM": Paper(
        "LSkMDDM", "Qiu Jin (Suzhou University of Science and Technology)",
        "Efficient kernel MDDM for multi-label feature extraction as a least-squares problem "
        "(LSkMDDM, rLSkMDDM, OLSkMDDM)",
        f"Chinese journal; venue and year {_NOT_GIVEN}"),
}


def paper_header(short: str, what: str) -> str:
    """HTML header of a panel: what it does (with the short name), then the citation."""
    paper = PAPERS[short]
    return (f"<h3 style='margin:4px 0'>{html.escape(short)}: {html.escape(what)}</h3>"
            f"<div style='font-size:90%;color:#444'>{html.escape(paper.citation())}</div>")
