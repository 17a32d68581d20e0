"""The NCA leave-one-out objective over a combination of two bag-distance matrices.

    D = alpha * A + (1 - alpha) * B
    p_ij = exp(-D_ij / sigma) / sum_{k != i} exp(-D_ik / sigma),  p_ii = 0
    f = sum_i sum_{j != i, y_j = y_i} p_ij

Each row is shifted by its smallest off-diagonal distance before exponentiating (the
log-sum-exp trick), so the largest term of every row is exp(0) = 1: no underflow for raw
distances in the hundreds and sigma = 0.1, and no 0/0.
"""

import numpy as np
from numba import njit

from milab_widgets.core.vector_math import exp_nonpositive

__all__ = ["nca_objective_mixed"]


@njit(cache=True)
def nca_objective_mixed(a, b, alpha, labels, sigma):
    """f for D = alpha * a + (1 - alpha) * b (square matrices, n >= 2).

    Row by row: the row of D, its shift to exponents (min_k D_ik - D_ij) / sigma <= 0, their
    exp in one vectorised pass (:func:`~milab_widgets.core.vector_math.exp_nonpositive`; 5x
    the scalar exp's speed), then the two sums.
    """
    n = len(labels)
    inverse_sigma = 1.0 / sigma
    exponents = np.empty(n)
    weights = np.empty(n)
    scratch = np.empty(n, np.int64)
    total = 0.0
    for i in range(n):
        for k in range(n):
            exponents[k] = alpha * a[i, k] + (1.0 - alpha) * b[i, k]
        exponents[i] = np.inf
        row_min = exponents.min()
        for k in range(n):
            exponents[k] = (row_min - exponents[k]) * inverse_sigma
        exp_nonpositive(exponents, weights, scratch)
        weights[i] = 0.0
        all_weight = 0.0
        same_weight = 0.0
        for k in range(n):
            all_weight += weights[k]
            if labels[k] == labels[i]:
                same_weight += weights[k]
        total += same_weight / all_weight
    return total
