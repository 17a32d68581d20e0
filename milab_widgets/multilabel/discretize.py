"""Equal-width discretisation fitted on training data (PMU/MFSLS/MFSEF convention).

Feature j's training range [min_j, max_j] is cut into ``n_bins`` bins of equal width; a
value's code is the number of inner edges it lies at or above (a value on an edge goes to
the upper bin, as scikit-learn's ``KBinsDiscretizer(strategy="uniform")``). Values outside
the training range go to the first or last bin. A feature constant on the training data
has one state (code 0). The MFSEF paper's "two-fold discretisation" is ``n_bins=2``.

A scipy.sparse X is binned without densifying it: a column's implicit zeros all share the
code of 0, only the stored values are compared with the edges. The codes are dense (a zero
need not fall into bin 0).
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
import scipy.sparse
from sklearn.base import BaseEstimator, TransformerMixin

from milab_widgets._sklearn_private import Interval, fit_context
from milab_widgets.data.arrays import check_features

__all__ = ["Discretizer", "column_range"]


class Discretizer(TransformerMixin, BaseEstimator):
    """Equal-width binning of every feature into integer codes.

    Parameters
    ----------
    n_bins : int, default 2
        Bins per feature (>= 2).

    Attributes
    ----------
    bin_edges_ : array (n_features, n_bins + 1)
        Training minimum, inner edges, training maximum of every feature.
    n_states_ : int64 array (n_features,)
        ``n_bins``, or 1 for a feature constant on the training data.
    n_features_in_ : int
    feature_names_in_ : array of str
        Only when X was a DataFrame with string column names.

    Examples
    --------
    >>> Discretizer(n_bins=2).fit([[0.0], [1.0]]).transform([[0.2], [0.5], [7.0]]).ravel().tolist()
    [0, 1, 1]

    See Also
    --------
    MFSEF, MFSLS, PMU : the selectors that estimate mutual information on these codes.
    sklearn.preprocessing.KBinsDiscretizer : the same equal-width binning (strategy="uniform").
    """

    _parameter_constraints: dict = {"n_bins": [Interval(Integral, 2, None, closed="left")]}

    def __init__(self, n_bins: int = 2):
        self.n_bins = n_bins

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        tags.transformer_tags.preserves_dtype = []  # the output is int64 codes
        return tags

    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None) -> Discretizer:
        """Record each feature's training range and its equal-width edges.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Training features.
        y : None
            Ignored.

        Returns
        -------
        self : Discretizer
            The fitted transformer.
        """
        n_bins = int(self.n_bins)
        X = check_features(self, X, reset=True, sparse=True)
        low, high = column_range(X)
        self.bin_edges_ = low[:, None] + (high - low)[:, None] * np.linspace(0, 1, n_bins + 1)
        self.n_states_ = np.where(high > low, n_bins, 1).astype(np.int64)
        return self

    def transform(self, X) -> np.ndarray:
        """Bin codes of every value.

        Parameters
        ----------
        X : array-like or sparse matrix of shape (n_samples, n_features)
            Features to discretise.

        Returns
        -------
        ndarray of int64, shape (n_samples, n_features)
            Codes in [0, n_states_[j]) (dense, also for sparse X).
        """
        X = check_features(self, X, reset=False, sparse=True)
        inner = self.bin_edges_[:, 1:-1]
        if scipy.sparse.issparse(X):
            codes = np.tile((inner <= 0.0).sum(axis=1), (X.shape[0], 1))
            rows = np.repeat(np.arange(X.shape[0]), np.diff(X.indptr))
            codes[rows, X.indices] = (X.data[:, None] >= inner[X.indices]).sum(axis=1)
        else:
            codes = (X[:, :, None] >= inner[None, :, :]).sum(axis=2)
        return np.where(self.n_states_ > 1, codes, 0).astype(np.int64)


def column_range(X) -> tuple[np.ndarray, np.ndarray]:
    """Each column's minimum and maximum (a sparse column's implicit zeros included)."""
    low, high = X.min(axis=0), X.max(axis=0)
    if scipy.sparse.issparse(X):
        return low.toarray().ravel(), high.toarray().ravel()
    return low, high
