import numpy as np
import pytest
from scipy.special import softmax

from milab_widgets.exceptions import InputError
from milab_widgets.mil import (
    bag_distances,
    golden_section_maximize,
    nca_alpha_curve,
    nca_objective,
    tune_alpha_nca,
)


def brute_force_nca(distances, y, sigma):
    """Seed eqs. 6-7 written out: p_ij by plain exponentials, then the same-label sum."""
    n = len(y)
    total = 0.0
    for i in range(n):
        weights = np.array([np.exp(-distances[i, k] / sigma) if k != i else 0.0 for k in range(n)])
        p = weights / weights.sum()
        total += sum(p[j] for j in range(n) if j != i and y[j] == y[i])
    return total


@pytest.fixture
def problem(small_bags):
    d = bag_distances(small_bags)
    return d["min"] / 10, d["max"] / 10, small_bags.labels


@pytest.mark.parametrize("sigma", [0.5, 1.0, 5.0])
def test_objective_equals_brute_force(problem, sigma):
    d_min, _, y = problem
    assert nca_objective(d_min, y, sigma) == pytest.approx(brute_force_nca(d_min, y, sigma), rel=1e-12)


def test_objective_is_stable_for_raw_distances_and_small_sigma(small_bags):
    d = bag_distances(small_bags)["max"] * 10  # distances in the hundreds
    y = small_bags.labels
    value = nca_objective(d, y, 0.1)
    assert np.isfinite(value)
    logits = -d / 0.1
    np.fill_diagonal(logits, -np.inf)
    p = softmax(logits, axis=1)  # an independent stable softmax
    same = (y[:, None] == y[None, :]) & ~np.eye(len(y), dtype=bool)
    assert value == pytest.approx(p[same].sum(), rel=1e-10)


def test_objective_bounds(problem):
    d_min, _, y = problem
    value = nca_objective(d_min, y, 1.0)
    assert 0.0 <= value <= len(y)


def test_golden_section_finds_known_maxima():
    x, fx, evaluations = golden_section_maximize(lambda a: -(a - 0.3) ** 2, 0.0, 1.0, tol=1e-6)
    assert x == pytest.approx(0.3, abs=1e-6) and fx == pytest.approx(0.0, abs=1e-11)
    assert evaluations <= 2 + int(np.ceil(np.log(1e-6) / np.log(0.618034))) + 1
    x, _, _ = golden_section_maximize(np.sin, 0.0, 3.0, tol=1e-7)
    assert x == pytest.approx(np.pi / 2, abs=1e-6)
    x, _, _ = golden_section_maximize(lambda a: a, 0.0, 1.0, tol=1e-5)  # monotone: the end
    assert x == pytest.approx(1.0, abs=1e-5)
    with pytest.raises(InputError):
        golden_section_maximize(np.sin, 1.0, 1.0)


@pytest.mark.parametrize("grid", [None, 11])
def test_tuned_alpha_maximises_the_objective(problem, grid):
    d_min, d_max, y = problem
    alpha, value = tune_alpha_nca(d_min, d_max, y, 1.0, grid=grid)
    dense = np.linspace(0, 1, 2001)
    curve = nca_alpha_curve(d_min, d_max, y, 1.0, dense)
    assert 0.0 <= alpha <= 1.0
    assert value == pytest.approx(nca_alpha_curve(d_min, d_max, y, 1.0, [alpha])[0])
    if grid is not None:  # the grid variant finds the global maximum of this objective
        assert value >= curve.max() - 1e-6


def test_grid_search_is_at_least_as_good_as_its_grid_and_pure_search(problem):
    d_min, d_max, y = problem
    for sigma in (0.2, 1.0, 5.0, 50.0):
        _, with_grid = tune_alpha_nca(d_min, d_max, y, sigma, grid=11)
        _, pure = tune_alpha_nca(d_min, d_max, y, sigma, grid=None)
        grid_values = nca_alpha_curve(d_min, d_max, y, sigma, np.linspace(0, 1, 11))
        assert with_grid >= grid_values.max() - 1e-12
        assert with_grid >= pure - 1e-6  # equal up to the search tolerance on this problem


def test_tune_alpha_bad_inputs(problem):
    d_min, d_max, y = problem
    with pytest.raises(InputError, match="both classes"):
        tune_alpha_nca(d_min, d_max, np.zeros_like(y), 1.0)
    with pytest.raises(ValueError, match="'sigma' parameter of tune_alpha_nca"):
        tune_alpha_nca(d_min, d_max, y, -1.0)
    with pytest.raises(InputError, match="does not match"):
        tune_alpha_nca(d_min[:3, :3], d_max, y, 1.0)


def test_alpha_outside_the_unit_interval_is_rejected(problem):
    d_min, d_max, y = problem
    for alpha in (-0.1, 1.5, float("nan")):
        with pytest.raises(InputError, match=r"\[0, 1\]"):
            nca_alpha_curve(d_min, d_max, y, 1.0, [alpha])
