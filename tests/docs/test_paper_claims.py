"""The ``paper-claims`` directive's text (docs/_ext/report_tables.py): a paper's claims.csv
in words, the paper's claims first, read from the file at build time."""

import sys
from pathlib import Path

import pandas as pd

from milab_widgets.claims import Claim, claim_row, claims_table, untested
from milab_widgets.claims.scopes import faster, on_average

DOCS = Path(__file__).resolve().parents[2] / "docs"
sys.path.insert(0, str(DOCS / "_ext"))

import report_tables  # noqa: E402

AVERAGE = Claim("better", "A beats B on average", "§4, Table 3", "on average", "6 data sets")
SPEED = Claim("faster", "A is faster than B", "§4, Fig. 4", "faster", "3 data sets")
MISSING = Claim("pascal", "A is best on pascal07", "Table 7", "every case", "pascal07")
OWN = Claim("own", "Our solver is faster", "project", "faster", "3 data sets",
            origin="project")


def written_claims(folder: Path) -> Path:
    times_a = {name: [1.0, 1.1] for name in "xyz"}
    times_b = {"x": [3.0, 3.2], "y": [2.9, 3.4], "z": [3.1, 3.3]}
    rows = [claim_row(AVERAGE, on_average([0.02, 0.01, 0.03, 0.015, 0.025, 0.012]),
                      noise="the data sets"),
            claim_row(SPEED, faster(times_a, times_b), noise="one ratio per data set"),
            untested(MISSING, "pascal07 is not obtainable here"),
            claim_row(OWN, faster(times_b, times_a), noise="one ratio per data set")]
    path = folder / "paper" / "claims.csv"
    path.parent.mkdir()
    claims_table(rows, (AVERAGE, SPEED, MISSING, OWN)).to_csv(path, index=False)
    return path


def test_the_papers_claims_come_first_with_their_counts_then_the_projects(tmp_path):
    text = report_tables.paper_claims_markdown(written_claims(tmp_path))
    paper, project = text.index("The paper's claims"), text.index("The project's own checks")
    assert paper < project
    assert "reproduced: 2 yes, 0 partly, 0 no, 1 not tested (of 3)" in text[:project]
    assert "reproduced: 0 yes, 0 partly, 1 no (of 1)" in text[project:]
    assert "`pascal` (Table 7; every case)" in text and "pascal07 is not obtainable" in text
    assert "Interval covers: one ratio per data set." in text
    assert text.index("`better`") < text.index("`faster`") < text.index("`own`")


def test_a_missing_or_pre_catalogue_file_gives_a_note_instead_of_numbers(tmp_path):
    missing = report_tables.paper_claims_markdown(tmp_path / "paper" / "claims.csv")
    assert missing.startswith("*No `paper/claims.csv` yet")
    old = tmp_path / "old" / "claims.csv"
    old.parent.mkdir()
    pd.DataFrame({"claim": ["c"], "effect": [0.1], "verdict": ["supported"]}).to_csv(old)
    assert "predates the claims catalogue" in report_tables.paper_claims_markdown(old)
