"""Whether a square matrix is symmetric to rounding, without temporaries.

``np.allclose(A, A.T, ...)`` builds three n x n temporaries and reads A four times; for a
996 x 996 distance matrix it took 12 ms, most of BAMIC's fit (its k-medoids loop: about
1.3 ms; benchmarks/bench_twoview.py). :func:`is_symmetric` reads each pair (i, j), (j, i)
once and stops at the first pair that differs, with allclose's own test:
``|a_ij - a_ji| <= atol + rtol * |a_ji|``.
"""

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def is_symmetric(matrix: np.ndarray, rtol: float, atol: float) -> bool:
    """True when every pair satisfies |a_ij - a_ji| <= atol + rtol |a_ji| (NaN never does);
    ``matrix`` square."""
    n = matrix.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            upper, lower = matrix[i, j], matrix[j, i]
            if not abs(upper - lower) <= atol + rtol * abs(lower):
                return False
            if not abs(lower - upper) <= atol + rtol * abs(upper):
                return False
    return True
