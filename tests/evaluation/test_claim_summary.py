"""Per-case claim rows combined into one row per claim, counted and described, against
scipy, brute force and hand-made tables; exact checks counted apart."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from milab_widgets.evaluation import claim_summary as summary
from milab_widgets.evaluation.claim_tests import CLAIM_COLUMNS, across_datasets
from milab_widgets.exceptions import InputError


def frame(rows):
    return summary.cases_frame(rows, ["dataset"])


def test_six_or_more_cases_use_wilcoxon_over_their_effects():
    rng = np.random.default_rng(0)
    rows = [summary.paired_row("c", {"dataset": str(i)}, 0.1 * i + rng.normal(0, 0.01, 5))
            for i in range(1, 8)]
    claim = summary.summarise_claims(frame(rows)).iloc[0]
    effects = [row["effect"] for row in rows]
    assert claim.test == "wilcoxon" and claim.n == 7 and claim.cases == 7
    assert claim.p_value == pytest.approx(stats.wilcoxon(effects).pvalue)
    assert claim.verdict == "supported" and claim.cases_supported == 7


def test_few_paired_cases_average_their_repetitions_then_paired_t():
    a, b = np.array([0.2, 0.1, 0.3, 0.25]), np.array([0.0, -0.1, 0.1, 0.05])
    rows = [summary.paired_row("c", {"dataset": "x"}, a),
            summary.paired_row("c", {"dataset": "y"}, b)]
    claim = summary.summarise_claims(frame(rows)).iloc[0]
    expected = stats.ttest_1samp((a + b) / 2, 0.0)
    assert claim.effect == pytest.approx(np.mean((a + b) / 2))
    assert claim.p_value == pytest.approx(expected.pvalue)
    assert claim.ci_low == pytest.approx(expected.confidence_interval().low)
    assert claim.n == 4 and "averaged over 2 cases" in claim.test


def test_timing_cases_pool_their_pairs():
    rows = [summary.ratio_row("fast", {"dataset": "x"}, [1.0, 1.1, 0.9], [4.0, 4.2, 3.9]),
            summary.ratio_row("fast", {"dataset": "y"}, [2.0, 2.2], [9.0, 8.0])]
    claim = summary.summarise_claims(frame(rows)).iloc[0]
    ratios = np.array([4.0, 4.2 / 1.1, 3.9 / 0.9, 4.5, 8.0 / 2.2])
    assert claim.effect == pytest.approx(np.exp(np.log(ratios).mean()))
    assert claim.n == 5 and claim.verdict == "supported" and "pooled over 2 cases" in claim.test


def test_exact_checks_report_their_worst_case_without_an_interval():
    rows = [summary.exact_row("p", {"dataset": d}, margin, "margin")
            for d, margin in (("x", 0.3), ("y", -0.2), ("z", 0.1))]
    assert rows[0]["test"] == f"{summary.EXACT_TEST}: margin"
    claim = summary.summarise_claims(frame(rows)).iloc[0]
    assert claim.effect == -0.2 and claim.test.startswith(summary.EXACT_TEST)
    assert np.isnan(claim.ci_low) and np.isnan(claim.ci_high) and np.isnan(claim.p_value)
    assert claim.verdict == "contradicted"
    assert (claim.cases_supported, claim.cases_contradicted) == (2, 1)


def test_an_exact_check_holds_at_its_threshold_and_needs_a_finite_margin():
    assert summary.exact_row("p", {}, 0.0, "margin")["verdict"] == "supported"
    assert summary.exact_row("p", {}, -1e-15, "margin")["verdict"] == "contradicted"
    with pytest.raises(InputError, match="finite"):
        summary.exact_row("p", {}, np.nan, "margin")


def test_a_claim_may_not_mix_exact_checks_with_tests():
    rows = [summary.exact_row("p", {"dataset": "x"}, 0.1, "margin"),
            summary.paired_row("p", {"dataset": "y"}, [0.1, 0.2, 0.3])]
    with pytest.raises(InputError, match="mixes exact checks"):
        summary.summarise_claims(frame(rows))


def test_one_case_is_its_own_claim_and_overrides_replace_the_combination():
    row = summary.paired_row("c", {"dataset": "x"}, [0.1, 0.2, 0.15])
    claim = summary.summarise_claims(frame([row])).iloc[0]
    assert [claim[key] for key in CLAIM_COLUMNS] == [row[key] for key in CLAIM_COLUMNS]
    override = {"effect": 1.0, "ci_low": 0.5, "ci_high": 1.5, "p_value": 0.01,
                "verdict": "supported", "test": "joint fit", "n": 9}
    claim = summary.summarise_claims(frame([row]), overrides={"c": override}).iloc[0]
    assert claim.test == "joint fit" and claim.n == 9


def test_over_datasets_averages_each_datasets_cases_then_signed_rank():
    # a table as read back from claim_cases.csv: no sample column, every case "effect only"
    cases = pd.DataFrame({"claim": "A beats B", "dataset": ["d1", "d1", "d2", "d3"],
                          "effect": [0.1, 0.3, -0.1, 0.4], "test": "corrected t",
                          "verdict": ["supported", "inconclusive", "inconclusive",
                                      "contradicted"]})
    row = summary.summarise_claims(cases, over="dataset").iloc[0]
    expected = across_datasets([0.2, -0.1, 0.4])
    assert row.effect == pytest.approx(expected["effect"]) and row.n == 3 and row.cases == 4
    # Hodges-Lehmann by brute force: the median of the Walsh averages of (0.2, -0.1, 0.4)
    walsh = [(a + b) / 2 for i, a in enumerate([0.2, -0.1, 0.4]) for b in [0.2, -0.1, 0.4][i:]]
    assert row.effect == pytest.approx(np.median(walsh))
    assert (row.cases_supported, row.cases_contradicted, row.cases_inconclusive) == (1, 1, 2)
    unaveraged = summary.summarise_claims(cases).iloc[0]
    assert unaveraged.n == 4
    lines = summary.verdict_lines(summary.summarise_claims(cases, over="dataset"),
                                  cases="per dataset")
    assert lines[0].endswith("per dataset: 1 supported, 1 contradicted, 2 inconclusive")
    assert lines[-1].startswith("With N <= 5 datasets")  # 3 datasets: unbounded interval


def test_counts_keep_exact_checks_apart_from_the_statistical_verdicts():
    rows = [summary.paired_row("up", {"dataset": "x"}, [0.1, 0.2, 0.15]),
            summary.paired_row("down", {"dataset": "x"}, [-0.1, -0.2, -0.15]),
            summary.paired_row("noise", {"dataset": "x"}, [-0.1, 0.2, 0.05]),
            summary.exact_row("holds", {"dataset": "x"}, 0.5, "margin"),
            summary.exact_row("holds too", {"dataset": "x"}, 0.0, "margin"),
            summary.exact_row("fails", {"dataset": "x"}, -0.5, "margin")]
    claims = summary.summarise_claims(frame(rows))
    assert list(summary.is_exact(claims)) == [False] * 3 + [True] * 3
    assert summary.verdict_counts(claims) == {"supported": 1, "contradicted": 1,
                                              "inconclusive": 1, "hold": 2, "fail": 1}
    assert summary.counts_text(claims) == ("1 supported, 1 contradicted, 1 inconclusive; "
                                           "exact checks: 2 hold, 1 fails")
    assert summary.counts_text(claims.iloc[:3]) == "1 supported, 1 contradicted, 1 inconclusive"
    assert summary.verdict_counts(claims.iloc[:0]) == dict.fromkeys(
        ["supported", "contradicted", "inconclusive", "hold", "fail"], 0)


def test_verdict_lines_name_each_claim_its_interval_and_its_cases():
    rows = [summary.paired_row("up", {"dataset": "x"}, [0.1, 0.2, 0.15]),
            summary.exact_row("fails", {"dataset": "x"}, -0.5, "margin")]
    claims = summary.summarise_claims(frame(rows))
    lines = summary.verdict_lines(claims)
    assert lines[0].startswith("- up: **supported** (effect +0.15, 95 % interval [")
    assert lines[0].endswith("paired t, n = 3); cases: 1 supported, 0 contradicted, "
                             "0 inconclusive")
    assert lines[1] == (f"- fails: **contradicted**, the exact check fails (margin -0.5; "
                        f"{summary.EXACT_TEST}: margin, n = 1); cases: 0 hold, 1 fail")
    assert "sample" not in summary.public_cases(frame(rows)).columns


def test_describe_reads_a_row():
    row = {"claim": "A beats B", "effect": 0.012, "ci_low": -np.inf, "ci_high": np.inf,
           "p_value": 0.0625, "verdict": "inconclusive", "test": "wilcoxon", "n": 5}
    assert summary.describe(row, scale=100, unit=" points") == (
        "A beats B: **inconclusive** (effect +1.2 points, 95 % interval [-∞, +∞], "
        "p = 0.062; wilcoxon, n = 5)")
