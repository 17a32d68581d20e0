"""g-mean against scikit-learn's per-class recall, and the selection protocol's pieces."""

from itertools import product

import numpy as np
import pytest
from sklearn.metrics import recall_score

from milab_widgets.evaluation import g_mean
from milab_widgets.evaluation.oneclass_selection import (
    artificial_outliers,
    make_folds,
    select_cdvse,
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


def test_cdvse_selection_picks_the_best_mean_score_over_sigma_lambda_and_gamma():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(60, 2))
    folds = make_folds(X, np.ones(60, dtype=int), 3, 50, seed=0)
    sigmas, lams, gammas, seed = (0.01, 1.0, 10.0), (0.1, 1.0), (0.1, 1.0, 1e4), 4
    (sigma, lam, gamma), table = select_cdvse(X, folds, 0.1, 0.5, sigmas, n_estimators=5,
                                              seed=seed, lam_grid=lams, gamma_l1_grid=gammas)
    # select_cdvse's fold k draws its bootstrap samples with seed + k
    brute = {}
    for setting in product(sigmas, lams, gammas):
        try:
            brute[setting] = np.mean([f.score(CDVSESVDD(5, 0.1, 0.5, *setting,
                                                        random_state=seed + k).fit(X[f.train]))
                                      for k, f in enumerate(folds)])
        except InputError:  # gamma = 1e4 zeroes every weight: no ensemble to score
            brute[setting] = np.nan
    assert list(table[["sigma", "lam", "gamma_l1"]].itertuples(index=False, name=None)) \
        == list(brute)
    np.testing.assert_allclose(table["score"], list(brute.values()))
    assert table["score"].isna().sum() == len(sigmas) * len(lams)  # every gamma = 1e4 row
    assert (sigma, lam, gamma) == max((k for k in brute if brute[k] == brute[k]),
                                      key=brute.get)


def test_cdvse_selection_refuses_grids_where_every_setting_has_no_member():
    X = np.random.default_rng(2).normal(size=(30, 2))
    folds = make_folds(X, np.ones(30, dtype=int), 3, 10, seed=0)
    with pytest.raises(InputError, match="gamma_l1"):
        select_cdvse(X, folds, 0.2, 0.5, (1.0,), n_estimators=4, seed=0,
                     gamma_l1_grid=(1e4,))


