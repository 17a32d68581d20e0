"""Whether a square matrix is symmetric to rounding, without temporaries.

``np.allclose(A, A.T, ...)`` builds three n x n temporaries and reads A four times; for a
996 x 996 distance matrix it took 12 ms, most of BAMIC's fit (its k-medoids loop: about
1.3 ms; benchmarks/bench_twoview.py). :func:`is_symmetric` reads each pair (i, j), (j, i)
once, a block and its mirror at a time, and stops at the first pair that differs, with
allclose's own test: ``|a_ij - a_ji| <= atol + rtol * |a_ji|``.
"""

import numpy as np
from numba import njit

__all__ = ["DISTANCES_OK", "NOT_FINITE_NON_NEGATIVE", "NOT_SYMMETRIC", "check_symmetric_distances",
           "is_symmetric", "symmetric_to_rounding"]

#: The largest finite float64: ``0 <= d <= _LARGEST`` is False for NaN, infinities and negatives.
_LARGEST = np.finfo(np.float64).max
#: :func:`check_symmetric_distances`'s answers.
DISTANCES_OK, NOT_FINITE_NON_NEGATIVE, NOT_SYMMETRIC = 0, 1, 2

#: Side of the square blocks compared at a time: a block and its mirror (2 x 32 KiB) stay
#: in the L1/L2 cache, where the row-by-row walk read the mirror a cache line per element.
BLOCK = 64


@njit(cache=True, nogil=True)
def is_symmetric(matrix: np.ndarray, rtol: float, atol: float) -> bool:
    """True when every pair satisfies |a_ij - a_ji| <= atol + rtol |a_ji| and
    |a_ji - a_ij| <= atol + rtol |a_ij| (allclose(A, A.T) tests both), i.e. |a_ij - a_ji|
    <= atol + rtol min(|a_ij|, |a_ji|); NaN and infinities never pass (unlike allclose, which
    takes equal infinities as close: callers check finiteness first). ``matrix`` square.
    Blocks on and above the diagonal are compared with their mirrors."""
    n = matrix.shape[0]
    for row_block in range(0, n, BLOCK):
        for column_block in range(row_block, n, BLOCK):
            close = True
            for i in range(row_block, min(row_block + BLOCK, n)):
                for j in range(max(column_block, i + 1), min(column_block + BLOCK, n)):
                    upper, lower = matrix[i, j], matrix[j, i]
                    # both of allclose's tests at once; False for NaN; no branch, so the
                    # loop vectorises (the block decides)
                    close &= abs(upper - lower) <= atol + rtol * min(abs(upper), abs(lower))
            if not close:
                return False
    return True


#: The tolerances of :func:`symmetric_to_rounding`: a relative 1e-10, and 1e-12 of the
#: largest entry for entries near zero.
RTOL, ATOL_OF_LARGEST = 1e-10, 1e-12


def symmetric_to_rounding(matrix: np.ndarray) -> bool:
    """:func:`is_symmetric` with the library's tolerances for a matrix of non-negative
    entries (distances, kernels): ``rtol`` :data:`RTOL`, ``atol`` :data:`ATOL_OF_LARGEST`
    times the largest entry."""
    return is_symmetric(matrix, RTOL, ATOL_OF_LARGEST * matrix.max(initial=0.0))


@njit(cache=True, nogil=True)
def _distance_pass(matrix: np.ndarray, rtol: float, atol: float) -> int:
    """:func:`check_symmetric_distances`'s one pass: the diagonal, then each block on and
    above it with its mirror, testing every entry for 0 <= d <= largest float and every
    pair as :func:`is_symmetric` does."""
    n = matrix.shape[0]
    valid = True
    for i in range(n):
        valid &= (matrix[i, i] >= 0.0) & (matrix[i, i] <= _LARGEST)
    symmetric = True
    for row_block in range(0, n, BLOCK):
        for column_block in range(row_block, n, BLOCK):
            for i in range(row_block, min(row_block + BLOCK, n)):
                for j in range(max(column_block, i + 1), min(column_block + BLOCK, n)):
                    upper, lower = matrix[i, j], matrix[j, i]
                    valid &= ((upper >= 0.0) & (upper <= _LARGEST)
                              & (lower >= 0.0) & (lower <= _LARGEST))
                    symmetric &= abs(upper - lower) <= atol + rtol * min(upper, lower)
    if not valid:
        return NOT_FINITE_NON_NEGATIVE
    return DISTANCES_OK if symmetric else NOT_SYMMETRIC


def check_symmetric_distances(matrix: np.ndarray) -> int:
    """Whether a square float64 matrix is a distance matrix: :data:`DISTANCES_OK` when every
    entry is finite and >= 0 and the matrix is symmetric to rounding (the tolerances of
    :func:`symmetric_to_rounding`), else :data:`NOT_FINITE_NON_NEGATIVE` or
    :data:`NOT_SYMMETRIC` (the first wins).

    One read of the matrix besides its maximum, where ``np.isfinite(D).all()``, ``(D <
    0).any()``, ``D.max()`` and :func:`symmetric_to_rounding` read it four times and build two
    n x n temporaries: 1.1 ms instead of 1.85 ms for 996 x 996, more than BAMIC's whole
    k-medoids loop on it (benchmarks/bench_twoview.py).
    """
    largest = matrix.max(initial=0.0)
    return _distance_pass(matrix, RTOL, ATOL_OF_LARGEST * largest)
