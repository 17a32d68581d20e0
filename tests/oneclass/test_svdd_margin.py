"""The SVDD sphere holds what its duals put inside, to the solver's accuracy (issue 20).

The solver stops with a KKT gap below tol, so a sample whose dual is below its bound lies at
most 2 C tol outside the dual's sphere R_rho; SVDD's R^2 = R_rho^2 + 2 C tol. Checked here:
the hard-margin SVDD (C = 1, nu = 1 / n) accepts its whole training set and its sphere
exceeds the farthest training sample by at most 2 C tol; the soft margin rejects exactly the
samples scikit-learn's OneClassSVM puts clearly outside (decision < -1e-6; it also rejects
samples on its sphere, |decision| < 1e-6, which the solver's accuracy cannot place); the
ensembles' spheres hold the rows they were fitted to.
"""

import numpy as np
import pytest
from sklearn.svm import OneClassSVM

from milab_widgets.oneclass import SVDD, AdaBoostSVDD, BaggingSVDD
from milab_widgets.oneclass.spheres import bootstrap_counts

#: Rounding of a squared distance evaluated twice (solver's gradient vs. kernel rows).
ROUNDING = 1e-12


def gaussian(seed=0):
    return np.random.default_rng(seed).normal(size=(200, 2))


def uniform(seed=1):
    return np.random.default_rng(seed).uniform(-1.0, 1.0, size=(150, 3))


def clustered(seed=2):
    """Three tight clusters far apart (cross-cluster kernel values ~ 0)."""
    rng = np.random.default_rng(seed)
    centres = np.array([[0.0, 0.0], [10.0, 0.0], [0.0, 10.0]])
    return np.vstack([centre + 0.3 * rng.normal(size=(40, 2)) for centre in centres])


def duplicated(seed=3):
    """40 distinct rows, each repeated 1 to 5 times (a singular kernel matrix)."""
    rng = np.random.default_rng(seed)
    rows = rng.normal(size=(40, 2))
    return rng.permutation(np.repeat(rows, rng.integers(1, 6, len(rows)), axis=0))


def one_point():
    return np.tile([[0.5, -1.0]], (12, 1))


DATA = {"gaussian": gaussian, "uniform": uniform, "clustered": clustered,
        "duplicated": duplicated, "one point repeated": one_point}


@pytest.mark.parametrize("tol", [1e-3, 1e-8])
@pytest.mark.parametrize("scale", ["C=1", "nu=1/n"])
@pytest.mark.parametrize("name", DATA)
def test_hard_margin_svdd_accepts_its_whole_training_set(name, scale, tol):
    X = DATA[name]()
    params = {"C": 1.0} if scale == "C=1" else {"nu": 1.0 / len(X)}
    model = SVDD(gamma=1.0, tol=tol, **params).fit(X)
    assert pytest.approx(1.0) == model.C_
    decision = model.decision_function(X)
    np.testing.assert_array_equal(model.predict(X), np.ones(len(X)))
    # strictly inside, and the sphere exceeds the farthest sample by at most 2 C tol
    assert decision.min() > 0
    assert decision.min() <= 2 * model.C_ * tol + ROUNDING
    np.testing.assert_array_equal(model.predict(X), np.where(decision >= 0, 1, -1))


def test_the_issue_example_had_outliers_on_the_dual_sphere_and_has_none_now():
    """The issue's numbers: OneClassSVM(nu = 1/n), whose threshold R_rho this SVDD had,
    rejects 58 of these 200 points at tol = 1e-3, all within 2 C tol of its sphere."""
    X = gaussian()
    for tol in (1e-3, 1e-8):
        reference = 2.0 * OneClassSVM(nu=1 / 200, gamma=1.0, tol=tol).fit(X).decision_function(X)
        assert (reference < 0).sum() > 0 and reference.min() > -2 * tol
        assert (SVDD(tol=tol).fit(X).predict(X) == 1).all()


@pytest.mark.parametrize("nu", [0.1, 0.2, 0.5])
@pytest.mark.parametrize("name", ["gaussian", "uniform"])
def test_soft_margin_rejects_what_oneclass_svm_puts_clearly_outside(name, nu):
    X = DATA[name]()
    reference = OneClassSVM(nu=nu, gamma=0.3, tol=1e-9).fit(X).decision_function(X)
    model = SVDD(nu=nu, gamma=0.3, tol=1e-9).fit(X)
    rejected = model.predict(X) == -1
    np.testing.assert_array_equal(rejected, reference < -1e-6)
    assert np.abs(reference[(reference < 0) & ~rejected]).max(initial=0.0) < 1e-6
    # at most a fraction nu, and only samples at their bound (a_i = C), are outliers
    assert nu / 4 <= rejected.mean() <= nu
    assert (model.alpha_[rejected] >= model.C_ * (1 - 1e-12)).all()


@pytest.mark.parametrize("tol", [1e-3, 1e-8])
@pytest.mark.parametrize("nu", [0.1, 0.5])
def test_soft_margin_holds_every_sample_below_its_bound_by_at_most_2_C_tol(nu, tol):
    X = gaussian(4)
    model = SVDD(nu=nu, gamma=0.3, tol=tol).fit(X)
    decision = model.decision_function(X)
    below_bound = model.alpha_ < model.C_ * (1 - 1e-12)
    assert 0 < decision[below_bound].min() <= 2 * model.C_ * tol + ROUNDING
    assert 0 < (decision < 0).mean() <= nu
    query = np.vstack([X, X[:30] * 1.5, [[5.0, 5.0]]])
    np.testing.assert_array_equal(model.predict(query),
                                  np.where(model.decision_function(query) >= 0, 1, -1))


def test_bagging_spheres_hold_every_row_they_were_fitted_to():
    X = gaussian(5)[:80]
    model = BaggingSVDD(n_estimators=6, C=1.0, gamma=1.0, random_state=7).fit(X)
    drawn = bootstrap_counts(len(X), 6, np.random.default_rng(7)).T > 0  # (n, M)
    assert model.spheres_.inside(X)[drawn].all()


def test_hard_margin_adaboost_gets_its_normal_training_set_right_in_one_round():
    X = gaussian(6)[:80]
    model = AdaBoostSVDD(n_estimators=5, gamma=1.0).fit(X)
    assert model.estimator_errors_.tolist() == [0.0]
    assert (model.predict(X) == 1).all()
