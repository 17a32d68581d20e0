"""CDVSE's catalogue: complete, the re-splits tested by the corrected resampled t, each
claim at its scope on hand-made runs, and one row per claim on a quick real run."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from milab_widgets.claims import CATALOGUE_COLUMNS, SCOPES, on_average
from milab_widgets.claims import cdvse as catalogue
from milab_widgets.experiments import cdvse

DATASETS = ("cancer", "sonar", "heart", "liver", "pima", "german", "housing")
RATIOS = dict.fromkeys(DATASETS, 1.2)
#: held-out normals / n_train: the ratio of the members kept, a training-only quantity
MEMBER_RATIOS = dict.fromkeys(DATASETS, 0.42)


def hand_runs(gap, parameters="marginals", repetitions=20, seed=0, kept=10):
    """Runs whose CDVSE test g-mean exceeds every rival's by ``gap(dataset, rival, rng)``
    per repetition; CDVSE keeps ``kept`` of Bagging's 50 members."""
    rng = np.random.default_rng(seed)
    rows = []
    for dataset in DATASETS:
        for repetition in range(repetitions):
            base = rng.uniform(0.5, 0.8)
            for method in cdvse.METHODS:
                value = base if method == "cdvse" else base - gap(dataset, method, rng)
                rows.append({"dataset": dataset, "repetition": repetition, "method": method,
                             "test": value, "parameters": parameters,
                             "kept": {"cdvse": kept + repetition % 3, "bagging": 50,
                                      "adaboost": 50}.get(method, 1)})
    return pd.DataFrame(rows)


def hand_synthetic(gain=0.03, repetitions=5):
    return pd.DataFrame([{"method": m, "kept": 4 + r % 2, "dataset": d, "repetition": r,
                          "g_mean": 0.7 + (gain + 0.002 * np.sin(r) if m == "cdvse" else 0)}
                         for d in ("sine_noise", "square_noise") for r in range(repetitions)
                         for m in ("svdd", "cdvse")])


def hand_timings(speedup=2.0, datasets=DATASETS):
    rng = np.random.default_rng(5)
    return pd.DataFrame([{"dataset": d, "repetition": r, "call": c, "method": m,
                          "seconds": 0.01 * (speedup if m == "bagging" else 1.0)
                          * rng.lognormal(0, 0.05)}
                         for d in datasets for r in range(2) for c in range(3)
                         for m in ("bagging", "cdvse")])


ARTIFICIAL_SETS = ("sine_noise", "square_noise")


def hand_compactness(log_gap, repetitions=6, points=1000, seed=1):
    """Bagging accepts a share of the reference drawn per repetition, CDVSE that share
    times exp(-log_gap(dataset, "bagging", rng)); on the 7 UCI and 2 artificial sets."""
    rng = np.random.default_rng(seed)
    rows = []
    for dataset in (*DATASETS, *ARTIFICIAL_SETS):
        for repetition in range(repetitions):
            bagging = rng.uniform(0.3, 0.5)
            cdvse_share = bagging * np.exp(-log_gap(dataset, "bagging", rng))
            shares = {"bagging": bagging, "cdvse": cdvse_share}
            rows += [{"dataset": dataset, "repetition": repetition, "method": method,
                      "reference": "box grid" if dataset in ARTIFICIAL_SETS else "marginals",
                      "points": points, "accepted": share, "normals_accepted": 0.8}
                     for method, share in shares.items()]
    return pd.DataFrame(rows)


def hand_diversity(gain, repetitions=6, seed=2):
    """Disagreement of the ablation's kept members 0 (one member); CDVSE's ``gain`` plus
    noise."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame([{"dataset": d, "repetition": r, "ensemble": e, "lam": lam,
                          "kept": 20 if lam else 1, "distance_variance": 0.001,
                          "disagreement": gain + 0.005 * rng.normal() if lam else 0.0}
                         for d in DATASETS for r in range(repetitions)
                         for e, lam in (("cdvse", 1.0), ("ablated", 0.0))])


def hand_sensitivity(ranges, repetitions=5, seed=3):
    """Test g-means along each axis whose range per repetition is ``ranges[parameter]``
    plus noise: the grid's values climb linearly from 0.6."""
    rng = np.random.default_rng(seed)
    rows = []
    for dataset in DATASETS:
        for repetition in range(repetitions):
            for parameter, span in ranges.items():
                top = span + 0.003 * rng.normal()
                rows += [{"dataset": dataset, "repetition": repetition, "parameter": parameter,
                          "value": value, "selected": k == 0, "test": 0.6 + top * k / 3,
                          "kept": 10} for k, value in enumerate((0.01, 0.1, 1.0, 5.0))]
    return pd.DataFrame(rows)


