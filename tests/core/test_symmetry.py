"""core.symmetry.is_symmetric against numpy's allclose(A, A.T), its oracle."""

import numpy as np
import pytest

from milab_widgets.core.symmetry import is_symmetric, symmetric_to_rounding


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


def test_a_pair_must_pass_with_either_side_as_the_reference():
    """allclose(A, A.T) tests |a - b| <= rtol |b| at (i, j) and at (j, i). With rtol = 0.5,
    a = 1 and b = 1.8 pass one test (0.8 <= 0.9) and fail the other (0.8 > 0.5); a = 1 and
    b = 1.4 pass both (0.4 <= 0.5)."""
    one_sided = np.array([[0.0, 1.0], [1.8, 0.0]])
    both_sides = np.array([[0.0, 1.0], [1.4, 0.0]])
    for A, expected in ((one_sided, False), (both_sides, True)):
        assert np.allclose(A, A.T, rtol=0.5, atol=0.0) is expected
        assert is_symmetric(A, 0.5, 0.0) is expected


def test_symmetric_to_rounding_scales_the_absolute_tolerance_with_the_largest_entry():
    A = np.array([[0.0, 1e6], [1e6, 0.0]])
    relative = A.copy()
    relative[0, 1] *= 1 + 1e-11  # within RTOL = 1e-10
    assert symmetric_to_rounding(relative)
    relative[0, 1] = 1e6 * (1 + 1e-9)  # beyond it
    assert not symmetric_to_rounding(relative)
    near_zero = np.array([[0.0, 1e6, 0.0], [1e6, 0.0, 5e-7], [0.0, 0.0, 0.0]])
    assert symmetric_to_rounding(near_zero)  # 5e-7 <= ATOL_OF_LARGEST * 1e6 = 1e-6
    near_zero[1, 2] = 2e-6
    assert not symmetric_to_rounding(near_zero)
