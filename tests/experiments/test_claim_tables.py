"""Per-case claim tests combined into one row per claim, against scipy and by hand."""

import numpy as np
import pytest
from scipy import stats

from milab_widgets.evaluation.claim_tests import CLAIM_COLUMNS
from milab_widgets.experiments import claim_tables as tables


def frame(rows):
    return tables.cases_frame(rows, ["dataset"])


def test_six_or_more_cases_use_wilcoxon_over_their_effects():
    rng = np.random.default_rng(0)
    rows = [tables.paired_row("c", {"dataset": str(i)}, 0.1 * i + rng.normal(0, 0.01, 5))
            for i in range(1, 8)]
    claim = tables.summarise_claims(frame(rows)).iloc[0]
    effects = [row["effect"] for row in rows]
    assert claim.test == "wilcoxon" and claim.n == 7 and claim.cases == 7
    assert claim.p_value == pytest.approx(stats.wilcoxon(effects).pvalue)
    assert claim.verdict == "supported" and claim.supported == 7


def test_few_paired_cases_average_their_repetitions_then_paired_t():
    a, b = np.array([0.2, 0.1, 0.3, 0.25]), np.array([0.0, -0.1, 0.1, 0.05])
    rows = [tables.paired_row("c", {"dataset": "x"}, a), tables.paired_row("c", {"dataset": "y"}, b)]
    claim = tables.summarise_claims(frame(rows)).iloc[0]
    expected = stats.ttest_1samp((a + b) / 2, 0.0)
    assert claim.effect == pytest.approx(np.mean((a + b) / 2))
    assert claim.p_value == pytest.approx(expected.pvalue)
    assert claim.ci_low == pytest.approx(expected.confidence_interval().low)
    assert claim.n == 4 and "averaged over 2 cases" in claim.test


def test_timing_cases_pool_their_pairs():
    rows = [tables.ratio_row("fast", {"dataset": "x"}, [1.0, 1.1, 0.9], [4.0, 4.2, 3.9]),
            tables.ratio_row("fast", {"dataset": "y"}, [2.0, 2.2], [9.0, 8.0])]
    claim = tables.summarise_claims(frame(rows)).iloc[0]
    ratios = np.array([4.0, 4.2 / 1.1, 3.9 / 0.9, 4.5, 8.0 / 2.2])
    assert claim.effect == pytest.approx(np.exp(np.log(ratios).mean()))
    assert claim.n == 5 and claim.verdict == "supported" and "pooled over 2 cases" in claim.test


def test_properties_report_their_worst_case():
    rows = [tables.property_row("p", {"dataset": d}, margin, "deterministic: margin")
            for d, margin in (("x", 0.3), ("y", -0.2), ("z", 0.1))]
    claim = tables.summarise_claims(frame(rows)).iloc[0]
    assert claim.effect == claim.ci_low == claim.ci_high == -0.2
    assert claim.verdict == "contradicted" and (claim.supported, claim.contradicted) == (2, 1)
    assert np.isnan(claim.p_value)


def test_one_case_is_its_own_claim_and_overrides_replace_the_combination():
    row = tables.paired_row("c", {"dataset": "x"}, [0.1, 0.2, 0.15])
    claim = tables.summarise_claims(frame([row])).iloc[0]
    assert [claim[key] for key in CLAIM_COLUMNS] == [row[key] for key in CLAIM_COLUMNS]
    override = {"effect": 1.0, "ci_low": 0.5, "ci_high": 1.5, "p_value": 0.01,
                "verdict": "supported", "test": "joint fit", "n": 9}
    claim = tables.summarise_claims(frame([row]), {"c": override}).iloc[0]
    assert claim.test == "joint fit" and claim.n == 9


def test_verdict_text_names_each_claim_its_interval_and_the_counts():
    rows = [tables.paired_row("up", {"dataset": "x"}, [0.1, 0.2, 0.15]),
            tables.paired_row("down", {"dataset": "x"}, [-0.1, -0.2, -0.15])]
    claims = tables.summarise_claims(frame(rows))
    lines = tables.verdict_lines(claims)
    assert lines[0].startswith("- **up**: supported (effect 0.15, 95 % interval [")
    assert lines[1].startswith("- **down**: contradicted")
    assert tables.verdict_counts(claims) == "1 supported, 1 contradicted, 0 inconclusive"
    assert "sample" not in tables.public_cases(frame(rows)).columns
