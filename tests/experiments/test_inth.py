import numpy as np
import pandas as pd
import pytest

from milab_widgets.claims import CATALOGUE_COLUMNS
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


def test_unavailable_datasets_are_reported_and_skipped(empty_data_home):
    results = inth.run(("fox",), quick=True)
    assert "milab fetch fox" in results.skipped["fox"]
    assert results.folds.empty and results.summary.empty
    # every claim keeps its row, untested, naming the missing data set
    claims = results.claims.set_index("id")
    assert (claims.drop("worked-example").reproduced == "not tested").all()
    assert "milab fetch fox" in claims.loc["highest-of-min-max-int", "noise"]


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
    assert list(pd.read_csv(tmp_path / "claims.csv").columns) == CATALOGUE_COLUMNS
    comparison = pd.read_csv(tmp_path / "paper_comparison.csv")
    assert set(comparison.published_accuracy) == {0.924}
    assert set(comparison.evaluation) == {"nested 10-fold CV (R selected)", "leave-one-out", "2x10-fold"}
    assert comparison.accuracy.between(0.8, 0.95).all()  # Citation-KNN+minH on Musk1
