import json

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from milab_widgets.claims import CATALOGUE_COLUMNS
from milab_widgets.data import load_dataset
from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.evaluation.neighbors_cv import ALPHA_GRID
from milab_widgets.evaluation.splits import stratified_splits, subset
from milab_widgets.experiments import inth
from milab_widgets.mil.neighbors import make_bag_classifier


@pytest.fixture(scope="module")
def quick_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("inth-cache")


@pytest.fixture(scope="module")
def quick_musk1(quick_cache):
    return inth.run(("musk1",), quick=True, cache_dir=quick_cache)


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
    assert results.alpha_timing.empty and results.alpha_search.empty
    assert "milab fetch fox" in claims.loc["highest-of-min-max-int", "noise"]


def test_sweep_curves_fix_the_most_selected_value(quick_musk1):
    curves = inth.sweep_curves(quick_musk1.sweep, quick_musk1.folds, "k")
    assert set(curves.k) == {1, 3, 5}
    integrated = quick_musk1.folds[quick_musk1.folds.metric == "integrated"]
    for classifier, group in curves.groupby("classifier"):
        selected = integrated[integrated.classifier == classifier].sigma
        assert group.fixed_sigma.iloc[0] == selected.mode().min()


def test_the_alpha_search_timing_holds_both_routes_for_every_fold(quick_musk1):
    timing, settings = quick_musk1.alpha_timing, quick_musk1.settings
    integrated = quick_musk1.folds[quick_musk1.folds.metric == "integrated"]
    assert sorted(zip(timing.classifier, timing.fold, strict=True)) == \
        sorted(zip(integrated.classifier, integrated.fold, strict=True))
    assert (timing[["nca_seconds", "one_search_seconds", "grid_seconds"]] > 0).all().all()
    assert (timing.one_search_seconds < timing.nca_seconds).all()  # one of the route's searches
    assert (timing.nca_searches == settings.inner_folds * len(settings.sigma_grid) + 1).all()
    assert timing.grid_alpha.isin(ALPHA_GRID).all() and timing.grid_k.isin(settings.k_grid).all()


def test_the_grid_choice_is_scored_like_a_fitted_estimator(quick_musk1):
    bags = load_dataset("musk1")
    matrices, y, settings = inth.bag_distances(bags), bags.labels, quick_musk1.settings
    splits = stratified_splits(y, settings.outer_folds, settings.seed)
    for row in quick_musk1.alpha_timing.itertuples():
        train, test = splits[row.fold]
        model = make_bag_classifier(row.classifier, row.grid_k, metric="integrated",
                                    alpha=row.grid_alpha)
        model.fit(subset(matrices, train, train), y[train])
        expected = (model.predict(subset(matrices, test, train)) == y[test]).mean()
        assert row.grid_accuracy == pytest.approx(expected)


def test_the_alpha_search_table_gives_each_data_sets_ratio_and_accuracies(quick_musk1):
    table = quick_musk1.alpha_search.set_index("dataset")
    timing = quick_musk1.alpha_timing
    assert table.loc["musk1", "grid_over_nca"] == \
        pytest.approx(stats.gmean(timing.grid_seconds / timing.nca_seconds))
    assert table.loc["musk1", "grid_ms"] == pytest.approx(1e3 * timing.grid_seconds.median())
    integrated = quick_musk1.folds[quick_musk1.folds.metric == "integrated"]
    assert table.loc["musk1", "accuracy_nca"] == pytest.approx(integrated.accuracy.mean())
    assert table.loc["musk1", "accuracy_grid"] == pytest.approx(timing.grid_accuracy.mean())


def test_the_timing_records_are_cached_apart_from_the_fold_records(quick_musk1, quick_cache):
    stored = [json.loads(path.read_text())["parts"] for path in quick_cache.glob("*.json")]
    timing = [parts for parts in stored if parts.get("experiment") == "inth-alpha-timing"]
    assert len(timing) == quick_musk1.settings.outer_folds  # one per fold, both classifiers
    for parts in timing:
        (quick_cache / f"{ResultCache.key(parts)}.json").unlink()
    rerun = inth.run(("musk1",), quick=True, cache_dir=quick_cache)
    # every fold record came from the cache (a recomputed fold has its own "seconds")
    pd.testing.assert_frame_equal(rerun.folds, quick_musk1.folds)
    assert len(list(quick_cache.glob("*.json"))) == len(stored)  # the timings recomputed
    assert len(rerun.alpha_timing) == len(quick_musk1.alpha_timing)


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
            "alpha_timing.csv", "alpha_search.csv", "settings.json"} <= names
    assert list(pd.read_csv(tmp_path / "claims.csv").columns) == CATALOGUE_COLUMNS
    comparison = pd.read_csv(tmp_path / "paper_comparison.csv")
    assert set(comparison.published_accuracy) == {0.924}
    assert set(comparison.evaluation) == {"nested 10-fold CV (R selected)", "leave-one-out", "2x10-fold"}
    assert comparison.accuracy.between(0.8, 0.95).all()  # Citation-KNN+minH on Musk1
