import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import StratifiedKFold

from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.evaluation.neighbors_cv import (
    ALPHA_GRID,
    alpha_by_cv_grid,
    fixed_alpha_accuracy,
    grid_accuracies,
    inner_folds_of,
    nca_alphas,
    nested_cv,
    select_parameters,
)
from milab_widgets.evaluation.splits import stratified_splits, subset
from milab_widgets.mil import CitationKNN, tune_alpha_nca
from milab_widgets.mil.distances import metric_distance
from tests.mil.test_neighbors import brute_force_citation_knn, brute_force_knn


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
    for (train, _test), passed in zip(stratified_splits(y, 4, 2), seen, strict=True):
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


def _tied_matrices(seed: int, n_bags: int = 40):
    """Symmetric min/max/average matrices over all bags with many exact ties, and labels."""
    rng = np.random.default_rng(seed)
    points = rng.integers(0, 4, size=(n_bags, 2)).astype(float)
    d_min = np.abs(points[:, :1] - points[:, :1].T)
    d_max = d_min + np.abs(points[:, 1:] - points[:, 1:].T)
    return {"min": d_min, "max": d_max, "average": (d_min + d_max) / 2}, rng.permutation(n_bags) % 2


def _brute_force_accuracy(classifier, metric, matrices, y, train, test, k, sigma, alpha=None):
    """Accuracy of Wang & Zucker's rule written out (tests/mil's brute-force voters, one
    query at a time), on the metric as the paper defines it: alpha tuned by NCA on the
    training part for "integrated" (unless ``alpha`` is given), each training bag's own
    label for "adapted"."""
    part = subset(matrices, train, train)
    if metric == "integrated" and alpha is None:
        alpha = tune_alpha_nca(part["min"], part["max"], y[train], sigma)[0]
    query = metric_distance(subset(matrices, test, train), metric, alpha=alpha, labels=y[train])
    own = metric_distance(part, metric, alpha=alpha, labels=y[train])
    own = own.T if metric == "adapted" else own  # row t: t's label decides its distances
    if classifier == "knn":
        predicted = brute_force_knn(query, y[train], k)
    else:
        predicted = brute_force_citation_knn(own, query, y[train], k, k + 2)
    return float((predicted == y[test]).mean())


@pytest.mark.parametrize("classifier", ["citation-knn", "knn"])
@pytest.mark.parametrize("metric", ["min", "max", "average", "adapted", "integrated"])
def test_grid_accuracies_equal_brute_force_voting_on_tied_distances(classifier, metric):
    ks, sigmas = (1, 2, 4, 7), (0.5, 3.0)
    for seed in range(2):
        matrices, y = _tied_matrices(seed)
        splits = stratified_splits(y, 4, seed)
        scores = grid_accuracies(classifier, metric, matrices, y, splits, ks, sigmas)
        assert len(scores) == len(splits) * len(ks) * (len(sigmas) if metric == "integrated" else 1)
        for row in scores.itertuples():
            train, test = splits[row.split]
            expected = _brute_force_accuracy(classifier, metric, matrices, y, train, test, row.k,
                                           row.sigma)
            assert row.accuracy == pytest.approx(expected), row


def _brute_force_nested_cv(classifier, metric, matrices, y, outer, inner, ks, sigmas, seed):
    """The protocol with scikit-learn's StratifiedKFold, brute-force voting per (split, K,
    sigma) and a pandas groupby: (k, sigma, inner accuracy, accuracy) per outer fold."""
    sigmas = sigmas if metric == "integrated" else (np.nan,)
    records = []
    folds = StratifiedKFold(outer, shuffle=True, random_state=seed).split(np.zeros(len(y)), y)
    for train, test in folds:
        rows = []
        inner_folds = StratifiedKFold(inner, shuffle=True, random_state=seed)
        for a, b in inner_folds.split(np.zeros(len(train)), y[train]):
            rows += [(k, sigma, _brute_force_accuracy(classifier, metric, matrices, y, train[a],
                                                    train[b], k, sigma))
                     for k in ks for sigma in sigmas]
        means = (pd.DataFrame(rows, columns=["k", "sigma", "accuracy"]).fillna({"sigma": np.inf})
                 .groupby(["k", "sigma"])["accuracy"].mean())
        k, sigma = means.idxmax()  # the first maximum: smallest K, then smallest sigma
        sigma = np.nan if sigma == np.inf else sigma
        records.append((k, sigma, means.max(),
                        _brute_force_accuracy(classifier, metric, matrices, y, train, test, k, sigma)))
    return pd.DataFrame(records, columns=["k", "sigma", "inner_accuracy", "accuracy"])


@pytest.mark.parametrize("classifier,metric", [("citation-knn", "min"), ("knn", "max"),
                                               ("citation-knn", "adapted"),
                                               ("citation-knn", "integrated")])
