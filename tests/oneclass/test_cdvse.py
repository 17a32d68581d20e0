"""CDVSE: objective (brute force), half-quadratic surrogate, monotone ascent, w >= 0,
selection, decision rule, reproducibility, bad inputs."""

import numpy as np
import pytest

from milab_widgets.exceptions import InputError
from milab_widgets.oneclass import CDVSESVDD, SVDD
from milab_widgets.oneclass.cdvse import (
    auxiliary_weights,
    cdvse_objective,
    distance_moments,
    distance_variance,
    half_quadratic_weights,
    surrogate_qp,
)


def blobs(n=120, seed=0):
    rng = np.random.default_rng(seed)
    return np.vstack([rng.normal(0, 1, (n // 2, 2)), rng.normal(3, 0.5, (n - n // 2, 2))])


def brute_objective(w, r, D, sigma, lam, gamma_l1):
    """Seed eq. 17 with explicit loops."""
    M, N = len(r), len(D)
    r_bar = sum(w[k] * r[k] for k in range(M))
    value = sum(np.exp(-((r[k] - r_bar) ** 2) / (2 * sigma**2)) for k in range(M)) / M
    for i in range(M):
        for n in range(N):
            value -= lam * (D[n, i] - sum(w[k] * D[n, k] for k in range(M))) ** 2
    return value - gamma_l1 * sum(abs(x) for x in w)


def brute_surrogate(w, p, r, D, sigma, lam, gamma_l1):
    """The w-dependent part of the paper's eq. 19 for fixed p."""
    M = len(r)
    value = sum(p[k] * (r[k] - w @ r) ** 2 for k in range(M)) / (2 * sigma**2 * M)
    value -= lam * sum(((D[n] - D[n] @ w) ** 2).sum() for n in range(len(D)))
    return value - gamma_l1 * w.sum()


@pytest.fixture(scope="module")
def problem():
    rng = np.random.default_rng(5)
    return rng.uniform(0.5, 1.0, 6), rng.uniform(0.2, 1.5, (9, 6))


def test_objective_equals_the_formula(problem):
    r, D = problem
    w = np.random.default_rng(0).uniform(0, 0.3, 6)
    assert cdvse_objective(w, r, D, 0.3, 0.7, 0.2) == pytest.approx(
        brute_objective(w, r, D, 0.3, 0.7, 0.2), rel=1e-12)


def test_distance_variance_is_eq_14(problem):
    _, D = problem
    w = np.random.default_rng(2).uniform(0, 0.3, 6)
    by_loops = sum((D[n, i] - sum(w[k] * D[n, k] for k in range(6))) ** 2
                   for i in range(6) for n in range(len(D)))
    assert distance_variance(w, D) == pytest.approx(by_loops, rel=1e-12)
    # every member at the same distance from a sample, weights summing to 1: no spread
    assert distance_variance(np.full(4, 0.25), np.tile([[0.3], [0.8]], (1, 4))) == \
        pytest.approx(0.0, abs=1e-15)


def test_surrogate_quadratic_is_the_half_quadratic_surrogate(problem):
    r, D = problem
    rng = np.random.default_rng(1)
    p = auxiliary_weights(rng.uniform(0, 0.3, 6), r, 0.3)
    H, b = surrogate_qp(p, r, *distance_moments(D), 0.3, 0.7, 0.2)
    u, v = rng.uniform(0, 0.4, 6), rng.uniform(0, 0.4, 6)
    quadratic = lambda w: -0.5 * w @ H @ w + b @ w  # noqa: E731
    assert quadratic(u) - quadratic(v) == pytest.approx(
        brute_surrogate(u, p, r, D, 0.3, 0.7, 0.2) - brute_surrogate(v, p, r, D, 0.3, 0.7, 0.2),
        rel=1e-9)
    assert (p < 0).all() and np.linalg.eigvalsh(H).min() > -1e-9


@pytest.mark.parametrize("sigma", [0.01, 0.3, 7.0])
@pytest.mark.parametrize("lam, gamma_l1", [(1.0, 1.0), (1e-3, 1e-3), (1e-2, 10.0)])
def test_objective_never_decreases_and_weights_stay_non_negative(sigma, lam, gamma_l1):
    model = CDVSESVDD(n_estimators=15, C=0.05, gamma=0.5, sigma=sigma, lam=lam,
                      gamma_l1=gamma_l1, random_state=2).fit(blobs())
    assert len(model.objective_) == 21
    steps = np.diff(model.objective_)
    assert steps.min() >= -1e-9 * max(1.0, np.abs(model.objective_).max())
    assert (model.weights_ >= 0).all()
    radii, D = model.spheres_.radii, model.spheres_.distances(blobs())
    assert model.objective_[-1] == pytest.approx(
        brute_objective(model.weights_, radii, D, sigma, lam, gamma_l1), rel=1e-9, abs=1e-9)


def test_selection_and_decision_rule():
    X = blobs()
    model = CDVSESVDD(n_estimators=12, C=0.05, gamma=0.5, lam=1e-3, random_state=3).fit(X)
    M = len(model.weights_)
    np.testing.assert_array_equal(model.selected_, np.flatnonzero(model.weights_ >= 1 / M))
    query = np.vstack([X[:10], [[10.0, 10.0]]])
    d = model.spheres_.distances(query)[:, model.selected_]
    w, r = model.weights_[model.selected_], model.spheres_.radii[model.selected_]
    np.testing.assert_allclose(model.decision_function(query), w @ r - d @ w, atol=1e-12)
    np.testing.assert_array_equal(model.predict(query), np.where(d @ w <= w @ r, 1, -1))


def test_bootstrap_sphere_equals_an_svdd_of_the_drawn_sample():
    """A sphere fitted on distinct rows with bounds C x count is the SVDD of the sample
    with its repeats (scikit-learn's bootstrap with duplicates)."""
    X = blobs(60)
    model = CDVSESVDD(n_estimators=1, C=0.1, gamma=0.5, tol=1e-9, random_state=4).fit(X)
    drawn = np.random.default_rng(4).integers(0, len(X), len(X))  # the same draw
    single = SVDD(C=0.1, gamma=0.5, tol=1e-9).fit(X[drawn])
    np.testing.assert_allclose(model.spheres_.squared_distances(X)[:, 0],
                               single.squared_distance(X), atol=1e-6)


def test_equal_seeds_give_equal_ensembles_and_spheres_can_be_reused():
    X = blobs()
    first = CDVSESVDD(n_estimators=10, C=0.05, gamma=0.5, random_state=7).fit(X)
    again = CDVSESVDD(n_estimators=10, C=0.05, gamma=0.5, random_state=7).fit(X)
    other = CDVSESVDD(n_estimators=10, C=0.05, gamma=0.5, random_state=8).fit(X)
    reused = CDVSESVDD(n_estimators=10, C=0.05, gamma=0.5).fit(X, spheres=first.spheres_)
    np.testing.assert_array_equal(first.weights_, again.weights_)
    np.testing.assert_array_equal(first.weights_, reused.weights_)
    assert not np.array_equal(first.weights_, other.weights_)


@pytest.mark.parametrize("params, name", [({"sigma": 0.0}, "sigma"), ({"lam": -1.0}, "lam"),
                                          ({"gamma_l1": float("nan")}, "gamma_l1"),
                                          ({"n_estimators": 0}, "n_estimators"),
                                          ({"max_iter": 0}, "max_iter"), ({"C": 0.001}, "C")])
def test_bad_parameters_name_the_argument(params, name):
    with pytest.raises(ValueError, match=name):  # InputError or InvalidParameterError
        CDVSESVDD(**params).fit(blobs())


def test_nu_is_C_of_one_over_nu_n_for_every_base_svdd():
    X = blobs()
    by_nu = CDVSESVDD(n_estimators=8, nu=0.1, gamma=0.5, random_state=1).fit(X)
    by_C = CDVSESVDD(n_estimators=8, C=1 / (0.1 * len(X)), gamma=0.5, random_state=1).fit(X)
    np.testing.assert_allclose(by_nu.weights_, by_C.weights_, atol=1e-10)
    with pytest.raises(InputError, match="exactly one"):
        CDVSESVDD(C=0.1, nu=0.1).fit(X)
    with pytest.raises(ValueError, match="'nu' parameter of CDVSESVDD"):
        CDVSESVDD(nu=2.0).fit(X)


def test_all_zero_weights_are_a_clear_error_not_an_everything_normal_ensemble():
    X = blobs()
    spheres = CDVSESVDD(n_estimators=8, C=0.05, gamma=0.5, random_state=1).fit(X).spheres_
    # with this penalty every gradient b_k of step (b) is negative: the optimum is w = 0
    weights, _ = half_quadratic_weights(spheres.radii, spheres.distances(X), 0.3, 1.0, 1e6)
    assert not weights.any()
    model = CDVSESVDD(n_estimators=8, C=0.05, gamma=0.5, gamma_l1=1e6, random_state=1)
    with pytest.raises(InputError, match=r"every CDVSE weight is 0.*Lower gamma_l1"):
        model.fit(X, spheres=spheres)
    assert not hasattr(model, "weights_")
