"""Bad arguments to the public functions: declared with scikit-learn's ``validate_params``,
so a value out of range or of the wrong type is refused with InvalidParameterError naming
the argument and the allowed values; and the functions' silent-result cases of issue 25."""

import numpy as np
import pytest

from milab_widgets._sklearn_private import InvalidParameterError
from milab_widgets.data.image_bags import kmeans_segment_bags, lbp_bags, patch_bags, sift_bags
from milab_widgets.data.synthetic_bags import synthetic_two_view_bags
from milab_widgets.data.synthetic_oneclass import sine_noise, square_noise
from milab_widgets.evaluation import nemenyi_cd
from milab_widgets.evaluation.clustering_scores import clustering_accuracy
from milab_widgets.exceptions import InputError
from milab_widgets.mil import (
    bag_distances,
    bag_kernel_matrices,
    golden_section_maximize,
    integrated_distance,
    metric_distance,
    nca_alpha_curve,
    nca_objective,
    tune_alpha_nca,
)
from milab_widgets.mil.bamic import k_medoids
from milab_widgets.mil.neighbors import make_bag_classifier
from milab_widgets.multilabel.selection import label_relevance
from tests.bad_input.cases import bags

D = np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 1.5], [2.0, 1.5, 0.0]])
IMAGES = np.random.default_rng(0).random((2, 8, 8))
Y = [0, 1, 0]

#: (call taking the bad value, function name, argument name, bad values)
CASES = [
    (lambda v: nca_objective(D, Y, sigma=v), "nca_objective", "sigma", [-1, 0, "1", np.nan]),
    (lambda v: tune_alpha_nca(D, D, Y, v), "tune_alpha_nca", "sigma", [-1, 0, "1"]),
    (lambda v: tune_alpha_nca(D, D, Y, 1.0, grid=v), "tune_alpha_nca", "grid", [1, 2.5, "11"]),
    (lambda v: tune_alpha_nca(D, D, Y, 1.0, tol=v), "tune_alpha_nca", "tol", [0, -1, "1e-4"]),
    (lambda v: nca_alpha_curve(D, D, Y, v, [0.5]), "nca_alpha_curve", "sigma", [-1, "a"]),
    (lambda v: golden_section_maximize(np.sin, 0, 1, tol=v), "golden_section_maximize", "tol",
     [0, -1, "a"]),
    (lambda v: golden_section_maximize(v, 0, 1), "golden_section_maximize", "func", [1.0, "f"]),
    (lambda v: golden_section_maximize(np.sin, v, 1), "golden_section_maximize", "low",
     [np.nan, np.inf, "0"]),
    (lambda v: integrated_distance(D, D, v), "integrated_distance", "alpha", [-0.1, 1.5, "a"]),
    (lambda v: metric_distance({"min": D}, v), "metric_distance", "metric", ["euclid", 3]),
    (lambda v: bag_distances(bags(), precision=v), "bag_distances", "precision", ["float16"]),
    (lambda v: k_medoids(D, [0, 1], max_iter=v), "k_medoids", "max_iter", [0, -3, 2.5]),
    (lambda v: bag_kernel_matrices([bags()], v), "bag_kernel_matrices", "kernel", ["rbf"]),
    (lambda v: bag_kernel_matrices([bags()], "minimax", degree=v), "bag_kernel_matrices",
     "degree", [0, 2.5]),
    (lambda v: make_bag_classifier("knn", v), "make_bag_classifier", "k", [0, 1.5]),
    (lambda v: make_bag_classifier(v, 3), "make_bag_classifier", "name", ["svm"]),
    (lambda v: label_relevance(np.eye(4), np.eye(4), n_bins=v), "label_relevance", "n_bins",
     [1, 2.5]),
    (lambda v: sine_noise(n_normal=v), "sine_noise", "n_normal", [0, -1, 2.5]),
    (lambda v: sine_noise(noise=v), "sine_noise", "noise", [-0.1, "a"]),
    (lambda v: square_noise(n_normal=v), "square_noise", "n_normal", [0, -1]),
    (lambda v: square_noise(seed=v), "square_noise", "seed", ["abc", -1]),
    (lambda v: synthetic_two_view_bags(bags_per_cluster=v), "synthetic_two_view_bags",
     "bags_per_cluster", [2.5, 0]),
    (lambda v: synthetic_two_view_bags(spread=v), "synthetic_two_view_bags", "spread", [0, -1]),
    (lambda v: patch_bags(IMAGES, size=v), "patch_bags", "size", ["3", 0, 2.5]),
    (lambda v: lbp_bags(IMAGES, stride=v), "lbp_bags", "stride", ["2", 0, 2.5]),
    (lambda v: sift_bags(IMAGES, size=v), "sift_bags", "size", [1, "4"]),
    (lambda v: kmeans_segment_bags(IMAGES, n_segments=v), "kmeans_segment_bags", "n_segments",
     ["4", 0, 2.5]),
    (lambda v: nemenyi_cd(3, 10, alpha=v), "nemenyi_cd", "alpha", ["0.05", 0, 1, np.nan]),
]


@pytest.mark.parametrize("call, function, name, value", [
    pytest.param(call, function, name, value, id=f"{function}-{name}-{value!r}")
    for call, function, name, values in CASES for value in values])
