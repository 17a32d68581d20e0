"""Bag-to-bag Hausdorff distances: minimal, maximal, average, adapted and integrated.

The three label-free distances come from one fused pass over bag-aligned Gram tiles, the
symmetric case from the upper triangle of tiles only
(:func:`milab_widgets.core.hausdorff.hausdorff_matrices`); the adapted and integrated
distances are cheap combinations of those matrices, so tuning alpha, sigma or the labels
never recomputes an instance distance.
"""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Real

import numpy as np

from milab_widgets._sklearn_private import Interval, StrOptions, validate_params
from milab_widgets.core.hausdorff import hausdorff_matrices
from milab_widgets.data.bags import BagDataset
from milab_widgets.exceptions import InputError
from milab_widgets.mil.validation import (
    check_bags,
    check_distance_matrix,
    check_same_features,
)

__all__ = ["bag_distances", "integrated_distance", "adapted_distance", "metric_distance"]

#: Distances computed from instances by :func:`bag_distances`.
BASE_KINDS = ("min", "max", "average")
#: Every metric the classifiers accept, with the base matrices each one needs.
METRIC_INPUTS = {
    "min": ("min",),
    "max": ("max",),
    "average": ("average",),
    "integrated": ("min", "max"),
    "adapted": ("min", "max"),
}


#: Gram-product precisions accepted by :func:`bag_distances`.
PRECISIONS = {"float64": np.float64, "float32": np.float32}


@validate_params({"X": "no_validation", "Y": "no_validation", "kinds": [str, "array-like"],
                  "precision": [StrOptions(set(PRECISIONS))]},
                 prefer_skip_nested_validation=True)
def bag_distances(X: BagDataset, Y: BagDataset | None = None, kinds=BASE_KINDS,
                  precision: str = "float64") -> dict:
    """Minimal, maximal and average Hausdorff distances between the bags of X and Y.

    Parameters
    ----------
    X, Y : BagDataset
        ``Y=None`` gives the symmetric X x X matrices (exact zeros on the diagonal).
    kinds : iterable of {"min", "max", "average"}
        Which matrices to return. All three come from the same pass, so asking for one
        costs as much as asking for three.
    precision : {"float64", "float32"}
        Precision of the instance Gram products. "float32" is about twice as fast; each
        distance D is then off by at most about min(delta / (2 D), sqrt(delta)) with
        delta = 2 d eps32 R^2 (d features, eps32 = 1.2e-7, R the largest distance of an
        instance to the mean): ~1e-6 relative for typical distances, ~3e-4 R at worst for a
        distance near zero. Results are float64 either way.

    Returns
    -------
    dict kind -> ndarray of shape (len(X), len(Y or X))

    Notes
    -----
    d_minH(A,B) = min_r min_s ||a_r - b_s||; d_maxH(A,B) = max(h(A,B), h(B,A)) with
    h(A,B) = max_r min_s ||a_r - b_s|| (the intH paper eqs. 1-4, corrected); d_aveH(A,B) =
    (sum_r min_s ||a_r - b_s|| + sum_s min_r ||b_s - a_r||) / (|A| + |B|) (Zhang & Zhou,
    "Multi-instance clustering with applications to multi-instance prediction", Applied
    Intelligence 31:47-68, 2009).

    Examples
    --------
    >>> A = BagDataset.from_bags([[[-1.0], [-2.0], [-3.0]], [[1.0], [2.0], [50.0]]])
    >>> d = bag_distances(A)
    >>> float(d["max"][0, 1]), float(d["min"][0, 1])
    (51.0, 2.0)

    See Also
    --------
    integrated_distance, adapted_distance : combine these matrices.
    metric_distance : one metric's matrix by name.
    nearest_bags : each bag's nearest bags without the full matrices (beyond memory).
    """
    kinds = _check_kinds(kinds)
    dtype = PRECISIONS[precision]
    X = check_bags(X, "X")
    if Y is None:
        matrices = hausdorff_matrices(X.instances, X.offsets, dtype=dtype)
    else:
        Y = check_bags(Y, "Y")
        check_same_features(X, Y)
        matrices = hausdorff_matrices(X.instances, X.offsets, Y.instances, Y.offsets, dtype=dtype)
    by_kind = dict(zip(BASE_KINDS, matrices, strict=True))
    return {kind: by_kind[kind] for kind in kinds}


