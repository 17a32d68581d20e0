"""Claim tests against scipy, a worked Nadeau-Bengio example, brute force and coverage."""

import itertools

import numpy as np
import pytest
from scipy import stats

from milab_widgets.evaluation.claim_tests import (
    CLAIM_COLUMNS,
    across_datasets,
    paired_case,
    rank_gap_case,
    ratio_case,
    verdict,
    walsh_averages,
)
from milab_widgets.exceptions import InputError


def test_claim_columns_are_the_acceptance_names():
    assert CLAIM_COLUMNS[:6] == ["claim", "effect", "ci_low", "ci_high", "p_value", "verdict"]


@pytest.mark.parametrize("low, high, null, expected", [
    (0.1, 0.3, 0.0, "supported"), (-0.3, -0.1, 0.0, "contradicted"),
    (-0.1, 0.3, 0.0, "inconclusive"), (0.0, 0.3, 0.0, "inconclusive"),
    (np.nan, np.nan, 0.0, "inconclusive"), (1.2, 2.0, 1.0, "supported"),
    (0.5, 0.9, 1.0, "contradicted"), (-np.inf, np.inf, 0.0, "inconclusive"),
])
def test_verdict_reads_the_interval_only(low, high, null, expected):
    assert verdict(low, high, null) == expected


def test_paired_t_equals_scipy():
    d = np.random.default_rng(3).normal(0.4, 1.0, size=12)
    case = paired_case(d, method="t")
    ref = stats.ttest_1samp(d, 0.0)
    interval = ref.confidence_interval(0.95)
    assert case["p_value"] == pytest.approx(ref.pvalue)
    assert (case["ci_low"], case["ci_high"]) == pytest.approx((interval.low, interval.high))
    assert case["effect"] == pytest.approx(d.mean())
    assert case["n"] == 12 and case["test"] == "paired t"
    assert set(case) == set(CLAIM_COLUMNS) - {"claim"}


def test_corrected_t_matches_a_worked_example():
    # 5-fold CV: n_test / n_train = 1/4. By hand: mean 0.026, s^2 = 2.12e-3 / 4 = 5.3e-4,
    # corrected variance (1/5 + 1/4) 5.3e-4 = 2.385e-4, t = 0.026 / sqrt(2.385e-4) = 1.6835,
    # 4 degrees of freedom, t_{4, 0.975} = 2.776445 (tables).
    d = [0.02, 0.05, -0.01, 0.04, 0.03]
    case = paired_case(d, method="corrected_t", test_train_ratio=0.25)
    se = np.sqrt(2.385e-4)
    assert case["effect"] == pytest.approx(0.026)
    assert case["ci_low"] == pytest.approx(0.026 - 2.776445 * se, rel=1e-5)
    assert case["ci_high"] == pytest.approx(0.026 + 2.776445 * se, rel=1e-5)
    assert case["p_value"] == pytest.approx(2 * stats.t.sf(1.68354, 4), rel=1e-4)
    assert case["verdict"] == "inconclusive"
    # the uncorrected paired t on the same folds is narrower: sqrt(0.45 / 0.2) = 1.5 times
    plain = paired_case(d, method="t")
    width = lambda c: c["ci_high"] - c["ci_low"]  # noqa: E731
    assert width(case) == pytest.approx(1.5 * width(plain))


def test_corrected_t_needs_the_fold_ratio_and_only_it_takes_one():
    with pytest.raises(InputError, match="test_train_ratio"):
        paired_case([0.1, 0.2], method="corrected_t")
    with pytest.raises(InputError, match="only to method='corrected_t'"):
        paired_case([0.1, 0.2], method="t", test_train_ratio=0.1)
    with pytest.raises(InputError, match="method="):
        paired_case([0.1, 0.2], method="z")


def test_bootstrap_interval_is_scipys_percentile_and_its_p_inverts_it():
    d = np.random.default_rng(5).normal(0.3, 1.0, size=40)
    case = paired_case(d, method="bootstrap", random_state=1)
    ref = stats.bootstrap((d,), np.mean, method="percentile", n_resamples=9999,
                          random_state=1)
    assert case["ci_low"] == pytest.approx(ref.confidence_interval.low)
    assert case["ci_high"] == pytest.approx(ref.confidence_interval.high)
    means = ref.bootstrap_distribution
    tail = min((means <= 0).sum(), (means >= 0).sum())
    assert case["p_value"] == pytest.approx(2 * (tail + 1) / 10000)
    assert (case["p_value"] < 0.05) == (case["verdict"] != "inconclusive")


