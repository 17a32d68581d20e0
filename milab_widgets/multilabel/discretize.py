"""Equal-width discretisation fitted on training data (PMU/MFSLS/MFSEF convention).

Feature j's training range [min_j, max_j] is cut into ``n_bins`` bins of equal width; a
value's code is the number of inner edges it lies at or above (a value on an edge goes to
the upper bin, as scikit-learn's ``KBinsDiscretizer(strategy="uniform")``). Values outside
the training range go to the first or last bin. A feature constant on the training data
has one state (code 0). Seed 001's "two-fold discretisation" is ``n_bins=2``.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted

from milab_widgets.data.arrays import as_feature_matrix
from milab_widgets.exceptions import InputError
from milab_widgets.mil.validation import check_positive_int

__all__ = ["Discretizer"]


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

    Examples
    --------
    >>> Discretizer(n_bins=2).fit([[0.0], [1.0]]).transform([[0.2], [0.5], [7.0]]).ravel().tolist()
    [0, 1, 1]
    """

    def __init__(self, n_bins: int = 2):
        self.n_bins = n_bins

    def fit(self, X, y=None) -> Discretizer:
        """Record each feature's training range and its equal-width edges."""
        n_bins = check_positive_int(self.n_bins, "n_bins")
        if n_bins < 2:
            raise InputError(f"n_bins must be at least 2, got {n_bins}.")
        X = as_feature_matrix(X, "X")
        low, high = X.min(axis=0), X.max(axis=0)
        self.bin_edges_ = low[:, None] + (high - low)[:, None] * np.linspace(0, 1, n_bins + 1)
        self.n_states_ = np.where(high > low, n_bins, 1).astype(np.int64)
        self.n_features_in_ = X.shape[1]
        return self

    def transform(self, X) -> np.ndarray:
        """int64 codes in [0, n_states_[j]) for every value."""
        check_is_fitted(self, "bin_edges_")
        X = as_feature_matrix(X, "X", self.n_features_in_)
        inner = self.bin_edges_[:, 1:-1]
        codes = (X[:, :, None] >= inner[None, :, :]).sum(axis=2)
        return np.where(self.n_states_ > 1, codes, 0).astype(np.int64)
