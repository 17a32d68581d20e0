"""BAMIC: k-medoids clustering of bags under a Hausdorff bag distance (the TwoViewMIC paper's baselines).

Zhang & Zhou, "Multi-instance clustering with applications to multi-instance prediction",
Applied Intelligence 31:47-68, 2009. BAMIC1/2/3 use the minimal, maximal and average
Hausdorff distance (the TwoViewMIC paper eqs. 23-25; :func:`milab_widgets.mil.bag_distances`). The
extension no paper has (the intH paper's future work): BAMIC-intH, with the integrated distance
d_intH = alpha d_minH + (1 - alpha) d_maxH, alpha tuned by the NCA objective on the
labelled bags (:func:`milab_widgets.mil.tune_alpha_nca`).

k-medoids, alternating form (as BAMIC): start from k distinct bags chosen at random; then

1. assign every bag to its nearest medoid (ties: the lowest cluster number; a medoid always
   stays in its own cluster, so no cluster is ever empty);
2. replace each cluster's medoid by the member with the least total distance to the
   cluster's members, argmin_{i in C} sum_{j in C} D[i, j] (ties: the current medoid if it
   is among the best, else the lowest bag index);

until no medoid changes (or ``max_iter``). Neither step can raise the total distance of the
bags to their medoids, so the loop ends.
"""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClusterMixin
from sklearn.utils import check_random_state

from milab_widgets._sklearn_private import Interval, StrOptions, fit_context, validate_params
from milab_widgets.core.kmedoids import alternate_medoids
from milab_widgets.core.parallel import blas_for_rows
from milab_widgets.data.bags import BagDataset
from milab_widgets.exceptions import InputError
from milab_widgets.mil.distances import METRIC_INPUTS, bag_distances, metric_distance
from milab_widgets.mil.nca import tune_alpha_nca
from milab_widgets.mil.validation import check_distance_matrix, check_precomputed

__all__ = ["BAMIC", "k_medoids"]

METRICS = ("min", "max", "average", "integrated")


@validate_params({"distances": ["array-like"], "medoids": ["array-like"],
                  "max_iter": [Interval(Integral, 1, None, closed="left")]},
                 prefer_skip_nested_validation=True)
def k_medoids(distances: np.ndarray, medoids, max_iter: int = 100):
    """Alternating k-medoids from the given initial medoids (module docstring; the loop is
    :func:`milab_widgets.core.kmedoids.alternate_medoids`).

    Returns
    -------
    medoids : (k,) int array;  labels : (n,) int array;  cost : float (sum of each bag's
    distance to its medoid);  n_iter : int (rounds of assignment and medoid update)
    """
    distances = np.ascontiguousarray(distances, dtype=np.float64)
    medoids, labels, n_iter = alternate_medoids(
        distances, np.asarray(medoids, dtype=np.int64), int(max_iter))
    cost = float(distances[np.arange(len(labels)), medoids[labels]].sum())
    return medoids, labels, cost, int(n_iter)


