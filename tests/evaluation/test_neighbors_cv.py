import numpy as np
import pandas as pd
import pytest

from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.evaluation.neighbors_cv import (
    grid_accuracies,
    nested_cv,
    select_parameters,
)
from milab_widgets.evaluation.splits import stratified_splits, subset
from milab_widgets.mil import CitationKNN, tune_alpha_nca



def test_splits_are_stratified_partitions(problem):
    _, y = problem
    splits = stratified_splits(y, 4, seed=0)
    tests = np.concatenate([test for _, test in splits])
    assert sorted(tests.tolist()) == list(range(len(y)))
    for train, test in splits:
        assert set(train).isdisjoint(test)
        assert abs(y[test].mean() - y.mean()) <= 0.2


def test_grid_accuracies_equal_a_hand_loop(problem):
    matrices, y = problem
    splits = stratified_splits(y, 3, seed=1)
    scores = grid_accuracies("citation-knn", "integrated", matrices, y, splits, (1, 3), (1.0, 10.0))
    assert len(scores) == 3 * 2 * 2
    for _, row in scores.iterrows():
        train, test = splits[int(row.split)]
        tr = subset(matrices, train, train)
        alpha, _ = tune_alpha_nca(tr["min"], tr["max"], y[train], row.sigma)
        model = CitationKNN(references=int(row.k), metric="integrated", alpha=alpha)
        model.fit(tr, y[train])
        expected = (model.predict(subset(matrices, test, train)) == y[test]).mean()
        assert row.alpha == pytest.approx(alpha)
        assert row.accuracy == pytest.approx(expected)


def test_select_parameters_prefers_smaller_k_then_sigma_on_ties():
    scores = pd.DataFrame({"split": [0, 0, 0, 0], "k": [3, 1, 1, 3], "sigma": [1.0, 10.0, 1.0, 10.0],
                           "alpha": 0.5, "accuracy": [0.9, 0.9, 0.9, 0.8]})
    assert select_parameters(scores) == {"k": 1, "sigma": 1.0, "inner_accuracy": 0.9}


def test_nested_cv_selects_on_inner_folds_only(problem):
    matrices, y = problem
    seen = []

    def source(train):
        seen.append(np.sort(train))
        return matrices

    folds = nested_cv("knn", "min", source, y, outer_folds=4, inner_folds=3, k_grid=(1, 3), seed=2)
    assert list(folds.fold) == [0, 1, 2, 3]
    assert folds.accuracy.between(0, 1).all() and folds.k.isin([1, 3]).all()
    for (train, test), passed in zip(stratified_splits(y, 4, 2), seen):
        np.testing.assert_array_equal(passed, np.sort(train))  # never the test fold


def test_nested_cv_resumes_from_its_cache(problem, tmp_path):
    matrices, y = problem
    run = dict(outer_folds=4, inner_folds=3, k_grid=(1, 3), sigma_grid=(1.0, 5.0), seed=0)
    calls = []

    def interrupted(train):
        if len(calls) == 2:
            raise KeyboardInterrupt("killed after two folds")
        calls.append(1)
        return matrices

    with pytest.raises(KeyboardInterrupt):
        nested_cv("citation-knn", "integrated", interrupted, y, cache=ResultCache(tmp_path), **run)
    resumed_cache = ResultCache(tmp_path)
    resumed = nested_cv("citation-knn", "integrated", lambda train: matrices, y, cache=resumed_cache, **run)
    assert (resumed_cache.hits, resumed_cache.misses) == (2, 2)
    uninterrupted = nested_cv("citation-knn", "integrated", lambda train: matrices, y, **run)
    pd.testing.assert_frame_equal(resumed.drop(columns="seconds"), uninterrupted.drop(columns="seconds"))
