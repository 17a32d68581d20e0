"""Least-squares KCCA against its formula written out in numpy."""

import numpy as np
import pytest
from scipy.spatial.distance import cdist, pdist

from milab_widgets.multilabel.kcca import LeastSquaresKCCA


def test_matches_the_explicit_formula():
    rng = np.random.default_rng(1)
    X, X_new = rng.normal(size=(50, 6)), rng.normal(size=(7, 6))
    Y = (rng.random((50, 3)) < 0.4).astype(int)
    model = LeastSquaresKCCA(ridge=0.3).fit(X, Y)
    width = np.median(pdist(X))
    K = np.exp(-cdist(X, X, "sqeuclidean") / (2 * width**2))
    H = np.eye(50) - 1 / 50
    Kc = H @ K @ H
    T = np.linalg.svd(Y, full_matrices=False)[0]
    coef = np.linalg.solve(Kc @ Kc + 0.3 * np.eye(50), Kc @ T)
    cross = np.exp(-cdist(X_new, X, "sqeuclidean") / (2 * width**2))
    cross_c = (cross - cross.mean(1, keepdims=True)) @ H - K.mean(0) + K.mean()
    expected = cross_c @ coef  # T's singular vectors are unique up to the sign of each column
    signs = np.sign(np.sum(model.transform(X_new) * expected, axis=0))
    np.testing.assert_allclose(model.transform(X_new), expected * signs, atol=1e-8)


def test_ridge_must_be_positive():
    with pytest.raises(ValueError, match=r"'ridge' parameter of LeastSquaresKCCA .* \(0.0, inf\)"):
        LeastSquaresKCCA(ridge=0).fit(np.ones((5, 2)) * np.arange(5)[:, None], np.eye(5)[:, :2])


def test_transform_checks_the_feature_count():
    rng = np.random.default_rng(2)
    X, Y = rng.normal(size=(30, 4)), (rng.random((30, 2)) < 0.5).astype(int)
    model = LeastSquaresKCCA().fit(X, Y)
    with pytest.raises(ValueError, match="has 3 features, but LeastSquaresKCCA is expecting 4"):
        model.transform(X[:, :3])


def _angle(A, B):
    from scipy.linalg import subspace_angles
    return float(np.max(subspace_angles(A, B)))


def test_kcca_is_rlskmddms_closed_form_on_the_centred_kernel():
    """The derivation in LeastSquaresKCCA's docstring, on both fitted estimators: KCCA's
    embedding spans what rLSkMDDM's own closed form (K^2 + eta I)^-1 K B gives once K is
    centred (same targets B = left singular vectors of H Y, same ridge), and with the same
    centring and targets the two are one estimator; a different ridge or the uncentred kernel
    breaks the coincidence (so the test can fail)."""
    from sklearn.preprocessing import KernelCenterer

    from milab_widgets.multilabel.kernel_mddm import KernelMDDM
    from milab_widgets.multilabel.kernel_operators import gaussian_kernel
    from milab_widgets.multilabel.mddm_solvers import label_eigenvectors, solve_direct

    rng = np.random.default_rng(4)
    X, X_new = rng.normal(size=(80, 6)), rng.normal(size=(30, 6))
    Y = ((X[:, :4] + rng.normal(size=(80, 4))) > 0.5).astype(int)
    eta = 0.5
    kcca = LeastSquaresKCCA(ridge=eta).fit(X, Y)
    rls = KernelMDDM(solver="direct", ridge=eta).fit(X, Y)
    width = rls.kernel_width_
    assert kcca.kernel_width_ == pytest.approx(width)  # the same median-width kernel
    K, cross = gaussian_kernel(X, X, width), gaussian_kernel(X_new, X, width)
    _, B = label_eigenvectors(Y - Y.mean(axis=0))  # rLSkMDDM's targets
    # rLSkMDDM is the ridge regression of B on the uncentred kernel ...
    np.testing.assert_allclose(rls.transform(X_new), cross @ solve_direct(K, B, eta),
                               atol=1e-8)
    # ... and KCCA is the same regression on the centred kernel, in another basis (H T = B M)
    centre = KernelCenterer().fit(K)
    Kc, cross_c = centre.transform(K), centre.transform(cross)
    same_form = cross_c @ solve_direct(Kc, B, eta)
    assert _angle(kcca.transform(X_new), same_form) < 1e-8
    assert _angle(kcca.transform(X), Kc @ solve_direct(Kc, B, eta)) < 1e-8
    # with whitened centred targets, one centring and one ridge: identical predictions
    np.testing.assert_allclose(cross_c @ kcca_coef(Kc, B, eta), same_form, atol=1e-10)
    # controls: another ridge, or rLSkMDDM's uncentred kernel, is a different subspace
    assert _angle(kcca.transform(X_new), cross_c @ solve_direct(Kc, B, 50 * eta)) > 1e-3
    assert _angle(kcca.transform(X_new) - kcca.transform(X_new).mean(0),
                  rls.transform(X_new) - rls.transform(X_new).mean(0)) > 1e-6


def kcca_coef(Kc, T, eta):
    """Sun, Ji & Ye's least-squares KCCA coefficients written out: (Kc^2 + eta I)^-1 Kc T."""
    return np.linalg.solve(Kc @ Kc + eta * np.eye(len(Kc)), Kc @ T)
