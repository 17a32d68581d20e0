"""Minimal, maximal and average Hausdorff bag distances in one pass over instance blocks.

For bags A = {a_r} and B = {b_s} with instance distance ||a - b||_2 (seed 000 eqs. 1-4,
corrected in papers/intH.md):

    d_minH(A, B) = min_r min_s ||a_r - b_s||
    h(A, B)      = max_r min_s ||a_r - b_s||,       d_maxH(A, B) = max(h(A, B), h(B, A))
    d_aveH(A, B) = (sum_r min_s ||a_r - b_s|| + sum_s min_r ||b_s - a_r||) / (|A| + |B|)
                   (Zhang & Zhou 2009, Applied Intelligence 31:47-68)

All three come from the row minima and column minima of the squared-distance block
||a_r||^2 + ||b_s||^2 - 2 a_r.b_s, whose cross term is a BLAS matrix product. Square roots are
taken only of the reduced minima (sqrt is monotone, so min/max commute with it).
"""

import numpy as np
from numba import njit, prange

#: Upper bound on the floats held by one Gram block (64 MiB of float64).
_BLOCK_FLOATS = 8 * 1024 * 1024


#: Let LLVM reorder the min/sum reductions so they vectorise; no flag that assumes away
#: infinities (the minima start at +inf) or NaN (inputs are validated finite).
_FAST = {"reassoc", "nsz", "contract"}


@njit(cache=True, parallel=True, fastmath=_FAST)
def _reduce_blocks(gram, x_sq, y_sq, x_offsets, y_offsets, d_min, d_max, d_avg):
    """Reduce one Gram block to bag-pair distances.

    gram[r, s] = a_r . b_s for the rows of the x bags in ``x_offsets`` (local, starting at 0)
    and the columns of the y bags in ``y_offsets`` (local). Writes d_min/d_max/d_avg[i, j].
    """
    n_x_bags = len(x_offsets) - 1
    n_y_bags = len(y_offsets) - 1
    for j in prange(n_y_bags):
        s0, s1 = y_offsets[j], y_offsets[j + 1]
        col_min = np.empty(s1 - s0)
        for i in range(n_x_bags):
            col_min[:] = np.inf
            row_root_sum = 0.0
            row_max = 0.0
            pair_min = np.inf
            for r in range(x_offsets[i], x_offsets[i + 1]):
                row_min = np.inf
                for s in range(s0, s1):
                    sq = x_sq[r] + y_sq[s] - 2.0 * gram[r, s]
                    if sq < row_min:
                        row_min = sq
                    if sq < col_min[s - s0]:
                        col_min[s - s0] = sq
                row_min = max(row_min, 0.0)
                row_root_sum += np.sqrt(row_min)
                row_max = max(row_max, row_min)
                pair_min = min(pair_min, row_min)
            col_root_sum = 0.0
            col_max = 0.0
            for k in range(s1 - s0):
                sq = max(col_min[k], 0.0)
                col_root_sum += np.sqrt(sq)
                col_max = max(col_max, sq)
            n_pair = (x_offsets[i + 1] - x_offsets[i]) + (s1 - s0)
            d_min[i, j] = np.sqrt(pair_min)
            d_max[i, j] = np.sqrt(max(row_max, col_max))
            d_avg[i, j] = (row_root_sum + col_root_sum) / n_pair


def _row_chunks(offsets: np.ndarray, n_columns: int):
    """Split bags into consecutive chunks whose Gram block stays under _BLOCK_FLOATS."""
    max_rows = max(1, _BLOCK_FLOATS // max(n_columns, 1))
    first = 0
    n_bags = len(offsets) - 1
    while first < n_bags:
        last = first + 1
        while last < n_bags and offsets[last + 1] - offsets[first] <= max_rows:
            last += 1
        yield first, last
        first = last


def hausdorff_matrices(x, x_offsets, y=None, y_offsets=None):
    """Minimal, maximal and average Hausdorff distances between every bag pair.

    Parameters
    ----------
    x, y : float64 arrays (n_x_instances, d), (n_y_instances, d)
        Instances of the bags, bag after bag. ``y=None`` means y = x (the symmetric case:
        only the upper triangle is computed and the diagonal is exactly 0).
    x_offsets, y_offsets : int64 arrays (n_bags + 1,)
        Bag boundaries in the rows of x and y.

    Returns
    -------
    d_min, d_max, d_avg : float64 arrays (n_x_bags, n_y_bags)

    Notes
    -----
    Accuracy: relative error ~1e-15 for distances well above zero; a distance that is exactly
    zero (a shared instance) comes out as at most ~sqrt(eps) * ||x - mean||, the usual cost of
    the Gram-matrix route (scikit-learn's euclidean_distances has it too). The symmetric
    case sets its diagonal to exactly 0.
    """
    symmetric = y is None
    if symmetric:
        y, y_offsets = x, x_offsets
    # Distances are translation invariant; centring shrinks the squared norms and with them
    # the cancellation error of ||a||^2 + ||b||^2 - 2 a.b.
    centre = x.mean(axis=0)
    x = x - centre
    y = x if symmetric else y - centre
    x_sq = np.einsum("ij,ij->i", x, x)
    y_sq = x_sq if symmetric else np.einsum("ij,ij->i", y, y)
    shape = (len(x_offsets) - 1, len(y_offsets) - 1)
    d_min, d_max, d_avg = np.empty(shape), np.empty(shape), np.empty(shape)
    for first, last in _row_chunks(x_offsets, len(y)):
        y_first_bag = first if symmetric else 0
        rows = slice(x_offsets[first], x_offsets[last])
        cols = slice(y_offsets[y_first_bag], y_offsets[-1])
        gram = x[rows] @ y[cols].T
        blocks = [np.empty((last - first, shape[1] - y_first_bag)) for _ in range(3)]
        _reduce_blocks(
            gram,
            x_sq[rows],
            y_sq[cols],
            x_offsets[first : last + 1] - x_offsets[first],
            y_offsets[y_first_bag:] - y_offsets[y_first_bag],
            *blocks,
        )
        for out, block in zip((d_min, d_max, d_avg), blocks):
            out[first:last, y_first_bag:] = block
    if symmetric:
        for out in (d_min, d_max, d_avg):
            _mirror_upper_triangle(out)
    return d_min, d_max, d_avg


def _mirror_upper_triangle(matrix: np.ndarray) -> None:
    """Copy the upper triangle onto the lower one and zero the diagonal, in place."""
    lower = np.tril_indices_from(matrix, k=-1)
    matrix[lower] = matrix.T[lower]
    np.fill_diagonal(matrix, 0.0)