def table(runs, synthetic=None, timings=None, **measured):
    cases = catalogue.claim_cases(runs, hand_synthetic() if synthetic is None else synthetic,
                                  RATIOS, member_ratios=MEMBER_RATIOS,
                                  criterion="marginals", paper_parameters="paper",
                                  synthetic_members=20, **measured)
    return catalogue.claims(cases, hand_timings() if timings is None else timings)


def noisy(mean, spread=0.01):
    return lambda dataset, rival, rng: mean + spread * rng.normal()


# -- the catalogue ---------------------------------------------------------------------------
def test_the_catalogue_lists_every_claim_the_issue_names_at_its_scope():
    claims = {claim.id: claim for claim in catalogue.CATALOGUE}
    assert len(claims) == len(catalogue.CATALOGUE)
    assert claims["best-on-every-set"].scope == "every case"  # the conclusions' "均"
    assert {claims[f"better-than-{r}"].scope for r in ("svdd", "bagging", "adaboost")} == \
        {"on average"}
    assert claims["fewer-members"].source.startswith("§4.2, Table 2")
    assert claims["faster-testing"].scope == "faster"
    assert claims["not-below-full-ensemble"].margin == -catalogue.NON_INFERIORITY_MARGIN
    assert claims["replay-best-on-every-set"].origin == "project"
    assert claims["parameters-matter"].scope == "above threshold"
    assert claims["parameters-matter"].margin == catalogue.STRONG_MARGIN
    assert {claims[c].scope for c in ("compact-boundary", "diverse-members")} == {"on average"}
    for claim in catalogue.CATALOGUE:
        assert claim.source and claim.statement and claim.cases and claim.scope in SCOPES


# -- the design's test -----------------------------------------------------------------------
def test_re_splits_get_the_corrected_t_which_widens_the_interval():
    # n = 20 re-splits with n_test / n_train = 1.2: the interval is sqrt(1 + 20 x 1.2) = 5
    # times the plain paired t's
    runs = hand_runs(noisy(0.02))
    cases = catalogue.resplit_cases(runs[runs.dataset == "cancer"], RATIOS, "best-on-every-set")
    scores = runs[runs.dataset == "cancer"].pivot(index="repetition", columns="method",
                                                  values="test")
    for case in cases.itertuples():
        rival = {"SVDD": "svdd", "Bagging": "bagging", "AdaBoost": "adaboost"}[case.rival]
        plain = stats.ttest_1samp(scores.cdvse - scores[rival], 0.0).confidence_interval()
        assert (case.ci_high - case.ci_low) / (plain.high - plain.low) == pytest.approx(5.0)
        assert case.test.startswith("corrected resampled t")


def test_the_artificial_sets_are_fresh_draws_with_the_plain_paired_t():
    cases = catalogue.artificial_cases(hand_synthetic())
    scores = hand_synthetic().query("dataset == 'sine_noise'").pivot(
        index="repetition", columns="method", values="g_mean")
    plain = stats.ttest_1samp(scores.cdvse - scores.svdd, 0.0)
    assert cases.iloc[0].p_value == pytest.approx(plain.pvalue)
    assert set(cases.test) == {"paired t"}


