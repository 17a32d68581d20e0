"""Evaluating one bag classifier with fixed parameters on precomputed bag distances.

No parameter search here (that is :mod:`.neighbors_cv`): the estimator's parameters are used
as given, e.g. an integrated-Hausdorff alpha set by hand, or ``alpha=None`` to let the
estimator tune alpha by NCA on each training part (the intH paper, §1.2). Matrices cover all
bags; a split only slices them, so no instance distance is computed twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from sklearn.base import clone

from milab_widgets.evaluation.splits import subset
from milab_widgets.exceptions import InputError

__all__ = ["HeldOutBag", "fold_accuracies", "fold_summary", "held_out_bag"]


def fold_accuracies(
    estimator, matrices: dict, y, splits: Sequence[tuple[np.ndarray, np.ndarray]]
) -> np.ndarray:
    """Test accuracy of a fresh clone of ``estimator`` on each (train, test) split.

    Parameters
    ----------
    estimator : BagKNN or CitationKNN (unfitted; cloned per split)
        A classifier that accepts precomputed matrices, e.g. from ``make_bag_classifier``.
    matrices : dict kind -> (n_bags, n_bags) array
        Bag distances over all bags (``bag_distances(dataset)``).
    y : (n_bags,) 0/1 labels.
    splits : sequence of (train indices, test indices)
        E.g. ``stratified_splits(y, n_folds, seed)``.

    Returns
    -------
    (n_splits,) array of accuracies in [0, 1].
    """
    y = np.asarray(y)
    accuracies = []
    for train, test in splits:
        model = clone(estimator).fit(subset(matrices, train, train), y[train])
        accuracies.append(float((model.predict(subset(matrices, test, train)) == y[test]).mean()))
    return np.array(accuracies)


def fold_summary(accuracies) -> tuple[float, float]:
    """(mean, standard deviation) of the accuracies of F folds, the std with ddof = 1,
    sqrt(sum_f (a_f - mean)^2 / (F - 1)), as :func:`milab_widgets.experiments.inth.summarise`
    computes it for the regenerated Tables 3-4; InputError for fewer than 2 folds (no
    spread to report)."""
    accuracies = np.asarray(accuracies, dtype=float)
    if accuracies.ndim != 1 or len(accuracies) < 2:
        raise InputError(f"need the accuracies of at least 2 folds (a 1-D array); got shape "
                         f"{accuracies.shape}. Use 2 or more CV folds.")
    return float(accuracies.mean()), float(accuracies.std(ddof=1))


@dataclass(frozen=True)
class HeldOutBag:
    """One bag classified by a model fitted on all the other bags.

    ``neighbours`` has one row per training bag that voted, nearest first: bag (index into
    the dataset), label, distance (the classifier's metric), role ("reference", "citer" or
    "reference + citer").
    """

    bag: int
    label: int
    prediction: int
    neighbours: pd.DataFrame

    @property
    def correct(self) -> bool:
        return self.prediction == self.label


def held_out_bag(estimator, matrices: dict, y, bag: int) -> HeldOutBag:
    """Fit a clone of ``estimator`` on every bag but ``bag``, then classify ``bag``.

    References are the query's nearest training bags; citers (Citation-KNN only, Wang &
    Zucker 2000) are the training bags that rank the query among their C nearest.
    """
    y = np.asarray(y)
    if not 0 <= bag < len(y):
        raise InputError(f"bag={bag} is not a bag index; choose one in 0..{len(y) - 1}.")
    others = np.delete(np.arange(len(y)), bag)
    model = clone(estimator).fit(subset(matrices, others, others), y[others])
    query = subset(matrices, [bag], others)
    is_reference = np.zeros(len(others), dtype=bool)
    is_reference[model.reference_indices(query)[0]] = True
    has_citers = hasattr(model, "citer_mask")
    is_citer = model.citer_mask(query)[0] if has_citers else np.zeros(len(others), dtype=bool)
    voters = np.flatnonzero(is_reference | is_citer)
    distances = model.query_distances(query)[0]
    roles = np.array(["", "reference", "citer", "reference + citer"])
    neighbours = pd.DataFrame({
        "bag": others[voters],
        "label": y[others[voters]],
        "distance": distances[voters],
        "role": roles[is_reference[voters] + 2 * is_citer[voters]],
    }).sort_values(["distance", "bag"], kind="stable", ignore_index=True)
    return HeldOutBag(bag=int(bag), label=int(y[bag]),
                      prediction=int(model.predict(query)[0]), neighbours=neighbours)
