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
    """sqrt(a+ a-) for labels +1 (normal) / -1 (outlier)."""
    positive, negative = class_accuracies(y_true, y_pred)
    return float(np.sqrt(positive * negative))