def test_nested_cv_equals_a_brute_force_protocol(classifier, metric):
    matrices, y = _tied_matrices(3, n_bags=36)
    run = dict(outer_folds=4, inner_folds=3, k_grid=(1, 3, 5), sigma_grid=(1.0, 10.0), seed=4)
    ours = nested_cv(classifier, metric, lambda train: matrices, y, **run)
    oracle = _brute_force_nested_cv(classifier, metric, matrices, y, 4, 3, (1, 3, 5),
                                    (1.0, 10.0), 4)
    pd.testing.assert_frame_equal(ours[oracle.columns], oracle, check_dtype=False)


# -- the comparator of "NCA + golden-section search optimises alpha quickly" -------------------
def _brute_force_alpha_by_cv(classifier, matrices, y, train, inner, ks, alphas, seed):
    """(K, alpha, mean accuracy) of the best cell of a brute-force inner cross-validation over
    K x alpha (scikit-learn's StratifiedKFold, brute-force voting, a pandas groupby; means
    rounded to 1e-12 so that equal fractions tie, the first maximum: smallest K, then alpha)."""
    rows = []
    folds = StratifiedKFold(inner, shuffle=True, random_state=seed)
    for a, b in folds.split(np.zeros(len(train)), y[train]):
        rows += [(k, alpha, _brute_force_accuracy(classifier, "integrated", matrices, y,
                                                  train[a], train[b], k, None, alpha))
                 for k in ks for alpha in alphas]
    means = pd.DataFrame(rows, columns=["k", "alpha", "accuracy"]).groupby(
        ["k", "alpha"])["accuracy"].mean().round(12)
    k, alpha = means.idxmax()
    return {"k": k, "alpha": alpha, "inner_accuracy": means.max()}


@pytest.mark.parametrize("classifier", ["citation-knn", "knn"])
def test_alpha_by_cv_grid_is_the_grids_cv_best_by_brute_force(classifier):
    ks = (1, 3, 5)
    for seed in range(3):
        matrices, y = _tied_matrices(seed, n_bags=30)
        for train, _ in stratified_splits(y, 3, seed):
            fold_of = inner_folds_of(y, train, 3, seed)
            ours = alpha_by_cv_grid(classifier, matrices, y, fold_of, range(3), ks)
            oracle = _brute_force_alpha_by_cv(classifier, matrices, y, train, 3, ks,
                                              ALPHA_GRID, seed)
            assert (ours["k"], ours["alpha"]) == (oracle["k"], pytest.approx(oracle["alpha"]))
            assert ours["inner_accuracy"] == pytest.approx(oracle["inner_accuracy"])


def test_alpha_by_cv_grid_breaks_ties_towards_the_smaller_k_then_alpha():
    # d_minH = d_maxH: every alpha gives the same distances, hence the same accuracies
    matrices, y = _tied_matrices(0, n_bags=30)
    same = {"min": matrices["min"], "max": matrices["min"]}
    train = np.arange(len(y))
    chosen = alpha_by_cv_grid("knn", same, y, inner_folds_of(y, train, 3, 0), range(3),
                              (1, 3))
    assert chosen["alpha"] == 0.0
    assert ALPHA_GRID == (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def test_fixed_alpha_accuracy_and_nca_alphas_match_the_brute_force_and_nca(problem):
    matrices, y = problem
    train, test = stratified_splits(y, 4, 0)[1]
    for classifier in ("citation-knn", "knn"):
        assert fixed_alpha_accuracy(classifier, matrices, y, train, test, 3, 0.3) == \
            pytest.approx(_brute_force_accuracy(classifier, "integrated", matrices, y, train,
                                                test, 3, None, 0.3))
    part = subset(matrices, train, train)
    expected = [tune_alpha_nca(part["min"], part["max"], y[train], sigma)[0]
                for sigma in (1.0, 10.0)]
    np.testing.assert_allclose(nca_alphas(matrices, y, train, (1.0, 10.0)), expected)


def test_inner_folds_of_are_stratified_folds_of_the_training_bags_only(problem):
    _, y = problem
    train = stratified_splits(y, 4, 0)[0][0]
    fold_of = inner_folds_of(y, train, 3, 5)
    outside = np.setdiff1d(np.arange(len(y)), train)
    assert (fold_of[outside] == -1).all() and set(fold_of[train]) == {0, 1, 2}
    expected = np.empty(len(train), dtype=int)
    for number, (_, b) in enumerate(StratifiedKFold(3, shuffle=True, random_state=5).split(
            np.zeros(len(train)), y[train])):
        expected[b] = number
    np.testing.assert_array_equal(fold_of[train], expected)
