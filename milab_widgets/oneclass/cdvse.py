"""CDVSE: selective ensemble of SVDDs by correntropy and distance variance (the CDVSE paper).

M bootstrap SVDDs with radii r_k and centres a_k; d_k(x_n) = ||phi(x_n) - a_k|| on the N
training samples (the paper's eq. 15), d_n = (d_1(x_n), ..., d_M(x_n)). The weights w >= 0 maximise
(the paper's eq. 17)

    J(w) = 1/M sum_k exp(-(r_k - w.r)^2 / (2 sigma^2))           correntropy: compactness
           - lambda sum_i sum_n (d_i(x_n) - w.d_n)^2               distance variance
           - gamma ||w||_1                                         sparsity

by half-quadratic optimisation (He et al. 2011), from w = 1/M, alternating for T_max steps

    (a) p_k = -exp(-(r_k - w.r)^2 / (2 sigma^2))                  (the paper's eq. 20), and
    (b) w = argmax_{w >= 0} 1/(2 sigma^2 M) sum_k p_k (r_k - w.r)^2
                            - lambda sum_n sum_i (d_i(x_n) - w.d_n)^2 - gamma 1.w .

Step (b) is the concave quadratic -1/2 w^T H w + b^T w + const with

    H = 2 lambda M sum_n d_n d_n^T - (sum_k p_k) / (sigma^2 M) r r^T       (PSD: p_k < 0)
    b = -(sum_k p_k r_k) / (sigma^2 M) r + 2 lambda sum_n (1.d_n) d_n - gamma 1,

whose stationary point H w = b is the paper's garbled eq. 22 re-derived. The paper drops
w >= 0 when solving; here it is honoured exactly by a non-negative QP solver (active set),
so every step maximises the surrogate over the feasible set and J(w) never decreases:
J(w_t) = F(w_t, p_{t+1}) <= F(w_{t+1}, p_{t+1}) <= J(w_{t+1}), F being the half-quadratic
surrogate (the paper's eq. 19), which lies below J for every p and touches it at (a).

Selection: base SVDDs with w_k < 1/M are dropped (if none reaches 1/M, the largest weight
is kept). Decision: x is normal iff sum_{k kept} w_k d_k(x) <= sum_{k kept} w_k r_k.
When every w_k is 0 (the l1 penalty gamma outweighs both other terms, e.g. a large
``gamma_l1``), that rule would read 0 <= 0 and call every point normal; ``fit`` raises an
:class:`~milab_widgets.exceptions.InputError` instead, naming gamma_l1 and lam.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from milab_widgets._sklearn_private import Interval, fit_context
from milab_widgets.core.parallel import within_free_cores
from milab_widgets.exceptions import InputError
from milab_widgets.oneclass.ensembles import (
    BaggingSVDD,
    _SphereEnsemble,
    fit_bootstrap_spheres,
)
from milab_widgets.oneclass.qp import nonnegative_qp
from milab_widgets.oneclass.spheres import Spheres
from milab_widgets.oneclass.validation import POSITIVE

__all__ = ["CDVSESVDD", "auxiliary_weights", "cdvse_objective", "distance_moments",
           "distance_variance", "half_quadratic_weights", "surrogate_qp"]


def distance_variance(w, distances) -> float:
    """The paper's eq. 14, sum_i sum_n (d_i(x_n) - w.d_n)^2: each member's distance from
    the weighted ensemble distance w.d_n, squared and summed over the M members and the N
    rows of the (N, M) distance matrix ``distances``."""
    spread = distances - (distances @ w)[:, None]
    return float(np.sum(spread**2))


def cdvse_objective(w, radii, distances, sigma, lam, gamma_l1) -> float:
    """J(w) of the paper's eq. 17; ``distances`` is the (N, M) matrix d_k(x_n)."""
    compactness = np.mean(np.exp(-((radii - w @ radii) ** 2) / (2.0 * sigma**2)))
    return float(compactness - lam * distance_variance(w, distances)
                 - gamma_l1 * np.abs(w).sum())


def auxiliary_weights(w, radii, sigma) -> np.ndarray:
    """p_k = -exp(-(r_k - w.r)^2 / (2 sigma^2)) (the paper's eq. 20): the half-quadratic step (a)."""
    return -np.exp(-((radii - w @ radii) ** 2) / (2.0 * sigma**2))


def surrogate_qp(p, radii, gram, spread, sigma, lam, gamma_l1) -> tuple[np.ndarray, np.ndarray]:
    """(H, b) of step (b): the surrogate is -1/2 w^T H w + b^T w + const.

    ``gram`` = sum_n d_n d_n^T and ``spread`` = sum_n (1.d_n) d_n do not change with p,
    so they are computed once per fit (:func:`distance_moments`).
    """
    size = len(radii)
    scale = 1.0 / (sigma**2 * size)
    H = 2.0 * lam * size * gram - scale * p.sum() * np.outer(radii, radii)
    b = -scale * (p @ radii) * radii + 2.0 * lam * spread - gamma_l1
    return H, b


