"""Support vector data description (Tax & Duin 2004) on the RBF kernel.

The smallest sphere in feature space holding the training data, softened by slacks:

    min R^2 + sum_i C_i xi_i   s.t.  ||phi(x_i) - a||^2 <= R^2 + xi_i,  xi_i >= 0,

with K(x, y) = exp(-gamma ||x - y||^2) (the paper's zeta is ``gamma``) and C_i = C w_i
(w: sample weights, 1 by default). Its dual (the paper's eq. 2) is solved by the SMO solver of
:mod:`milab_widgets.core.svdd`; the centre is a = sum_i a_i phi(x_i) and

    ||phi(x) - a||^2 = 1 - 2 sum_i a_i K(x, x_i) + sum_ij a_i a_j K(x_i, x_j)   (the paper's eq. 3).

With the RBF kernel SVDD is scikit-learn's OneClassSVM: nu = 1 / (C n), and its
``dual_coef_ / (nu n)`` are these duals. Either scale may be given: ``SVDD(C=...)`` or
``SVDD(nu=...)`` (LIBSVM's one-class ``-n``, the fraction of training samples the sphere
may leave out), converted by C = 1 / (nu n) with n the weighted training size.

The radius, to the solver's accuracy. With G = K a / C (the solver's gradient, on the scale
of OneClassSVM's decision function) a training sample's squared distance is
d_i = 1 - 2 C G_i + ||a||^2. The solver stops when the KKT gap
max_{a_t > 0} G_t - min_{a_t < C_t} G_t is below ``tol``; every threshold rho between those
two values fits the computed duals, so R_rho^2 = 1 - 2 C rho + ||a||^2 is determined only to
within 2 C tol. LIBSVM's rho (the free duals' mean G; with no free dual, the midpoint of the
range the bounded ones leave) lies in that interval. A sample whose dual is below its bound
(a_i < C_i: a non-support vector or a free one) has G_i >= min G > max G - tol >= rho - tol:

    d_i - R_rho^2 = 2 C (rho - G_i) < 2 C tol.

R_rho^2 itself as the radius left such samples outside by amounts below 2 C tol (for the
hard-margin SVDD of 200 Gaussian points, 58 of them at tol = 1e-3 and 17 at tol = 1e-8).
The sphere is therefore

    R^2 = R_rho^2 + 2 C tol      (rho: LIBSVM's),

which holds every sample with a_i < C_i strictly, at any ``tol``, once the solver has
converged (otherwise a ConvergenceWarning says so). With C w_i >= 1 (C = 1, the default, or
nu = 1 / n: the hard-margin SVDD) a dual reaches its bound only when one sample carries all
the mass (it is then the centre, at distance 0), so the whole training set is inside.
Samples at their bound (the soft margin's outliers, G_i <= max G) are accepted only when
less than 2 C tol beyond R_rho^2, so SVDD(nu) still rejects at most a fraction nu of its
training set. The margin left to a sample with a_i < C_i, 2 C (tol - rho + G_i), is
positive; in 300 random problems it was at least 0.1 x 2 C tol, far above the rounding of
the distances (1e-15 to 1e-12). Decision values are 2 C (OneClassSVM's decision_function +
tol).

The bound is on the computed centre a. The exact optimum's centre a* is only known to lie
within ||a - a*||^2 <= 2 C sum_i G_i (a_i - a*_i) < 2 C tol (convexity of the dual, then the
gap), so a distance to a* may differ from the computed one by up to 4 sqrt(C tol): R^2 is
the radius the computed duals support, not a guaranteed cover of the exact sphere.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.exceptions import ConvergenceWarning
from sklearn.metrics.pairwise import rbf_kernel

from milab_widgets._sklearn_private import Interval, fit_context
from milab_widgets.core.parallel import blas_for_rows, within_free_cores
from milab_widgets.core.svdd import smo_svdd
from milab_widgets.data.arrays import check_features
from milab_widgets.oneclass.outlier_rule import ScoreOffsetOutlierMixin
from milab_widgets.oneclass.validation import (
    POSITIVE,
    SPHERE_CONSTRAINTS,
    check_sample_weight,
    resolve_C,
)

__all__ = ["SVDD", "DualSolution", "solve_svdd_dual"]

#: Default kernel-row cache, in MiB (scikit-learn's OneClassSVM default is 200 as well).
CACHE_MB = 200.0


@dataclass(frozen=True)
class DualSolution:
    """A solved SVDD dual: duals ``alpha`` (sum 1), R^2 (with the solver's accuracy
    2 C tol added, see the module docstring), a^T K a, iterations, converged."""

    alpha: np.ndarray
    radius_sq: float
    center_sq_norm: float
    n_iter: int
    converged: bool


def solve_svdd_dual(X, gamma: float, C: float, weights: np.ndarray, tol: float = 1e-3,
                    max_iter: int | None = None, cache_mb: float = CACHE_MB) -> DualSolution:
    """Solve the SVDD dual for validated inputs (C * sum(weights) >= 1).

    ``max_iter=None`` allows max(10^7, 100 n) iterations. R^2 = R_rho^2 + 2 C tol (module
    docstring), rho taken as LIBSVM does: the mean gradient at the unbounded support vectors;
    when there is none, midway between the largest gradient at the upper bounds and the
    smallest at zero (the range every optimal rho lies in).
    """
    n = len(X)
    sq_norms = np.einsum("ij,ij->i", X, X)
    slots = int(min(n, max(2, cache_mb * 2**20 // (8 * n))))
    cache = np.empty((slots, n))
    slot_of = np.full(n, -1, dtype=np.int64)
    owner = np.full(slots, -1, dtype=np.int64)
    limit = max(10_000_000, 100 * n) if max_iter is None else int(max_iter)
    beta, grad, n_iter, converged = smo_svdd(X, sq_norms, float(gamma), weights, 1.0 / C,
                                             float(tol), limit, cache, slot_of, owner)
    rho = _threshold(beta, grad, weights)
    center_sq_norm = C * C * float(beta @ grad)
    radius_sq = 1.0 - 2.0 * C * (rho - tol) + center_sq_norm  # R_rho^2 + 2 C tol
    return DualSolution(C * beta, radius_sq, center_sq_norm, int(n_iter), bool(converged))


def squared_distances_to_centres(X, support_vectors, gamma: float, duals, center_sq_norms):
    """||phi(x) - a||^2 = K(x, x) - 2 sum_i a_i K(x_i, x) + ||a||^2 with the RBF kernel
    (K(x, x) = 1), clipped at 0 against rounding, for one centre (``duals`` of shape
    (n_sv,)) or several (``duals`` (n_sv, M), ``center_sq_norms`` (M,)). The kernel
    product uses BLAS on the free cores, and on one thread for fewer than
    :data:`~milab_widgets.core.parallel.MIN_ROWS_FOR_BLAS_THREADS` rows of ``X``
    (:func:`milab_widgets.core.parallel.blas_for_rows`)."""
    with blas_for_rows(len(X)):
        cross = rbf_kernel(X, support_vectors, gamma=gamma) @ duals
    return np.maximum(1.0 - 2.0 * cross + center_sq_norms, 0.0)


def _threshold(beta, grad, upper) -> float:
    """G at the free duals (mean), else the midpoint of the bounded ones' range."""
    free = (beta > 0) & (beta < upper)
    if free.any():
        return float(grad[free].mean())
    at_upper, at_zero = grad[beta >= upper], grad[beta <= 0]
    low = at_upper.max() if len(at_upper) else -np.inf
    high = at_zero.min() if len(at_zero) else np.inf
    if np.isinf(high):  # every dual at its bound (C = 1/n): the sphere touches the closest point
        return float(low)
    return float((low + high) / 2.0)


