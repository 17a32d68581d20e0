"""SVDD against its exact oracle, scikit-learn's OneClassSVM (nu = 1 / (C n), duals =
dual_coef_ / (nu n), decision = 2 C x (OneClassSVM's + tol): R^2 includes the solver's
accuracy 2 C tol), plus properties and bad inputs."""

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import OneClassSVM

from milab_widgets.exceptions import InputError
from milab_widgets.oneclass import SVDD

TOL = 1e-9


def gaussian(n=150, d=3, seed=0):
    return np.random.default_rng(seed).normal(size=(n, d))


def oracle(X, C, gamma, sample_weight=None):
    """(duals, decision function) of the equivalent OneClassSVM."""
    total = len(X) if sample_weight is None else sample_weight.sum()
    model = OneClassSVM(nu=1.0 / (C * total), gamma=gamma, tol=TOL)
    model.fit(X, sample_weight=sample_weight)
    duals = np.zeros(len(X))
    duals[model.support_] = model.dual_coef_.ravel() * C  # = dual_coef_ / (nu n)
    return duals, lambda Z: 2.0 * C * (model.decision_function(Z) + TOL)


def assert_matches_oracle(X, C, gamma, sample_weight=None):
    duals, decision = oracle(X, C, gamma, sample_weight)
    model = SVDD(C=C, gamma=gamma, tol=TOL).fit(X, sample_weight=sample_weight)
    np.testing.assert_allclose(model.alpha_, duals, atol=1e-6)
    query = np.vstack([X, X[:20] + 0.3, X[:5] * 4])
    np.testing.assert_allclose(model.decision_function(query), decision(query), atol=1e-7)


@pytest.mark.parametrize("C", [0.02, 0.1, 0.5, 1.0])
@pytest.mark.parametrize("gamma", [0.1, 2.0])
def test_equals_oneclass_svm_on_gaussian_data(C, gamma):
    assert_matches_oracle(gaussian(), C, gamma)


@pytest.mark.realdata
@pytest.mark.parametrize("name, C, gamma", [("sonar", 0.05, 0.1), ("thyroid", 0.02, 2.0),
                                            ("liver", 0.3, 1.0)])
def test_equals_oneclass_svm_on_uci_data(require_dataset, name, C, gamma):
    data = require_dataset(name)
    assert_matches_oracle(MinMaxScaler().fit_transform(data.X[data.y == 1]), C, gamma)


def test_sample_weights_equal_oneclass_svm_sample_weights():
    X = gaussian(120, 2, seed=3)
    weights = np.random.default_rng(3).uniform(0.2, 3.0, len(X))
    assert_matches_oracle(X, 0.02, 0.5, weights)


def test_duals_are_feasible_and_radius_is_the_distance_of_free_support_vectors():
    X = gaussian(200, 2, seed=1)
    model = SVDD(C=0.03, gamma=0.7, tol=1e-10).fit(X)
    assert model.alpha_.sum() == pytest.approx(1.0, abs=1e-12)
    assert (model.alpha_ >= 0).all() and (model.alpha_ <= 0.03 + 1e-15).all()
    free = (model.alpha_ > 1e-12) & (model.alpha_ < 0.03 - 1e-12)
    assert free.any()
    np.testing.assert_allclose(model.squared_distance(X[free]), model.radius_**2, atol=1e-8)
    # squared distance written out: K(x,x) - 2 sum a_i K(x, x_i) + sum a_i a_j K(x_i, x_j)
    K = np.exp(-0.7 * ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1))
    brute = 1.0 - 2.0 * K @ model.alpha_ + model.alpha_ @ K @ model.alpha_
    np.testing.assert_allclose(model.squared_distance(X), brute, atol=1e-10)


def test_predict_is_the_sign_of_the_decision_function():
    X = gaussian(100, 2, seed=2)
    model = SVDD(C=0.05, gamma=0.5).fit(X)
    query = np.vstack([X, [[0.0, 0.0], [8.0, 8.0]]])
    decision = model.decision_function(query)
    assert set(model.predict(query)) <= {-1, 1}
    np.testing.assert_array_equal(model.predict(query), np.where(decision >= 0, 1, -1))
    assert model.predict([[8.0, 8.0]])[0] == -1 and model.predict(X).mean() > 0.5


def test_a_tiny_kernel_cache_gives_the_same_solution():
    X = gaussian(300, 4, seed=4)
    full = SVDD(C=0.02, gamma=0.3, tol=1e-8).fit(X)
    tiny = SVDD(C=0.02, gamma=0.3, tol=1e-8, cache_mb=1e-6).fit(X)  # 2 rows: constant eviction
    np.testing.assert_allclose(tiny.alpha_, full.alpha_, atol=1e-12)


def test_C_of_one_over_n_keeps_every_dual_at_its_bound():
    X = gaussian(40, 2)
    model = SVDD(C=1 / 40, gamma=1.0).fit(X)
    np.testing.assert_allclose(model.alpha_, 1 / 40)
    # no free dual: R^2 is the lowest admissible value, the closest sample's distance, plus
    # the solver's accuracy 2 C tol
    assert model.radius_**2 == pytest.approx(model.squared_distance(X).min() + 2 * 1e-3 / 40,
                                             abs=1e-12)


