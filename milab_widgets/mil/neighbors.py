"""Nearest-neighbour multi-instance classifiers over Hausdorff bag distances.

Both accept training/query bags as a :class:`BagDataset` (distances computed here), as a
mapping of precomputed matrices ``{"min": D, "max": D, ...}`` (rows = query bags, columns =
training bags; what cross-validation passes), or, with ``metric="precomputed"``, as one
distance matrix of any kind.

Beyond memory: when a full matrix (``PAIR_BYTES`` per bag pair) would exceed scikit-learn's
``working_memory`` (``sklearn.set_config(working_memory=MiB)``, 1024 unless changed), fit and
predict go block by block through :mod:`milab_widgets.mil.nearest` instead: the citation
radii from each training bag's C nearest training bags, the votes from one block of query
bags at a time, with the same votes as the full matrices (tests/mil/test_nearest_bags.py).
Only NCA's tuning of alpha (``metric="integrated"``, ``alpha=None``) still needs the full
training matrices.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from numbers import Integral, Real

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.preprocessing import StandardScaler
from sklearn.utils.validation import check_is_fitted

from milab_widgets._sklearn_private import Interval, StrOptions, fit_context, validate_params
from milab_widgets.core.neighbor_votes import citation_radii, neighbor_votes
from milab_widgets.data.bags import BagDataset
from milab_widgets.exceptions import InputError
from milab_widgets.mil.distances import METRIC_INPUTS, bag_distances, metric_distance
from milab_widgets.mil.nca import tune_alpha_nca
from milab_widgets.mil.nearest import map_distance_blocks, matrices_fit, nearest_in_blocks
from milab_widgets.mil.validation import (
    check_bags,
    check_binary_labels,
    check_distance_matrix,
    check_positive_int,
    check_precomputed,
    check_same_features,
)

__all__ = ["BagKNN", "CitationKNN", "make_bag_classifier"]

METRICS = (*METRIC_INPUTS, "precomputed")

#: C = R + 2: Citation-KNN's citers beyond its references when ``citers=None`` (Wang &
#: Zucker 2000's setting, which the intH paper keeps).
CITERS_BEYOND_REFERENCES = 2
SCALINGS = ("none", "standard")


class _BagNeighborsClassifier(ClassifierMixin, BaseEstimator):
    """Shared fitting, distance and voting machinery; subclasses define the neighbourhood."""

    #: Declared parameter constraints, checked by ``_fit_context`` before any work.
    _parameter_constraints: dict = {
        "metric": [StrOptions(set(METRICS))],
        "sigma": [Interval(Real, 0, None, closed="neither")],
        "alpha": [Interval(Real, 0, 1, closed="both"), None],
        "scale": [StrOptions(set(SCALINGS))],
    }

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Store the training bags and their distances; tune alpha for "integrated".

        Parameters
        ----------
        X : BagDataset
            Training bags.
        y : array-like of shape (n_bags,)
            0/1 bag labels.

        Returns
        -------
        self
            The fitted classifier.
        """
        n_train = self._n_bags(X, y)
        self.y_ = check_binary_labels(y, n_train)
        self.classes_ = np.array([0, 1])
        self.n_train_ = n_train
        matrices = self._training_matrices(X)
        if self.metric == "integrated":
            self.alpha_ = self._tuned_alpha(matrices)
        self.train_distances_ = None if matrices is None else np.ascontiguousarray(
            self._combine(matrices, rows_are_training=True), dtype=np.float64)
        self._fit_neighborhood()
        return self

    def decision_function(self, X) -> np.ndarray:
        """Positive minus negative votes per query bag (> 0 means positive).

        Parameters
        ----------
        X : BagDataset
            Query bags, with the training bags' number of features.

        Returns
        -------
        ndarray of shape (n_query,)
            The vote margins.
        """
        check_is_fitted(self, "train_distances_")
        ks = np.array([self._n_references()])
        return self._votes(X, ks, self._fitted_radii())[0]

    def predict(self, X) -> np.ndarray:
        """Label each query bag 0 or 1; a tie of votes predicts negative (Wang & Zucker 2000).

        Parameters
        ----------
        X : BagDataset
            Query bags, with the training bags' number of features.

        Returns
        -------
        ndarray of shape (n_query,)
            0/1 labels.
        """
        return (self.decision_function(X) > 0).astype(np.int64)

    def query_distances(self, X) -> np.ndarray:
        """The query x training matrix of this classifier's metric.

        Parameters
        ----------
        X : BagDataset
            Query bags, with the training bags' number of features.

        Returns
        -------
        ndarray of shape (n_query, n_train)
            Bag distances.
        """
        check_is_fitted(self, "train_distances_")
        return self._combine(self._query_matrices(X), rows_are_training=False)

    def reference_indices(self, X) -> np.ndarray:
        """Indices of each query bag's nearest training bags (ties: lower index first).

        Parameters
        ----------
        X : BagDataset
            Query bags, with the training bags' number of features.

        Returns
        -------
        ndarray of int, shape (n_query, K)
            Training-bag indices, nearest first.
        """
        if self._blocked(X):
            return nearest_in_blocks(self.train_bags_, self._checked_queries(X),
                                     self._n_references(), self._base_kinds(),
                                     self._block_metric(queries_are_training=False))[1]
        return _nearest(self.query_distances(X), self._n_references())

    def decision_function_grid(self, X, ks) -> np.ndarray:
        """``decision_function(X)`` for several K at once, from one scan of the distances.

        K is ``n_neighbors``, or ``references`` with ``citers`` k + 2 when ``citers`` is None.
        What a parameter search over K costs once the distances exist: the same votes as len(ks)
        separate fits and predictions, without them.

        Parameters
        ----------
        X : BagDataset
            Query bags, with the training bags' number of features.
        ks : sequence of int
            The values of K.

        Returns
        -------
        ndarray of shape (len(ks), n_query)
            One row of vote margins per K.
        """
        check_is_fitted(self, "train_distances_")
        ks = np.array([check_positive_int(k, "K") for k in ks], dtype=np.int64)
        if ks.max() > self.n_train_:
            raise InputError(f"K = {ks.max()} exceeds the {self.n_train_} training bags.")
        return self._votes(X, ks, self._radii(ks))

    def _votes(self, X, ks: np.ndarray, radii: np.ndarray) -> np.ndarray:
        if self._blocked(X):  # one block of query bags at a time, through the same kernel
            votes = map_distance_blocks(
                self.train_bags_, self._checked_queries(X), self._base_kinds(),
                self._block_metric(queries_are_training=False),
                partial(_block_votes, self.y_, ks, radii))
            return np.concatenate(votes, axis=1)
        distances = np.ascontiguousarray(self.query_distances(X), dtype=np.float64)
        return neighbor_votes(distances, np.arange(len(distances)), np.arange(self.n_train_),
                              self.y_, ks, radii)

    def _radii(self, ks: np.ndarray) -> np.ndarray:
        """Citation radii per K (:func:`~milab_widgets.core.neighbor_votes.citation_radii`);
        none for k-NN."""
        return np.empty((0, self.n_train_))

    def _fitted_radii(self) -> np.ndarray:
        """The radii of the fitted K: none for k-NN; Citation-KNN keeps its own from fit."""
        return self._radii(np.array([self._n_references()]))

    # -- distances -----------------------------------------------------------------------------
    def _n_bags(self, X, y) -> int:
        if isinstance(X, BagDataset):
            return len(X)
        return len(np.asarray(y))

    def _training_matrices(self, X):
        if self.metric == "precomputed":
            return check_distance_matrix(X, self.n_train_, self.n_train_, "the distance matrix")
        if isinstance(X, Mapping):
            self.train_bags_ = None
            return check_precomputed(X, METRIC_INPUTS[self.metric], self.n_train_, self.n_train_)
        bags = check_bags(X, "X")
        self.scaler_ = StandardScaler().fit(bags.instances) if self.scale == "standard" else None
        self.train_bags_ = self._scaled(bags)
        if not matrices_fit(self.n_train_, self.n_train_) and not (
                self.metric == "integrated" and self.alpha is None):
            return None  # beyond working_memory: radii and votes go block by block
        return bag_distances(self.train_bags_, kinds=self._base_kinds())

    def _query_matrices(self, X):
        if self.metric == "precomputed":
            return check_distance_matrix(X, None, self.n_train_, "the query distance matrix")
        if isinstance(X, Mapping):
            return check_precomputed(X, METRIC_INPUTS[self.metric], None, self.n_train_)
        bags = check_bags(X, "X")
        if self.train_bags_ is None:
            raise InputError(
                "this classifier was fitted on precomputed distances; pass query distances "
                "(a mapping of query x train matrices), not bags."
            )
        check_same_features(self.train_bags_, bags)
        return bag_distances(self._scaled(bags), self.train_bags_, kinds=self._base_kinds())

    def _blocked(self, X) -> bool:
        """Whether query bags X take the blocked route: distances computed here (not
        precomputed) and a query x train matrix beyond ``working_memory``."""
        check_is_fitted(self, "train_distances_")
        return (isinstance(X, BagDataset) and getattr(self, "train_bags_", None) is not None
                and self.metric != "precomputed" and not matrices_fit(len(X), self.n_train_))

    def _checked_queries(self, X) -> BagDataset:
        bags = check_bags(X, "X")
        check_same_features(self.train_bags_, bags)
        return self._scaled(bags)

    def _block_metric(self, queries_are_training: bool):
        """``combine`` of :func:`~milab_widgets.mil.nearest.map_distance_blocks` for this
        metric (rows: training bags; columns: the block's query bags)."""
        return partial(_metric_block, self.metric, getattr(self, "alpha_", None), self.y_,
                       queries_are_training)

    def _base_kinds(self) -> tuple:
        return tuple(dict.fromkeys(METRIC_INPUTS[self.metric]))

    def _scaled(self, bags: BagDataset) -> BagDataset:
        return bags if self.scaler_ is None else bags.map_instances(self.scaler_.transform)

    def _tuned_alpha(self, matrices) -> float:
        if self.alpha is not None:
            return float(self.alpha)
        alpha, self.nca_objective_ = tune_alpha_nca(
            matrices["min"], matrices["max"], self.y_, self.sigma
        )
        return alpha

    def _combine(self, matrices, rows_are_training: bool) -> np.ndarray:
        """This metric's matrix from the base matrices."""
        if self.metric == "precomputed":
            return matrices
        combined = metric_distance(matrices, self.metric, alpha=getattr(self, "alpha_", None),
                                   labels=self.y_)
        if self.metric == "adapted" and rows_are_training:
            return combined.T  # training rows rank their own neighbours: their label decides
        return combined

    def _fit_neighborhood(self) -> None:
        if self._n_references() > self.n_train_:
            raise InputError(
                f"{self._n_references()} neighbours requested but only {self.n_train_} "
                "training bags; lower the number of references / neighbours."
            )