def test_bad_argument_is_refused_naming_it(call, function, name, value):
    with pytest.raises(InvalidParameterError, match=f"The '{name}' parameter of {function} "
                                                    "must be"):
        call(value)


@pytest.mark.parametrize("y_true, y_pred, name", [
    ([0, 1, np.nan, 1], [0, 1, 1, 1], "y_true"),
    ([0, 1, 1, 1], [0.0, 1.0, np.nan, 1.0], "y_pred"),
    (np.array([0, None, 1, 1], dtype=object), [0, 1, 1, 1], "y_true"),
])
def test_clustering_accuracy_refuses_missing_labels(y_true, y_pred, name):
    with pytest.raises(InputError, match=f"{name} contains NaN or None"):
        clustering_accuracy(y_true, y_pred)


def test_synthetic_view_dimensions_are_checked():
    with pytest.raises(InputError, match="n_features must be two positive integers"):
        synthetic_two_view_bags(n_features=(4,))


def test_sample_weight_strings_are_refused_naming_it():
    from milab_widgets.oneclass import SVDD
    with pytest.raises(InputError, match="sample_weight must hold numbers"):
        SVDD().fit(np.ones((3, 2)) * [[0], [1], [2]], sample_weight=["a", "b", "c"])


def test_bags_from_sparse_matrices_are_made_dense_with_a_warning():
    import scipy.sparse
    from sklearn.exceptions import DataConversionWarning

    from milab_widgets.data import BagDataset
    with pytest.warns(DataConversionWarning, match="scipy.sparse matrix is stored dense"):
        data = BagDataset.from_bags([scipy.sparse.csr_matrix(np.eye(2)),
                                     scipy.sparse.csr_matrix([[1.0, 1.0]])])
    np.testing.assert_array_equal(data.instances, [[1, 0], [0, 1], [1, 1]])
    with pytest.warns(DataConversionWarning, match="instances given as a scipy.sparse"):
        BagDataset(scipy.sparse.csr_matrix(np.eye(2)), [0, 1, 2], [0, 1])


# -- issue 33's bad-input sweep: each case answered with a clear error, or documented -----------
@pytest.mark.parametrize("call, message", [
    (lambda: integrated_distance(np.array([["1", "2"]]), np.array([["3", "4"]]), 0.5),
     "d_min holds text, not numbers"),
    (lambda: integrated_distance(np.array([[1, "2"]], dtype=object), np.ones((1, 2)), 0.5),
     "d_min holds text"),
    (lambda: nca_alpha_curve(D, D, Y, 1.0, ["a"]), "alphas must be a list of numbers in "
                                                   r"\[0, 1\].*got \['a'\]"),
    (lambda: nca_alpha_curve(D, D, Y, 1.0, [0.5, 2.0]), "got 2.0"),
    (lambda: nca_alpha_curve(D, D, Y, 1.0, [[0.5]]), "got an array of shape"),
])
def test_text_where_numbers_are_meant_is_refused_naming_it(call, message):
    with pytest.raises(InputError, match=message):
        call()


def test_string_class_labels_are_read_as_classes_by_the_nca_functions():
    as_text = ["pos", "neg", "pos"]
    assert nca_objective(D, as_text, 1.0) == nca_objective(D, Y, 1.0)
    assert tune_alpha_nca(D, 2 * D, as_text, 1.0) == tune_alpha_nca(D, 2 * D, Y, 1.0)


@pytest.mark.parametrize("scores, message", [
    (np.array([["a", "b"], ["c", "d"]]), "scores holds text such as 'a'"),
    (np.zeros((3, 3, 3)), r"scores has shape \(3, 3, 3\); pass one metric as a 2-D"),
])
def test_friedman_test_names_what_is_wrong_with_its_table(scores, message):
    from milab_widgets.evaluation import friedman_test
    with pytest.raises(InputError, match=message):
        friedman_test(scores)


def test_text_bag_labels_are_refused_with_how_to_encode_them():
    from milab_widgets.data import BagDataset
    with pytest.raises(InputError, match=r"got text such as 'pos'. Encode them first, e.g. "
                                         r"labels = \(np.asarray\(labels\) == 'pos'\)"):
        BagDataset.from_bags([np.eye(2), np.eye(2)], labels=["pos", "neg"])


def test_bags_passed_where_precomputed_distances_are_expected_are_named():
    from milab_widgets.mil import BagKNN
    with pytest.raises(InputError, match="got a BagDataset .bags.: with metric='precomputed' "
                                         "pass distances"):
        BagKNN(metric="precomputed").fit(bags(), bags().labels)


@pytest.mark.parametrize("value, message", [
    (True, "must be a whole number, got the bool True"),  # scikit-learn's Interval takes it as 1
    (False, "must be an int in the range"), (np.True_, "must be an int in the range")])
def test_a_count_given_as_a_bool_is_refused(value, message):
    from milab_widgets.multilabel import MLkNN
    with pytest.raises(InvalidParameterError, match=f"'k' parameter of MLkNN {message}"):
        MLkNN(k=value).fit(np.eye(4), np.eye(4)[:, :2].astype(int))
