"""Exact k-nearest-neighbour search under the Euclidean distance: BLAS + numba top-k.

Squared distances come in tiles of query rows from ||q||^2 + ||r||^2 - 2 q.r, whose cross
term is one BLAS matrix product per tile (one sparse product, densified for that tile only,
when either side is a scipy.sparse matrix), clamped at 0 against rounding. A numba kernel
keeps, per query row, the k smallest entries by insertion into a sorted buffer: O(n k) per
row, no full sort. The tiles run on :func:`milab_widgets.core.parallel.run_tiles` (whole
tiles in parallel, each on one thread; the same result for any thread count).

Ties: among equal distances the reference with the lower index comes first. With
``exclude_self`` the queries are the references themselves and row i never returns column
i (a training point is not its own neighbour; an exact duplicate at another index is).
"""

from functools import partial

import numpy as np
import scipy.sparse
from numba import njit

from milab_widgets.core.gram import product_into
from milab_widgets.core.parallel import run_tiles

__all__ = ["nearest_neighbors"]

#: Query rows per tile, whatever the thread count (so that the result does not depend on
#: it). Fewer rows make the BLAS product inefficient (measured 1.5x slower with 32 rows
#: against 32,000 references); more leave a small problem too few tiles to share out
#: (yeast's 1500 x 1500 search on two workers, median of 21: 10.9-13.7 ms with 128 rows,
#: 12.9-13.0 ms with 256, 16.6-16.9 ms on one).
_TILE_ROWS = 128


@njit(cache=True, nogil=True)
def _top_k_block(gram, q_sq, r_sq, k, self_offset, out_index, out_sq):
    """Fill out_index/out_sq[i] with the k nearest columns of block row i, nearest first.

    gram[i, j] = q_i . r_j; the squared distance is q_sq[i] + r_sq[j] - 2 gram[i, j], clamped
    at 0. With self_offset >= 0, column self_offset + i is skipped for row i.
    """
    n_rows, n_cols = gram.shape
    for i in range(n_rows):
        best_sq = out_sq[i]
        best_index = out_index[i]
        best_sq[:] = np.inf
        best_index[:] = -1
        skip = self_offset + i if self_offset >= 0 else -1
        for j in range(n_cols):
            if j == skip:
                continue
            sq = max(q_sq[i] + r_sq[j] - 2.0 * gram[i, j], 0.0)
            if sq < best_sq[k - 1]:
                position = k - 1
                while position > 0 and best_sq[position - 1] > sq:
                    best_sq[position] = best_sq[position - 1]
                    best_index[position] = best_index[position - 1]
                    position -= 1
                best_sq[position] = sq
                best_index[position] = j


def nearest_neighbors(queries, references, k: int,
                      exclude_self: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Indices and squared distances of each query's k nearest references, nearest first.

    Parameters
    ----------
    queries : array (n_queries, d), dense or scipy.sparse
    references : array (n_references, d), dense or scipy.sparse
    k : int
        1 <= k <= n_references (n_references - 1 with ``exclude_self``).
    exclude_self : bool
        ``queries`` are ``references``: row i skips reference i.

    Returns
    -------
    indices : int64 array (n_queries, k)
    squared_distances : float64 array (n_queries, k)
    """
    if scipy.sparse.issparse(queries) or scipy.sparse.issparse(references):
        queries = scipy.sparse.csr_matrix(queries, dtype=np.float64)
        references = scipy.sparse.csr_matrix(references, dtype=np.float64)
        q_sq = np.asarray(queries.multiply(queries).sum(axis=1)).ravel()
        r_sq = np.asarray(references.multiply(references).sum(axis=1)).ravel()
        gram = partial(_sparse_gram, references.T.tocsc())
    else:
        queries = np.ascontiguousarray(queries, dtype=np.float64)
        references = np.ascontiguousarray(references, dtype=np.float64)
        q_sq = np.einsum("ij,ij->i", queries, queries)
        r_sq = np.einsum("ij,ij->i", references, references)
        gram = partial(_dense_gram, references)
    n_queries = queries.shape[0]
    indices = np.empty((n_queries, k), dtype=np.int64)
    squared = np.empty((n_queries, k), dtype=np.float64)

    def tile(start, scratch):
        stop = min(start + _TILE_ROWS, n_queries)
        _top_k_block(gram(queries[start:stop], scratch), q_sq[start:stop], r_sq, k,
                     start if exclude_self else -1, indices[start:stop], squared[start:stop])

    run_tiles(range(0, n_queries, _TILE_ROWS), tile)
    return indices, squared


def _dense_gram(references, rows, scratch):
    """rows @ references.T into the worker's buffer."""
    return product_into(rows, references, scratch)


def _sparse_gram(references_t, rows, scratch):
    """The CSR rows times the CSC transposed references, densified (this tile only)."""
    return np.ascontiguousarray((rows @ references_t).toarray())