@pytest.mark.parametrize("method, ratio", [("t", None), ("corrected_t", 1 / 9),
                                           ("bootstrap", None)])
def test_clear_effect_is_supported_and_its_reverse_contradicted(method, ratio):
    d = np.random.default_rng(7).normal(1.0, 0.3, size=10)
    assert paired_case(d, method=method, test_train_ratio=ratio)["verdict"] == "supported"
    assert paired_case(-d, method=method, test_train_ratio=ratio)["verdict"] == "contradicted"


@pytest.mark.parametrize("method, ratio", [("t", None), ("corrected_t", 1 / 9)])
def test_pure_noise_is_covered_in_about_95_percent_of_draws(method, ratio):
    # Independent N(0, 1) differences: the t interval's coverage of 0 is exactly 95 %
    # (the correction only widens it); 1000 draws put the estimate within +-2 points.
    rng = np.random.default_rng(2026)
    verdicts = [paired_case(rng.normal(size=10), method=method, test_train_ratio=ratio)["verdict"]
                for _ in range(1000)]
    covered = np.mean([v == "inconclusive" for v in verdicts])
    assert 0.93 <= covered <= 0.97 if method == "t" else covered >= 0.97


def test_degenerate_samples_are_inconclusive_except_exact_agreement():
    single = paired_case([0.3])
    assert np.isnan(single["ci_low"]) and single["verdict"] == "inconclusive"
    constant = paired_case([0.1, 0.1, 0.1])
    assert constant["effect"] == pytest.approx(0.1) and np.isnan(constant["p_value"])
    assert constant["verdict"] == "inconclusive"
    zero = paired_case([0.0, 0.0, 0.0], method="bootstrap")
    assert (zero["ci_low"], zero["ci_high"], zero["p_value"]) == (0.0, 0.0, 1.0)


@pytest.mark.parametrize("bad, match", [([], "non-empty"), ([0.1, np.nan], "NaN"),
                                        ([[0.1, 0.2]], "1-D"), ([0.1, np.inf], "NaN")])
def test_bad_differences_raise_clear_errors(bad, match):
    with pytest.raises(InputError, match=match):
        paired_case(bad)
    with pytest.raises(InputError, match=match):
        across_datasets(bad)


def test_confidence_outside_0_1_is_refused():
    with pytest.raises(InputError, match="confidence"):
        paired_case([0.1, 0.2], confidence=95)


# -- timing ratios ---------------------------------------------------------------------------
def test_paired_ratio_is_the_geometric_mean_speed_up_with_a_log_t_interval():
    a = np.array([1.0, 1.2, 0.9, 1.1])
    b = np.array([2.1, 2.3, 2.0, 2.6])
    case = ratio_case(a, b)
    logs = np.log(b / a)
    ref = stats.ttest_1samp(logs, 0.0)
    interval = ref.confidence_interval()
    assert case["effect"] == pytest.approx(stats.gmean(b / a))
    assert (case["ci_low"], case["ci_high"]) == pytest.approx(
        (np.exp(interval.low), np.exp(interval.high)))
    assert case["p_value"] == pytest.approx(ref.pvalue)
    assert case["verdict"] == "supported" and ratio_case(b, a)["verdict"] == "contradicted"


def test_unpaired_ratio_uses_welch_on_log_times():
    a, b = np.array([1.0, 1.2, 0.9]), np.array([2.1, 2.3, 2.0, 2.6, 1.9])
    case = ratio_case(a, b)
    ref = stats.ttest_ind(np.log(b), np.log(a), equal_var=False)
    interval = ref.confidence_interval()
    assert case["effect"] == pytest.approx(stats.gmean(b) / stats.gmean(a))
    assert (case["ci_low"], case["ci_high"]) == pytest.approx(
        (np.exp(interval.low), np.exp(interval.high)))
    assert case["p_value"] == pytest.approx(ref.pvalue) and case["test"].startswith("Welch")


def test_timings_must_be_positive():
    with pytest.raises(InputError, match="positive"):
        ratio_case([1.0, 0.0], [1.0, 2.0])
    with pytest.raises(InputError, match="equal lengths"):
        ratio_case([1.0, 2.0], [1.0, 2.0, 3.0], paired=True)


