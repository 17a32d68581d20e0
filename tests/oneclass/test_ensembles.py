"""Bagging and AdaBoost SVDD ensembles: votes against separately fitted SVDDs, boosting
weights written out, reproducibility; the one-class estimators' scikit-learn outlier API."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from milab_widgets.exceptions import InputError
from milab_widgets.oneclass import CDVSESVDD, SVDD, AdaBoostSVDD, BaggingSVDD


def data(seed=0):
    rng = np.random.default_rng(seed)
    X = np.vstack([rng.normal(0, 1, (80, 2)), rng.uniform(-5, 5, (4, 2))])
    return X, np.r_[np.ones(80), -np.ones(4)].astype(int)


def test_bagging_is_the_majority_vote_of_bootstrap_svdds():
    X, _ = data()
    model = BaggingSVDD(n_estimators=7, C=0.1, gamma=0.5, tol=1e-10, random_state=3).fit(X)
    rng = np.random.default_rng(3)
    # fresh points: training samples on a sphere (decision 0 up to rounding) could go either way
    query = np.vstack([np.random.default_rng(9).normal(0, 1.5, (200, 2)), [[6.0, 6.0]]])
    fits = [SVDD(C=0.1, gamma=0.5, tol=1e-10).fit(X[rng.integers(0, len(X), len(X))])
            for _ in range(7)]
    votes = np.mean([fit.predict(query) == 1 for fit in fits], axis=0)
    np.testing.assert_array_equal(model.predict(query), np.where(votes >= 0.5, 1, -1))
    np.testing.assert_allclose(model.decision_function(query), 2 * votes - 1)


def test_bagging_is_reproducible_with_a_seed():
    X, _ = data()
    first = BaggingSVDD(n_estimators=5, C=0.1, gamma=0.5, random_state=1).fit(X)
    again = BaggingSVDD(n_estimators=5, C=0.1, gamma=0.5, random_state=1).fit(X)
    np.testing.assert_array_equal(first.spheres_.duals, again.spheres_.duals)


def test_adaboost_first_round_is_the_single_svdd_and_weights_follow_the_rule():
    X, y = data(1)
    model = AdaBoostSVDD(n_estimators=3, C=0.05, gamma=0.5).fit(X, y)
    single = SVDD(C=0.05, gamma=0.5).fit(X)
    np.testing.assert_array_equal(model.spheres_.inside(X)[:, 0], single.predict(X) == 1)
    error = np.mean(single.predict(X) != y)
    assert model.estimator_errors_[0] == pytest.approx(error)
    assert model.estimator_weights_[0] == pytest.approx(0.5 * np.log((1 - error) / error))
    votes = np.where(model.spheres_.inside(X), 1.0, -1.0) @ model.estimator_weights_
    np.testing.assert_array_equal(model.predict(X), np.where(votes >= 0, 1, -1))


def test_adaboost_stops_when_a_round_is_perfect():
    X, _ = data(2)
    y = SVDD(C=0.05, gamma=0.5).fit(X).predict(X)  # labels the first round gets all right
    model = AdaBoostSVDD(n_estimators=5, C=0.05, gamma=0.5).fit(X, y)
    assert model.estimator_errors_.tolist() == [0.0]
    assert model.estimator_weights_ == pytest.approx([0.5 * np.log((1 - 1e-10) / 1e-10)])


def test_ensembles_reject_bad_input():
    X, y = data()
    with pytest.raises(ValueError, match="'n_estimators' parameter of BaggingSVDD"):
        BaggingSVDD(n_estimators=0).fit(X)
    with pytest.raises(InputError, match="y must hold"):
        AdaBoostSVDD().fit(X, np.zeros(len(X)))
    with pytest.raises(InputError, match="C=.* is below 1/n"):
        AdaBoostSVDD(C=0.001).fit(X, y)


@pytest.mark.parametrize("estimator", [BaggingSVDD, AdaBoostSVDD])
def test_ensembles_accept_nu_as_C_of_one_over_nu_n(estimator):
    X, y = data(4)
    nu = 0.1
    seeded = {"random_state": 2} if estimator is BaggingSVDD else {}
    by_nu = estimator(n_estimators=4, nu=nu, gamma=0.5, **seeded).fit(X, y)
    by_C = estimator(n_estimators=4, C=1.0 / (nu * len(X)), gamma=0.5, **seeded).fit(X, y)
    np.testing.assert_allclose(by_nu.spheres_.duals, by_C.spheres_.duals, atol=1e-12)
    np.testing.assert_array_equal(by_nu.predict(X), by_C.predict(X))
    with pytest.raises(InputError, match="exactly one"):
        estimator(C=0.1, nu=0.1).fit(X, y)


# -- scikit-learn's outlier API (all four one-class estimators) -------------------------------
ONE_CLASS = [SVDD(C=0.1, gamma=0.5), BaggingSVDD(5, C=0.1, gamma=0.5, random_state=0),
             AdaBoostSVDD(5, C=0.1, gamma=0.5), CDVSESVDD(5, C=0.1, gamma=0.5, random_state=0)]


@pytest.mark.parametrize("model", ONE_CLASS, ids=lambda m: type(m).__name__)
def test_decision_is_score_samples_minus_offset_and_columns_are_checked(model):
    X, _ = data()
    frame = pd.DataFrame(X, columns=["height", "weight"])
    with pytest.raises(NotFittedError):
        model.score_samples(X)
    model.fit(frame)
    assert list(model.feature_names_in_) == ["height", "weight"]
    assert model.n_features_in_ == 2
    query = pd.DataFrame(np.random.default_rng(1).normal(0, 2, (50, 2)), columns=frame.columns)
    np.testing.assert_allclose(model.decision_function(query),
                               model.score_samples(query) - model.offset_)
    with pytest.raises(ValueError, match="order as they were in fit"):  # not silently swapped
        model.predict(query[["weight", "height"]])
    with pytest.raises(TypeError, match="dense data is required.*toarray"):
        clone(model).fit(scipy.sparse.csr_matrix(X))


def test_iterative_ensembles_report_their_iterations():
    X, y = data()
    assert CDVSESVDD(5, C=0.1, gamma=0.5, max_iter=7, random_state=0).fit(X).n_iter_ == 7
    boosted = AdaBoostSVDD(5, C=0.1, gamma=0.5).fit(X, y)
    assert boosted.n_iter_ == len(boosted.estimator_errors_) >= 1
