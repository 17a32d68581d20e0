"""Exact checks (a margin, no interval) and the verdict counts that keep them apart from the
statistical verdicts, on hand-made tables."""

import numpy as np
import pandas as pd
import pytest

from milab_widgets.evaluation import claim_summary as summary
from milab_widgets.evaluation.claim_tests import CLAIM_COLUMNS
from milab_widgets.exceptions import InputError


def test_an_exact_check_has_its_margin_as_effect_and_no_interval():
    result = summary.exact_result(0.3, "margin", 4)
    assert list(result) == CLAIM_COLUMNS[1:]
    assert result["effect"] == 0.3 and result["n"] == 4
    assert result["test"] == f"{summary.EXACT_TEST}: margin"
    assert np.isnan([result["ci_low"], result["ci_high"], result["p_value"]]).all()


def test_an_exact_check_holds_at_its_threshold_and_needs_a_finite_margin():
    assert summary.exact_result(0.0, "margin")["verdict"] == "supported"
    assert summary.exact_result(-1e-15, "margin")["verdict"] == "contradicted"
    for margin in (np.nan, np.inf):
        with pytest.raises(InputError, match="finite"):
            summary.exact_result(margin, "margin")


def test_counts_keep_exact_checks_apart_from_the_statistical_verdicts():
    statistical = [{"claim": claim, "effect": effect, "ci_low": np.nan, "ci_high": np.nan,
                    "p_value": 0.01, "verdict": verdict, "test": "paired t", "n": 3}
                   for claim, effect, verdict in (("up", 0.1, "supported"),
                                                  ("down", -0.1, "contradicted"),
                                                  ("noise", 0.0, "inconclusive"))]
    exact = [{"claim": claim, **summary.exact_result(margin, "margin")}
             for claim, margin in (("holds", 0.5), ("holds too", 0.0), ("fails", -0.5))]
    claims = pd.DataFrame(statistical + exact)
    assert list(summary.is_exact(claims)) == [False] * 3 + [True] * 3
    assert summary.verdict_counts(claims) == {"supported": 1, "contradicted": 1,
                                              "inconclusive": 1, "hold": 2, "fail": 1}
    assert summary.counts_text(claims) == ("1 supported, 1 contradicted, 1 inconclusive; "
                                           "exact checks: 2 hold, 1 fails")
    assert summary.counts_text(claims.iloc[:3]) == "1 supported, 1 contradicted, 1 inconclusive"
    assert summary.verdict_counts(claims.iloc[:0]) == dict.fromkeys(
        ["supported", "contradicted", "inconclusive", "hold", "fail"], 0)


def test_a_table_without_tests_has_no_exact_rows():
    assert not summary.is_exact(pd.DataFrame({"verdict": ["supported"]})).any()
