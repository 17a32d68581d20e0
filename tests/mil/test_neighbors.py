import numpy as np
import pytest
from sklearn.base import clone

from milab_widgets.data.bags import BagDataset
from milab_widgets.exceptions import InputError
from milab_widgets.mil import BagKNN, CitationKNN, bag_distances, tune_alpha_nca

from .conftest import random_bags


def brute_force_citation_knn(train_d, query_d, y, references, citers):
    """Wang & Zucker's rule by explicit ranking, one query at a time."""
    n = len(y)
    predictions = []
    for row in query_d:
        order = sorted(range(n), key=lambda t: (row[t], t))
        votes = [y[t] for t in order[:references]]
        for t in range(n):
            closer = sum(1 for u in range(n) if u != t and train_d[t, u] < row[t])
            if closer < citers:  # the query is among t's `citers` nearest
                votes.append(y[t])
        positives = sum(votes)
        predictions.append(int(positives > len(votes) - positives))
    return np.array(predictions)


def brute_force_knn(query_d, y, k):
    predictions = []
    for row in query_d:
        order = sorted(range(len(y)), key=lambda t: (row[t], t))[:k]
        positives = sum(y[t] for t in order)
        predictions.append(int(positives > k - positives))
    return np.array(predictions)


@pytest.fixture
def split():
    bags = random_bags(7, n_bags=40, shift=0.0)
    # the multi-instance assumption: each positive bag holds one instance near a concept point
    instances = bags.instances.copy()
    concept = np.random.default_rng(8).normal(size=(40, 4)) + 50.0
    for i in np.nonzero(bags.labels == 1)[0]:
        instances[bags.offsets[i]] = concept[i]
    bags = bags.with_instances(instances)
    return bags[np.arange(28)], bags[np.arange(28, 40)]


@pytest.mark.parametrize("metric", ["min", "max", "average"])
@pytest.mark.parametrize("references,citers", [(1, 1), (2, 4), (3, 5), (5, 0 + 7)])
def test_citation_knn_equals_brute_force(split, metric, references, citers):
    train, query = split
    model = CitationKNN(references=references, citers=citers, metric=metric)
    predicted = model.fit(train, train.labels).predict(query)
    train_d = bag_distances(train)[metric]
    query_d = bag_distances(query, train)[metric]
    expected = brute_force_citation_knn(train_d, query_d, train.labels, references, citers)
    np.testing.assert_array_equal(predicted, expected)


@pytest.mark.parametrize("k", [1, 3, 4, 7])
def test_bag_knn_equals_brute_force(split, k):
    train, query = split
    predicted = BagKNN(n_neighbors=k, metric="average").fit(train, train.labels).predict(query)
    query_d = bag_distances(query, train)["average"]
    np.testing.assert_array_equal(predicted, brute_force_knn(query_d, train.labels, k))


def test_citers_default_to_references_plus_two(split):
    train, query = split
    default = CitationKNN(references=3).fit(train, train.labels)
    explicit = CitationKNN(references=3, citers=5).fit(train, train.labels)
    np.testing.assert_array_equal(default.citer_mask(query), explicit.citer_mask(query))
    np.testing.assert_array_equal(default.predict(query), explicit.predict(query))


def test_integrated_metric_tunes_alpha_by_nca(split):
    train, query = split
    model = CitationKNN(metric="integrated", sigma=2.0).fit(train, train.labels)
    d = bag_distances(train)
    expected_alpha, _ = tune_alpha_nca(d["min"], d["max"], train.labels, 2.0)
    assert model.alpha_ == pytest.approx(expected_alpha)
    fixed = CitationKNN(metric="integrated", alpha=0.3).fit(train, train.labels)
    assert fixed.alpha_ == 0.3
    query_d = bag_distances(query, train)
    np.testing.assert_allclose(fixed.query_distances(query),
                               0.3 * query_d["min"] + 0.7 * query_d["max"])


