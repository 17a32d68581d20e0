"""kMDDM-ifp, the block inverse-free Krylov method (Golub & Ye 2002; Quillen & Ye 2010),
against scipy's dense generalised eigh, Theorem 1, its own stopping bound and the
monotonicity of Rayleigh-Ritz."""

import numpy as np
import pytest
import scipy.linalg
from scipy.spatial.distance import cdist, pdist

from milab_widgets.multilabel import KernelMDDM
from milab_widgets.multilabel.inverse_free import solve_inverse_free
from milab_widgets.multilabel.mddm_solvers import label_eigenvectors


def largest_angle(A, B) -> float:
    return float(np.max(scipy.linalg.subspace_angles(A, B)))


@pytest.fixture(scope="module")
def problem():
    """80 points in 20 dimensions with a narrow kernel (half the median width: cond(K) ~ 70,
    where the method converges in tens of iterations; at the median width cond(K) ~ 3e3 and
    it needs hundreds), 3 labels that depend on the features."""
    rng = np.random.default_rng(1)
    X = rng.normal(size=(80, 20))
    Y = ((X @ rng.normal(size=(20, 3)) + rng.normal(size=(80, 3))) > 0.3).astype(int)
    width = 0.5 * np.median(pdist(X))
    K = np.exp(-cdist(X, X, "sqeuclidean") / (2 * width**2))
    return X, Y, width, K, Y - Y.mean(axis=0)


def test_matches_scipys_generalised_eigh(problem):
    X, Y, width, K, Q = problem
    values, vectors = scipy.linalg.eigh(K @ Q @ Q.T @ K, K @ K,
                                        subset_by_index=[len(K) - 3, len(K) - 1])
    model = KernelMDDM(solver="ifp", kernel_width=width, tol=1e-8, max_iter=500).fit(X, Y)
    assert model.converged_ and model.angle_bound_ <= 1e-8
    np.testing.assert_allclose(model.eigenvalues_, values[::-1], rtol=1e-7)
    assert largest_angle(model.components_, vectors) < 1e-5
    embedding = K @ model.components_
    np.testing.assert_allclose(embedding.T @ embedding, np.eye(3), atol=1e-8)  # P^T K K P = I


def test_theorem_1_its_ritz_values_are_the_label_eigenvalues(problem):
    """Theorem 1: the pencil's leading eigenvalues are those of Q Q^T (Lemma 1)."""
    X, Y, width, _, Q = problem
    model = KernelMDDM(solver="ifp", kernel_width=width, tol=1e-9, max_iter=500).fit(X, Y)
    np.testing.assert_allclose(model.eigenvalues_, label_eigenvectors(Q)[0], rtol=1e-8)


@pytest.mark.parametrize("iterations", [0, 1, 3, 10, 30])
def test_the_reported_bound_holds_at_every_stage(problem, iterations):
    """Davis-Kahan: the reported angle bound is never below the true largest principal angle
    between the training embedding K P and the exact one (Lemma 1's eigenvectors), also far
    from convergence (up to the rounding of K P recomputed from P, ~1e-11 here)."""
    _, _, _, K, Q = problem
    values, B = label_eigenvectors(Q)
    result = solve_inverse_free(lambda V: K @ V, Q, B, values, tol=1e-12, max_iter=iterations)
    assert result.iterations == iterations and not result.converged
    true_angle = largest_angle(K @ result.solution, B)
    assert true_angle <= result.angle_bound + 1e-9


def test_ritz_values_never_decrease(problem):
    """Each subspace holds the last Ritz block, so Rayleigh-Ritz cannot lose: the sum of
    the Ritz values rises monotonically towards the sum of the label eigenvalues."""
    _, _, _, K, Q = problem
    values, B = label_eigenvectors(Q)
    sums = [solve_inverse_free(lambda V: K @ V, Q, B, values, tol=1e-14, max_iter=j).values.sum()
            for j in range(8)]
    assert np.all(np.diff(sums) >= -1e-12 * sums[-1]), sums
    assert sums[-1] <= values.sum() * (1 + 1e-12)


@pytest.mark.parametrize("blocks", [1, 2, 4])
def test_every_krylov_depth_reaches_the_same_subspace(problem, blocks):
    _, _, _, K, Q = problem
    values, B = label_eigenvectors(Q)
    reference = np.linalg.solve(K, B)  # Theorem 1: K p = b
    result = solve_inverse_free(lambda V: K @ V, Q, B, values, tol=1e-9, max_iter=1000,
                                krylov_blocks=blocks)
    assert result.converged
    assert largest_angle(result.solution, reference) < 1e-6
    assert result.passes == 1 + 2 * blocks * result.iterations


def test_an_unconverged_fit_says_so(problem):
    X, Y, width, _, _ = problem
    model = KernelMDDM(solver="ifp", kernel_width=width, tol=1e-12, max_iter=2).fit(X, Y)
    assert not model.converged_ and model.n_iter_ == 2 and model.angle_bound_ > 1e-12


def test_duplicate_points_are_merged_before_it_runs(problem):
    """The duplicate merge (KernelMDDM's docstring) keeps the pencil nonsingular."""
    X, Y, width, _, _ = problem
    doubled = KernelMDDM(solver="ifp", kernel_width=width, tol=1e-8, max_iter=500).fit(
        np.r_[X, X[:10]], np.r_[Y, Y[:10]])
    exact = KernelMDDM(solver="eig", kernel_width=width).fit(np.r_[X, X[:10]], np.r_[Y, Y[:10]])
    assert doubled.converged_
    assert largest_angle(doubled.transform(X), exact.transform(X)) < 1e-5
