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