def test_adapted_metric_ranks_citers_by_each_training_bags_label(split):
    train, query = split
    model = CitationKNN(metric="adapted").fit(train, train.labels)
    d = bag_distances(train)
    positive_row = np.nonzero(train.labels == 1)[0][0]
    negative_row = np.nonzero(train.labels == 0)[0][0]
    np.testing.assert_array_equal(model.train_distances_[positive_row], d["min"][positive_row])
    np.testing.assert_array_equal(model.train_distances_[negative_row], d["max"][negative_row])


def test_precomputed_inputs_give_the_same_predictions(split):
    train, query = split
    from_bags = CitationKNN(references=2, metric="max").fit(train, train.labels)
    train_d, query_d = bag_distances(train), bag_distances(query, train)
    from_mapping = CitationKNN(references=2, metric="max").fit(train_d, train.labels)
    from_matrix = CitationKNN(references=2, metric="precomputed").fit(train_d["max"], train.labels)
    expected = from_bags.predict(query)
    np.testing.assert_array_equal(from_mapping.predict(query_d), expected)
    np.testing.assert_array_equal(from_matrix.predict(query_d["max"]), expected)
    with pytest.raises(InputError, match="precomputed"):
        from_mapping.predict(query)


def test_standard_scaling_uses_training_statistics(split):
    train, query = split
    scaled = BagKNN(n_neighbors=1, scale="standard").fit(train, train.labels)
    mean, std = train.instances.mean(axis=0), train.instances.std(axis=0)
    manual = BagKNN(n_neighbors=1).fit(train.with_instances((train.instances - mean) / std), train.labels)
    query_scaled = query.with_instances((query.instances - mean) / std)
    np.testing.assert_array_equal(scaled.predict(query), manual.predict(query_scaled))


@pytest.mark.parametrize("model", [CitationKNN(metric="max"), BagKNN(n_neighbors=3, metric="max")])
def test_learns_a_separable_problem(split, model):
    # maxH sees the concept instance: positive-negative pairs are ~70 apart, others ~20-30
    train, query = split
    accuracy = (model.fit(train, train.labels).predict(query) == query.labels).mean()
    assert accuracy >= 0.9


def test_sklearn_contract(split):
    train, _ = split
    model = CitationKNN(references=3, metric="integrated", sigma=5.0)
    copy = clone(model)
    assert copy.get_params() == model.get_params()
    assert model.fit(train, train.labels) is model


@pytest.mark.parametrize(
    "model, message",
    [
        (CitationKNN(metric="euclid"), "metric"),
        (CitationKNN(references=0), "references"),
        (CitationKNN(references=100), "training bags"),
        (BagKNN(n_neighbors=2.5), "n_neighbors"),
        (CitationKNN(metric="integrated", alpha=2.0), "alpha"),
        (CitationKNN(metric="integrated", sigma=0.0), "sigma"),
        (BagKNN(scale="minmax"), "scale"),
    ],
)
def test_bad_parameters_raise_clear_errors(split, model, message):
    train, _ = split
    with pytest.raises(ValueError, match=message):  # InputError or InvalidParameterError
        model.fit(train, train.labels)


def test_bad_data_raises_clear_errors(split):
    train, query = split
    with pytest.raises(InputError, match="only class"):
        CitationKNN().fit(train, np.zeros(len(train), dtype=int))
    with pytest.raises(InputError, match="0 .negative. and 1"):
        CitationKNN().fit(train, np.full(len(train), 2))
    with pytest.raises(InputError, match="BagDataset"):
        CitationKNN().fit(train.instances, train.labels)
    fitted = CitationKNN().fit(train, train.labels)
    with pytest.raises(InputError, match="features"):
        fitted.predict(BagDataset.from_bags([np.ones((2, 3))]))
    with pytest.raises(InputError, match="NaN"):
        BagDataset.from_bags([[[np.nan, 1.0]]])
    with pytest.raises(InputError, match="empty"):
        BagDataset(np.ones((2, 1)), [0, 0, 2])
