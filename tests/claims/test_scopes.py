"""The scope tests against scipy and hand-worked cases, and their error rates on noise."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from milab_widgets.claims import best_rank, equivalent, every_case, faster, holm, on_average
from milab_widgets.evaluation.claim_tests import paired_case
from milab_widgets.exceptions import InputError


# -- Holm ------------------------------------------------------------------------------------
def test_holm_matches_a_hand_worked_family():
    # sorted: 0.005 x 4 = 0.02, 0.01 x 3 = 0.03, 0.03 x 2 = 0.06, 0.04 x 1 = 0.04 -> 0.06
    adjusted = holm([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(adjusted, [0.03, 0.06, 0.06, 0.02])


def test_holm_leaves_missing_p_values_out_of_the_count_and_caps_at_one():
    adjusted = holm([0.02, np.nan, 0.6])
    assert np.isnan(adjusted[1])
    np.testing.assert_allclose(adjusted[[0, 2]], [0.04, 0.6])
    assert holm([0.7, 0.8])[0] == 1.0
    with pytest.raises(InputError, match=r"\[0, 1\]"):
        holm([1.5])


def test_holm_never_rejects_more_than_unadjusted_and_is_monotone():
    rng = np.random.default_rng(0)
    p = rng.uniform(size=20)
    adjusted = holm(p)
    assert np.all(adjusted >= p)
    order = np.argsort(p)
    assert np.all(np.diff(adjusted[order]) >= 0)


# -- every case (intersection-union) ---------------------------------------------------------
def _cases(samples):
    return pd.DataFrame([paired_case(d) for d in samples])


def test_every_case_is_supported_only_when_each_case_is():
    rng = np.random.default_rng(1)
    strong = [rng.normal(1.0, 0.1, 10) for _ in range(4)]
    result = every_case(_cases(strong))
    assert result["verdict"] == "supported"
    cases = _cases(strong)
    assert result["p_value"] == pytest.approx(cases.p_value.max())
    assert result["effect"] == pytest.approx(cases.effect.min())  # the worst case is shown

    one_unclear = [*strong[:3], rng.normal(0.05, 1.0, 10)]
    assert every_case(_cases(one_unclear))["verdict"] == "inconclusive"


def test_every_case_is_contradicted_by_one_clearly_failing_case_after_holm():
    rng = np.random.default_rng(2)
    samples = [rng.normal(1.0, 0.1, 10) for _ in range(5)] + [rng.normal(-1.0, 0.1, 10)]
    result = every_case(_cases(samples))
    assert result["verdict"] == "contradicted"
    assert result["effect"] < 0


def test_every_case_holm_keeps_a_marginal_failure_inconclusive():
    # one case against the claim at raw p = 0.03, the smallest of 6: Holm multiplies it by 6
    cases = pd.DataFrame({"effect": [0.1] * 5 + [-0.2], "ci_low": [-0.2] * 5 + [-0.38],
                          "ci_high": [0.4] * 5 + [-0.02], "p_value": [0.5] * 5 + [0.03],
                          "verdict": ["inconclusive"] * 5 + ["contradicted"]})
    result = every_case(cases)
    assert (result["verdict"], result["p_value"]) == ("inconclusive", pytest.approx(0.18))
    # the largest of six p-values keeps its own (Holm's last factor is 1)
    cases.loc[:4, "p_value"] = 1e-6
    assert every_case(cases)["verdict"] == "contradicted"


# -- on average ------------------------------------------------------------------------------
def test_on_average_is_wilcoxon_over_data_sets():
    effects = np.array([0.02, 0.03, -0.01, 0.04, 0.05, 0.01, 0.02, 0.03])
    result = on_average(effects)
    assert result["p_value"] == pytest.approx(stats.wilcoxon(effects).pvalue)
    assert result["verdict"] == "supported"


# -- best rank -------------------------------------------------------------------------------
def _scores(order, n=20, seed=0):
    """Data sets x methods whose accuracies follow ``order`` (best first) plus noise."""
    rng = np.random.default_rng(seed)
    base = np.linspace(0.9, 0.6, len(order))
    return pd.DataFrame(base + rng.normal(0, 0.01, (n, len(order))), columns=order)


def test_best_rank_supported_when_the_claimant_wins_everywhere():
    # gap 1 to the runner-up; Nemenyi's CD for k = 4 is 2.569 sqrt(20 / (6 N)): 1.05 at
    # N = 20 (not enough), 0.74 at N = 40
    assert best_rank(_scores(["A", "B", "C", "D"], n=20), "A")["verdict"] == "inconclusive"
    scores = _scores(["A", "B", "C", "D"], n=40)
    result = best_rank(scores, "A")
    assert result["verdict"] == "supported"
    assert result["effect"] == pytest.approx(1.0)  # B's average rank 2 minus A's 1
    friedman = stats.friedmanchisquare(*scores.to_numpy().T)
    assert result["p_value"] >= friedman.pvalue


def test_best_rank_contradicted_when_a_rival_clearly_outranks():
    result = best_rank(_scores(["B", "C", "D", "A"], n=10), "A")
    assert result["verdict"] == "contradicted"
    assert result["effect"] < 0


def test_best_rank_inconclusive_for_exchangeable_methods():
    rng = np.random.default_rng(3)
    scores = pd.DataFrame(rng.normal(0.8, 0.01, (7, 5)), columns=list("ABCDE"))
    assert best_rank(scores, "A")["verdict"] == "inconclusive"
    with pytest.raises(InputError, match="not one of the methods"):
        best_rank(scores, "Z")


# -- equivalence -----------------------------------------------------------------------------
def test_equivalent_matches_two_one_sided_t_tests():
    d = np.array([0.004, -0.002, 0.001, 0.003, -0.001, 0.002, 0.000, 0.001])
    margin = 0.01
    result = equivalent(d, margin)
    se = d.std(ddof=1) / np.sqrt(d.size)
    p_lower = stats.ttest_1samp(d, -margin, alternative="greater").pvalue
    p_upper = stats.ttest_1samp(d, margin, alternative="less").pvalue
    assert result["p_value"] == pytest.approx(max(p_lower, p_upper))
    assert result["ci_high"] - result["ci_low"] == pytest.approx(
        2 * stats.t.ppf(0.975, d.size - 1) * se)
    assert result["verdict"] == "supported"


def test_equivalent_on_re_splits_widens_by_the_corrected_t_factor():
    d = np.array([0.004, -0.002, 0.006, 0.001, -0.003, 0.005])
    plain, corrected = equivalent(d, 0.02), equivalent(d, 0.02, test_train_ratio=0.5)
    factor = np.sqrt(1 + len(d) * 0.5)  # sqrt(1 + n n_test / n_train)
    assert corrected["effect"] == plain["effect"]
    assert corrected["ci_high"] - corrected["ci_low"] == pytest.approx(
        factor * (plain["ci_high"] - plain["ci_low"]))
    se = np.sqrt((1 / len(d) + 0.5) * d.var(ddof=1))
    lower = stats.t.sf((d.mean() + 0.02) / se, len(d) - 1)
    upper = stats.t.cdf((d.mean() - 0.02) / se, len(d) - 1)
    assert corrected["p_value"] == pytest.approx(max(lower, upper))
    with pytest.raises(InputError, match="n_test / n_train"):
        equivalent(d, 0.02, test_train_ratio=0.0)


def test_equivalent_contradicted_when_the_interval_lies_beyond_the_margin():
    d = np.array([0.05, 0.06, 0.055, 0.052, 0.058])
    beyond = equivalent(d, 0.01)
    assert beyond["verdict"] == "contradicted"
    # its p is the one-sided test that the mean exceeds the margin (not TOST's, near 1),
    # so that Holm's correction can confirm the contradiction
    assert beyond["p_value"] == pytest.approx(
        stats.ttest_1samp(d, 0.01, alternative="greater").pvalue)
    assert beyond["p_value"] < 0.025
    assert equivalent(-d, 0.01)["p_value"] == pytest.approx(beyond["p_value"])
    assert equivalent(np.array([0.0, 0.02, -0.02, 0.01]), 0.01)["verdict"] == "inconclusive"
    with pytest.raises(InputError, match="margin"):
        equivalent(d, 0.0)


# -- faster ----------------------------------------------------------------------------------
def test_faster_tests_one_geometric_mean_ratio_per_data_set_never_pooled_repeats():
    a = {"x": [1.0, 1.1, 0.9], "y": [2.0, 2.1, 1.9], "z": [0.5, 0.52, 0.49]}
    b = {"x": [3.0, 3.1, 2.8], "y": [5.0, 5.5, 5.2], "z": [2.0, 2.2, 1.9]}
    result = faster(a, b)
    per_dataset = [np.mean(np.log(b[k]) - np.log(a[k])) for k in a]
    assert result["n"] == 3  # the data sets, not the 9 timings
    assert result["effect"] == pytest.approx(np.exp(np.mean(per_dataset)))
    expected = stats.ttest_1samp(per_dataset, 0.0)
    assert result["p_value"] == pytest.approx(expected.pvalue)
    assert result["ci_low"] == pytest.approx(np.exp(expected.confidence_interval().low))
    assert result["null"] == 1.0


def test_faster_refuses_unpaired_or_non_positive_timings():
    with pytest.raises(InputError, match="same, non-empty set"):
        faster({"x": [1.0]}, {"y": [1.0]})
    with pytest.raises(InputError, match="positive and paired"):
        faster({"x": [1.0, 0.0]}, {"x": [1.0, 2.0]})


# -- error rates on noise (no true effect) ---------------------------------------------------
def test_noise_only_claims_are_inconclusive_at_about_the_nominal_rate():
    rng = np.random.default_rng(4)
    trials = 400
    average = [on_average(rng.normal(0, 1, 8))["verdict"] for _ in range(trials)]
    every = [every_case(_cases(rng.normal(0, 1, (4, 10))))["verdict"] for _ in range(trials)]
    timing = [faster({i: rng.lognormal(0, 0.1, 3) for i in range(5)},
                     {i: rng.lognormal(0, 0.1, 3) for i in range(5)})["verdict"]
              for _ in range(trials)]
    for name, verdicts in {"on average": average, "every case": every,
                           "faster": timing}.items():
        wrong = np.mean(np.array(verdicts) != "inconclusive")
        # the nominal rate is 5 % (two-sided); 400 trials: 5 % + 3 standard errors ~ 8.3 %
        assert wrong <= 0.083, (name, wrong)
    assert np.mean(np.array(every) == "supported") == 0  # all four would have to hold
