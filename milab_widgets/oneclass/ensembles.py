"""The paper's baseline SVDD ensembles: Bagging (majority vote) and AdaBoost.

Both share the base SVDDs' parameters C (or nu) and gamma (zeta) with the single SVDD and keep
their spheres in one :class:`~milab_widgets.oneclass.spheres.Spheres`, so predicting costs
one kernel block against the union of the support vectors.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator

from milab_widgets._sklearn_private import Interval, fit_context
from milab_widgets.core.parallel import within_free_cores
from milab_widgets.data.arrays import as_oneclass_labels, check_features
from milab_widgets.exceptions import InputError
from milab_widgets.oneclass.outlier_rule import ScoreOffsetOutlierMixin
from milab_widgets.oneclass.spheres import Spheres, bootstrap_counts, fit_sphere
from milab_widgets.oneclass.validation import SPHERE_CONSTRAINTS, resolve_C

__all__ = ["AdaBoostSVDD", "BaggingSVDD"]

#: AdaBoost's error floor: a base SVDD without training errors gets the vote weight
#: 0.5 ln((1 - e) / e) of this error (about 11.5) and ends the boosting.
MIN_ERROR = 1e-10


class _SphereEnsemble(ScoreOffsetOutlierMixin, BaseEstimator):
    """Parameter checks and fitted-state access shared by the ensembles (the +1/-1 rule is
    :class:`~milab_widgets.oneclass.outlier_rule.ScoreOffsetOutlierMixin`'s).

    ``score_samples(X)`` is the ensemble's score, higher meaning more normal, and
    ``decision_function(X) = score_samples(X) - offset_`` (scikit-learn's outlier API);
    a subclass implements ``score_samples`` and sets ``offset_`` in ``fit``.
    """

    #: Fewest training samples ``fit`` accepts.
    _min_samples = 1

    #: Declared parameter constraints, checked by ``_fit_context`` before any work.
    _parameter_constraints: dict = {
        **SPHERE_CONSTRAINTS,
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
    }

    def _checked_data(self, X):
        """Validated X plus C (from C or nu, n = len(X): every base SVDD's weights sum to
        n), gamma, tol and the number of base SVDDs (the parameters already checked
        against ``_parameter_constraints``)."""
        X = check_features(self, X, reset=True, min_samples=self._min_samples)
        C = resolve_C(self.C, self.nu, np.ones(len(X)))
        return X, C, float(self.gamma), float(self.tol), int(self.n_estimators)

    def _query(self, X) -> np.ndarray:
        return check_features(self, X, reset=False)


def fit_bootstrap_spheres(X, C, gamma, tol, n_estimators, random_state) -> Spheres:
    """``n_estimators`` SVDDs, each on a bootstrap sample of X's rows (size n, drawn with
    replacement by ``np.random.default_rng(random_state)``)."""
    counts = bootstrap_counts(len(X), n_estimators, np.random.default_rng(random_state))
    return Spheres.from_solutions(X, [fit_sphere(X, gamma, C, weights, tol) for weights in counts],
                                  gamma)


class BaggingSVDD(_SphereEnsemble):
    """Bagging ensemble of SVDDs: M bootstrap SVDDs, majority vote.

    Each base SVDD is fitted to a bootstrap sample (n rows drawn with replacement) with the
    same C and gamma; x is normal when at least half of the spheres hold it (a tie counts
    as normal).

    Parameters
    ----------
    n_estimators : int, default=50
        M, the number of base SVDDs.
    C, gamma, tol, nu :
        As for :class:`~milab_widgets.oneclass.SVDD` (gamma is the paper's zeta; C or nu,
        not both). nu means C = 1 / (nu n) for every base SVDD, n = len(X): a bootstrap
        sample has n rows too.
    random_state : int, Generator or None
        Seeds the bootstrap samples; equal seeds give equal ensembles.

    Attributes
    ----------
    spheres_ : Spheres
        The base SVDDs.
    offset_ : float
        0: ``decision_function = score_samples - offset_``.
    n_features_in_ : int; feature_names_in_ : ndarray of str (DataFrame input only)

    See Also
    --------
    SVDD : the base learner.
    AdaBoostSVDD : boosting instead of bootstrap samples.
    CDVSESVDD : weights and prunes these bootstrap SVDDs.

    Notes
    -----
    With h_m(x) = +1 when sphere m holds x and -1 otherwise, the ensemble's score is the vote
    margin sum_m h_m(x) / M, and x is normal when it is >= 0. It is the baseline of the CDVSE
    paper's Tables 3-4 (Xing & Wei, Computer Science 43(5), 2016).

    References
    ----------
    Breiman, L. (1996). Bagging predictors. Machine Learning, 24(2), 123-140.
    Tax, D. M. J., & Duin, R. P. W. (2001). Combining one-class classifiers. MCS 2001.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 2))                  # normal samples
    >>> far = np.array([[0.0, 0.0], [5.0, 5.0]])     # the centre and a far point
    >>> from milab_widgets.oneclass import BaggingSVDD
    >>> model = BaggingSVDD(n_estimators=5, nu=0.1, gamma=0.1, random_state=0).fit(X)
    >>> len(model.spheres_)
    5
    >>> model.predict(far).tolist()
    [1, -1]
    """

    _parameter_constraints: dict = {
        **_SphereEnsemble._parameter_constraints,
        "random_state": ["random_state", np.random.Generator],
    }

    def __init__(self, n_estimators: int = 50, C: float | None = None, gamma: float = 1.0,
                 tol: float = 1e-3, random_state=None, nu: float | None = None):
        self.n_estimators = n_estimators
        self.C = C
        self.nu = nu
        self.gamma = gamma
        self.tol = tol
        self.random_state = random_state

    @within_free_cores
    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Fit the M bootstrap SVDDs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (dense, finite).
        y : None
            Ignored: one-class learning uses no labels.

        Returns
        -------
        self : BaggingSVDD
            The fitted ensemble.
        """
        X, C, gamma, tol, n_estimators = self._checked_data(X)
        self.spheres_ = fit_bootstrap_spheres(X, C, gamma, tol, n_estimators, self.random_state)
        self.offset_ = 0.0
        return self

    def score_samples(self, X) -> np.ndarray:
        """Vote margin (votes for normal - votes for outlier) / M (``offset_`` = 0).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (dense, finite).

        Returns
        -------
        ndarray of shape (n_samples,)
            Values in [-1, 1]; the higher, the more normal.
        """
        X = self._query(X)
        return 2.0 * self.spheres_.inside(X).mean(axis=1) - 1.0


