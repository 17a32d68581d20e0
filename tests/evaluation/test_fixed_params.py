import statistics

import numpy as np
import pytest

from milab_widgets.evaluation.fixed_params import fold_accuracies, fold_summary, held_out_bag
from milab_widgets.evaluation.neighbors_cv import grid_accuracies
from milab_widgets.evaluation.splits import stratified_splits
from milab_widgets.exceptions import InputError
from milab_widgets.mil import BagKNN, CitationKNN


def test_fold_accuracies_equal_a_hand_loop(problem):
    matrices, y = problem
    splits = stratified_splits(y, 3, seed=2)
    estimator = CitationKNN(references=3, citers=4, metric="integrated", alpha=0.3)

    expected = []
    for train, test in splits:
        model = CitationKNN(references=3, citers=4, metric="integrated", alpha=0.3)
        model.fit({k: matrices[k][np.ix_(train, train)] for k in ("min", "max")}, y[train])
        predicted = model.predict({k: matrices[k][np.ix_(test, train)] for k in ("min", "max")})
        expected.append(np.mean(predicted == y[test]))

    scores = fold_accuracies(estimator, matrices, y, splits)
    assert scores == pytest.approx(expected)
    assert not hasattr(estimator, "y_")  # the template stays unfitted


def test_nca_tuned_alpha_matches_the_experiment_grid(problem):
    """alpha=None lets each fold tune alpha, exactly as grid_accuracies does for one (K, sigma)."""
    matrices, y = problem
    splits = stratified_splits(y, 4, seed=0)
    estimator = CitationKNN(references=2, metric="integrated", sigma=5.0, alpha=None)
    grid = grid_accuracies("citation-knn", "integrated", matrices, y, splits, [2], [5.0])
    assert fold_accuracies(estimator, matrices, y, splits) == pytest.approx(grid["accuracy"])


def test_held_out_bag_lists_references_and_citers_of_a_model_fitted_on_the_others(problem):
    matrices, y = problem
    bag = 7
    others = np.delete(np.arange(len(y)), bag)
    result = held_out_bag(CitationKNN(references=2, citers=3, metric="min"), matrices, y, bag)

    distances = matrices["min"][bag, others]
    references = set(others[np.argsort(distances, kind="stable")[:2]])
    within = matrices["min"][np.ix_(others, others)] + np.diag(np.full(len(others), np.inf))
    radius = np.sort(within, axis=1)[:, 2]
    citers = set(others[matrices["min"][others, bag] <= radius])
    table = result.neighbours
    assert set(table.loc[table.role.str.contains("reference"), "bag"]) == references
    assert set(table.loc[table.role.str.contains("citer"), "bag"]) == citers
    assert table["distance"].to_numpy() == pytest.approx(matrices["min"][bag, table["bag"]])
    assert np.all(np.diff(table["distance"]) >= 0)
    assert table["label"].tolist() == y[table["bag"]].tolist()
    votes = y[list(references)].tolist() + y[list(citers)].tolist()
    assert result.prediction == int(sum(votes) > len(votes) / 2)
    assert result.correct == (result.prediction == y[bag])


def test_held_out_bag_with_knn_has_only_references(problem):
    matrices, y = problem
    result = held_out_bag(BagKNN(n_neighbors=3, metric="max"), matrices, y, 0)
    assert result.neighbours["role"].tolist() == ["reference"] * 3
    model = BagKNN(n_neighbors=3, metric="max").fit({"max": matrices["max"][1:, 1:]}, y[1:])
    assert result.prediction == model.predict({"max": matrices["max"][:1, 1:]})[0]


def test_held_out_bag_rejects_a_bag_outside_the_dataset(problem):
    matrices, y = problem
    with pytest.raises(InputError, match=f"choose one in 0..{len(y) - 1}"):
        held_out_bag(BagKNN(n_neighbors=1), matrices, y, len(y))


def test_fold_summary_is_the_mean_and_the_sample_std():
    accuracies = [0.7, 0.85, 0.9, 0.65, 0.8]
    mean, std = fold_summary(np.array(accuracies))
    assert mean == pytest.approx(statistics.mean(accuracies))
    assert std == pytest.approx(statistics.stdev(accuracies))  # ddof = 1
    assert fold_summary([0.5, 0.5]) == (0.5, 0.0)


@pytest.mark.parametrize("accuracies", [[0.8], [], [[0.8, 0.9]]])
def test_fold_summary_needs_two_folds(accuracies):
    with pytest.raises(InputError, match="at least 2 folds"):
        fold_summary(accuracies)
