"""g-mean against scikit-learn's per-class recall, and the selection protocol's pieces."""

import numpy as np
import pytest
from sklearn.metrics import recall_score

from milab_widgets.evaluation import g_mean
from milab_widgets.evaluation.oneclass_selection import (
    artificial_outliers,
    make_folds,
    select_sigma,
    select_svdd,
)
from milab_widgets.exceptions import InputError
from milab_widgets.oneclass import CDVSESVDD, SVDD


@pytest.mark.parametrize("seed", range(5))
def test_g_mean_is_the_geometric_mean_of_class_recalls(seed):
    rng = np.random.default_rng(seed)
    truth = rng.choice([-1, 1], 50)
    truth[:2] = [-1, 1]
    predicted = rng.choice([-1, 1], 50)
    expected = np.sqrt(recall_score(truth, predicted, pos_label=1)
                       * recall_score(truth, predicted, pos_label=-1))
    assert g_mean(truth, predicted) == pytest.approx(expected)


def test_g_mean_worked_example_and_bad_input():
    assert g_mean([1, 1, 1, 1, -1, -1], [1, 1, 1, -1, -1, 1]) == pytest.approx(np.sqrt(0.75 * 0.5))
    with pytest.raises(InputError, match="both normal"):
        g_mean([1, 1], [1, -1])
    with pytest.raises(InputError, match=r"\+1"):
        g_mean([0, 1], [1, 1])
    with pytest.raises(InputError, match="equal length"):
        g_mean([1, -1], [1])


def test_artificial_outliers_come_from_each_features_observed_values():
    X = np.random.default_rng(0).normal(size=(30, 3))
    points = artificial_outliers(X, 200, np.random.default_rng(1))
    assert points.shape == (200, 3)
    for j in range(3):
        assert set(points[:, j]) <= set(X[:, j])


def test_folds_and_svdd_selection_pick_the_best_mean_score():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 2))
    y = np.ones(60, dtype=int)
    folds = make_folds(X, y, 3, 50, seed=0)
    assert sum(len(f.y_val) - 50 for f in folds) == 60
    C, zeta, table = select_svdd(X, folds, (0.01, 0.1, 1.0), (0.5, 2.0))
    assert 0.01 not in set(table["C"])  # below 1/n of a 40-sample training part
    brute = {(c, z): np.mean([f.score(SVDD(C=c, gamma=z).fit(X[f.train])) for f in folds])
             for c in (0.1, 1.0) for z in (0.5, 2.0)}
    assert (C, zeta) == max(brute, key=brute.get)


def test_sigma_selection_picks_the_best_mean_score():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 2))
    folds = make_folds(X, np.ones(60, dtype=int), 3, 50, seed=0)
    grid, seed = (0.01, 0.1, 1.0, 10.0), 4
    sigma, table = select_sigma(X, folds, 0.1, 0.5, grid, n_estimators=5, seed=seed)
    # select_sigma's fold k draws its bootstrap samples with seed + k
    brute = [np.mean([f.score(CDVSESVDD(5, 0.1, 0.5, s, random_state=seed + k).fit(X[f.train]))
                      for k, f in enumerate(folds)]) for s in grid]
    np.testing.assert_allclose(table["score"], brute)
    assert list(table["sigma"]) == list(grid) and sigma == grid[int(np.argmax(brute))]
