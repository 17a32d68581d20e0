"""A paper's claims table: one row per catalogue claim, reproduced vs verdict, Holm."""

import numpy as np
import pandas as pd
import pytest

from milab_widgets.claims import (
    CATALOGUE_COLUMNS,
    NOT_TESTED,
    Claim,
    claim_row,
    claims_table,
    every_case,
    untested,
)
from milab_widgets.evaluation.claim_summary import CLAIM_TABLE_COLUMNS
from milab_widgets.exceptions import InputError

EVERY = Claim("best-everywhere", "A beats B on every data set", "§4, Table 3", "every case",
              "3 data sets")
AVERAGE = Claim("better-on-average", "A beats B on average", "§5", "on average", "3 data sets")
CHECK = Claim("our-check", "A's objective never rises", "—", "on average", "3 runs",
              origin="project")


def _result(effect, low, high, p, verdict="inconclusive"):
    return {"effect": effect, "ci_low": low, "ci_high": high, "p_value": p,
            "verdict": verdict, "test": "t", "n": 3}


def _cases(effects, verdicts):
    return pd.DataFrame({"effect": effects, "verdict": verdicts})


def test_a_claim_needs_a_known_scope_origin_and_margin():
    with pytest.raises(InputError, match="scope"):
        Claim("x", "s", "§1", "mostly", "c")
    with pytest.raises(InputError, match="origin"):
        Claim("x", "s", "§1", "on average", "c", origin="folklore")
    with pytest.raises(InputError, match="margin"):
        Claim("x", "s", "§1", "equivalent", "c")


def test_reproduced_is_read_from_point_estimates_at_the_scope():
    partly = claim_row(EVERY, _result(-0.01, -0.05, 0.03, 0.5), noise="folds",
                       cases=_cases([0.02, 0.01, -0.01], ["inconclusive"] * 3))
    assert (partly["reproduced"], partly["reproduced_cases"]) == ("partly", "2 of 3")
    yes = claim_row(EVERY, _result(0.01, -0.01, 0.03, 0.3), noise="folds",
                    cases=_cases([0.02, 0.01, 0.01], ["inconclusive"] * 3))
    assert yes["reproduced"] == "yes" and yes["verdict"] == "inconclusive"
    average_no = claim_row(AVERAGE, _result(-0.02, -0.04, 0.0, 0.1), noise="folds",
                           cases=_cases([0.02, -0.03, -0.05], ["inconclusive"] * 3))
    assert average_no["reproduced"] == "no"
    assert average_no["reproduced_cases"] == "1 of 3"
    rank = Claim("rank", "A ranks best", "Fig. 5", "best rank", "4 rivals")
    second = claim_row(rank, _result(-0.5, -2, 1, 0.9), noise="data sets",
                       cases=_cases([1.0, 0.5, 2.0, -0.5], ["inconclusive"] * 4))
    assert second["reproduced"] == "no"  # second of five is not "best"
    same = Claim("same", "A as accurate as B", "§4", "equivalent", "runs", margin=0.01)
    assert claim_row(same, _result(0.004, -0.002, 0.01, 0.02), noise="runs")["reproduced"] \
        == "yes"


def test_the_table_has_one_row_per_claim_in_catalogue_order_with_its_columns():
    rows = [claim_row(AVERAGE, _result(0.02, 0.01, 0.03, 0.01, "supported"), noise="f"),
            claim_row(EVERY, _result(0.01, 0.005, 0.02, 0.02, "supported"), noise="f")]
    table = claims_table(rows, (EVERY, AVERAGE))
    assert list(table.columns) == CATALOGUE_COLUMNS
    assert list(table.columns[:len(CLAIM_TABLE_COLUMNS)]) == CLAIM_TABLE_COLUMNS
    assert list(table.id) == ["best-everywhere", "better-on-average"]
    with pytest.raises(InputError, match="two rows"):
        claims_table(rows + rows[:1], (EVERY, AVERAGE))
    with pytest.raises(InputError, match="missing"):
        claims_table(rows[:1], (EVERY, AVERAGE))


def test_holm_runs_within_each_family_and_weakens_verdicts_it_does_not_confirm():
    rows = [claim_row(EVERY, _result(0.01, 0.001, 0.02, 0.03, "supported"), noise="f"),
            claim_row(AVERAGE, _result(0.02, 0.01, 0.03, 0.001, "supported"), noise="f"),
            claim_row(CHECK, _result(0.02, 0.001, 0.03, 0.04, "supported"), noise="f")]
    table = claims_table(rows, (EVERY, AVERAGE, CHECK)).set_index("id")
    # the paper's family: 0.001 x 2 = 0.002, 0.03 x 1 = 0.03; the project's alone: 0.04
    np.testing.assert_allclose(table.p_adjusted, [0.03, 0.002, 0.04])
    assert list(table.verdict) == ["supported"] * 3
    rows[0] = claim_row(EVERY, _result(0.01, 0.001, 0.02, 0.04, "supported"), noise="f")
    rows[1] = claim_row(AVERAGE, _result(0.02, 0.01, 0.03, 0.03, "supported"), noise="f")
    weakened = claims_table(rows, (EVERY, AVERAGE, CHECK)).set_index("id")
    assert weakened.loc["best-everywhere", "verdict"] == "inconclusive"  # 0.04 x 1 after 0.06
    assert weakened.loc["best-everywhere", "verdict_unadjusted"] == "supported"


def test_untested_claims_stay_in_the_table_apart_from_the_verdicts():
    rows = [untested(EVERY, "dataset pascal07 is missing: milab fetch pascal07"),
            claim_row(AVERAGE, _result(0.02, 0.01, 0.03, 0.01, "supported"), noise="f")]
    table = claims_table(rows, (EVERY, AVERAGE)).set_index("id")
    assert table.loc["best-everywhere", "reproduced"] == NOT_TESTED
    assert np.isnan(table.loc["best-everywhere", "p_adjusted"])
    assert table.loc["better-on-average", "p_adjusted"] == pytest.approx(0.01)  # m = 1


def test_an_every_case_row_carries_its_cases_counts():
    cases = pd.DataFrame({"effect": [1.0, 0.8], "ci_low": [0.5, 0.3], "ci_high": [1.5, 1.3],
                          "p_value": [0.001, 0.01], "verdict": ["supported", "supported"]})
    row = claim_row(EVERY, every_case(cases), noise="folds", cases=cases)
    assert (row["cases"], row["cases_supported"], row["verdict"]) == (2, 2, "supported")