# -- rows at their scopes --------------------------------------------------------------------
def test_every_case_claim_fails_on_one_data_set_and_is_partly_reproduced():
    def gap(dataset, rival, rng):  # AdaBoost beats CDVSE by 5 points on sonar only
        return (-0.05 if (dataset, rival) == ("sonar", "adaboost") else 0.05) + \
            0.005 * rng.normal()

    rows = table(hand_runs(gap)).set_index("id")
    every = rows.loc["best-on-every-set"]
    assert (every.reproduced, every.reproduced_cases) == ("partly", "20 of 21")
    assert every.verdict_unadjusted == "contradicted" and every.effect < 0
    # the same data read as averages: CDVSE ahead of AdaBoost on 6 of 7 sets
    average = rows.loc["better-than-adaboost"]
    effects = 0.05 * np.r_[1, -1, 1, 1, 1, 1, 1]
    assert average.reproduced == "yes" and average.reproduced_cases == "6 of 7"
    assert average.effect == pytest.approx(on_average(effects)["effect"], abs=0.003)


def test_non_inferiority_holds_within_the_margin_and_fails_beyond_it():
    # CDVSE 0.3 points below Bagging: not lower by more than 1 point
    within = table(hand_runs(noisy(-0.003, 0.0005))).set_index("id")
    row = within.loc["not-below-full-ensemble"]
    assert row.null == -0.01 and (row.reproduced, row.verdict_unadjusted) == ("yes", "supported")
    assert within.loc["better-than-bagging", "reproduced"] == "no"
    # 3 points below Bagging: beyond the margin on every set
    beyond = table(hand_runs(noisy(-0.03, 0.0005))).set_index("id")
    assert beyond.loc["not-below-full-ensemble", "verdict_unadjusted"] == "contradicted"


def test_members_dropped_and_prediction_speed_up():
    rows = table(hand_runs(noisy(0.01)), timings=hand_timings(speedup=2.0)).set_index("id")
    members = rows.loc["fewer-members"]
    assert members.reproduced_cases == "9 of 9"  # 7 UCI sets and 2 artificial ones
    assert members.effect == pytest.approx(1 - 4.4 / 20)  # artificial: 4, 5, 4, 5, 4 of 20
    speed = rows.loc["faster-testing"]
    assert speed.null == 1.0 and speed.n == len(DATASETS)  # one ratio per data set
    assert speed.effect == pytest.approx(2.0, rel=0.05) and speed.verdict == "supported"


def test_the_training_only_ratio_is_held_out_normals_over_the_training_set():
    # 10 normals and 4 outliers: training = 7 normals + max(1, round(0.02)) = 1 outlier
    y = np.r_[np.ones(10), -np.ones(4)]
    settings = cdvse.Settings()
    assert cdvse.training_only_ratio(y, settings) == pytest.approx(3 / 8)
    assert cdvse.test_train_ratio(y, settings) == pytest.approx(6 / 8)  # 3 normals + 3 outliers
    # Cleveland_heart's sizes (83 normals, 214 outliers): the test set is mostly outliers
    y = np.r_[np.ones(83), -np.ones(214)]
    assert cdvse.training_only_ratio(y, settings) == pytest.approx(25 / 59)
    assert cdvse.test_train_ratio(y, settings) == pytest.approx(238 / 59)


def test_members_kept_use_the_training_only_ratio_not_the_test_sets():
    runs = hand_runs(noisy(0.01))
    ratios = dict.fromkeys(DATASETS, 4.0)  # a test set full of outliers
    cases = catalogue.member_cases(runs, hand_synthetic().iloc[:0], MEMBER_RATIOS, 20)
    case = cases.set_index("dataset").loc["cancer"]
    kept = runs[runs.dataset == "cancer"].pivot(index="repetition", columns="method",
                                                values="kept")
    dropped = 1 - kept.cdvse / kept.bagging
    # by hand: mean +- t_{J-1} sqrt((1/J + 0.42) s^2), J = 20
    half = stats.t.ppf(0.975, 19) * np.sqrt((1 / 20 + 0.42) * dropped.var(ddof=1))
    assert (case.ci_low, case.ci_high) == (pytest.approx(dropped.mean() - half),
                                           pytest.approx(dropped.mean() + half))
    # the test set's ratio would give a wider interval: the ratio passed is the one used
    wide = catalogue.member_cases(runs, hand_synthetic().iloc[:0], ratios, 20)
    assert (wide.ci_high - wide.ci_low).min() > (cases.ci_high - cases.ci_low).max()
    rows = catalogue.claims(catalogue.claim_cases(
        runs, hand_synthetic(), ratios, member_ratios=MEMBER_RATIOS, criterion="marginals",
        paper_parameters="paper", synthetic_members=20), hand_timings()).set_index("id")
    assert "held-out normals" in rows.loc["fewer-members", "noise"]
    assert "held-out normals" not in rows.loc["best-on-every-set", "noise"]