class AdaBoostSVDD(_SphereEnsemble):
    """AdaBoost (discrete, Freund & Schapire 1997) over sample-weighted SVDDs.

    Round m fits an SVDD to all training rows with bounds C_i = C n w_i (w: the boosting
    weights, sum 1, uniform at first, so round 1 is the single SVDD) and measures its
    weighted training error e_m against the labels y (+1 normal, -1 outlier: the training
    set's few outliers and the normal samples it rejects are its errors). With
    a_m = 1/2 ln((1 - e_m) / e_m) the weights of misclassified rows grow by exp(a_m), those
    of the others shrink by exp(-a_m), and w is renormalised. Boosting stops early when
    e_m >= 1/2 (that SVDD is dropped, unless it is the first: then it alone decides, with
    a_1 = 1) or when e_m = 0 (it is kept with the weight of e = 1e-10). The ensemble says
    normal when sum_m a_m h_m(x) >= 0.

    Parameters
    ----------
    n_estimators : int, default=50
        The most boosting rounds M.
    C, gamma, tol, nu :
        As for :class:`~milab_widgets.oneclass.SVDD` (gamma is the paper's zeta; C or nu,
        not both). nu means C = 1 / (nu n), n = len(X): the boosting weights n w_i sum to n.

    Attributes
    ----------
    spheres_ : Spheres
        The base SVDDs kept.
    estimator_weights_ : ndarray
        a_m of each kept SVDD.
    estimator_errors_ : ndarray
        e_m of each round run (including a final dropped one).
    n_iter_ : int
        Boosting rounds run (at most ``n_estimators``; fewer when boosting stops early).
    offset_ : float
        0: ``decision_function = score_samples - offset_``.
    n_features_in_ : int; feature_names_in_ : ndarray of str (DataFrame input only)

    See Also
    --------
    SVDD : the base learner (with per-sample bounds C_i).
    BaggingSVDD, CDVSESVDD : the other ensembles of the CDVSE paper's comparison.

    Notes
    -----
    The ensemble's decision is sign(sum_m a_m h_m(x)) with a_m = 1/2 ln((1 - e_m) / e_m), the
    discrete AdaBoost rule; it is a baseline of the CDVSE paper's Tables 3-4 (Xing & Wei,
    Computer Science 43(5), 2016).

    References
    ----------
    Freund, Y., & Schapire, R. E. (1997). A decision-theoretic generalization of on-line
    learning and an application to boosting. J. Computer and System Sciences, 55, 119-139.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 2))                  # normal samples
    >>> far = np.array([[0.0, 0.0], [5.0, 5.0]])     # the centre and a far point
    >>> from milab_widgets.oneclass import AdaBoostSVDD
    >>> y = np.where(np.linalg.norm(X, axis=1) > 2.2, -1, 1)   # a few outliers in training
    >>> model = AdaBoostSVDD(n_estimators=5, C=0.2, gamma=0.1).fit(X, y)
    >>> model.n_iter_ <= 5 and len(model.estimator_weights_) == len(model.spheres_)
    True
    >>> model.predict(far).tolist()
    [1, -1]
    """

    def __init__(self, n_estimators: int = 50, C: float | None = None, gamma: float = 1.0,
                 tol: float = 1e-3, nu: float | None = None):
        self.n_estimators = n_estimators
        self.C = C
        self.nu = nu
        self.gamma = gamma
        self.tol = tol

    @within_free_cores
    @fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        """Boost SVDDs on X with the labels y.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (dense, finite).
        y : array-like of shape (n_samples,) of +1 / -1, default=None
            +1 normal, -1 outlier; None means every row is normal.

        Returns
        -------
        self : AdaBoostSVDD
            The fitted ensemble.
        """
        X, C, gamma, tol, n_rounds = self._checked_data(X)
        y = np.ones(len(X), dtype=np.int64) if y is None else as_oneclass_labels(y, len(X))
        if not (y == 1).any():
            raise InputError("y holds only -1 (outliers); AdaBoostSVDD boosts SVDDs that "
                             "describe the normal class, so mark the normal rows +1 (or pass "
                             "y=None: every row normal).")
        weights = np.full(len(X), 1.0 / len(X))
        solutions, vote_weights, errors = [], [], []
        for _ in range(n_rounds):
            solution = fit_sphere(X, gamma, C, len(X) * weights, tol)
            wrong = _sphere_predictions(X, solution, gamma) != y
            error = float(weights[wrong].sum())
            errors.append(error)
            if error >= 0.5:
                if not solutions:
                    solutions, vote_weights = [solution], [1.0]
                break
            error = max(error, MIN_ERROR)
            vote = 0.5 * np.log((1.0 - error) / error)
            solutions.append(solution)
            vote_weights.append(vote)
            if error <= MIN_ERROR:
                break
            weights = weights * np.exp(np.where(wrong, vote, -vote))
            weights /= weights.sum()
        self.spheres_ = Spheres.from_solutions(X, solutions, gamma)
        self.estimator_weights_ = np.array(vote_weights)
        self.estimator_errors_ = np.array(errors)
        self.n_iter_ = len(errors)
        self.offset_ = 0.0
        return self

    def score_samples(self, X) -> np.ndarray:
        """Weighted vote sum_m a_m h_m(x) / sum_m a_m (``offset_`` = 0).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Samples (dense, finite).

        Returns
        -------
        ndarray of shape (n_samples,)
            Values in [-1, 1]; the higher, the more normal.
        """
        X = self._query(X)
        votes = np.where(self.spheres_.inside(X), 1.0, -1.0)
        return votes @ self.estimator_weights_ / self.estimator_weights_.sum()


def _sphere_predictions(X, solution, gamma) -> np.ndarray:
    """+1/-1 of one solved sphere on the rows it was fitted to."""
    return np.where(Spheres.from_solutions(X, [solution], gamma).inside(X)[:, 0], 1, -1)
