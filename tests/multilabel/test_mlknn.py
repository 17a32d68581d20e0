"""ML-kNN and its neighbour search against brute-force versions, yeast, and bad input."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.base import clone
from sklearn.exceptions import NotFittedError

from milab_widgets.core.neighbors import nearest_neighbors
from milab_widgets.multilabel import MLkNN, metrics
from milab_widgets.multilabel.mlknn import DECISION_THRESHOLD, decide


def brute_force_mlknn(X_train, Y_train, X_test, k, s):
    """Zhang & Zhou (2007), Fig. 1, written out with loops; self excluded by index."""
    m, n_labels = Y_train.shape
    train_d = cdist(X_train, X_train)
    np.fill_diagonal(train_d, np.inf)
    train_nn = np.argsort(train_d, axis=1, kind="stable")[:, :k]
    test_nn = np.argsort(cdist(X_test, X_train), axis=1, kind="stable")[:, :k]
    posterior = np.zeros((len(X_test), n_labels))
    predicted = np.zeros((len(X_test), n_labels), dtype=int)
    for label in range(n_labels):
        prior = (s + Y_train[:, label].sum()) / (2 * s + m)
        c1, c0 = np.zeros(k + 1), np.zeros(k + 1)
        for i in range(m):
            delta = Y_train[train_nn[i], label].sum()
            if Y_train[i, label] == 1:
                c1[delta] += 1
            else:
                c0[delta] += 1
        for t in range(len(X_test)):
            count = Y_train[test_nn[t], label].sum()
            p1 = prior * (s + c1[count]) / (s * (k + 1) + c1.sum())
            p0 = (1 - prior) * (s + c0[count]) / (s * (k + 1) + c0.sum())
            posterior[t, label] = p1 / (p1 + p0)
            predicted[t, label] = int(p1 >= p0)
    return posterior, predicted


@pytest.mark.parametrize("k, s", [(1, 1.0), (5, 0.5), (10, 1.0)])
def test_mlknn_equals_brute_force(k, s):
    rng = np.random.default_rng(k)
    X = rng.normal(size=(90, 6))
    Y = (X[:, :4] + rng.normal(scale=0.8, size=(90, 4)) > 0.3).astype(int)
    model = MLkNN(k=k, s=s).fit(X[:60], Y[:60])
    posterior, predicted = brute_force_mlknn(X[:60], Y[:60], X[60:], k, s)
    np.testing.assert_allclose(model.predict_proba(X[60:]), posterior, rtol=1e-12)
    np.testing.assert_array_equal(model.predict(X[60:]), predicted)


def test_yeast_mulan_split_matches_the_reference_numbers(require_dataset):
    train, test = require_dataset("yeast").train_test()
    model = MLkNN(k=10, s=1.0).fit(train.X, train.Y)
    scores, predicted = model.predict_proba(test.X), model.predict(test.X)
    assert metrics.hamming_loss(test.Y, predicted) == pytest.approx(0.198, abs=0.002)
    assert metrics.average_precision(test.Y, scores) == pytest.approx(0.759, abs=0.002)
    assert metrics.ranking_loss(test.Y, scores) == pytest.approx(0.172, abs=0.002)
    assert metrics.one_error(test.Y, scores) == pytest.approx(0.235, abs=0.003)


def test_neighbour_search_equals_sorted_cdist():
    rng = np.random.default_rng(0)
    queries, references = rng.normal(size=(40, 5)), rng.normal(size=(70, 5))
    indices, squared = nearest_neighbors(queries, references, 7)
    full = cdist(queries, references, "sqeuclidean")
    np.testing.assert_array_equal(indices, np.argsort(full, axis=1)[:, :7])
    np.testing.assert_allclose(squared, np.sort(full, axis=1)[:, :7], atol=1e-10)


def test_a_training_point_is_never_its_own_neighbour_but_a_duplicate_is():
    X = np.array([[0.0], [0.0], [3.0], [10.0]])
    indices, squared = nearest_neighbors(X, X, 2, exclude_self=True)
    assert not (indices == np.arange(4)[:, None]).any()
    assert indices[:, 0].tolist() == [1, 0, 0, 2]  # the duplicate first, at distance 0
    assert squared[0, 0] == 0.0


def test_equal_distances_go_to_the_lower_index():
    references = np.array([[2.0], [-1.0], [1.0], [-2.0]])
    indices, _ = nearest_neighbors(np.zeros((1, 1)), references, 4)
    assert indices.tolist() == [[1, 2, 0, 3]]


def test_mlknn_follows_the_estimator_contract():
    model = MLkNN(k=3, s=0.5)
    assert clone(model).get_params() == {"k": 3, "s": 0.5}
    with pytest.raises(NotFittedError):
        model.predict(np.zeros((1, 2)))
    X, Y = np.random.default_rng(1).normal(size=(8, 2)), np.eye(8, 3, dtype=int)
    assert model.fit(X, Y) is model and model.likelihood_true_.shape == (3, 4)


@pytest.mark.parametrize("params, X, Y, message", [
    ({"k": 0}, np.zeros((5, 2)), np.zeros((5, 1)), "'k' parameter of MLkNN must be an int in the range"),
    ({"s": 0.0}, np.zeros((5, 2)), np.zeros((5, 1)), "'s' parameter of MLkNN must be a float in the range"),
    ({"k": 5}, np.zeros((5, 2)), np.zeros((5, 1)), "needs more than k training"),
    ({}, np.zeros((5, 2)), np.full((5, 1), 2), "only 0 and 1"),
    ({}, np.zeros((5, 2)), np.zeros((4, 1)), "4 rows but there are 5"),
    ({}, np.array([[np.nan, 1.0]] * 12), np.zeros((12, 1)), "NaN"),
])
def test_bad_fit_input_is_named(params, X, Y, message):
    with pytest.raises(ValueError, match=message):  # InputError, or scikit-learn's for X
        MLkNN(**params).fit(X, Y)


def test_predicting_with_other_features_is_refused():
    model = MLkNN(k=2).fit(np.random.rand(6, 3), np.eye(6, 2, dtype=int))
    with pytest.raises(ValueError, match="X has 4 features, but MLkNN is expecting 3"):
        model.predict(np.zeros((1, 4)))


def test_posterior_threshold_matches_the_product_rule_on_ties():
    """P(H1) P(E|H1) >= P(H0) P(E|H0) iff t / (t + f) >= 0.5; an exact tie t == f gives 0.5."""
    rng = np.random.default_rng(0)
    t = rng.random(1000) * 10.0 ** rng.integers(-300, 300, 1000)
    np.testing.assert_array_equal(decide(t / (t + t)), 1)
    f = t * rng.choice([0.5, 0.9, 1.1, 2.0], 1000)
    np.testing.assert_array_equal(decide(t / (t + f)), (t >= f).astype(int))
    assert decide(np.array([DECISION_THRESHOLD, np.nextafter(0.5, 0)])).tolist() == [1, 0]