# -- across datasets -------------------------------------------------------------------------
def test_hodges_lehmann_is_the_brute_force_median_of_walsh_averages():
    e = np.random.default_rng(11).normal(0.02, 0.05, size=9)
    brute = [(e[i] + e[j]) / 2 for i in range(9) for j in range(i, 9)]
    assert np.sort(walsh_averages(e)) == pytest.approx(np.sort(brute))
    case = across_datasets(e)
    assert case["effect"] == pytest.approx(np.median(brute))
    assert case["p_value"] == pytest.approx(stats.wilcoxon(e).pvalue)
    assert case["test"] == "wilcoxon" and case["n"] == 9


def _brute_force_signed_rank_interval(e, alpha):
    """The set of shifts m that the exact two-sided signed-rank test at level alpha does not
    reject, by enumerating every sign pattern for the null distribution."""
    n = len(e)
    sums = [sum(r for r, s in zip(range(1, n + 1), signs, strict=True) if s)
            for signs in itertools.product([0, 1], repeat=n)]
    cdf = lambda t: np.mean(np.array(sums) <= t)  # noqa: E731
    k = max([c for c in range(1, n * (n + 1) // 2 + 1) if cdf(c - 1) <= alpha / 2], default=0)
    walsh = np.sort([(e[i] + e[j]) / 2 for i in range(n) for j in range(i, n)])
    return walsh[k - 1], walsh[len(walsh) - k]


@pytest.mark.parametrize("n, seed", [(6, 0), (7, 1), (10, 2), (12, 3)])
def test_interval_is_the_brute_force_inversion_of_the_signed_rank_test(n, seed):
    e = np.random.default_rng(seed).normal(0.01, 0.03, size=n)
    case = across_datasets(e)
    low, high = _brute_force_signed_rank_interval(e, 0.05)
    assert (case["ci_low"], case["ci_high"]) == pytest.approx((low, high))


@pytest.mark.parametrize("seed", range(8))
def test_interval_and_exact_wilcoxon_p_value_agree(seed):
    e = np.random.default_rng(seed).normal(0.02, 0.03, size=8)
    case = across_datasets(e)
    exact = stats.wilcoxon(e, method="exact").pvalue
    assert (exact < 0.05) == (case["verdict"] != "inconclusive")


def test_five_datasets_cannot_decide_at_95_percent():
    case = across_datasets([0.1, 0.2, 0.3, 0.4, 0.5])
    assert (case["ci_low"], case["ci_high"]) == (-np.inf, np.inf)
    assert case["verdict"] == "inconclusive" and case["p_value"] == pytest.approx(0.0625)


def test_across_datasets_supports_a_consistent_gain_and_contradicts_a_loss():
    gains = [0.03, 0.05, 0.02, 0.04, 0.06, 0.01, 0.05]
    assert across_datasets(gains)["verdict"] == "supported"
    assert across_datasets(-np.array(gains))["verdict"] == "contradicted"


# -- Nemenyi rank gaps -----------------------------------------------------------------------
def test_rank_gap_interval_is_plus_minus_the_nemenyi_cd_and_agrees_with_its_p():
    from milab_widgets.evaluation.ranking_stats import nemenyi_cd

    cd = nemenyi_cd(6, 7)
    for gap in (cd - 0.01, cd + 0.01, -cd - 0.01, 1.0):
        case = rank_gap_case(gap, 6, 7)
        assert (case["ci_low"], case["ci_high"]) == pytest.approx((gap - cd, gap + cd))
        assert (case["p_value"] < 0.05) == (abs(gap) > cd)
    assert rank_gap_case(cd + 0.01, 6, 7)["verdict"] == "supported"
    assert rank_gap_case(-cd - 0.01, 6, 7)["verdict"] == "contradicted"
    # at the CD itself the p-value is alpha: the studentized range's own quantile
    assert rank_gap_case(cd, 6, 7)["p_value"] == pytest.approx(0.05, rel=1e-6)


def test_timing_rows_name_their_null_of_one():
    from milab_widgets.evaluation.claim_tests import null_of

    assert null_of(ratio_case([1.0, 1.1], [2.0, 2.1])["test"]) == 1.0
    assert null_of(ratio_case([1.0, 1.1], [2.0, 2.1, 2.2])["test"]) == 1.0
    assert null_of(paired_case([0.1, 0.2])["test"]) == 0.0
