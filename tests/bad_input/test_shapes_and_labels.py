"""Wrong shapes (no silent broadcasting) and wrong label values or types (no silent
truncation or misreading): refused naming the argument."""

import numpy as np
import pytest

from milab_widgets.exceptions import InputError
from milab_widgets.mil import (
    BAMIC,
    adapted_distance,
    integrated_distance,
    nca_objective,
    tune_alpha_nca,
)
from milab_widgets.multilabel import MFSEF

D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.5], [2.0, 1.5, 0.0]])


@pytest.mark.parametrize("call, match", [
    (lambda: integrated_distance(D, D[:, :1], 0.5), "d_min has shape .* and d_max"),
    (lambda: integrated_distance(D[0], D[0], 0.5), "same 2-D shape"),
    (lambda: adapted_distance(D, D[:1], [0, 1, 0]), "d_min has shape .* and d_max"),
    (lambda: adapted_distance(D, D, [0, 1]), "labels has shape"),
    (lambda: nca_objective(D, [0, 1], 1.0), "distances of shape .* does not match"),
    (lambda: tune_alpha_nca(D, D[:2, :2], [0, 1, 0], 1.0), "d_max of shape"),
], ids=["integrated-cols", "integrated-1d", "adapted-rows", "adapted-labels", "nca", "tune"])
def test_mismatched_shapes_are_refused(call, match):
    with pytest.raises(InputError, match=match):
        call()


@pytest.mark.parametrize("labels", [[1, 2, 1], ["a", "b", "a"], [0.5, 1, 0], [0, 1, np.nan]])
def test_adapted_labels_other_than_0_1_are_refused(labels):
    with pytest.raises(InputError, match="labels must be 0 .* or 1"):
        adapted_distance(D, D, labels)


@pytest.mark.parametrize("call", [
    lambda y: nca_objective(D, y, 1.0),
    lambda y: tune_alpha_nca(D, D, y, 1.0),
], ids=["nca_objective", "tune_alpha_nca"])
def test_continuous_labels_are_refused_not_truncated(call):
    with pytest.raises(InputError, match="y holds continuous values"):
        call([0.2, 0.7, 0.4])


def test_nan_labels_are_refused():
    with pytest.raises(ValueError, match="y contains NaN"):
        nca_objective(D, [0, 1, np.nan], 1.0)


@pytest.mark.parametrize("y_partial", [[0.5, 1.0, -1.0, -1.0], ["0", "1", "-1", "-1"]])
def test_bamic_partial_labels_must_be_integers(y_partial):
    big = np.array([[0, 1, 5, 6], [1, 0, 5, 6], [5, 5, 0, 1], [6, 6, 1, 0]], float)
    with pytest.raises(InputError, match="y_partial must hold integer class labels"):
        BAMIC(2, metric="integrated").fit({"min": big, "max": big}, np.array(y_partial))


def test_bamic_refuses_an_asymmetric_distance_matrix():
    asymmetric = np.array([[0.0, 1.0, 9.0], [2.0, 0.0, 9.0], [9.0, 9.0, 0.0]])
    with pytest.raises(InputError, match="not symmetric"):
        BAMIC(2).fit(asymmetric)


def test_fractional_expert_indices_are_refused():
    X = np.random.default_rng(0).normal(size=(20, 5))
    with pytest.raises(InputError, match="experts must be distinct integer feature indices"):
        MFSEF(n_features=2, experts=[1.5]).fit(X, (X[:, :2] > 0).astype(int))