class BagKNN(_BagNeighborsClassifier):
    """k-nearest-neighbour bag classifier: majority vote of the K nearest training bags.

    Parameters
    ----------
    n_neighbors : int
        K; ties of votes (even K) predict negative.
    metric : {"min", "max", "average", "adapted", "integrated", "precomputed"}
        Bag distance (see :mod:`milab_widgets.mil.distances`).
    sigma : float
        NCA bandwidth used to tune alpha when ``metric="integrated"`` and ``alpha`` is None.
    alpha : float or None
        Weight of d_minH in d_intH; None tunes it by NCA + golden-section search.
    scale : {"none", "standard"}
        "standard" standardises features with the training instances' mean and std.

    Attributes
    ----------
    alpha_ : float (integrated only); y_ : training labels; train_distances_ : (n, n), or
    None when the training matrices would exceed ``working_memory`` (see the module notes).

    Examples
    --------
    >>> from milab_widgets.data import BagDataset
    >>> bags = BagDataset.from_bags([[[0.0]], [[0.2]], [[5.0]], [[5.3]]], labels=[0, 0, 1, 1])
    >>> BagKNN(n_neighbors=1).fit(bags, bags.labels).predict(bags).tolist()
    [0, 0, 1, 1]

    See Also
    --------
    CitationKNN : adds the citers' votes.
    bag_distances : the distances the votes use.
    """

    _parameter_constraints: dict = {
        **_BagNeighborsClassifier._parameter_constraints,
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(self, n_neighbors=3, metric="min", sigma=1.0, alpha=None, scale="none"):
        self.n_neighbors = n_neighbors
        self.metric = metric
        self.sigma = sigma
        self.alpha = alpha
        self.scale = scale

    def _n_references(self) -> int:
        return int(self.n_neighbors)


class CitationKNN(_BagNeighborsClassifier):
    """Citation-KNN (Wang & Zucker, ICML 2000): votes of references and citers.

    For a query bag q, the references are its R nearest training bags; the citers are the
    training bags t that rank q among their C nearest neighbours, ranking q against the other
    training bags: t cites q iff fewer than C training bags t' != t are strictly closer to t
    than q is (q wins ties), i.e. d(q, t) <= the C-th smallest d(t, t'). q is positive iff
    the positive references and citers outnumber the negative ones (a tie is negative).
    The paper sets C = R + 2, the default when ``citers=None``.

    Parameters
    ----------
    references : int
        R.
    citers : int or None
        C; None means references + 2.
    metric, sigma, alpha, scale
        As in :class:`BagKNN`.

    Examples
    --------
    >>> from milab_widgets.data import BagDataset
    >>> bags = BagDataset.from_bags([[[0.0]], [[0.2]], [[5.0]], [[5.3]]], labels=[0, 0, 1, 1])
    >>> query = BagDataset.from_bags([[[0.1], [9.0]], [[5.1]]])
    >>> CitationKNN(references=1, citers=1).fit(bags, bags.labels).predict(query).tolist()
    [0, 1]

    Attributes
    ----------
    alpha_ : float
        The weight of d_minH tuned by NCA (``metric="integrated"`` with ``alpha=None`` only).
    y_ : ndarray of shape (n_train,)
        The training bags' 0/1 labels.
    train_distances_ : ndarray of shape (n_train, n_train) or None
        Distances between the training bags (to rank citers), or None when they would exceed
        ``working_memory`` and are computed in blocks instead.

    See Also
    --------
    BagKNN : references only.
    bag_distances : the distances the votes use.
    tune_alpha_nca : how ``alpha`` is chosen for the integrated distance.

    Notes
    -----
    A query bag q is labelled by the majority of its R references (its nearest training bags)
    and its citers (training bags t that count q among their C nearest bags); a tie is
    negative (Wang & Zucker, "Solving the multiple-instance problem: a lazy learning
    approach", ICML 2000). With ``metric="integrated"`` the distance is the intH paper's
    alpha d_minH + (1 - alpha) d_maxH.
    """

    _parameter_constraints: dict = {
        **_BagNeighborsClassifier._parameter_constraints,
        "references": [Interval(Integral, 1, None, closed="left")],
        "citers": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(
        self, references=2, citers=None, metric="min", sigma=1.0, alpha=None, scale="none"
    ):
        self.references = references
        self.citers = citers
        self.metric = metric
        self.sigma = sigma
        self.alpha = alpha
        self.scale = scale

    def _n_references(self) -> int:
        return int(self.references)

    def _n_citers(self, references: int | None = None) -> int:
        """C: the citers parameter, else R + 2 (R = references unless given)."""
        if self.citers is None:
            references = self._n_references() if references is None else references
            return references + CITERS_BEYOND_REFERENCES
        return int(self.citers)

    def _fit_neighborhood(self) -> None:
        super()._fit_neighborhood()
        self.citation_radius_ = self._radii(np.array([self._n_references()]))[0]

    def _fitted_radii(self) -> np.ndarray:
        return self.citation_radius_[np.newaxis, :]

    def citer_mask(self, X) -> np.ndarray:
        """Which training bags cite each query bag.

        Parameters
        ----------
        X : BagDataset
            Query bags, with the training bags' number of features.

        Returns
        -------
        ndarray of bool, shape (n_query, n_train)
            True where training bag t counts query bag q among its C nearest bags.
        """
        check_is_fitted(self, "citation_radius_")
        return self.query_distances(X) <= self.citation_radius_[np.newaxis, :]

    def _radii(self, ks: np.ndarray) -> np.ndarray:
        citers = np.array([self._n_citers(k) for k in ks], dtype=np.int64)
        if self.train_distances_ is None:
            return self._blocked_radii(citers)
        return citation_radii(self.train_distances_, np.arange(self.n_train_), citers)

    def _blocked_radii(self, citers: np.ndarray) -> np.ndarray:
        """:func:`citation_radii` from each training bag's nearest other training bags
        (:func:`~milab_widgets.mil.nearest.nearest_in_blocks`), never the n x n matrix."""
        radii = np.full((len(citers), self.n_train_), np.inf)
        k = min(int(citers.max()), self.n_train_ - 1)
        if k >= 1:
            nearest, _ = nearest_in_blocks(self.train_bags_, None, k, self._base_kinds(),
                                           self._block_metric(queries_are_training=True))
            for i, c in enumerate(citers):
                if c <= k:  # a bag with fewer than C others keeps an infinite radius
                    radii[i] = nearest[:, c - 1]
        return radii


def _metric_block(metric, alpha, labels, queries_are_training, matrices, start, stop):
    """One (training bags, query block) matrix of ``metric``, as ``_combine`` would give
    its transpose. "adapted" keys each pair on the training bag whose neighbours are
    ranked: the row's bag for query bags, the column's own label for training bags."""
    if metric != "adapted":
        return metric_distance(matrices, metric, alpha=alpha)
    if queries_are_training:
        return metric_distance(matrices, metric, labels=labels[start:stop])
    return metric_distance({kind: matrices[kind].T for kind in ("min", "max")}, metric,
                           labels=labels).T


def _block_votes(labels, ks, radii, distances, start, stop):
    """:func:`neighbor_votes` of one block's query bags (the columns of ``distances``)."""
    by_query = np.ascontiguousarray(distances.T)
    return neighbor_votes(by_query, np.arange(len(by_query)), np.arange(len(labels)), labels,
                          ks, radii)


def _nearest(distances: np.ndarray, k: int) -> np.ndarray:
    """Column indices of the k smallest entries of each row; ties broken by lower index."""
    return np.argsort(distances, axis=1, kind="stable")[:, :k]


#: Classifier names used by experiments and panels, mapped to their classes.
CLASSIFIERS = {"citation-knn": CitationKNN, "knn": BagKNN}


@validate_params({"name": [StrOptions(set(CLASSIFIERS))],
                  "k": [Interval(Integral, 1, None, closed="left")]},
                 prefer_skip_nested_validation=True)
def make_bag_classifier(name: str, k: int, **params) -> _BagNeighborsClassifier:
    """``CitationKNN(references=k)`` (citers = k + 2, the paper's rule) or ``BagKNN(n_neighbors=k)``."""
    if name == "citation-knn":
        return CitationKNN(references=k, **params)
    return BagKNN(n_neighbors=k, **params)
