"""Clustering accuracy: clusters matched one-to-one to classes by the Hungarian algorithm.

    ACC = max over one-to-one maps `map` from clusters to classes of
          (1 / N) sum_i delta(t_i, map(r_i))                         (the TwoViewMIC paper eq. 26)

with t_i the true class and r_i the cluster of object i. The best map maximises the trace of
the matched contingency table, a linear assignment problem (Kuhn 1955) solved by
:func:`scipy.optimize.linear_sum_assignment`. With more clusters than classes (or fewer),
the unmatched clusters' objects count as errors.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.optimize import linear_sum_assignment
from sklearn.metrics.cluster import contingency_matrix

from milab_widgets.exceptions import InputError

__all__ = ["clustering_accuracy", "contingency_table", "matched_confusion"]


def contingency_table(y_true, y_pred) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(classes, clusters, counts) with counts[a, b] = #objects of class a in cluster b."""
    y_true, y_pred = _checked_pair(y_true, y_pred)
    counts = contingency_matrix(y_true, y_pred).astype(np.int64, copy=False)
    return np.unique(y_true), np.unique(y_pred), counts


def clustering_accuracy(y_true, y_pred) -> float:
    r"""The fraction of objects whose cluster, mapped to a class one-to-one, is their class.

    Invariant to renaming the clusters; 1.0 exactly when the clusters are the classes.

    Parameters
    ----------
    y_true : array-like of shape (n_objects,)
        Class labels.
    y_pred : array-like of shape (n_objects,)
        Cluster labels (any names).

    Returns
    -------
    float
        In [0, 1].

    See Also
    --------
    TwoViewMIClustering, BAMIC : the clusterings the TwoViewMIC experiments score with it.
    scipy.optimize.linear_sum_assignment : finds the best one-to-one mapping.

    Notes
    -----
    :math:`\mathrm{ACC} = \max_m \frac{1}{n} \sum_i [y_i = m(c_i)]` over one-to-one maps m
    from clusters to classes (the Hungarian algorithm on the contingency table).

    Examples
    --------
    >>> from milab_widgets.evaluation import clustering_accuracy
    >>> clustering_accuracy([0, 0, 1, 1, 2], [5, 5, 7, 7, 7])
    0.8
    """
    _, _, counts = contingency_table(y_true, y_pred)
    rows, cols = linear_sum_assignment(counts, maximize=True)
    return float(counts[rows, cols].sum() / counts.sum())


def matched_confusion(y_true, y_pred) -> pd.DataFrame:
    """The confusion matrix after Hungarian matching: rows = classes, columns = clusters,
    each cluster named and placed under the class it was matched to (unmatched clusters
    last), so the matched counts lie on the diagonal and their sum / N is the ACC."""
    classes, clusters, counts = contingency_table(y_true, y_pred)
    rows, cols = linear_sum_assignment(counts, maximize=True)
    matched_to = dict(zip(cols.tolist(), rows.tolist(), strict=True))
    order = sorted(range(len(clusters)), key=lambda b: (b not in matched_to, matched_to.get(b, b)))
    names = [
        f"cluster {clusters[b]} -> {classes[matched_to[b]]}" if b in matched_to
        else f"cluster {clusters[b]} (unmatched)"
        for b in order
    ]
    table = pd.DataFrame(counts[:, order], index=pd.Index(classes, name="class"), columns=names)
    table.columns.name = "cluster"
    return table


def _checked_pair(y_true, y_pred) -> tuple[np.ndarray, np.ndarray]:
    """1-D label arrays of equal, non-zero length without missing values (a NaN is not
    equal to itself, so each would be a class of its own)."""
    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.ndim != 1 or y_pred.ndim != 1:
        raise InputError("y_true and y_pred must be 1-D arrays with one entry per object.")
    for name, labels in (("y_true", y_true), ("y_pred", y_pred)):
        if labels.dtype.kind == "f" and np.isnan(labels).any() or \
                labels.dtype.kind == "O" and pd.isna(labels).any():
            raise InputError(f"{name} contains NaN or None; every object needs a class and a "
                             "cluster (drop the unlabelled objects first).")
    if len(y_true) != len(y_pred):
        raise InputError(
            f"y_true has {len(y_true)} entries but y_pred has {len(y_pred)}; pass one true "
            "class and one cluster per object."
        )
    if len(y_true) == 0:
        raise InputError("y_true and y_pred are empty; there is nothing to score.")
    return y_true, y_pred
