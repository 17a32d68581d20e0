"""ML-kNN: multi-label k-nearest neighbours with Bayesian label posteriors.

Zhang, M.-L., & Zhou, Z.-H. (2007). ML-KNN: A lazy learning approach to multi-label learning.
Pattern Recognition 40(7), 2038-2048.

For label l with smoothing s, m training instances and k neighbours:

    prior        P(H1_l) = (s + sum_i y_il) / (2 s + m),          P(H0_l) = 1 - P(H1_l)
    counts       C_i[l] = number of the k nearest neighbours of training instance i (never i
                 itself) that carry l;  c1[l, j] = #{i : y_il = 1, C_i[l] = j},  c0 likewise
    likelihood   P(E_j | H1_l) = (s + c1[l, j]) / (s (k + 1) + sum_p c1[l, p]),  P(E_j | H0_l)
    decision     y_l = 1  iff  P(H1_l) P(E_C | H1_l) >= P(H0_l) P(E_C | H0_l)
    score        P(H1_l | E_C) = P(H1_l) P(E_C|H1_l) / (P(H1_l) P(E_C|H1_l) + P(H0_l) P(E_C|H0_l))

where C counts the query's k nearest training instances that carry l. Neighbours are
Euclidean on the raw features (scale them beforehand if wanted); ties between equally distant
training instances go to the lower index. A tie of the two products predicts the label
(as Zhang's MATLAB code, posterior >= 0.5).

X may be a scipy.sparse matrix (term frequencies): the squared distances
||q||^2 + ||r||^2 - 2 q.r then come from sparse products, one block of query rows at a
time, and neither the training nor the query matrix is densified.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin

from milab_widgets._sklearn_private import fit_context
from milab_widgets.core.neighbors import nearest_neighbors
from milab_widgets.data.arrays import check_features
from milab_widgets.exceptions import InputError
from milab_widgets.multilabel.validation import (
    AT_LEAST_ONE,
    POSITIVE,
    MultiLabelMixin,
    check_multilabel_data,
)

__all__ = ["DECISION_THRESHOLD", "MLkNN", "decide"]

#: A label is predicted where its posterior P(H1_l | E_C) is at least this.
DECISION_THRESHOLD = 0.5


class MLkNN(MultiLabelMixin, ClassifierMixin, BaseEstimator):
    """Multi-label k-nearest-neighbour classifier (Zhang & Zhou 2007).

    Parameters
    ----------
    k : int, default 10
        Number of neighbours.
    s : float, default 1.0
        Laplace smoothing of the prior and the likelihoods (> 0).

    Attributes
    ----------
    prior_ : array (n_labels,)
        P(H1_l).
    likelihood_true_, likelihood_false_ : arrays (n_labels, k + 1)
        P(E_j | H1_l) and P(E_j | H0_l) for j = 0..k neighbours carrying l.
    X_, Y_ : the training features (dense, or CSR for sparse input) and labels.
    classes_ : list of arrays
        ``[0, 1]`` for every label (scikit-learn's multi-output convention).
    n_features_in_ : int
    feature_names_in_ : array of str
        Only when X was a DataFrame with string column names.

    Examples
    --------
    >>> X = np.array([[0.0], [0.1], [0.2], [5.0], [5.1], [5.2]])
    >>> Y = np.array([[1, 0], [1, 0], [1, 0], [0, 1], [0, 1], [0, 1]])
    >>> MLkNN(k=2).fit(X, Y).predict([[0.05], [5.05]]).tolist()
    [[1, 0], [0, 1]]

    See Also
    --------
    sklearn.neighbors.NearestNeighbors : the neighbour search.
    MFSEF, KernelMDDM : feature selection and embedding evaluated with ML-kNN.
    milab_widgets.multilabel.metrics.evaluate : the multi-label metrics.
    """

    _parameter_constraints: dict = {"k": [AT_LEAST_ONE], "s": [POSITIVE]}

    def __init__(self, k: int = 10, s: float = 1.0):
        self.k = k
        self.s = s

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, Y) -> MLkNN:
        """Estimate priors and likelihoods from the training set's leave-self-out neighbours.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Training features.
        Y : array-like or sparse matrix of shape (n_samples, n_labels)
            0/1 label matrix.

        Returns
        -------
        self : MLkNN
            The fitted classifier.
        """
        k, s = int(self.k), float(self.s)
        X, Y = check_multilabel_data(self, X, Y)
        if k >= X.shape[0]:
            raise InputError(
                f"k={k} needs more than k training instances (n_samples={X.shape[0]}); lower k."
            )
        neighbours = nearest_neighbors(X, X, k, exclude_self=True)[0]
        counts = Y[neighbours].sum(axis=1)
        self.prior_ = (s + Y.sum(axis=0)) / (2.0 * s + len(Y))
        self.likelihood_true_ = _likelihood(counts, Y == 1, k, s)
        self.likelihood_false_ = _likelihood(counts, Y == 0, k, s)
        self.X_, self.Y_ = X, Y
        self.classes_ = [np.array([0, 1])] * Y.shape[1]
        return self

    def neighbor_label_counts(self, X) -> np.ndarray:
        """For each query, how many of its k nearest training instances carry each label.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Samples with the training features.

        Returns
        -------
        ndarray of int, shape (n_samples, n_labels)
            C, the counts ML-kNN's posteriors are read from.
        """
        X = check_features(self, X, reset=False, sparse=True)
        return self.Y_[nearest_neighbors(X, self.X_, self.k)[0]].sum(axis=1)

    def _joint(self, X) -> tuple[np.ndarray, np.ndarray]:
        """P(H1) P(E_C|H1) and P(H0) P(E_C|H0), each (n_queries, n_labels)."""
        counts = self.neighbor_label_counts(X)
        labels = np.arange(counts.shape[1])
        true = self.prior_ * self.likelihood_true_[labels, counts]
        false = (1.0 - self.prior_) * self.likelihood_false_[labels, counts]
        return true, false

    def predict_proba(self, X) -> np.ndarray:
        """Posterior P(H1_l | E_C) of every label.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Samples with the training features.

        Returns
        -------
        ndarray of shape (n_samples, n_labels)
            Probabilities (the ranking metrics' scores).
        """
        true, false = self._joint(X)
        return true / (true + false)

    def predict(self, X) -> np.ndarray:
        """0/1 label matrix: label l where P(H1_l | E_C) >= 0.5.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Samples with the training features.

        Returns
        -------
        ndarray of shape (n_samples, n_labels)
            Predicted labels.
        """
        return decide(self.predict_proba(X))


def decide(posterior: np.ndarray) -> np.ndarray:
    """0/1 labels from posteriors: 1 where P(H1_l | E_C) >= :data:`DECISION_THRESHOLD`.

    Same as P(H1) P(E|H1) >= P(H0) P(E|H0) (an exact tie gives t / 2t = 0.5, predicted), up
    to rounding of products one unit in the last place apart; Zhang's MATLAB code thresholds
    the posterior the same way.
    """
    return (np.asarray(posterior) >= DECISION_THRESHOLD).astype(np.int64)


def _likelihood(counts: np.ndarray, members: np.ndarray, k: int, s: float) -> np.ndarray:
    """(s + c[l, j]) / (s (k + 1) + sum_j c[l, j]), c[l, j] = #{members of l with count j}."""
    n_labels = counts.shape[1]
    cells = np.arange(n_labels) * (k + 1) + counts
    histogram = np.bincount(cells[members], minlength=n_labels * (k + 1)).reshape(n_labels, k + 1)
    return (s + histogram) / (s * (k + 1) + histogram.sum(axis=1, keepdims=True))
