"""NaN, infinity and overflowing values: refused with an error naming the argument, never
passed through to a result."""

import numpy as np
import pytest

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
from milab_widgets.data import BagDataset
from tests.bad_input.cases import bags

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
    with pytest.raises(InputError, match=r"instances contain NaN, infinity or values beyond"):
        use(data)


@pytest.mark.parametrize("value", [np.nan, np.inf, 1e200, 1e154])
def test_bag_values_whose_squares_overflow_are_refused_at_construction(value):
    with pytest.raises(InputError, match="instances contain"):
        BagDataset.from_bags([[[0.0, 1.0]], [[value, 1.0]]])


def test_complex_bags_are_refused_not_truncated():
    with pytest.raises(InputError, match="bag 1 holds complex numbers"):
        BagDataset.from_bags([[[0.0, 1.0]], [[1.0 + 2.0j, 1.0]]])
