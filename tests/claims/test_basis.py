"""A verdict is only as strong as what it measured: a paper's claim measured on a stand-in
data set, under our reading, or between methods that coincide never counts as the paper's
evidence -- not in its tallies, not in its Holm family -- and a committed run judged again
keeps its measurements."""

import numpy as np
import pandas as pd
import pytest

from milab_widgets.claims import Claim, claim_row, claims_table
from milab_widgets.claims.catalogue import BASES, standing
from milab_widgets.claims.rejudge import rejudged
from milab_widgets.exceptions import InputError
from milab_widgets.report import overview_counts

PAPER = [Claim(f"paper-{i}", f"A beats B on set {i}", "§4", "on average", "3 sets")
         for i in range(3)]
STAND_IN = Claim("stand-in", "A above 75 % on NUS-WIDE", "§4", "on average", "1 set",
                 basis="stand-in data", basis_reason="digits stand in for NUS-WIDE")
SAME = Claim("same", "A beats C", "§4", "on average", "3 sets", basis="not discriminable",
             basis_reason="C is A with other targets of the same span")


def _row(claim, p, verdict):
    result = {"effect": 0.1 if verdict != "contradicted" else -0.1, "ci_low": 0.0,
              "ci_high": 0.2, "p_value": p, "verdict": verdict, "test": "t", "n": 3}
    return claim_row(claim, result, noise="folds")


def _table(extra_p: float, extra_verdict: str):
    catalogue = (*PAPER, STAND_IN, SAME)
    rows = [_row(PAPER[0], 0.01, "supported"), _row(PAPER[1], 0.02, "supported"),
            _row(PAPER[2], 0.6, "inconclusive"), _row(STAND_IN, extra_p, extra_verdict),
            _row(SAME, extra_p, extra_verdict)]
    return claims_table(rows, catalogue)


@pytest.mark.parametrize("extra_p, extra_verdict", [(1e-9, "supported"),
                                                    (1e-9, "contradicted"),
                                                    (0.9, "inconclusive")])
def test_rows_on_another_basis_never_change_the_papers_tallies_or_holm(extra_p,
                                                                        extra_verdict):
    table = _table(extra_p, extra_verdict)
    paper = table[standing(table) == "paper"]
    # Holm over the three paper rows only: 0.01 x 3, 0.02 x 2, 0.6
    np.testing.assert_allclose(paper.p_adjusted, [0.03, 0.04, 0.6])
    assert list(paper.verdict) == ["supported", "supported", "inconclusive"]
    counts = overview_counts(table)
    assert (counts["paper's claims"], counts["supported"], counts["contradicted"],
            counts["inconclusive"]) == (3, 2, 0, 1)
    beside = table[standing(table) == "beside"]
    np.testing.assert_allclose(beside.p_adjusted, [min(1.0, 2 * extra_p)] * 2)
    assert list(beside.basis) == ["stand-in data", "not discriminable"]


def test_the_same_row_on_the_papers_basis_would_count():
    # the control: the identical measurement on the paper's basis moves the tallies
    as_paper = Claim("stand-in", STAND_IN.statement, "§4", "on average", "1 set")
    table = claims_table([*[_row(c, p, v) for c, p, v in
                            zip(PAPER, (0.01, 0.02, 0.6), ("supported",) * 2 +
                                ("inconclusive",), strict=True)],
                          _row(as_paper, 0.05, "contradicted"), _row(SAME, 0.5, "inconclusive")],
                         (*PAPER, as_paper, SAME))
    counts = overview_counts(table)
    # 0.01 x 4, 0.02 x 3 = 0.06 and 0.05 x 2 = 0.1: two verdicts weakened by the larger family
    assert (counts["paper's claims"], counts["supported"], counts["inconclusive"]) == (4, 1, 3)
    assert table.p_adjusted.iloc[0] == pytest.approx(0.04)


def test_a_basis_other_than_the_papers_needs_its_reason_and_the_papers_needs_none():
    assert set(BASES) == {"paper", "stand-in data", "our reading", "not discriminable"}
    with pytest.raises(InputError, match="basis_reason"):
        Claim("x", "s", "§1", "on average", "c", basis="our reading")
    with pytest.raises(InputError, match="basis_reason"):
        Claim("x", "s", "§1", "on average", "c", basis_reason="why")
    with pytest.raises(InputError, match="basis"):
        Claim("x", "s", "§1", "on average", "c", basis="hearsay", basis_reason="why")


def test_a_committed_run_judged_again_keeps_its_measurements_and_takes_the_new_families():
    old_catalogue = (*PAPER, Claim("stand-in", STAND_IN.statement, "§4", "on average",
                                   "1 set"))
    committed = claims_table([_row(PAPER[0], 0.01, "supported"),
                              _row(PAPER[1], 0.02, "supported"),
                              _row(PAPER[2], 0.6, "inconclusive"),
                              _row(old_catalogue[3], 0.5, "inconclusive")], old_catalogue)
    committed = committed.drop(columns=["basis", "basis_reason"])  # an older claims.csv
    added = _row(SAME, 0.3, "inconclusive")
    again = rejudged(committed, (*PAPER, STAND_IN, SAME), [added])
    assert list(again.id) == [*(c.id for c in PAPER), "stand-in", "same"]
    pd.testing.assert_series_equal(again.effect.iloc[:4], committed.effect, check_names=False)
    assert again.set_index("id").loc["stand-in", "basis"] == "stand-in data"
    # the paper's family lost a member: Holm over three, not four
    assert again.p_adjusted.iloc[0] == pytest.approx(0.03)
    assert committed.p_adjusted.iloc[0] == pytest.approx(0.04)
    with pytest.raises(InputError, match="no committed row"):
        rejudged(committed, (*PAPER, STAND_IN, SAME))
    with pytest.raises(InputError, match="no longer holds"):
        rejudged(committed, tuple(PAPER))
    # a claim the catalogue retired, saying what became of it, is dropped; no other
    retired = rejudged(committed, tuple(PAPER), retired={"stand-in": "replaced by same"})
    assert list(retired.id) == [c.id for c in PAPER]
    with pytest.raises(InputError, match="'stand-in'"):
        rejudged(committed, tuple(PAPER), retired={"other": "not this one"})
