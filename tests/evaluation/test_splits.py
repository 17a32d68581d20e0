"""stratified_splits / stratified_folds against scikit-learn's StratifiedKFold (the oracle)."""

import warnings

import numpy as np
import pytest
from sklearn.model_selection import StratifiedKFold

from milab_widgets.evaluation.splits import stratified_folds, stratified_splits
from milab_widgets.exceptions import InputError


def _labels(case: int):
    """Labels of varied sizes and kinds: 0/1, three integer classes, strings, imbalance."""
    rng = np.random.default_rng(case)
    size = int(rng.integers(12, 120))
    kinds = [rng.integers(0, 2, size), rng.integers(0, 3, size),
             rng.choice(np.array(["pos", "neg", "mid"]), size), (rng.random(size) < 0.2) * 7]
    return kinds[case % len(kinds)]


@pytest.mark.parametrize("case", range(40))
def test_folds_equal_scikit_learns_stratified_kfold(case):
    y = _labels(case)
    largest_class = np.unique(y, return_counts=True)[1].max()
    n_folds, seed = min(2 + case % 9, largest_class), 17 * case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a class smaller than n_folds (both warn)
        ours = stratified_splits(y, n_folds, seed)
        theirs = list(StratifiedKFold(n_folds, shuffle=True, random_state=seed)
                      .split(np.zeros(len(y)), y))
    for (train, test), (their_train, their_test) in zip(ours, theirs, strict=True):
        np.testing.assert_array_equal(train, their_train)
        np.testing.assert_array_equal(test, their_test)


def test_folds_are_a_stratified_partition():
    y = np.repeat([0, 1, 2], [30, 20, 10])
    fold_of = stratified_folds(y, 5, seed=3)
    for fold in range(5):
        assert np.bincount(y[fold_of == fold]).tolist() == [6, 4, 2]


def test_the_same_seed_deals_the_same_folds_from_any_thread():
    from concurrent.futures import ThreadPoolExecutor

    y = _labels(1)
    with ThreadPoolExecutor(4) as pool:
        dealt = list(pool.map(lambda seed: stratified_folds(y, 4, seed), [5, 6] * 20))
    assert all(np.array_equal(dealt[i], dealt[i % 2]) for i in range(len(dealt)))


@pytest.mark.parametrize("n_folds", [1, 0, 13])
def test_impossible_fold_counts_are_refused(n_folds):
    with pytest.raises(InputError, match="n_folds"):
        stratified_folds(np.arange(12) % 2, n_folds, seed=0)


def test_folds_beyond_every_class_size_are_refused_and_a_small_class_warns():
    with pytest.raises(InputError, match="every class"):
        stratified_folds(np.repeat([0, 1], [4, 4]), 5, seed=0)
    with pytest.warns(UserWarning, match="smallest class has 2 members"):
        stratified_folds(np.repeat([0, 1], [10, 2]), 3, seed=0)