class BAMIC(ClusterMixin, BaseEstimator):
    """Bag-level multi-instance clustering by k-medoids over a Hausdorff distance.

    Parameters
    ----------
    n_clusters : int
    metric : {"min", "max", "average", "integrated"}, default "average"
        BAMIC1, BAMIC2, BAMIC3, BAMIC-intH.
    sigma : float or None, default None
        Bandwidth of the NCA objective for "integrated". None: the mean distance from each
        labelled bag to its nearest other labelled bag under d_intH(alpha = 0.5), so that
        p_ij weighs the near neighbours, not only the nearest one.
    n_init : int, default 1
        Random starts; the one with the least total distance is kept.
    max_iter : int, default 100
    init : "random" or array of n_clusters distinct bag indices, default "random"
        The initial medoids (an array needs ``n_init=1``).
    random_state : int, RandomState or None

    Attributes
    ----------
    labels_ : (n,) int array;  medoids_ : (n_clusters,) int array of bag indices
    inertia_ : float
        Total distance of the bags to their medoids.
    n_iter_ : int
    alpha_ : float
        The NCA-tuned weight (``metric="integrated"`` only).

    Examples
    --------
    >>> D = np.array([[0, 1, 9, 9], [1, 0, 9, 9], [9, 9, 0, 2], [9, 9, 2, 0]], float)
    >>> model = BAMIC(2, init=[0, 2]).fit(D)
    >>> model.labels_.tolist(), model.medoids_.tolist()
    ([0, 0, 1, 1], [0, 2])

    See Also
    --------
    TwoViewMIClustering : the two-view model BAMIC is compared with.
    bag_distances : the bag distances it clusters by.
    """

    _parameter_constraints: dict = {
        "n_clusters": [Interval(Integral, 1, None, closed="left")],
        "metric": [StrOptions(set(METRICS))],
        "sigma": [Interval(Real, 0, None, closed="neither"), None],
        "n_init": [Interval(Integral, 1, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
        "init": [StrOptions({"random"}), "array-like"],
        "random_state": ["random_state"],
    }

    def __init__(self, n_clusters: int, metric: str = "average", sigma: float | None = None,
                 n_init: int = 1, max_iter: int = 100, init="random", random_state=None):
        self.n_clusters = n_clusters
        self.metric = metric
        self.sigma = sigma
        self.n_init = n_init
        self.max_iter = max_iter
        self.init = init
        self.random_state = random_state

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y_partial=None):
        """Cluster bags by k-medoids on a bag distance.

        Parameters
        ----------
        X : BagDataset, mapping or ndarray
            The bags (distances computed here), a mapping of precomputed matrices
            ``{"min": D, "max": D, "average": D}`` (those the metric needs), or one square distance
            matrix (used as it is; not for "integrated", which needs min and max).
        y_partial : array-like of shape (n_bags,), default=None
            Labels with -1 for unlabelled bags; used only by "integrated", to tune alpha.

        Returns
        -------
        self : BAMIC
            The fitted clustering.
        """
        distances = self._distance_matrix(X, y_partial)
        n = len(distances)
        if self.n_clusters > n:
            raise InputError(f"n_clusters={self.n_clusters} exceeds the {n} bags.")
        best = None
        for start in self._initial_medoids(n):
            result = k_medoids(distances, start, self.max_iter)
            if best is None or result[2] < best[2]:
                best = result
        self.medoids_, self.labels_, self.inertia_, self.n_iter_ = best
        return self

    def _initial_medoids(self, n: int) -> list[np.ndarray]:
        if isinstance(self.init, str) and self.init == "random":
            rng = check_random_state(self.random_state)
            return [rng.choice(n, self.n_clusters, replace=False) for _ in range(self.n_init)]
        medoids = np.asarray(self.init)
        if (self.n_init != 1 or medoids.shape != (self.n_clusters,)
                or not np.issubdtype(medoids.dtype, np.integer)
                or len(np.unique(medoids)) != self.n_clusters or medoids.min() < 0
                or medoids.max() >= n):
            raise InputError(
                f"init must be 'random' or {self.n_clusters} distinct bag indices in "
                f"[0, {n}) with n_init=1; got {self.init!r}."
            )
        return [medoids]

    def _distance_matrix(self, X, y_partial) -> np.ndarray:
        """The matrix k-medoids clusters by. The BLAS rule of `within_free_cores` covers
        only the bag distances and alpha's tuning: a precomputed matrix needs no BLAS, and
        setting its thread count would cost a tenth of a 500-bag fit."""
        kinds = METRIC_INPUTS[self.metric]
        if isinstance(X, BagDataset):
            with blas_for_rows(len(X)):
                matrices = bag_distances(X, kinds=kinds)
        elif isinstance(X, Mapping):
            n = len(np.asarray(next(iter(X.values()), [])))
            matrices = check_precomputed(X, kinds, n, n, symmetric=True)
        elif self.metric == "integrated":
            raise InputError(
                "metric='integrated' needs the minimal and maximal distances: pass a "
                "BagDataset or {'min': D_min, 'max': D_max}, not one matrix."
            )
        else:
            matrices = {self.metric: _square_matrix(X)}
        if self.metric != "integrated":
            return matrices[self.metric]
        with blas_for_rows(len(matrices["min"])):
            self.alpha_ = self._tuned_alpha(matrices["min"], matrices["max"], y_partial)
        return metric_distance(matrices, "integrated", alpha=self.alpha_)

    def _tuned_alpha(self, d_min, d_max, y_partial) -> float:
        """alpha* maximising the NCA objective over the labelled bags."""
        if y_partial is None:
            raise InputError("metric='integrated' tunes alpha on labelled bags: pass "
                             "y_partial (-1 for unlabelled bags).")
        y = np.asarray(y_partial)
        if y.shape != (len(d_min),):
            raise InputError(f"y_partial has shape {y.shape}; pass one entry per bag "
                             f"({len(d_min)}), -1 for the unlabelled ones.")
        if y.dtype.kind not in "biuf" or not np.array_equal(y, np.round(y)):
            raise InputError(f"y_partial must hold integer class labels, -1 for the unlabelled "
                             f"bags; got {y.dtype} values such as {y[:3].tolist()}.")
        labelled = np.flatnonzero(y != -1)
        if len(np.unique(y[labelled])) < 2:
            raise InputError("tuning alpha needs labelled bags of at least two classes in "
                             "y_partial.")
        block = np.ix_(labelled, labelled)
        sigma = (_neighbour_scale(d_min[block], d_max[block]) if self.sigma is None
                 else float(self.sigma))
        alpha, _ = tune_alpha_nca(d_min[block], d_max[block], y[labelled], sigma)
        return alpha


def _square_matrix(X) -> np.ndarray:
    try:
        matrix = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError):
        matrix = None
    if matrix is None or matrix.ndim != 2:
        raise InputError(
            f"X must be a BagDataset, a mapping of distance matrices or one square distance "
            f"matrix; got {type(X).__name__}."
        )
    # k-medoids clusters by d(i, j) = d(j, i): a symmetric matrix
    return check_distance_matrix(matrix, len(matrix), len(matrix), "the distance matrix",
                                 symmetric=True)


def _neighbour_scale(d_min: np.ndarray, d_max: np.ndarray) -> float:
    """Mean distance to the nearest other bag under (d_min + d_max) / 2 (at least tiny)."""
    middle = 0.5 * (d_min + d_max)
    off_diagonal = middle + np.diag(np.full(len(middle), np.inf))
    return max(float(off_diagonal.min(axis=1).mean()), np.finfo(np.float64).tiny)
