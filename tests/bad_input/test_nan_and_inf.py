"""NaN, infinity and overflowing values: refused with an error naming the argument, never
passed through to a result."""

import numpy as np
import pytest

from milab_widgets.data import BagDataset
from milab_widgets.exceptions import InputError
from milab_widgets.mil import (
    BagKNN,
    CitationKNN,
    adapted_distance,
    bag_distances,
    golden_section_maximize,
    integrated_distance,
    nca_objective,
    tune_alpha_nca,
)
from tests.bad_input.cases import bags, fit_data, is_bag_estimator, make, public_estimators

GOOD = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.5], [2.0, 1.5, 0.0]])
Y3 = np.array([0, 1, 0])


def _with(value, at=(0, 1)):
    matrix = GOOD.copy()
    matrix[at] = value
    return matrix


@pytest.mark.parametrize("value", [np.nan, np.inf, -1.0])
@pytest.mark.parametrize("call, name", [
    (lambda D: integrated_distance(D, GOOD, 0.5), "d_min"),
    (lambda D: integrated_distance(GOOD, D, 0.5), "d_max"),
    (lambda D: adapted_distance(D, GOOD, Y3), "d_min"),
    (lambda D: nca_objective(D, Y3, 1.0), "distances"),
    (lambda D: tune_alpha_nca(GOOD, D, Y3, 1.0), "d_max"),
], ids=["integrated-min", "integrated-max", "adapted", "nca_objective", "tune_alpha_nca"])
def test_bad_distance_values_are_refused(call, name, value):
    with pytest.raises(InputError, match=f"{name} must hold finite, non-negative"):
        call(_with(value))


def test_golden_section_refuses_a_nan_objective():
    with pytest.raises(InputError, match="func returned NaN"):
        golden_section_maximize(lambda a: np.nan, 0.0, 1.0)


@pytest.mark.parametrize("value", [np.nan, np.inf, 1e200])
@pytest.mark.parametrize("use", [
    lambda data: bag_distances(data),
    lambda data: BagKNN(n_neighbors=1).fit(data, data.labels),
    lambda data: CitationKNN(references=1).fit(data, data.labels),
], ids=["bag_distances", "BagKNN", "CitationKNN"])
def test_bags_changed_after_construction_are_checked_where_used(use, value):
    data = bags()
    data.instances[3, 1] = value  # written after the BagDataset checked its arrays
    with pytest.raises(InputError, match=r"(NaN or infinity|values beyond \+-1e\+150) in \w+\.instances"):
        use(data)


@pytest.mark.parametrize("value", [np.nan, np.inf, 1e200, 1e154])
def test_bag_values_whose_squares_overflow_are_refused_at_construction(value):
    with pytest.raises(InputError, match="in instances"):
        BagDataset.from_bags([[[0.0, 1.0]], [[value, 1.0]]])


def test_complex_bags_are_refused_not_truncated():
    with pytest.raises(InputError, match="bag 1 holds complex numbers"):
        BagDataset.from_bags([[[0.0, 1.0]], [[1.0 + 2.0j, 1.0]]])


ARRAY_ESTIMATORS = [cls for cls in public_estimators() if not is_bag_estimator(cls)]
#: The method each array estimator answers queries with.
QUERY = ("decision_function", "transform", "predict_proba")


def _overflowing(X, value):
    X = X.copy()
    X[0, 0] = value
    return X


@pytest.mark.parametrize("value", [1e308, 1e154, -1e200])
@pytest.mark.parametrize("cls", ARRAY_ESTIMATORS, ids=lambda cls: cls.__name__)
def test_values_whose_squares_overflow_are_refused_naming_the_bound(cls, value):
    """Never NaN in a result, never reported as NaN or blamed on a hyper-parameter: at fit and
    at query time, X beyond 1e150 is refused with the bound."""
    X, y = fit_data(cls)
    with pytest.raises(InputError, match=r"values beyond \+-1e\+150 in X \(rows \[0\]\)"):
        make(cls).fit(_overflowing(X, value), y)
    fitted = make(cls).fit(X, y)
    method = next(m for m in QUERY if hasattr(fitted, m))
    with pytest.raises(InputError, match=r"values beyond \+-1e\+150 in X"):
        getattr(fitted, method)(_overflowing(X[:3], value))


@pytest.mark.parametrize("cls", ARRAY_ESTIMATORS, ids=lambda cls: cls.__name__)
def test_values_at_the_bound_give_finite_results(cls):
    """The bound is not over-cautious for the distances: 1e150 itself gives finite output."""
    X, y = fit_data(cls)
    fitted = make(cls).fit(X, y)
    method = next(m for m in QUERY if hasattr(fitted, m))
    assert np.isfinite(np.asarray(getattr(fitted, method)(_overflowing(X[:3], 1e150)))).all()