def distance_moments(distances) -> tuple[np.ndarray, np.ndarray]:
    """(sum_n d_n d_n^T, sum_n (1.d_n) d_n) of the (N, M) distance matrix."""
    return distances.T @ distances, distances.T @ distances.sum(axis=1)


def half_quadratic_weights(radii, distances, sigma, lam=1.0, gamma_l1=1.0, max_iter=20):
    """Algorithm 1, step 3: ``max_iter`` half-quadratic steps from w = 1/M.

    Returns (w, history), history[t] = J after t steps (history[0] at w = 1/M).
    """
    w = np.full(len(radii), 1.0 / len(radii))
    gram, spread = distance_moments(distances)
    history = [cdvse_objective(w, radii, distances, sigma, lam, gamma_l1)]
    for _ in range(max_iter):
        p = auxiliary_weights(w, radii, sigma)
        H, b = surrogate_qp(p, radii, gram, spread, sigma, lam, gamma_l1)
        w = nonnegative_qp(H, b, start=w)
        history.append(cdvse_objective(w, radii, distances, sigma, lam, gamma_l1))
    return w, np.array(history)


def selected_spheres(weights, gamma_l1: float, lam: float) -> np.ndarray:
    """Indices with w_k >= 1/M; the largest weight alone when none qualifies.

    All-zero weights select nothing, which is an InputError (the decision would be 0 <= 0).
    """
    if not (weights > 0).any():
        raise InputError(
            f"every CDVSE weight is 0: the l1 penalty gamma_l1={gamma_l1!r} outweighs the "
            f"correntropy and distance-variance terms (lam={lam!r}), so no base SVDD is "
            "selected and the ensemble would call every point normal. Lower gamma_l1 (or "
            "raise lam).")
    kept = np.flatnonzero(weights >= 1.0 / len(weights))
    return kept if len(kept) else np.array([int(np.argmax(weights))])


def check_distinct_rows(X: np.ndarray) -> None:
    """Refuse a training set whose rows are all the same point: every bootstrap SVDD is then
    that point (radius 0, every distance 0), nothing tells them apart, every weight is 0."""
    if (X[0] == X).all():
        raise InputError("every row of X is the same point, so all bootstrap SVDDs are "
                         "identical (radius 0) and CDVSE has nothing to weight; pass at least "
                         "two distinct samples.")


def check_spheres_fitted_on(spheres: Spheres, X: np.ndarray, gamma: float) -> None:
    """Refuse ``spheres`` not fitted on ``X`` with kernel width ``gamma``: their support
    vectors must be rows of X (weights and radii are measured on X's distances)."""
    if not isinstance(spheres, Spheres):
        raise InputError(f"spheres must be a Spheres (e.g. a fitted BaggingSVDD's spheres_), "
                         f"got {type(spheres).__name__}.")
    rows = {row.tobytes() for row in X}
    if spheres.support_vectors.shape[1] != X.shape[1] or not all(
            vector.tobytes() in rows for vector in spheres.support_vectors):
        reason = "their support vectors are not rows of X"
    elif spheres.gamma != gamma:
        reason = f"gamma {spheres.gamma:g}, not {gamma:g}"
    else:
        return
    raise InputError(f"spheres were not fitted on this X ({reason}); pass the spheres_ of a "
                     "BaggingSVDD fitted on the same X with the same gamma, or spheres=None.")


