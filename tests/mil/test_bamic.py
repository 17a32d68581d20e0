"""BAMIC against a brute-force k-medoids and the rule written out loop by loop."""

from itertools import combinations

import numpy as np
import pytest
from scipy.spatial.distance import cdist

from milab_widgets.exceptions import InputError
from milab_widgets.mil import BAMIC, bag_distances, integrated_distance, tune_alpha_nca
from tests.mil.conftest import random_bags


def loop_k_medoids(D, medoids):
    """The alternating rule with plain loops: nearest medoid, then the member with the least
    total distance (current medoid kept on ties, else the lowest index)."""
    medoids = list(medoids)
    while True:
        labels = []
        for i in range(len(D)):
            if i in medoids:
                labels.append(medoids.index(i))
            else:
                labels.append(min(range(len(medoids)), key=lambda k: (D[i, medoids[k]], k)))
        new = []
        for k, current in enumerate(medoids):
            members = [i for i in range(len(D)) if labels[i] == k]
            totals = {i: sum(D[i, j] for j in members) for i in members}
            best = min(totals.values())
            new.append(current if totals[current] <= best else min(i for i in members if totals[i] == best))
        if new == medoids:
            return medoids, labels
        medoids = new


def clustered_points(seed, per_cluster=4, k=3):
    rng = np.random.default_rng(seed)
    centres = rng.normal(scale=20, size=(k, 2))
    points = np.vstack([c + rng.normal(size=(per_cluster, 2)) for c in centres])
    return cdist(points, points), np.repeat(np.arange(k), per_cluster)


@pytest.mark.parametrize("seed", range(6))
def test_equals_the_loop_rule_from_the_same_start(seed):
    rng = np.random.default_rng(seed)
    points = rng.normal(size=(25, 3))
    D = cdist(points, points)
    start = rng.choice(25, 4, replace=False)
    model = BAMIC(4, init=start).fit(D)
    medoids, labels = loop_k_medoids(D, start.tolist())
    assert model.medoids_.tolist() == medoids
    assert model.labels_.tolist() == labels
    assert model.inertia_ == pytest.approx(sum(D[i, medoids[c]] for i, c in enumerate(labels)))


@pytest.mark.parametrize("seed", range(3))
def test_finds_the_exhaustive_optimum_on_small_clustered_data(seed):
    D, truth = clustered_points(seed)
    best_cost = min(D[:, list(m)].min(axis=1).sum() for m in combinations(range(len(D)), 3))
    model = BAMIC(3, n_init=10, random_state=seed).fit(D)
    assert model.inertia_ == pytest.approx(best_cost)
    # clusters = the groups
    assert len({(t, c) for t, c in zip(truth, model.labels_, strict=True)}) == 3


def test_bags_and_precomputed_matrices_agree():
    bags = random_bags(seed=2, n_bags=15)
    matrices = bag_distances(bags)
    for metric in ("min", "max", "average"):
        from_bags = BAMIC(3, metric=metric, random_state=0).fit(bags)
        from_matrix = BAMIC(3, metric=metric, random_state=0).fit(matrices[metric])
        from_mapping = BAMIC(3, metric=metric, random_state=0).fit(matrices)
        assert from_bags.labels_.tolist() == from_matrix.labels_.tolist() == from_mapping.labels_.tolist()


def test_integrated_tunes_alpha_by_nca_on_the_labelled_bags_only():
    bags = random_bags(seed=5, n_bags=20)
    d = bag_distances(bags)
    y = np.full(20, -1)
    labelled = np.array([0, 3, 4, 8, 11, 15, 17])
    y[labelled] = bags.labels[labelled]
    model = BAMIC(2, metric="integrated", sigma=2.0, random_state=0).fit(bags, y)
    block = np.ix_(labelled, labelled)
    alpha, _ = tune_alpha_nca(d["min"][block], d["max"][block], y[labelled], 2.0)
    assert model.alpha_ == pytest.approx(alpha)
    reference = BAMIC(2, metric="average", random_state=0).fit(
        integrated_distance(d["min"], d["max"], alpha))
    assert model.labels_.tolist() == reference.labels_.tolist()


def test_every_medoid_is_in_its_own_cluster_even_with_duplicate_bags():
    D = np.zeros((5, 5))
    model = BAMIC(3, init=np.array([0, 1, 2])).fit(D)
    assert model.labels_[model.medoids_].tolist() == [0, 1, 2]
    assert sorted(set(model.labels_.tolist())) == [0, 1, 2]


def test_bad_inputs_name_the_fix():
    D, _ = clustered_points(0)
    with pytest.raises(InputError, match="exceeds"):
        BAMIC(20).fit(D)
    with pytest.raises(ValueError, match="'metric' parameter of BAMIC"):
        BAMIC(2, metric="cosine").fit(D)
    with pytest.raises(InputError, match="min and max|minimal and maximal"):
        BAMIC(2, metric="integrated").fit(D)
    with pytest.raises(InputError, match="y_partial"):
        BAMIC(2, metric="integrated").fit({"min": D, "max": D})
    with pytest.raises(InputError, match="two classes"):
        BAMIC(2, metric="integrated").fit({"min": D, "max": D}, np.r_[[0, 0], np.full(10, -1)])
    with pytest.raises(InputError, match="distinct bag indices"):
        BAMIC(2, init=[1, 1]).fit(D)
    with pytest.raises(InputError, match="non-negative"):
        BAMIC(2).fit(-D)
    with pytest.raises(InputError, match="square distance"):
        BAMIC(2).fit(np.ones(5))
