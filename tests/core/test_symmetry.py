"""core.symmetry.is_symmetric against numpy's allclose(A, A.T), its oracle, and
check_symmetric_distances against allclose with numpy's finiteness and sign tests."""

import numpy as np
import pytest

from milab_widgets.core.symmetry import (
    DISTANCES_OK,
    NOT_FINITE_NON_NEGATIVE,
    NOT_SYMMETRIC,
    check_symmetric_distances,
    is_symmetric,
    symmetric_to_rounding,
)


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


def _oracle(D: np.ndarray) -> int:
    if not np.isfinite(D).all() or (D < 0).any():
        return NOT_FINITE_NON_NEGATIVE
    symmetric = np.allclose(D, D.T, rtol=1e-10, atol=1e-12 * D.max(initial=0.0))
    return DISTANCES_OK if symmetric else NOT_SYMMETRIC


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("damage", [None, "asymmetric", "near zero", "nan", "inf", "-inf",
                                    "negative", "nan on the diagonal", "negative diagonal"])
def test_check_symmetric_distances_agrees_with_numpy(seed, damage):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 150))  # across the 64-wide blocks
    D = rng.random((n, n)) * 10
    D = D + D.T
    np.fill_diagonal(D, 0.0)
    i, j = rng.choice(n, size=2, replace=False)
    value = {"asymmetric": D[i, j] * (1 + 1e-6), "near zero": None, "nan": np.nan,
             "inf": np.inf, "-inf": -np.inf, "negative": -1e-300}.get(damage)
    if damage == "near zero":
        D[i, j], D[j, i] = 0.0, 1e-13 * D.max()  # within atol = 1e-12 of the largest
    elif damage == "nan on the diagonal":
        D[i, i] = np.nan
    elif damage == "negative diagonal":
        D[i, i] = -0.5
    elif value is not None:
        D[i, j] = value
    assert check_symmetric_distances(D) == _oracle(D)


def test_check_symmetric_distances_names_the_first_fault_and_takes_the_empty_matrix():
    both = np.array([[0.0, np.nan], [2.0, 0.0]])  # not finite, and not symmetric
    assert check_symmetric_distances(both) == NOT_FINITE_NON_NEGATIVE
    assert check_symmetric_distances(np.zeros((0, 0))) == DISTANCES_OK
    assert check_symmetric_distances(np.array([[0.0, 1.0], [1.0, 0.0]])) == DISTANCES_OK
