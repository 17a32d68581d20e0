import numpy as np
import pandas as pd
import pytest

from milab_widgets.evaluation.claim_tests import CLAIM_COLUMNS, across_datasets, paired_case
from milab_widgets.experiments import inth


@pytest.fixture(scope="module")
def quick_musk1():
    return inth.run(("musk1",), quick=True)


def test_quick_run_covers_the_ten_methods(quick_musk1):
    summary = quick_musk1.summary
    assert len(summary) == 10
    assert set(summary.method) == {f"{c}+{m}" for c in ("Citation-KNN", "KNN")
                                   for m in ("minH", "maxH", "intH", "aveH", "adaH")}
    assert (summary.folds == quick_musk1.settings.outer_folds).all()
    assert summary["mean"].between(0.4, 1.0).all()
    integrated = quick_musk1.folds[quick_musk1.folds.metric == "integrated"]
    assert integrated.alpha.between(0, 1).all() and integrated.sigma.isin((0.5, 5.0, 50.0)).all()


def test_accuracy_table_layout(quick_musk1):
    table = inth.accuracy_table(quick_musk1.summary, inth.TABLE3_DATASETS)
    assert list(table.columns) == ["musk1"]
    assert table.index[0] == "Citation-KNN+minH" and table.index[-1] == "KNN+adaH"
    assert all("±" in cell for cell in table["musk1"])


def hand_folds(gains, datasets=("musk1", "fox"), folds=10, n_test=10):
    """Outer-fold records where intH's accuracy exceeds every rival's by ``gains[fold]``."""
    rows = [{"dataset": d, "classifier": c, "metric": m, "fold": f, "n_test": n_test,
             "accuracy": 0.7 + (gains[f] if m == "integrated" else 0.0) + 0.01 * (f % 3)}
            for d in datasets for c in inth.CLASSIFIERS for m in inth.METRICS
            for f in range(folds)]
    return pd.DataFrame(rows)


def test_claim_cases_are_corrected_t_tests_on_the_paired_folds():
    gains = np.linspace(-0.02, 0.1, 10)
    cases = inth.claim_cases(hand_folds(gains))
    assert list(cases.columns[:8]) == CLAIM_COLUMNS
    # musk1 (Table 3) tests all four rivals, every dataset minH and maxH: 2 x (4 + 4) cases
    assert len(cases) == 16
    assert set(cases[cases.dataset == "musk1"].rival) == {"minH", "maxH", "aveH", "adaH"}
    expected = paired_case(gains, method="corrected_t", test_train_ratio=1 / 9)
    for column in ("effect", "ci_low", "ci_high", "p_value", "verdict"):
        assert (cases[column] == expected[column]).all() or \
            np.allclose(cases[column].astype(float), expected[column])
    assert (cases.intH - cases.rival_accuracy).to_numpy() == pytest.approx(gains.mean())


def test_fold_ratio_is_test_over_training_bags():
    assert inth.fold_test_train_ratio(pd.Series([10] * 10)) == pytest.approx(1 / 9)
    assert inth.fold_test_train_ratio(pd.Series([3, 2])) == pytest.approx((3 / 2 + 2 / 3) / 2)


def test_claims_test_each_rival_over_the_datasets():
    cases = inth.claim_cases(hand_folds(np.linspace(0.05, 0.1, 10),
                                        datasets=inth.TABLE3_DATASETS + ("extra",)))
    claims = inth.claims_across_datasets(cases).set_index("claim")
    assert list(claims.index) == [inth.CLAIMS[r] for r in ("min", "max", "average", "adapted")]
    versus_min = claims.loc["intH more accurate than minH"]
    per_dataset = cases[cases.rival == "minH"].groupby("dataset").effect.mean()
    assert versus_min.effect == pytest.approx(across_datasets(per_dataset)["effect"])
    assert versus_min.n == 6 and versus_min.verdict == "supported"
    assert versus_min.cases_supported == 12
    # five Table 3 datasets are too few for the signed-rank test at 95 %
    assert claims.loc["intH more accurate than aveH", "verdict"] == "inconclusive"
    text = inth.verdict_text(claims.reset_index())
    assert "intH more accurate than minH: **supported**" in text and "2 / 2^N" in text


def test_unavailable_datasets_are_reported_and_skipped(empty_data_home):
    results = inth.run(("fox",), quick=True)
    assert "milab fetch fox" in results.skipped["fox"]
    assert results.folds.empty and results.summary.empty and results.claims.empty


def test_sweep_curves_fix_the_most_selected_value(quick_musk1):
    curves = inth.sweep_curves(quick_musk1.sweep, quick_musk1.folds, "k")
    assert set(curves.k) == {1, 3, 5}
    integrated = quick_musk1.folds[quick_musk1.folds.metric == "integrated"]
    for classifier, group in curves.groupby("classifier"):
        selected = integrated[integrated.classifier == classifier].sigma
        assert group.fixed_sigma.iloc[0] == selected.mode().min()


def test_standard_scaling_is_fitted_on_training_folds_only():
    from milab_widgets.data import load_dataset

    bags = load_dataset("musk1")
    source = inth.DistanceSource(bags, "standard")
    train = np.arange(0, len(bags), 2)
    scaled = source(train)
    instances = bags[train].instances
    expected = inth.bag_distances(bags.with_instances(
        (bags.instances - instances.mean(0)) / np.where(instances.std(0) > 0, instances.std(0), 1)))
    np.testing.assert_allclose(scaled["max"], expected["max"], rtol=1e-8, atol=1e-6)


def test_saved_tables(quick_musk1, tmp_path):
    written = inth.save_tables(quick_musk1, tmp_path)
    names = {path.name for path in written}
    assert {"table3.csv", "claims.csv", "claim_cases.csv", "folds.csv", "paper_comparison.csv",
            "settings.json"} <= names
    assert list(pd.read_csv(tmp_path / "claims.csv").columns[:8]) == CLAIM_COLUMNS
    comparison = pd.read_csv(tmp_path / "paper_comparison.csv")
    assert set(comparison.published_accuracy) == {0.924}
    assert set(comparison.evaluation) == {"nested 10-fold CV (R selected)", "leave-one-out", "2x10-fold"}
    assert comparison.accuracy.between(0.8, 0.95).all()  # Citation-KNN+minH on Musk1
