"""MDDM used as a feature ranking: features ordered by their weight in the MDDM projection.

Zhang, Y., & Zhou, Z.-H. (2010). Multilabel dimensionality reduction via dependence
maximization. ACM TKDD 4(3), article 14.

MDDM maximises the HSIC dependence between the projected features and the labels. With the
features normalised to [0, 1] on the training data (the MFSEF paper normalises first), centred
(H = I - 11^T/n) and the linear label kernel L = Y Y^T, the projection P (d x r) holds the
top r eigenvectors of (computed from an SVD of the d x L factor X^T H Y, not a d x d
eigendecomposition)

    proj:  S p = lambda p,                                  P^T P = I
    spc:   S p = lambda (mu X^T X + (1 - mu) I) p,          P^T (mu X^T X + (1 - mu) I) P = I

with S = X^T H L H X (X centred in the constraint too). Features are ranked by the Euclidean
norm of their row of P, largest first (ties: lower index). r defaults to the number of
labels (S has rank at most L); directions beyond the rank of the factor are dropped (the
rank tolerance of :func:`~milab_widgets.multilabel.mddm_solvers.label_eigenvectors`).

A scipy.sparse X is never densified: with D the diagonal of the feature ranges and m the
feature means, X~^T H Y = D^-1 (X^T Y - m (1^T Y)) and X~^T H X~ = D^-1 (X^T X - n m m^T) D^-1
are sparse products (the d x d constraint is dense, as the spc variant needs it).
"""

from __future__ import annotations

from numbers import Real

import numpy as np
import scipy.linalg
import scipy.sparse
from sklearn.utils.validation import check_is_fitted

from milab_widgets._sklearn_private import Interval, StrOptions
from milab_widgets.exceptions import InputError
from milab_widgets.multilabel.discretize import column_range
from milab_widgets.multilabel.mddm_solvers import label_eigenvectors
from milab_widgets.multilabel.selection import FeatureSelector
from milab_widgets.multilabel.validation import AT_LEAST_ONE

__all__ = ["MDDMRanking"]

VARIANTS = ("proj", "spc")


class MDDMRanking(FeatureSelector):
    """Rank features by their MDDM projection weights (MDDMproj / MDDMspc).

    Parameters
    ----------
    n_features : int, default 10
    variant : {"proj", "spc"}, default "proj"
        Orthonormal projection, or the uncorrelated subspace with regulariser ``mu``.
    mu : float in [0, 1], default 0.5
        Weight of X^T X in the spc constraint.
    n_components : int or None
        r, eigenvectors kept (None: the number of labels, capped by the features).

    Attributes
    ----------
    projection_ : array (n_features_in_, r)
    eigenvalues_ : array (r,)
    weights_ : array (n_features_in_,)
        Row norms of ``projection_``.
    ranking_ : int array (n_features_in_,)
        All features, most weighted first.

    See Also
    --------
    KernelMDDM : the kernel form of MDDM, as a transformer.
    MFSEF, PMU : mutual-information selectors.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(-1, 1, size=(60, 6))
    >>> Y = np.column_stack([X[:, 0] > 0, X[:, 3] > 0]).astype(int)   # labels from x0, x3
    >>> from milab_widgets.multilabel import MDDMRanking
    >>> MDDMRanking(n_features=2).fit(X, Y).get_feature_names_out().tolist()
    ['x0', 'x3']
    """

    _parameter_constraints: dict = {
        **FeatureSelector._parameter_constraints,
        "variant": [StrOptions(set(VARIANTS))],
        "mu": [Interval(Real, 0, 1, closed="both")],
        "n_components": [AT_LEAST_ONE, None],
    }

    def __init__(self, n_features: int = 10, variant: str = "proj", mu: float = 0.5,
                 n_components: int | None = None):
        self.n_features = n_features
        self.variant = variant
        self.mu = mu
        self.n_components = n_components

    def _fit(self, X, Y) -> None:
        r = self._components(X.shape[1], Y.shape[1])
        products = _centred_products(X, Y.astype(np.float64), self.variant == "spc")
        dependence_factor = products[0]  # A = X^T H Y, S = A A^T
        if self.variant == "proj":
            values, vectors = label_eigenvectors(dependence_factor)
        else:
            constraint = self.mu * products[1] + (1.0 - self.mu) * np.eye(X.shape[1])
            values, vectors = _generalized_eigenpairs(dependence_factor, constraint)
        self.eigenvalues_, self.projection_ = values[:r], vectors[:, :r]
        self.weights_ = np.linalg.norm(self.projection_, axis=1)
        self.ranking_ = np.argsort(-self.weights_, kind="stable").astype(np.int64)

    def selection(self, n_features: int) -> np.ndarray:
        """The ``n_features`` most weighted features.

        Parameters
        ----------
        n_features : int
            How many features to select.

        Returns
        -------
        ndarray of int
            Feature indices, heaviest first.
        """
        check_is_fitted(self, "ranking_")
        return self.ranking_[: self._check_size(n_features, len(self.ranking_))].copy()

    def _components(self, n_features_in: int, n_labels: int) -> int:
        if self.n_components is None:
            return min(n_labels, n_features_in)
        most = min(n_labels, n_features_in)
        if self.n_components > most:
            raise InputError(
                f"n_components must be None or an integer in [1, {most}] (S has rank at most "
                f"min(labels, features)), got {self.n_components!r}."
            )
        return int(self.n_components)


def _generalized_eigenpairs(factor: np.ndarray, constraint: np.ndarray):
    """The solutions of F F^T p = lambda B p with p^T B p = 1 and lambda > 0, descending: with
    B = C C^T (Cholesky), q = C^T p solves (C^-1 F)(C^-1 F)^T q = lambda q."""
    lower = scipy.linalg.cholesky(constraint, lower=True)
    values, q = label_eigenvectors(scipy.linalg.solve_triangular(lower, factor, lower=True))
    return values, scipy.linalg.solve_triangular(lower.T, q, lower=False)


def _centred_products(X, Y: np.ndarray, with_gram: bool) -> tuple:
    """(X~^T H Y, X~^T H X~ or None) for X~ the features min-max scaled to [0, 1] on X
    (constant features become 0); sparse X by sparse products (module docstring)."""
    low, high = column_range(X)
    span = np.where(high > low, high - low, 1.0)
    if not scipy.sparse.issparse(X):
        centred = (X - X.mean(axis=0)) / span
        return centred.T @ Y, centred.T @ centred if with_gram else None
    mean = np.asarray(X.mean(axis=0)).ravel()
    factor = (X.T @ Y - np.outer(mean, Y.sum(axis=0))) / span[:, None]
    if not with_gram:
        return factor, None
    gram = (X.T @ X).toarray() - X.shape[0] * np.outer(mean, mean)
    return factor, gram / np.outer(span, span)
