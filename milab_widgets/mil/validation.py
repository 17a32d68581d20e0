"""Input checks shared by the multi-instance estimators: each error names the fix."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from sklearn.utils.multiclass import type_of_target

from milab_widgets.core.symmetry import (
    DISTANCES_OK,
    NOT_FINITE_NON_NEGATIVE,
    NOT_SYMMETRIC,
    check_symmetric_distances,
)
from milab_widgets.data.arrays import check_bounded, holds_text
from milab_widgets.data.bags import BagDataset
from milab_widgets.exceptions import InputError

__all__ = [
    "check_bags", "check_same_features", "check_fitted_features", "check_binary_labels",
    "check_class_labels", "check_distance_matrix", "check_precomputed", "check_choice",
    "check_positive_int",
]


def check_bags(bags, name: str = "bags") -> BagDataset:
    """Return ``bags`` if it is a BagDataset whose instances are still finite and bounded
    (checked again here: the arrays may have been changed after construction), else a
    clear InputError."""
    if isinstance(bags, BagDataset):
        check_bounded(bags.instances, f"{name}.instances")
        return bags
    raise InputError(
        f"{name} must be a BagDataset, got {type(bags).__name__}; build one with "
        "BagDataset.from_bags(list_of_2d_arrays, labels) or load_dataset(name)."
    )


def check_same_features(train: BagDataset, query: BagDataset) -> None:
    """``query`` described by the training bags' features (see :func:`check_fitted_features`)."""
    check_fitted_features(train.n_features, train.feature_names, query, "the training bags have")


def check_fitted_features(n_features: int, feature_names, query: BagDataset, fitted: str) -> None:
    """``query`` has ``n_features`` features and, when both it and the fit carry column names,
    the same names in the same order (scikit-learn's rule for DataFrame columns); ``fitted``
    names the fit in the message, e.g. "the kernel was fitted on"."""
    if query.n_features != n_features:
        raise InputError(f"query bags have {query.n_features} features but {fitted} "
                         f"{n_features}; use instances described by the same features.")
    if feature_names is not None and query.feature_names is not None and \
            list(query.feature_names) != list(feature_names):
        raise InputError(
            f"query bags' feature names {list(query.feature_names)[:6]} differ from those "
            f"{fitted} {list(feature_names)[:6]}: the feature names should match those passed "
            "at fit, in the same order; select the columns in the training order.")


def check_binary_labels(y, n_bags: int) -> np.ndarray:
    """Bag labels as an int array of 0/1 holding both classes."""
    labels = np.asarray(y)
    if labels.shape != (n_bags,):
        raise InputError(f"y has shape {labels.shape}; pass one label per bag ({n_bags}).")
    values = set(np.unique(labels).tolist())
    if not values <= {0, 1}:
        raise InputError(
            f"y must hold bag labels 0 (negative) and 1 (positive); got values {sorted(values)}."
        )
    if len(values) < 2:
        raise InputError(
            f"y holds only class {values.pop()}; a classifier needs positive and negative "
            "training bags (check the split or the labels)."
        )
    return labels.astype(np.int64)


def check_class_labels(y, name: str = "y") -> np.ndarray:
    """Class labels (integers, strings or integral floats; 1-D, no NaN) as int64 codes
    0..k-1, equal codes for equal labels. Continuous values such as 0.5 are refused rather
    than truncated."""
    labels = np.asarray(y)
    if labels.ndim != 1:
        raise InputError(f"{name} has shape {labels.shape}; pass one class label per bag (1-D).")
    if labels.size and type_of_target(labels, input_name=name).startswith("continuous"):
        raise InputError(f"{name} holds continuous values such as {labels.ravel()[0]}; pass class "
                         "labels (integers or strings), one per bag.")
    return np.unique(labels, return_inverse=True)[1].astype(np.int64).ravel()


def check_distance_matrix(matrix, n_rows: int | None, n_cols: int, what: str,
                          symmetric: bool = False) -> np.ndarray:
    """A finite, non-negative real float matrix of the expected shape; with ``symmetric``
    (a square bag-to-bag matrix) also symmetric to rounding, checked in the same pass
    (`milab_widgets.core.symmetry.check_symmetric_distances`)."""
    if isinstance(matrix, BagDataset):
        raise InputError(f"{what} must be a matrix of bag distances, got a BagDataset (bags): "
                         "with metric='precomputed' pass distances, e.g. "
                         "bag_distances(bags)['min'], or pass the bags with a metric such as "
                         "metric='integrated'.")
    matrix = np.asarray(matrix)
    if matrix.dtype.kind == "c":
        raise InputError(f"{what} holds complex numbers; pass real distances.")
    if holds_text(matrix):
        raise InputError(f"{what} holds text, not numbers; pass a numeric matrix of "
                         "distances (text such as '1.5' is not converted).")
    try:
        matrix = matrix.astype(np.float64, copy=False)
    except (TypeError, ValueError):
        raise InputError(f"{what} must be a numeric matrix of distances, got "
                         f"{type(matrix).__name__} that does not convert to floats.") from None
    expected = (n_rows if n_rows is not None else matrix.shape[0], n_cols)
    if matrix.ndim != 2 or matrix.shape != expected:
        raise InputError(
            f"{what} has shape {matrix.shape}; expected {expected} "
            "(rows = query bags, columns = training bags)."
        )
    if symmetric:
        status = check_symmetric_distances(matrix)
    elif np.isfinite(matrix).all() and not (matrix < 0).any():
        status = DISTANCES_OK
    else:
        status = NOT_FINITE_NON_NEGATIVE
    if status == NOT_FINITE_NON_NEGATIVE:
        raise InputError(f"{what} must hold finite, non-negative distances.")
    if status == NOT_SYMMETRIC:
        raise InputError(f"{what} is not symmetric; pass bag-to-bag distances with D[i, j] = "
                         "D[j, i] (as bag_distances(bags) gives).")
    return matrix


def check_precomputed(distances, kinds, n_rows: int | None, n_cols: int,
                      symmetric: bool = False) -> dict:
    """A mapping kind -> distance matrix holding every kind in ``kinds`` (each symmetric
    too with ``symmetric``: see :func:`check_distance_matrix`)."""
    if not isinstance(distances, Mapping):
        raise InputError(
            "precomputed distances must be a mapping like {'min': D_min, 'max': D_max}, "
            f"got {type(distances).__name__}."
        )
    missing = [kind for kind in kinds if kind not in distances]
    if missing:
        raise InputError(
            f"precomputed distances lack {missing}; this metric needs {list(kinds)} "
            "(compute them with bag_distances(...))."
        )
    return {
        kind: check_distance_matrix(distances[kind], n_rows, n_cols, f"the '{kind}' matrix",
                                    symmetric)
        for kind in kinds
    }


def check_choice(value, choices, name: str):
    if value not in choices:
        raise InputError(f"{name}={value!r} is not one of {list(choices)}.")
    return value


def check_positive_int(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InputError(f"{name} must be a positive integer, got {value!r}.")
    return int(value)

