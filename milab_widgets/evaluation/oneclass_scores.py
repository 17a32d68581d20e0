"""Scores of one-class classifiers: the geometric mean of the two class accuracies.

    g = sqrt(a+ . a-)     (the paper's eq. 23; Kubat & Matwin 1997, as used by Wu & Ye 2009)

a+ = fraction of normal samples (+1) predicted normal, a- = fraction of outliers (-1)
predicted outliers. Unlike accuracy it is not fooled by calling everything normal.
"""

from __future__ import annotations

import numpy as np

from milab_widgets.data.arrays import as_oneclass_labels
from milab_widgets.exceptions import InputError

__all__ = ["class_accuracies", "g_mean"]


def class_accuracies(y_true, y_pred) -> tuple[float, float]:
    """(a+, a-): accuracy on the normal samples and on the outliers."""
    truth, predicted = np.asarray(y_true), np.asarray(y_pred)
    if truth.shape != predicted.shape or truth.ndim != 1:
        raise InputError(
            f"y_true {truth.shape} and y_pred {predicted.shape} must be 1-D of equal length."
        )
    truth = as_oneclass_labels(truth, len(truth), "y_true")
    predicted = as_oneclass_labels(predicted, len(truth), "y_pred")
    normal, outlier = truth == 1, truth == -1
    if not normal.any() or not outlier.any():
        raise InputError(
            "y_true needs both normal (+1) and outlier (-1) samples for the g-mean; "
            "evaluate on a set holding both classes."
        )
    return float(np.mean(predicted[normal] == 1)), float(np.mean(predicted[outlier] == -1))


def g_mean(y_true, y_pred) -> float:
    r"""Geometric mean of the accuracies on normal and outlier samples.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        +1 (normal) or -1 (outlier).
    y_pred : array-like of shape (n_samples,)
        +1 or -1, as an outlier detector's ``predict`` returns.

    Returns
    -------
    float
        sqrt(a+ a-) in [0, 1]: 0 when either class is wholly misclassified.

    See Also
    --------
    SVDD, CDVSESVDD : the detectors the CDVSE experiments score with it.
    sklearn.metrics.balanced_accuracy_score : the arithmetic mean of the same two accuracies.

    Notes
    -----
    With a+ the fraction of normal samples predicted normal and a- the fraction of outliers
    predicted outliers, :math:`G = \sqrt{a_+ a_-}` (the CDVSE paper's measure; Kubat & Matwin,
    ICML 1997).

    Examples
    --------
    >>> from milab_widgets.evaluation import g_mean
    >>> round(g_mean([1, 1, 1, -1, -1], [1, 1, -1, -1, 1]), 4)   # sqrt(2/3 x 1/2)
    0.5774
    """
    positive, negative = class_accuracies(y_true, y_pred)
    return float(np.sqrt(positive * negative))
