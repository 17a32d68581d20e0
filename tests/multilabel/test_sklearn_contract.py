"""The multi-label estimators as scikit-learn components: sparse input equals dense, DataFrame
feature names, transformer API, the label checks' messages, and use in Pipeline/GridSearchCV."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse
from scipy.spatial.distance import cdist
from sklearn.base import clone
from sklearn.metrics import f1_score
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.pipeline import Pipeline

from milab_widgets.core.neighbors import nearest_neighbors
from milab_widgets.multilabel import MFSEF, MFSLS, PMU, Discretizer, KernelMDDM, MDDMRanking, MLkNN
from milab_widgets.multilabel.kcca import LeastSquaresKCCA
from milab_widgets.multilabel.kernel_mddm import distinct_rows


@pytest.fixture(scope="module")
def term_data():
    """Sparse non-negative 'term frequencies' with duplicated rows (empty documents too) and
    labels driven by a few terms."""
    rng = np.random.default_rng(0)
    X = np.round(rng.exponential(size=(90, 25)) * (rng.random((90, 25)) < 0.25), 1)
    X[[10, 20]] = X[5]
    X[[30, 31]] = 0.0
    Y = np.column_stack([X[:, 0] > 0, X[:, 1] + X[:, 2] > 0.5, X[:, 3] > 0.2]).astype(int)
    Y[0] = 1 - Y[0]  # no label constant
    return X, Y


# -- sparse equals dense ----------------------------------------------------------------------
def test_sparse_neighbours_equal_brute_force_with_ties():
    X = np.random.default_rng(1).integers(0, 3, size=(40, 6)).astype(float)  # many ties
    X[X == 1] = 0
    order = np.argsort(cdist(X, X, "sqeuclidean") + np.diag(np.full(40, np.inf)), axis=1,
                       kind="stable")
    sparse = scipy.sparse.csr_matrix(X)
    np.testing.assert_array_equal(nearest_neighbors(sparse, sparse, 5, exclude_self=True)[0],
                                  order[:, :5])
    np.testing.assert_array_equal(nearest_neighbors(X[:7], sparse, 4)[0],
                                  np.argsort(cdist(X[:7], X, "sqeuclidean"), axis=1,
                                             kind="stable")[:, :4])


def test_mlknn_on_sparse_data_equals_dense(term_data):
    X, Y = term_data
    dense = MLkNN(k=5).fit(X, Y)
    sparse = MLkNN(k=5).fit(scipy.sparse.csr_matrix(X), scipy.sparse.csr_matrix(Y))
    assert scipy.sparse.issparse(sparse.X_)  # the training matrix is kept sparse
    np.testing.assert_array_equal(sparse.likelihood_true_, dense.likelihood_true_)
    for queries in (X[:30], scipy.sparse.csr_matrix(X[:30]), scipy.sparse.csc_array(X[:30])):
        np.testing.assert_array_equal(sparse.predict_proba(queries), dense.predict_proba(X[:30]))


@pytest.mark.parametrize("selector", [MFSEF(6, n_experts=2), MFSLS(6), PMU(6),
                                      MDDMRanking(6), MDDMRanking(6, variant="spc")],
                         ids=lambda s: type(s).__name__ + getattr(s, "variant", ""))
def test_selectors_on_sparse_data_equal_dense(term_data, selector):
    X, Y = term_data
    dense = clone(selector).fit(X, Y)
    sparse = clone(selector).fit(scipy.sparse.csr_matrix(X), scipy.sparse.csr_matrix(Y))
    np.testing.assert_array_equal(sparse.selected_, dense.selected_)
    if isinstance(selector, MDDMRanking):
        np.testing.assert_allclose(sparse.weights_, dense.weights_, rtol=1e-9, atol=1e-12)
    columns = sparse.transform(scipy.sparse.csr_matrix(X))
    assert scipy.sparse.issparse(columns)
    np.testing.assert_array_equal(columns.toarray(), X[:, dense.selected_])


def test_discretizer_bins_sparse_data_like_dense():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 8)) * (rng.random((60, 8)) < 0.3)
    X[:, 2] = 0.0  # constant
    X[:, 3] = np.abs(X[:, 3]) + (X[:, 3] != 0)  # zero is the minimum
    for n_bins in (2, 3, 5):
        dense = Discretizer(n_bins).fit(X)
        sparse = Discretizer(n_bins).fit(scipy.sparse.csr_matrix(X))
        np.testing.assert_array_equal(sparse.bin_edges_, dense.bin_edges_)
        np.testing.assert_array_equal(sparse.transform(scipy.sparse.csr_matrix(X[::-1])),
                                      dense.transform(X[::-1]))
    whole = scipy.sparse.csr_matrix(X)  # below, every value stored as two halves
    rows = list(zip(whole.indptr[:-1], whole.indptr[1:], strict=True))
    halves = scipy.sparse.csr_matrix(
        (np.concatenate([np.tile(whole.data[a:b] / 2, 2) for a, b in rows]),
         np.concatenate([np.tile(whole.indices[a:b], 2) for a, b in rows]), 2 * whole.indptr),
        shape=X.shape)
    assert not halves.has_canonical_format
    np.testing.assert_array_equal(Discretizer(3).fit(halves).transform(halves),
                                  Discretizer(3).fit(X).transform(X))


@pytest.mark.parametrize("model", [
    KernelMDDM(), KernelMDDM(solver="direct"), KernelMDDM(solver="lsqr", ridge=1.0, tol=1e-9),
    KernelMDDM(solver="direct", ridge=0.5, kernel_approx="nystroem", n_landmarks=30,
               random_state=0),
    LeastSquaresKCCA(),
], ids=["eig", "direct", "lsqr-ridge", "nystroem", "KCCA"])
def test_kernel_embeddings_of_sparse_data_equal_dense(term_data, model):
    X, Y = term_data
    dense = clone(model).fit(X, Y)
    sparse = clone(model).fit(scipy.sparse.csr_matrix(X), scipy.sparse.csr_matrix(Y))
    assert sparse.kernel_width_ == pytest.approx(dense.kernel_width_, rel=1e-12)
    np.testing.assert_allclose(sparse.transform(scipy.sparse.csr_matrix(X)), dense.transform(X),
                               atol=1e-9)


def test_distinct_rows_of_sparse_and_dense_agree_in_first_occurrence_order(term_data):
    X, _ = term_data
    X_sparse = scipy.sparse.csr_matrix(X)
    X_sparse.data[X_sparse.data == 0.5] = 0.0  # explicit zeros are not part of a row's key
    reference = X_sparse.toarray()
    dense, sparse = distinct_rows(reference), distinct_rows(X_sparse)
    np.testing.assert_array_equal(sparse[0].toarray(), dense[0])
    for ours, theirs in zip(sparse[1:], dense[1:], strict=True):
        np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(dense[0][dense[2]], reference)  # rows rebuilt from groups
    assert (np.diff(dense[1]) > 0).all() and dense[1][0] == 0  # first occurrences, in order
    assert dense[3].sum() == len(reference) and len(dense[0]) < len(reference)


# -- DataFrames, transformer API, label checks -----------------------------------------------
def test_feature_names_are_kept_and_reordered_columns_refused(term_data):
    X, Y = term_data
    frame = pd.DataFrame(X, columns=[f"term{j}" for j in range(X.shape[1])])
    selector = MFSEF(4, n_experts=1).fit(frame, Y)
    assert list(selector.feature_names_in_) == list(frame.columns)
    assert list(selector.get_feature_names_out()) == [f"term{j}" for j in selector.selected_]
    np.testing.assert_array_equal(selector.fit_transform(frame, Y), X[:, selector.selected_])
    for model in (selector, MLkNN(k=3).fit(frame, Y), KernelMDDM().fit(frame, Y)):
        method = model.predict if hasattr(model, "predict") else model.transform
        with pytest.raises(ValueError, match="order as they were in fit"):
            method(frame[frame.columns[::-1]])


def test_unnamed_features_get_positional_output_names(term_data):
    X, Y = term_data
    selector = PMU(3).fit(X, Y)
    assert list(selector.get_feature_names_out()) == [f"x{j}" for j in selector.selected_]


@pytest.mark.parametrize("Y, message", [
    (None, "requires y to be passed"),
    (np.arange(90) % 3, "Only binary classification is supported"),
    (np.random.default_rng(0).normal(size=(90, 2)), "continuous"),
    (np.ones((90, 2), dtype=object), "Unknown label type"),
    (np.arange(90) % 2, "2-D 0/1 label matrix"),
])
def test_targets_that_are_no_label_matrix_are_refused(term_data, Y, message):
    with pytest.raises(ValueError, match=message):
        MLkNN(k=3).fit(term_data[0], Y)


def test_complex_and_1d_input_get_scikit_learn_errors(term_data):
    X, Y = term_data
    with pytest.raises(ValueError, match="Complex data not supported"):
        PMU(3).fit(X + 1j, Y)
    with pytest.raises(ValueError, match="Reshape your data"):
        MLkNN(k=3).fit(X, Y).predict(X[0])


def test_kcca_warns_about_constant_labels(term_data):
    X, Y = term_data
    with pytest.warns(UserWarning, match=r"labels \[1\] of Y are the same for every sample"):
        LeastSquaresKCCA().fit(X, np.column_stack([Y[:, 0], np.ones(len(Y), int)]))


# -- composition ------------------------------------------------------------------------------
def test_grid_search_over_a_selection_pipeline_equals_a_manual_loop(term_data):
    X, Y = term_data
    pipeline = Pipeline([("select", MFSEF(n_experts=1)), ("knn", MLkNN(k=5))])
    folds = KFold(3, shuffle=True, random_state=0)
    search = GridSearchCV(pipeline, {"select__n_features": [3, 8]}, cv=folds,
                          scoring="f1_micro").fit(scipy.sparse.csr_matrix(X), Y)
    for size, score in zip([3, 8], search.cv_results_["mean_test_score"], strict=True):
        manual = []
        for train, test in folds.split(X):
            selected = MFSEF(size, n_experts=1).fit(X[train], Y[train]).selected_
            model = MLkNN(k=5).fit(X[train][:, selected], Y[train])
            manual.append(f1_score(Y[test], model.predict(X[test][:, selected]), average="micro"))
        assert score == pytest.approx(np.mean(manual), abs=1e-12)