def test_compactness_against_bagging_is_our_reading_beside_the_papers_evidence():
    claim = catalogue.CLAIMS["compact-boundary"]
    assert claim.basis == "our reading" and "mean squared error" in claim.basis_reason
    assert claim.holm_family == "beside"
    beside = {c.id: c.basis for c in catalogue.CATALOGUE if c.basis != "paper"}
    assert beside == {"compact-boundary": "our reading",
                      "artificial-better-than-svdd-band": "our reading",
                      "artificial-better-than-svdd-width": "our reading"}
    rows = table(hand_runs(noisy(0.01)), compactness=hand_compactness(noisy(0.05, 0.02)))
    rows = rows.set_index("id")
    # the paper's family is the paper-basis rows only: compactness's tiny p moves none of them
    paper = rows[(rows.origin == "paper") & (rows.basis == "paper")]
    statistical = paper[paper.p_value.notna()]
    from milab_widgets.claims.scopes import holm
    assert np.allclose(statistical.p_adjusted, holm(statistical.p_value.to_numpy()))
    # the beside family: the two rows on another basis, Holm between them alone
    others = rows.loc[list(beside)]
    tested = others[others.p_value.notna()]
    assert np.allclose(tested.p_adjusted, holm(tested.p_value.to_numpy()))


def test_claims_without_data_keep_their_row():
    empty = hand_runs(noisy(0.01)).iloc[:0]
    rows = table(empty, synthetic=hand_synthetic().iloc[:0],
                 timings=hand_timings().iloc[:0],
                 compactness=hand_compactness(noisy(0)).iloc[:0]).set_index("id")
    assert list(rows.index) == [claim.id for claim in catalogue.CATALOGUE]
    assert (rows.reproduced == "not tested").all()
    assert rows.loc["compact-boundary", "noise"] == "no UCI data set was run"


# -- the mechanism claims --------------------------------------------------------------------
def test_compactness_cases_are_log_ratios_with_the_test_of_their_design():
    compactness = hand_compactness(noisy(0.05, 0.02))
    cases = catalogue.compactness_cases(compactness, RATIOS, "marginals").set_index("dataset")
    for dataset in ("cancer", "sine_noise"):
        shares = compactness[compactness.dataset == dataset].pivot(
            index="repetition", columns="method", values="accepted")
        logs = np.log((1000 * shares.bagging + 0.5) / (1000 * shares.cdvse + 0.5))
        case = cases.loc[dataset]
        assert case.effect == pytest.approx(logs.mean())
        plain = stats.ttest_1samp(logs, 0.0)
        if dataset == "cancer":  # re-splits: corrected t, sqrt(1 + 6 x 1.2) times wider
            width = np.diff(plain.confidence_interval())[0] * np.sqrt(1 + 6 * 1.2)
            assert case.ci_high - case.ci_low == pytest.approx(width)
            assert case.parameters == "marginals"
        else:  # fresh draws of an artificial set: the plain paired t
            assert case.p_value == pytest.approx(plain.pvalue)
            assert case.parameters == "§4.1"
    assert (cases.rival == "Bagging").all() and (cases.null == 0).all()


def test_a_smaller_accepted_region_is_a_more_compact_boundary_on_average():
    smaller = table(hand_runs(noisy(0.01)), compactness=hand_compactness(noisy(0.05, 0.01))
                    ).set_index("id").loc["compact-boundary"]
    assert (smaller.reproduced, smaller.reproduced_cases) == ("yes", "9 of 9")
    assert smaller.verdict_unadjusted == "supported" and smaller.n == 9
    assert smaller.effect == pytest.approx(0.05, abs=0.01)
    assert "re-splits or fresh draws" in smaller.noise
    larger = table(hand_runs(noisy(0.01)), compactness=hand_compactness(noisy(-0.05, 0.01))
                   ).set_index("id").loc["compact-boundary"]
    assert larger.reproduced == "no" and larger.verdict_unadjusted == "contradicted"