@validate_params({"d_min": ["array-like"], "d_max": ["array-like"],
                  "alpha": [Interval(Real, 0, 1, closed="both")]},
                 prefer_skip_nested_validation=True)
def integrated_distance(d_min, d_max, alpha: float) -> np.ndarray:
    r"""d_intH = alpha * d_minH + (1 - alpha) * d_maxH, 0 <= alpha <= 1 (the intH paper eq. 5).

    ``d_min`` and ``d_max`` are finite, non-negative matrices of the same shape.

    Parameters
    ----------
    d_min, d_max : ndarray of shape (n_rows, n_cols)
        Minimal and maximal Hausdorff distances (finite, non-negative, same shape).
    alpha : float in [0, 1]
        Weight of d_minH.

    Returns
    -------
    ndarray of shape (n_rows, n_cols)
        The integrated Hausdorff distances.

    See Also
    --------
    bag_distances : the d_minH and d_maxH matrices.
    tune_alpha_nca : chooses alpha by NCA.

    Notes
    -----
    The intH paper's eq. 5,

    .. math:: d_{intH}(A, B) = \alpha\, d_{minH}(A, B) + (1 - \alpha)\, d_{maxH}(A, B),

    joins the two extremes of the Hausdorff family: alpha = 1 is d_minH, alpha = 0 is d_maxH
    (integrated Hausdorff distance for multi-instance learning, Journal of Shandong
    University (Engineering Science), 2016).

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.data import BagDataset
    >>> from milab_widgets.mil import bag_distances
    >>> bags = BagDataset.from_bags([[[0.0], [1.0]], [[0.5], [4.0]], [[9.0], [10.0]]],
    ...                             labels=[1, 1, 0])
    >>> d = bag_distances(bags)
    >>> from milab_widgets.mil import integrated_distance
    >>> round(float(d["min"][0, 1]), 9), round(float(d["max"][0, 1]), 9)
    (0.5, 3.0)
    >>> round(float(integrated_distance(d["min"], d["max"], alpha=0.5)[0, 1]), 9)
    1.75
    """
    d_min, d_max = _checked_pair(d_min, d_max)
    return alpha * d_min + (1.0 - alpha) * d_max


@validate_params({"d_min": ["array-like"], "d_max": ["array-like"], "labels": ["array-like"]},
                 prefer_skip_nested_validation=True)
def adapted_distance(d_min, d_max, labels) -> np.ndarray:
    """Adapted Hausdorff distance, keyed on the label of the labelled bag of each pair.

    ``result[i, j] = d_minH[i, j]`` when ``labels[j] == 1`` and ``d_maxH[i, j]`` when
    ``labels[j] == 0``: a positive bag holds at least one positive instance among negative
    ones, so only its closest instance pair is informative; a negative bag holds only
    negative instances, so the whole-set (maximal) distance is.

    After Zafra, Pechenizkiy & Ventura, "ReliefF-MI: an extension of ReliefF to multiple
    instance learning", Neurocomputing 75:210-218 (2012), where the bag distance depends on
    the label of the bag whose neighbours are sought. Their exact formula could not be
    confirmed from any source reachable here; this is the rule we use and test. Columns are
    the labelled bags: for a query x train matrix, the training bag decides; for the
    train x train matrix that Citation-KNN ranks citers with, pass it transposed so that
    each training bag's own label decides the distances to its candidate neighbours.
    ``labels`` must be 0/1 (or False/True): any other value is refused, not read as negative.

    Parameters
    ----------
    d_min, d_max : ndarray of shape (n_rows, n_cols)
        Minimal and maximal Hausdorff distances (same shape).
    labels : array-like of shape (n_cols,)
        0/1 labels of the column bags.

    Returns
    -------
    ndarray of shape (n_rows, n_cols)
        d_minH in the columns of positive bags, d_maxH in those of negative bags.

    See Also
    --------
    bag_distances : the d_minH and d_maxH matrices.
    integrated_distance : a fixed mix of the two instead of a switch on the label.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.data import BagDataset
    >>> from milab_widgets.mil import bag_distances
    >>> bags = BagDataset.from_bags([[[0.0], [1.0]], [[0.5], [4.0]], [[9.0], [10.0]]],
    ...                             labels=[1, 1, 0])
    >>> d = bag_distances(bags)
    >>> from milab_widgets.mil import adapted_distance
    >>> adapted = adapted_distance(d["min"], d["max"], bags.labels)
    >>> float(adapted[2, 0]), float(adapted[0, 2])     # column 0 positive, column 2 negative
    (8.0, 9.0)
    """
    d_min, d_max = _checked_pair(d_min, d_max)
    labels = np.asarray(labels)
    if labels.shape != (d_min.shape[1],):
        raise InputError(
            f"labels has shape {labels.shape}; pass one label per column bag ({d_min.shape[1]})."
        )
    if labels.dtype.kind not in "biuf" or not np.isin(labels, (0, 1)).all():
        values = np.unique(labels.astype(str) if labels.dtype.kind not in "biuf" else labels)
        raise InputError(f"labels must be 0 (negative) or 1 (positive) bag labels; got values "
                         f"{values[:6].tolist()}.")
    return np.where(labels[np.newaxis, :] == 1, d_min, d_max)