class CDVSESVDD(_SphereEnsemble):
    r"""Selective SVDD ensemble by correntropy and distance variance (CDVSE-SVDDs, the CDVSE paper).

    Parameters
    ----------
    n_estimators : int, default=50
        M, the number of bootstrap base SVDDs before selection.
    C, gamma, tol, nu :
        The base SVDDs' parameters, as for :class:`~milab_widgets.oneclass.SVDD` (gamma is
        the paper's zeta; C or nu, not both, nu meaning C = 1 / (nu n) with n = len(X)).
    sigma : float, default=0.3
        Width of the correntropy kernel on the radii.
    lam : float, default=1.0
        lambda, weight of the distance-variance term.
    gamma_l1 : float, default=1.0
        gamma of the paper, weight of the l1 penalty (named apart from the kernel's gamma).
        So large that every weight is 0, ``fit`` raises an InputError.
    max_iter : int, default=20
        T_max, the half-quadratic steps.
    random_state : int, Generator or None
        Seeds the bootstrap samples (the same seed gives BaggingSVDD's base SVDDs).

    Attributes
    ----------
    spheres_ : Spheres
        All M base SVDDs.
    weights_ : ndarray of shape (M,)
        The optimised w (>= 0).
    selected_ : ndarray of int
        Indices of the kept base SVDDs (w_k >= 1/M).
    objective_ : ndarray of shape (max_iter + 1,)
        J(w) from w = 1/M through every half-quadratic step (non-decreasing).
    kept_spheres_ : Spheres
        The kept base SVDDs, in ``selected_`` order.
    ensemble_radius_ : float
        sum_{k kept} w_k r_k.
    offset_ : float
        -``ensemble_radius_``: ``decision_function = score_samples - offset_``.
    n_iter_ : int
        Half-quadratic steps taken (``max_iter``: the paper runs a fixed T_max).
    n_features_in_ : int; feature_names_in_ : ndarray of str (DataFrame input only)

    See Also
    --------
    BaggingSVDD : the same bootstrap SVDDs, all kept, majority vote.
    AdaBoostSVDD : the boosting baseline.
    SVDD : the base learner.

    Notes
    -----
    The weights maximise the paper's eq. 17,

    .. math::

        J(w) = \frac{1}{M} \sum_k \exp\Big(-\frac{(r_k - w^\top r)^2}{2\sigma^2}\Big)
               - \lambda \sum_i \sum_n (d_i(x_n) - w^\top d_n)^2 - \gamma \lVert w \rVert_1,
               \qquad w \ge 0,

    (correntropy of the radii: compactness; distance variance; sparsity) by half-quadratic
    steps (the module's notes give the re-derived quadratic step). Base SVDDs with
    w_k >= 1/M are kept, and x is normal when sum_k w_k d_k(x) <= sum_k w_k r_k.

    References
    ----------
    Xing, H.-J., & Wei, Y.-L. (2016). Selective ensemble of SVDDs based on correntropy and
    distance variance. Computer Science (Jisuanji Kexue), 43(5), 252-256.
    He, R., Hu, B.-G., Zheng, W.-S., & Kong, X.-W. (2011). Robust principal component
    analysis based on maximum correntropy criterion. IEEE Trans. Image Processing, 20(6).

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 2))                  # normal samples
    >>> far = np.array([[0.0, 0.0], [5.0, 5.0]])     # the centre and a far point
    >>> from milab_widgets.oneclass import CDVSESVDD
    >>> model = CDVSESVDD(n_estimators=6, nu=0.1, gamma=0.1, max_iter=5, random_state=0).fit(X)
    >>> len(model.selected_) <= 6 and bool((model.weights_ >= 0).all())
    True
    >>> bool(np.all(np.diff(model.objective_) >= -1e-9))   # J(w) never decreases
    True
    >>> model.predict(far).tolist()
    [1, -1]
    """

    #: From one sample every bootstrap SVDD is the same point (radius 0, distance 0), so
    #: nothing tells the spheres apart and every weight comes out 0.
    _min_samples = 2

    _parameter_constraints: dict = {
        **BaggingSVDD._parameter_constraints,
        "sigma": [POSITIVE],
        "lam": [Interval(Real, 0, None, closed="left")],
        "gamma_l1": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left")],
    }

    def __init__(self, n_estimators: int = 50, C: float | None = None, gamma: float = 1.0,
                 sigma: float = 0.3, lam: float = 1.0, gamma_l1: float = 1.0,
                 max_iter: int = 20, tol: float = 1e-3, random_state=None,
                 nu: float | None = None):
        self.n_estimators = n_estimators
        self.C = C
        self.nu = nu
        self.gamma = gamma
        self.sigma = sigma
        self.lam = lam
        self.gamma_l1 = gamma_l1
        self.max_iter = max_iter
        self.tol = tol
        self.random_state = random_state

    @within_free_cores
    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None, spheres: Spheres | None = None):
        """Fit M bootstrap SVDDs (or reuse ``spheres``), then weight and select them.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (dense, finite).
        y : None
            Ignored: one-class learning uses no labels.
        spheres : Spheres, default=None
            Base SVDDs already fitted on the same X (e.g. a BaggingSVDD's ``spheres_``), used
            instead of fitting new ones.

        Returns
        -------
        self : CDVSESVDD
            The fitted ensemble.
        """
        X, C, gamma, tol, n_estimators = self._checked_data(X)
        check_distinct_rows(X)
        sigma, lam, gamma_l1 = float(self.sigma), float(self.lam), float(self.gamma_l1)
        steps = int(self.max_iter)
        if spheres is None:
            spheres = fit_bootstrap_spheres(X, C, gamma, tol, n_estimators, self.random_state)
        else:
            check_spheres_fitted_on(spheres, X, gamma)
        weights, objective = half_quadratic_weights(spheres.radii, spheres.distances(X), sigma,
                                                    lam, gamma_l1, steps)
        self.selected_ = selected_spheres(weights, gamma_l1, lam)
        self.spheres_, self.weights_, self.objective_ = spheres, weights, objective
        self.kept_spheres_ = spheres.subset(self.selected_)
        self.ensemble_radius_ = float(self.weights_[self.selected_] @ self.kept_spheres_.radii)
        self.offset_ = -self.ensemble_radius_
        self.n_iter_ = steps
        return self

    def score_samples(self, X) -> np.ndarray:
        """Score -sum_k w_k d_k(x) over the kept SVDDs.

        ``decision_function`` is sum_k w_k (r_k - d_k(x)), >= 0 meaning normal.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (dense, finite).

        Returns
        -------
        ndarray of shape (n_samples,)
            The higher, the more normal.
        """
        X = self._query(X)
        return -(self.kept_spheres_.distances(X) @ self.weights_[self.selected_])
