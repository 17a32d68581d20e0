"""Wrong shapes (no silent broadcasting) and wrong label values or types (no silent
truncation or misreading): refused naming the argument."""

import numpy as np
import pytest

from milab_widgets.data import BagDataset
from milab_widgets.exceptions import InputError
from milab_widgets.mil import (
    BAMIC,
    BagKNN,
    CitationKNN,
    MinimaxKernel,
    MixtureModelKernel,
    adapted_distance,
    integrated_distance,
    nca_objective,
    tune_alpha_nca,
)
from milab_widgets.multilabel import MFSEF
from tests.bad_input.cases import fit_data, make, needs_label_matrix, public_estimators

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


def test_adaboost_refuses_labels_without_a_normal_row():
    from milab_widgets.oneclass import AdaBoostSVDD
    X = np.random.default_rng(0).normal(size=(20, 2))
    with pytest.raises(InputError, match="y holds only -1"):
        AdaBoostSVDD(n_estimators=3).fit(X, -np.ones(20, int))


@pytest.mark.parametrize("other, match", [
    (lambda X: X[:, :1] + 10, "support vectors are not rows of X"),
    (lambda X: X + 1e-9, "support vectors are not rows of X"),
    (lambda X: X, r"gamma 2, not 1"),
], ids=["other-features", "other-rows", "other-gamma"])
def test_cdvse_refuses_spheres_fitted_on_other_data(other, match):
    from milab_widgets.oneclass import CDVSESVDD, BaggingSVDD
    X = np.random.default_rng(0).normal(size=(30, 2))
    gamma = 2.0 if "gamma" in match else 1.0
    spheres = BaggingSVDD(5, gamma=gamma, random_state=0).fit(other(X)).spheres_
    with pytest.raises(InputError, match=match):
        CDVSESVDD(5, random_state=0).fit(X, spheres=spheres)


def test_cdvse_with_its_own_bagging_spheres_equals_fitting_them():
    from milab_widgets.oneclass import CDVSESVDD, BaggingSVDD
    X = np.random.default_rng(0).normal(size=(30, 2))
    spheres = BaggingSVDD(5, random_state=0).fit(X).spheres_
    shared = CDVSESVDD(5, random_state=0).fit(X, spheres=spheres)
    own = CDVSESVDD(5, random_state=0).fit(X)
    np.testing.assert_allclose(shared.decision_function(X), own.decision_function(X))


# -- DataFrame bags: column names kept, reordered columns refused as for the array estimators
def _frame_bags(columns):
    import pandas as pd

    from tests.bad_input.cases import bags
    data = bags()
    frames = [pd.DataFrame(bag, columns=["a", "b"])[columns] for bag in data]
    return BagDataset.from_bags(frames, labels=data.labels)


BAG_QUERIES = {
    "BagKNN": lambda train, query: BagKNN(n_neighbors=1).fit(train, train.labels).predict(query),
    "CitationKNN": lambda train, query: CitationKNN(references=1).fit(
        train, train.labels).predict(query),
    "MinimaxKernel": lambda train, query: MinimaxKernel().fit(train).transform(query),
    "MixtureModelKernel": lambda train, query: MixtureModelKernel(
        n_components=2, random_state=0).fit(train).transform(query),
}


@pytest.mark.parametrize("name", BAG_QUERIES)
def test_bag_estimators_refuse_reordered_columns(name):
    with pytest.raises(InputError, match=r"feature names \['b', 'a'\] differ from those"):
        BAG_QUERIES[name](_frame_bags(["a", "b"]), _frame_bags(["b", "a"]))


@pytest.mark.parametrize("name", BAG_QUERIES)
def test_named_bags_in_the_training_order_give_the_unnamed_result(name):
    from tests.bad_input.cases import bags
    named = BAG_QUERIES[name](_frame_bags(["a", "b"]), _frame_bags(["a", "b"]))
    np.testing.assert_array_equal(named, BAG_QUERIES[name](bags(), bags()))


def test_bag_columns_must_agree_across_bags():
    import pandas as pd
    frames = [pd.DataFrame([[0.0, 1.0]], columns=["a", "b"]),
              pd.DataFrame([[0.0, 1.0]], columns=["b", "a"])]
    with pytest.raises(InputError, match=r"bag 1 has columns \['b', 'a'\] but bag 0 has"):
        BagDataset.from_bags(frames)


def test_selected_bags_keep_their_feature_names():
    data = _frame_bags(["b", "a"])
    assert list(data[np.array([2, 0])].feature_names) == ["b", "a"]
    assert list(data.map_instances(lambda x: 2 * x).feature_names) == ["b", "a"]


@pytest.mark.parametrize("cls", [cls for cls in public_estimators() if needs_label_matrix(cls)],
                         ids=lambda cls: cls.__name__)
def test_a_3d_label_array_is_refused_by_its_shape(cls):
    X, Y = fit_data(cls)
    with pytest.raises(InputError, match=r"Y has shape \(30, 3, 1\); .* needs a 2-D 0/1 label"):
        make(cls).fit(X, Y[:, :, None])
