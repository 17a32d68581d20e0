"""scikit-learn's outlier API on a score: the signed margin and the +1/-1 rule every SVDD
estimator of this package shares.

An estimator implements ``score_samples(X)`` (higher meaning more normal) and sets
``offset_`` in ``fit``; then ``decision_function(X) = score_samples(X) - offset_`` and a
sample is normal (+1) where that margin is >= 0. For :class:`~milab_widgets.oneclass.svdd.SVDD`
the margin is R^2 - ||phi(x) - a||^2; for the ensembles it is their vote or weighted distance.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import OutlierMixin

__all__ = ["ScoreOffsetOutlierMixin"]


class ScoreOffsetOutlierMixin(OutlierMixin):
    """``decision_function`` and ``predict`` from ``score_samples`` and ``offset_``."""

    def decision_function(self, X) -> np.ndarray:
        """Signed margin ``score_samples(X) - offset_``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (dense, finite).

        Returns
        -------
        ndarray of shape (n_samples,)
            Non-negative for normal samples (for an SVDD: inside or on the sphere),
            negative for outliers.
        """
        return self.score_samples(X) - self.offset_

    def predict(self, X) -> np.ndarray:
        """Label each sample normal (+1, decision function >= 0) or outlier (-1).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (dense, finite).

        Returns
        -------
        ndarray of shape (n_samples,)
            +1 or -1 per sample.
        """
        return np.where(self.decision_function(X) >= 0, 1, -1)
