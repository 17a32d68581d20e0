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


@njit(cache=True)
def nca_objective_mixed(a, b, alpha, labels, sigma):
    """f for D = alpha * a + (1 - alpha) * b (square matrices, n >= 2)."""
    n = len(labels)
    inverse_sigma = 1.0 / sigma
    total = 0.0
    for i in range(n):
        row_min = np.inf
        for k in range(n):
            if k != i:
                row_min = min(row_min, alpha * a[i, k] + (1.0 - alpha) * b[i, k])
        all_weight = 0.0
        same_weight = 0.0
        for k in range(n):
            if k != i:
                d = alpha * a[i, k] + (1.0 - alpha) * b[i, k]
                weight = np.exp((row_min - d) * inverse_sigma)
                all_weight += weight
                if labels[k] == labels[i]:
                    same_weight += weight
        total += same_weight / all_weight
    return total