def test_diversity_is_the_ablations_disagreement_difference():
    diversity = hand_diversity(0.06)
    cases = catalogue.diversity_cases(diversity, RATIOS, "marginals").set_index("dataset")
    values = diversity[diversity.dataset == "heart"].pivot(
        index="repetition", columns="ensemble", values="disagreement")
    assert cases.loc["heart", "effect"] == pytest.approx((values.cdvse - values.ablated).mean())
    assert cases.loc["heart", "rival"] == "λ = 0"
    row = table(hand_runs(noisy(0.01)), diversity=diversity).set_index("id").loc[
        "diverse-members"]
    assert (row.reproduced, row.verdict_unadjusted, row.n) == ("yes", "supported", 7)


def test_a_parameter_range_is_tested_against_the_strong_margin():
    sensitivity = hand_sensitivity({"sigma": 0.01, "zeta": 0.3, "C": 0.2})
    cases = catalogue.sensitivity_cases(sensitivity, RATIOS, "marginals")
    assert (cases.null == catalogue.STRONG_MARGIN).all()
    assert set(cases.rival) == {"σ", "ζ", "C"} and len(cases) == 3 * len(DATASETS)
    heart = sensitivity[(sensitivity.dataset == "heart") & (sensitivity.parameter == "zeta")]
    ranges = heart.groupby("repetition").test.agg(lambda t: t.max() - t.min())
    case = cases[(cases.dataset == "heart") & (cases.rival == "ζ")].iloc[0]
    assert case.effect == pytest.approx(ranges.mean())
    width = np.diff(stats.ttest_1samp(ranges, 0.0).confidence_interval())[0] * \
        np.sqrt(1 + 5 * 1.2)  # corrected t over 5 re-splits
    assert case.ci_high - case.ci_low == pytest.approx(width)
    sigma = cases[cases.rival == "σ"]  # 1 point of range: below 5 on every set
    assert (sigma.verdict == "contradicted").all()


def test_every_parameter_must_be_strong_for_the_claim_to_hold():
    weak_sigma = table(hand_runs(noisy(0.01)), sensitivity=hand_sensitivity(
        {"sigma": 0.01, "zeta": 0.3, "C": 0.2})).set_index("id").loc["parameters-matter"]
    assert (weak_sigma.reproduced, weak_sigma.reproduced_cases) == ("partly", "2 of 3")
    assert weak_sigma.verdict_unadjusted == "contradicted" and weak_sigma.null == 0.05
    assert weak_sigma.effect == pytest.approx(0.01, abs=0.003)  # the worst, σ's, range
    assert weak_sigma.test.endswith("worst: σ") and weak_sigma.n == 3
    strong = table(hand_runs(noisy(0.01)), sensitivity=hand_sensitivity(
        {"sigma": 0.1, "zeta": 0.3, "C": 0.2})).set_index("id").loc["parameters-matter"]
    assert (strong.reproduced, strong.verdict_unadjusted) == ("yes", "supported")
    assert strong.effect == pytest.approx(0.1, abs=0.003)


# -- a real run ------------------------------------------------------------------------------
def test_a_quick_real_run_gives_every_claim_exactly_one_row(require_dataset):
    require_dataset("thyroid")
    results = cdvse.run(["thyroid"], quick=True, repetitions=2)
    claims = results.claims
    assert list(claims.columns) == CATALOGUE_COLUMNS
    assert list(claims.id) == [claim.id for claim in catalogue.CATALOGUE]
    # a quick run leaves the claim about time (faster testing) to the full protocol
    timed = claims.id == "faster-testing"
    assert (claims.reproduced[~timed] != "not tested").all()
    assert claims.reproduced[timed].tolist() == ["not tested"]
    assert claims.noise[timed].str.startswith("timing, full mode only").all()
    cases = results.claim_cases
    assert set(cases[cases.parameters == "marginals"].test) == \
        {"corrected resampled t (Nadeau-Bengio)"}
    text = cdvse.verdict(claims, results.all_runs)
    assert text.index("The paper's claims") < text.index("The project's own checks")