@pytest.mark.parametrize("C", [0.01, 1 / 41])
def test_C_below_one_over_n_is_a_clear_error(C):
    with pytest.raises(InputError, match=r"C=.* is below 1/n = 0.025"):
        SVDD(C=C).fit(gaussian(40, 2))


@pytest.mark.parametrize("X, message", [  # scikit-learn's own messages (validate_data)
    (np.array([1.0, 2.0, 3.0]), "Expected 2D array, got 1D array"),
    (np.array([[1.0, np.nan], [0.0, 1.0]]), "Input X contains NaN"),
    (np.zeros((0, 2)), r"0 sample\(s\) \(shape=\(0, 2\)\)"),
    (np.ones((3, 2)) + 1j, "Complex data not supported"),
])
def test_bad_samples_are_rejected(X, message):
    with pytest.raises(ValueError, match=message):
        SVDD().fit(X)


@pytest.mark.parametrize("params, name", [({"gamma": 0.0}, "gamma"), ({"C": -1.0}, "C"),
                                          ({"tol": float("nan")}, "tol")])
def test_bad_parameters_name_the_argument(params, name):
    with pytest.raises(ValueError, match=f"'{name}' parameter of SVDD must be"):
        SVDD(**params).fit(gaussian(20, 2))


def test_bad_sample_weight_and_feature_count():
    X = gaussian(20, 2)
    with pytest.raises(InputError, match="sample_weight"):
        SVDD().fit(X, sample_weight=-np.ones(20))
    with pytest.raises(ValueError, match="X has 5 features, but SVDD is expecting 2"):
        SVDD().fit(X).predict(np.zeros((3, 5)))


def test_iteration_cap_warns():
    with pytest.warns(ConvergenceWarning, match="max_iter"):
        SVDD(C=0.02, gamma=1.0, max_iter=1).fit(gaussian(200, 2))


def test_scikit_learn_contract():
    model = SVDD(C=0.2, gamma=0.5)
    assert clone(model).get_params() == model.get_params()
    assert model.fit(gaussian(30, 2)) is model and not hasattr(SVDD(), "alpha_")


# -- nu: OneClassSVM's scale of C ---------------------------------------------------------------
@pytest.mark.parametrize("nu", [0.05, 0.3, 0.77])  # 0.9 x 120: no free dual, R^2 ambiguous
@pytest.mark.parametrize("gamma", [0.1, 2.0])
def test_nu_equals_oneclass_svm_nu(nu, gamma):
    """SVDD(nu) against OneClassSVM(nu) directly: duals = dual_coef_ / (nu n), decision =
    2 / (nu n) x (OneClassSVM's + tol)."""
    X = gaussian(120, 3, seed=6)
    reference = OneClassSVM(nu=nu, gamma=gamma, tol=TOL).fit(X)
    model = SVDD(nu=nu, gamma=gamma, tol=TOL).fit(X)
    duals = np.zeros(len(X))
    duals[reference.support_] = reference.dual_coef_.ravel() / (nu * len(X))
    np.testing.assert_allclose(model.alpha_, duals, atol=1e-6)
    assert pytest.approx(1.0 / (nu * len(X))) == model.C_
    query = np.vstack([X, X[:10] * 3])
    np.testing.assert_allclose(model.decision_function(query),
                               2.0 / (nu * len(X)) * (reference.decision_function(query) + TOL),
                               atol=1e-7)
    # nu bounds the training outliers from above (points on the sphere, decision 0 up to
    # the solver's tolerance, are not outliers) and the support vectors from below
    assert (model.decision_function(X) < -1e-6).mean() <= nu + 1e-9
    assert len(model.support_) >= nu * len(X) - 1e-9


def test_nu_of_one_puts_every_dual_at_its_bound():
    """nu = 1 is C = 1/n (OneClassSVM reports non-finite duals there, so no oracle)."""
    X = gaussian(40, 2)
    np.testing.assert_allclose(SVDD(nu=1.0, gamma=1.0).fit(X).alpha_, 1 / 40)


def test_nu_with_sample_weights_uses_the_weighted_size():
    X = gaussian(80, 2, seed=7)
    weights = np.random.default_rng(7).uniform(0.5, 2.0, len(X))
    by_nu = SVDD(nu=0.2, gamma=0.5, tol=TOL).fit(X, sample_weight=weights)
    by_C = SVDD(C=1.0 / (0.2 * weights.sum()), gamma=0.5, tol=TOL).fit(X, sample_weight=weights)
    np.testing.assert_allclose(by_nu.alpha_, by_C.alpha_, atol=1e-12)


def test_neither_C_nor_nu_is_the_hard_sphere():
    X = gaussian(50, 2, seed=8)
    assert SVDD().fit(X).C_ == 1.0
    np.testing.assert_array_equal(SVDD().fit(X).alpha_, SVDD(C=1.0).fit(X).alpha_)


@pytest.mark.parametrize("params, message", [
    ({"C": 0.1, "nu": 0.1}, "exactly one"),
    ({"nu": 0.0}, r"'nu' parameter of SVDD must be a float in the range \(0.0, 1.0\]"),
    ({"nu": 1.5}, r"'nu' parameter .* Got 1.5 instead"),
    ({"nu": float("nan")}, "'nu' parameter"),
])
def test_C_and_nu_together_or_nu_out_of_range_is_a_clear_error(params, message):
    with pytest.raises(ValueError, match=message):  # InputError or InvalidParameterError
        SVDD(**params).fit(gaussian(20, 2))