class SVDD(ScoreOffsetOutlierMixin, BaseEstimator):
    """Support vector data description with the RBF kernel.

    Parameters
    ----------
    C : float or None, default=None
        Upper bound of every dual (trade-off between sphere volume and slacks). Must be at
        least 1/n (the duals sum to 1); C >= 1 makes every sample a target (no slack).
        Give C or nu, not both; with neither, C = 1.
    gamma : float, default=1.0
        Kernel width zeta in K(x, y) = exp(-zeta ||x - y||^2).
    tol : float, default=1e-3
        Stopping tolerance on the optimality gap, in OneClassSVM's units (same default).
        The KKT conditions then hold to 2 C tol in squared distance, so R^2 includes
        2 C tol (module docstring).
    max_iter : int or None
        Iteration cap of the solver (None: max(10^7, 100 n)); a ConvergenceWarning tells
        when it is hit.
    cache_mb : float, default=200
        Memory for cached kernel rows.
    nu : float in (0, 1] or None, default=None
        The same parameter on OneClassSVM's scale: C = 1 / (nu n), n = sum of the sample
        weights (the number of training samples when unweighted). At most a fraction nu of
        the (weighted) training samples lies outside the sphere, at least nu are support
        vectors. nu = 1 / n is C = 1 (hard sphere); nu = 1 puts every dual at its bound.

    Attributes
    ----------
    alpha_ : ndarray of shape (n_samples,)
        The duals a_i (sum 1, 0 <= a_i <= C w_i).
    support_ : ndarray of int
        Indices of the support vectors (a_i > 0).
    support_vectors_, dual_coef_ : ndarray
        Their rows and duals.
    radius_ : float
        R, the sphere's radius in feature space: R^2 is the dual's R^2 (LIBSVM's threshold)
        plus 2 C tol, the solver's accuracy, which puts every sample with a_i < C_i inside
        (the whole training set when C w_i >= 1).
    center_sq_norm_ : float
        ||a||^2 = sum_ij a_i a_j K(x_i, x_j).
    n_iter_ : int
        Solver iterations.
    offset_ : float
        -R^2: ``decision_function = score_samples - offset_`` (scikit-learn's outlier API),
        equal to 2 C (OneClassSVM's decision_function + tol).
    n_features_in_ : int
    feature_names_in_ : ndarray of str
        Only when X was a DataFrame with string column names.
    C_ : float
        The dual bound used (C, or 1 / (nu n)).

    See Also
    --------
    sklearn.svm.OneClassSVM : the same model in the hyperplane form (an exact oracle: the
        same duals; decision values 2 C (its decision_function + tol)).

    References
    ----------
    Tax, D. M. J., & Duin, R. P. W. (2004). Support vector data description. Machine
    Learning, 54(1), 45-66. Fan, R.-E., Chen, P.-H., & Lin, C.-J. (2005). Working set
    selection using second order information for training support vector machines. JMLR 6.

    Examples
    --------
    >>> import numpy as np
    >>> X = np.random.default_rng(0).normal(size=(100, 2))
    >>> model = SVDD(nu=0.1, gamma=0.5).fit(X)  # the same as C = 1 / (0.1 x 100)
    >>> model.C_, round(float(model.alpha_.sum()), 6)
    (0.1, 1.0)
    >>> model.predict([[1.0, 0.0], [6.0, 6.0]]).tolist()
    [1, -1]
    """

    _parameter_constraints: dict = {
        **SPHERE_CONSTRAINTS,
        "max_iter": [Interval(Integral, 1, None, closed="left"), None],
        "cache_mb": [POSITIVE],
    }

    def __init__(self, C: float | None = None, gamma: float = 1.0, tol: float = 1e-3,
                 max_iter: int | None = None, cache_mb: float = CACHE_MB,
                 nu: float | None = None):
        self.C = C
        self.nu = nu
        self.gamma = gamma
        self.tol = tol
        self.max_iter = max_iter
        self.cache_mb = cache_mb

    @within_free_cores
    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, sample_weight=None):
        """Find the smallest sphere holding the (weighted) training samples.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (dense, finite).
        y : None
            Ignored: one-class learning uses no labels.
        sample_weight : array-like of shape (n_samples,), default=None
            Non-negative weights; each sample's dual bound is C w_i.

        Returns
        -------
        self : SVDD
            The fitted estimator.
        """
        X = check_features(self, X, reset=True)
        weights = check_sample_weight(sample_weight, len(X))
        C = resolve_C(self.C, self.nu, weights)
        solution = solve_svdd_dual(X, float(self.gamma), C, weights, float(self.tol),
                                   self.max_iter, float(self.cache_mb))
        if not solution.converged:
            warnings.warn(f"SVDD stopped after max_iter={solution.n_iter} iterations before "
                          f"reaching tol={self.tol}; raise max_iter or tol.", ConvergenceWarning,
                          stacklevel=2)
        self.C_ = C
        self.alpha_ = solution.alpha
        self.support_ = np.flatnonzero(solution.alpha > 0)
        self.support_vectors_ = X[self.support_]
        self.dual_coef_ = solution.alpha[self.support_]
        self.radius_ = float(np.sqrt(max(solution.radius_sq, 0.0)))
        self.center_sq_norm_ = solution.center_sq_norm
        self.n_iter_ = solution.n_iter
        self.offset_ = -self.radius_**2
        return self

    def squared_distance(self, X) -> np.ndarray:
        """Squared feature-space distance to the centre, ||phi(x) - a||^2 (the paper's eq. 3).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (dense, finite).

        Returns
        -------
        ndarray of shape (n_samples,)
            K(x, x) - 2 sum_i a_i K(x_i, x) + ||a||^2 for each row.
        """
        X = check_features(self, X, reset=False)
        return squared_distances_to_centres(X, self.support_vectors_, float(self.gamma),
                                            self.dual_coef_, self.center_sq_norm_)

    def score_samples(self, X) -> np.ndarray:
        """Normality score -||phi(x) - a||^2: the higher, the more normal.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (dense, finite).

        Returns
        -------
        ndarray of shape (n_samples,)
            Minus the squared distance to the centre.
        """
        return -self.squared_distance(X)
