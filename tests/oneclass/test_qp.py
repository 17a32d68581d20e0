"""The non-negative QP against scipy's NNLS (H = A^T A, b = A^T c), warm starts, KKT."""

import numpy as np
import pytest
from scipy.optimize import nnls

from milab_widgets.oneclass.qp import nonnegative_qp


@pytest.mark.parametrize("seed", range(8))
def test_equals_scipy_nnls(seed):
    rng = np.random.default_rng(seed)
    A, c = rng.normal(size=(25, 10)), rng.normal(size=25)
    expected = nnls(A, c)[0]
    np.testing.assert_allclose(nonnegative_qp(A.T @ A, A.T @ c), expected, atol=1e-10)
    start = rng.uniform(-1, 1, 10)
    np.testing.assert_allclose(nonnegative_qp(A.T @ A, A.T @ c, start=start), expected, atol=1e-10)


def test_kkt_conditions_with_a_linear_term_outside_the_range_of_A():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(4, 8))  # plus 1e-3 I: H is positive definite, if ill-conditioned
    H, b = A.T @ A + 1e-3 * np.eye(8), rng.normal(size=8)
    w = nonnegative_qp(H, b)
    slope = b - H @ w
    assert (w >= 0).all()
    assert (slope[w == 0] <= 1e-9).all() and np.allclose(slope[w > 0], 0, atol=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_rank_deficient_h_reaches_the_nnls_objective(seed):
    rng = np.random.default_rng(seed)
    A, c = rng.normal(size=(4, 8)), rng.normal(size=4)  # rank 4 of 8: H is singular
    H, b = A.T @ A, A.T @ c

    def objective(w):
        return 0.5 * w @ H @ w - b @ w

    w = nonnegative_qp(H, b)
    assert (w >= 0).all()
    assert objective(w) == pytest.approx(objective(nnls(A, c)[0]), abs=1e-10)


def test_all_negative_linear_term_gives_zero():
    assert not nonnegative_qp(np.eye(3), -np.ones(3)).any()
