"""The shared Lemma 1 (``label_eigenvectors``) against brute-force eigendecompositions, and
its three callers (KernelMDDM, LeastSquaresKCCA, MDDMRanking) against their formulas."""

import numpy as np
import pytest
import scipy.linalg
from scipy.spatial.distance import cdist, pdist

from milab_widgets.exceptions import InputError
from milab_widgets.multilabel import KernelMDDM, MDDMRanking
from milab_widgets.multilabel.kcca import LeastSquaresKCCA
from milab_widgets.multilabel.mddm_solvers import label_eigenvectors

RNG = np.random.default_rng(7)
X = RNG.normal(size=(90, 8))
PLAIN = ((X[:, :4] + RNG.normal(size=(90, 4))) > 0.3).astype(int)
LABEL_SETS = {
    "plain": PLAIN,
    "duplicated": np.c_[PLAIN, PLAIN[:, :2]],                      # rank 4 of 6 columns
    "one label each": np.eye(4, dtype=int)[RNG.integers(0, 4, 90)],  # H Y has rank c - 1
    "constant label": np.c_[PLAIN, np.ones(90, dtype=int)],          # H Y: a zero column
}


def largest_angle(A, B) -> float:
    return float(np.max(scipy.linalg.subspace_angles(A, B)))


def top_eigenpairs(S, rank):
    """Brute force: the ``rank`` largest eigenpairs of the symmetric S."""
    values, vectors = np.linalg.eigh(S)
    return values[::-1][:rank], vectors[:, ::-1][:, :rank]


@pytest.mark.parametrize("name", LABEL_SETS)
def test_matches_the_eigendecomposition_of_QQt(name):
    Q = LABEL_SETS[name] - LABEL_SETS[name].mean(axis=0)
    values, B = label_eigenvectors(Q)
    rank = np.linalg.matrix_rank(Q)
    expected_values, expected_vectors = top_eigenpairs(Q @ Q.T, rank)
    assert B.shape == (90, rank)
    np.testing.assert_allclose(values, expected_values, rtol=1e-10)
    np.testing.assert_allclose(B.T @ B, np.eye(rank), atol=1e-12)
    assert largest_angle(B, expected_vectors) < 1e-10
    order = RNG.permutation(90)  # signs do not depend on the order of the rows
    np.testing.assert_allclose(label_eigenvectors(Q[order])[1], B[order], atol=1e-12)


def test_n_components_beyond_the_rank_is_an_input_error():
    Q = LABEL_SETS["one label each"] - LABEL_SETS["one label each"].mean(axis=0)
    assert label_eigenvectors(Q, 2)[1].shape == (90, 2)
    for bad in (0, 4):
        with pytest.raises(InputError, match="rank 3"):
            label_eigenvectors(Q, bad)


@pytest.mark.parametrize("name", ["plain", "duplicated", "one label each"])
def test_kernel_mddm_targets_match_lemma1_by_eigh_of_QtQ(name):
    """The previous computation: u = Q v / sqrt(s) from the eigenpairs of Q^T Q."""
    Y = LABEL_SETS[name]
    Q = Y - Y.mean(axis=0)
    values, V = top_eigenpairs(Q.T @ Q, np.linalg.matrix_rank(Q))
    model = KernelMDDM(solver="direct").fit(X, Y)
    np.testing.assert_allclose(model.eigenvalues_, values, rtol=1e-10)
    width = np.median(pdist(X))
    K = np.exp(-cdist(X, X, "sqeuclidean") / (2 * width**2))
    assert largest_angle(K @ model.components_, Q @ V / np.sqrt(values)) < 1e-8


@pytest.mark.parametrize("name", ["plain", "duplicated", "one label each"])
def test_kcca_targets_are_the_whitened_labels(name):
    """T spans Y (Y^T Y)^(-1/2) over Y's independent columns: the embedding is the ridge
    solution for that target up to an orthogonal rotation."""
    Y = LABEL_SETS[name]
    independent = Y[:, :np.linalg.matrix_rank(Y)] if name == "duplicated" else Y
    values, vectors = np.linalg.eigh(independent.T @ independent)
    target = independent @ (vectors / np.sqrt(values)) @ vectors.T
    model = LeastSquaresKCCA(ridge=0.3).fit(X, Y)
    assert model.n_components_ == independent.shape[1]
    width = np.median(pdist(X))
    H = np.eye(90) - 1 / 90
    Kc = H @ np.exp(-cdist(X, X, "sqeuclidean") / (2 * width**2)) @ H
    coef = np.linalg.solve(Kc @ Kc + 0.3 * np.eye(90), Kc @ target)
    assert largest_angle(model.coef_, coef) < 1e-10


@pytest.mark.parametrize("name", ["plain", "one label each"])
@pytest.mark.parametrize("variant", ["proj", "spc"])
def test_mddm_projection_matches_the_generalised_eigenproblem(name, variant):
    """S p = lambda B p by scipy's dense generalised eigh (B = I for proj)."""
    Y = LABEL_SETS[name]
    scaled = (X - X.min(axis=0)) / np.ptp(X, axis=0)
    centred = scaled - scaled.mean(axis=0)
    S = centred.T @ (Y - Y.mean(axis=0)) @ (Y - Y.mean(axis=0)).T @ centred
    B = np.eye(8) if variant == "proj" else 0.5 * centred.T @ centred + 0.5 * np.eye(8)
    values, vectors = scipy.linalg.eigh(S, B)
    rank = np.linalg.matrix_rank(Y - Y.mean(axis=0))
    model = MDDMRanking(4, variant=variant).fit(X, Y)
    np.testing.assert_allclose(model.eigenvalues_, values[::-1][:rank], rtol=1e-9)
    assert largest_angle(model.projection_, vectors[:, ::-1][:, :rank]) < 1e-10