def _checked_pair(d_min, d_max) -> tuple[np.ndarray, np.ndarray]:
    """Two finite, non-negative 2-D distance matrices of the same shape (no broadcasting)."""
    shape = np.shape(d_min)
    if len(shape) != 2 or np.shape(d_max) != shape:
        raise InputError(f"d_min has shape {shape} and d_max {np.shape(d_max)}; pass two "
                         "distance matrices of the same 2-D shape (query x train bags).")
    return (check_distance_matrix(d_min, shape[0], shape[1], "d_min"),
            check_distance_matrix(d_max, shape[0], shape[1], "d_max"))


@validate_params({"matrices": [Mapping], "metric": [StrOptions(set(METRIC_INPUTS))],
                  "alpha": [Interval(Real, 0, 1, closed="both"), None],
                  "labels": ["array-like", None]},
                 prefer_skip_nested_validation=True)
def metric_distance(matrices, metric: str, *, alpha: float | None = None, labels=None):
    """One metric's bag-distance matrix from the base matrices of :func:`bag_distances`.

    Parameters
    ----------
    matrices : dict kind -> (n_rows, n_cols) array
        Holding at least ``METRIC_INPUTS[metric]``.
    metric : {"min", "max", "average", "integrated", "adapted"}
    alpha : float
        The weight of d_minH, for "integrated".
    labels : (n_cols,) array
        The column bags' labels, for "adapted" (see :func:`adapted_distance`).

    Returns
    -------
    ndarray of shape (n_rows, n_cols)
        The bag distances of ``metric``.

    See Also
    --------
    bag_distances : the base matrices.
    integrated_distance, adapted_distance : the two combined metrics.

    Examples
    --------
    >>> import numpy as np
    >>> from milab_widgets.data import BagDataset
    >>> from milab_widgets.mil import bag_distances
    >>> bags = BagDataset.from_bags([[[0.0], [1.0]], [[0.5], [4.0]], [[9.0], [10.0]]],
    ...                             labels=[1, 1, 0])
    >>> d = bag_distances(bags)
    >>> from milab_widgets.mil import metric_distance
    >>> float(metric_distance(d, "integrated", alpha=1.0)[0, 1]) == float(d["min"][0, 1])
    True
    """
    missing = [kind for kind in METRIC_INPUTS[metric] if kind not in matrices]
    if missing:
        raise InputError(f"matrices lacks {missing}; metric={metric!r} needs "
                         f"{list(METRIC_INPUTS[metric])} (compute them with bag_distances).")
    if metric == "integrated":
        if alpha is None:
            raise InputError("the integrated distance needs alpha (tune it with tune_alpha_nca).")
        return integrated_distance(matrices["min"], matrices["max"], alpha)
    if metric == "adapted":
        if labels is None:
            raise InputError("the adapted distance needs the column bags' labels.")
        return adapted_distance(matrices["min"], matrices["max"], labels)
    matrix = matrices[metric]
    return check_distance_matrix(matrix, np.shape(matrix)[0], np.shape(matrix)[-1],
                                 f"matrices[{metric!r}]")


def _check_kinds(kinds) -> tuple:
    kinds = (kinds,) if isinstance(kinds, str) else tuple(kinds)
    unknown = [kind for kind in kinds if kind not in BASE_KINDS]
    if unknown or not kinds:
        raise InputError(
            f"kinds {unknown or kinds} not understood; choose from {list(BASE_KINDS)} "
            "(integrated and adapted distances are combinations: see integrated_distance "
            "and adapted_distance)."
        )
    return kinds
