"""core.symmetry.is_symmetric against numpy's allclose(A, A.T), its oracle."""

import numpy as np
import pytest

from milab_widgets.core.symmetry import is_symmetric


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("perturbation", [0.0, 1e-14, 1e-9, 1e-3])
def test_agrees_with_allclose_of_the_transpose(seed, perturbation):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 40))
    A = rng.random((n, n)) * 100
    A = A + A.T
    if n > 1:
        i, j = rng.choice(n, size=2, replace=False)
        A[i, j] += perturbation * A[i, j]
    rtol, atol = 1e-10, 1e-12 * A.max()
    assert is_symmetric(A, rtol, atol) == np.allclose(A, A.T, rtol=rtol, atol=atol)


def test_nan_is_never_symmetric_and_the_empty_matrix_is():
    A = np.ones((3, 3))
    A[0, 2] = A[2, 0] = np.nan
    assert not is_symmetric(A, 1e-10, 0.0)
    assert is_symmetric(np.zeros((0, 0)), 1e-10, 0.0)


def test_the_test_is_asymmetric_like_allclose_in_both_orders():
    """allclose(A, A.T) tests |a - b| <= atol + rtol |b| for both (i, j) and (j, i), so
    the pair must pass with either side as the reference."""
    A = np.array([[0.0, 1.0], [1.0 + 1.5e-10, 0.0]])
    expected = np.allclose(A, A.T, rtol=1e-10, atol=0.0)
    assert is_symmetric(A, 1e-10, 0.0) == expected
