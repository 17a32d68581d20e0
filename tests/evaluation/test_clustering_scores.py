"""clustering_accuracy against an exhaustive search over cluster-to-class maps."""

from itertools import permutations

import numpy as np
import pytest

from milab_widgets.evaluation import clustering_accuracy
from milab_widgets.evaluation.clustering_scores import matched_confusion
from milab_widgets.exceptions import InputError


def brute_accuracy(y_true, y_pred):
    classes, clusters = sorted(set(y_true)), sorted(set(y_pred))
    slots = clusters + [None] * max(0, len(classes) - len(clusters))
    best = 0
    for perm in permutations(slots, len(classes)):
        mapping = {cluster: cls for cls, cluster in zip(classes, perm, strict=True)
                   if cluster is not None}
        best = max(best, sum(mapping.get(p) == t for t, p in zip(y_true, y_pred, strict=True)))
    return best / len(y_true)


@pytest.mark.parametrize("seed", range(8))
def test_equals_the_exhaustive_best_map(seed):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 4, size=30)
    y_pred = rng.integers(0, 3 + seed % 3, size=30)  # fewer, as many and more clusters
    assert clustering_accuracy(y_true, y_pred) == pytest.approx(brute_accuracy(y_true, y_pred))


def test_invariant_to_relabelling_the_clusters_and_the_classes():
    rng = np.random.default_rng(1)
    y_true, y_pred = rng.integers(0, 5, size=60), rng.integers(0, 5, size=60)
    base = clustering_accuracy(y_true, y_pred)
    for _ in range(5):
        relabel = rng.permutation(5) + 10
        assert clustering_accuracy(y_true, relabel[y_pred]) == base
        assert clustering_accuracy(np.array(list("abcde"))[y_true], y_pred) == base
    assert clustering_accuracy(y_true, (y_true + 1) % 5) == 1.0


def test_matched_confusion_puts_the_matches_on_the_diagonal():
    y_true = [0, 0, 0, 1, 1, 2, 2, 2]
    y_pred = [5, 5, 9, 9, 9, 7, 7, 5]
    table = matched_confusion(y_true, y_pred)
    assert table.to_numpy().tolist() == [[2, 1, 0], [0, 2, 0], [1, 0, 2]]
    assert np.trace(table.to_numpy()) / len(y_true) == clustering_accuracy(y_true, y_pred)
    assert list(table.columns) == ["cluster 5 -> 0", "cluster 9 -> 1", "cluster 7 -> 2"]
    extra = matched_confusion([0, 0, 1], [0, 1, 2])
    assert extra.columns[-1].endswith("(unmatched)")


def test_bad_inputs():
    with pytest.raises(InputError, match="one true class"):
        clustering_accuracy([0, 1], [0])
    with pytest.raises(InputError, match="empty"):
        clustering_accuracy([], [])
    with pytest.raises(InputError, match="1-D"):
        clustering_accuracy([[0, 1]], [[0, 1]])