# -- the committed run judged again ----------------------------------------------------------
COMMITTED = Path(__file__).resolve().parents[2] / "reports" / "CDVSE"


@pytest.mark.skipif(not (COMMITTED / "runs.csv").is_file(), reason="no committed CDVSE run")
def test_rejudging_the_committed_run_recomputes_the_members_row_with_its_ratio():
    runs = pd.read_csv(COMMITTED / "runs.csv")
    ratios = dict.fromkeys(runs.dataset.unique(), 0.42)
    committed = pd.read_csv(COMMITTED / "claims.csv").set_index("id")
    table = catalogue.rejudge(COMMITTED, member_ratios=ratios)
    assert list(table.columns) == CATALOGUE_COLUMNS
    again = table.set_index("id")
    others = [c.id for c in catalogue.CATALOGUE if c.id != "fewer-members"]
    for column in ("effect", "ci_low", "ci_high", "p_value"):
        assert np.allclose(again.loc[others, column], committed.loc[others, column],
                           equal_nan=True)
    cases = catalogue.rejudged_cases(COMMITTED, member_ratios=ratios)
    members = cases[cases.id == "fewer-members"].set_index("dataset")
    # each UCI case by hand from the committed members kept
    kept = runs.pivot_table(index=["dataset", "repetition"], columns="method", values="kept")
    for dataset, group in kept.groupby(level="dataset"):
        dropped = 1 - group.cdvse / group.bagging
        half = stats.t.ppf(0.975, len(dropped) - 1) * np.sqrt(
            (1 / len(dropped) + 0.42) * dropped.var(ddof=1))
        assert members.loc[dataset, "ci_low"] == pytest.approx(dropped.mean() - half)
    # the artificial sets' cases are the committed ones
    old = pd.read_csv(COMMITTED / "claim_cases.csv")
    old = old[(old.id == "fewer-members") & (old.parameters == "§4.1")].set_index("dataset")
    assert np.allclose(members.loc[old.index, "ci_low"], old.ci_low)
    assert len(cases) == len(pd.read_csv(COMMITTED / "claim_cases.csv"))
    assert again.loc["compact-boundary", "basis"] == "our reading"


def test_each_artificial_reading_is_judged_beside_and_never_moves_the_papers_rows():
    readings = pd.concat([hand_synthetic(gain=-0.04).assign(reading="width"),
                          hand_synthetic(gain=0.03).assign(reading="band")],
                         ignore_index=True)
    rows = table(hand_runs(noisy(0.01)), synthetic=hand_synthetic(gain=0.03),
                 readings=readings).set_index("id")
    alone = table(hand_runs(noisy(0.01)), synthetic=hand_synthetic(gain=0.03)).set_index("id")
    assert rows.loc["artificial-better-than-svdd", "basis"] == "paper"
    assert rows.loc["artificial-better-than-svdd", "verdict"] == "supported"
    assert rows.loc["artificial-better-than-svdd-width", "verdict"] == "contradicted"
    assert rows.loc["artificial-better-than-svdd-band", "verdict"] == "supported"
    for reading in ("band", "width"):
        row = rows.loc[f"artificial-better-than-svdd-{reading}"]
        assert row.basis == "our reading" and row.basis_reason == \
            catalogue.ARTIFICIAL_READINGS[reading][1]
        assert row.cases == 2
    # the readings are not the paper's evidence: its rows and their Holm p are unchanged
    paper = alone.index[(alone.origin == "paper") & (alone.basis == "paper")]
    np.testing.assert_allclose(rows.loc[paper, "p_adjusted"], alone.loc[paper, "p_adjusted"])
    # not run: the rows are not tested and say why
    for reading in ("band", "width"):
        row = alone.loc[f"artificial-better-than-svdd-{reading}"]
        assert row.reproduced == "not tested" and "were not run" in row.test
