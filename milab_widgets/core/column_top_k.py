"""The k smallest entries of every column of a distance block, nearest first.

The block is references x queries (``distances[t, j]``: reference t to query j), the layout
in which :func:`milab_widgets.core.hausdorff.hausdorff_matrices` computes one block of query
bags against every reference bag. Each column keeps its k best in a small sorted buffer
(insertion, O(n k) per column, no sort of the block), scanning the references in ascending
order and moving an entry only past strictly larger ones: among equal distances the lower
reference index comes first, the rule of
:func:`milab_widgets.core.neighbor_votes.nearest_candidates` and of a stable argsort.

Work layout: the columns are cut into chunks of ``_CHUNK`` (one 64-byte cache line of
float64), and each chunk streams the block's rows once. Runs of whole chunks of about
``_TILE_ENTRIES`` entries are the tiles of :func:`milab_widgets.core.parallel.run_tiles`
(a block of fewer than two tiles per worker runs on the calling thread: waking workers
for a 36 x 1 block would cost more than its scan). Columns are independent, so the result
does not depend on the tiles or the thread count.
"""

import numpy as np
from numba import njit

from milab_widgets.core.parallel import run_tiles

__all__ = ["smallest_per_column"]

#: Columns per chunk: one cache line of float64, so each row's read is one line.
_CHUNK = 8
#: Block entries per tile (a scan of ~1 ns per entry: a tile of ~65 microseconds, well
#: above the pool's ~20 microseconds a tile).
_TILE_ENTRIES = 2**16


def smallest_per_column(distances, k, skip_row0, out_distances, out_indices):
    """Write the k smallest ``distances[t, j]`` of every column j, ascending, to
    ``out_distances[j]`` and their rows t to ``out_indices[j]`` (ties: the lower t first).

    Parameters
    ----------
    distances : float64 array (n_rows, n_cols)
        Finite distances (NaN would never be kept).
    k : int
        1 <= k <= n_rows (n_rows - 1 with a skipped row).
    skip_row0 : int
        -1: keep every row. Otherwise column j never takes row ``skip_row0 + j`` (the
        queries are references ``skip_row0, skip_row0 + 1, ...`` themselves, and a bag is
        not its own neighbour).
    out_distances : float64 array (n_cols, k)
    out_indices : int64 array (n_cols, k)
    """
    n_rows, n_cols = distances.shape
    width = _CHUNK * max(1, _TILE_ENTRIES // (_CHUNK * max(n_rows, 1)))

    def tile(first, scratch):
        _scan(distances, k, skip_row0, first, min(first + width, n_cols), out_distances,
              out_indices)

    run_tiles(range(0, n_cols, width), tile)


@njit(cache=True, nogil=True)
def _scan(distances, k, skip_row0, first_column, last_column, out_distances, out_indices):
    """:func:`smallest_per_column` for the columns first_column..last_column - 1."""
    n_rows = distances.shape[0]
    for first in range(first_column, last_column, _CHUNK):
        last = min(first + _CHUNK, last_column)
        for j in range(first, last):
            out_distances[j, :] = np.inf
            out_indices[j, :] = -1
        for t in range(n_rows):
            for j in range(first, last):
                if t == skip_row0 + j and skip_row0 >= 0:
                    continue
                d = distances[t, j]
                if d < out_distances[j, k - 1]:
                    position = k - 1
                    while position > 0 and out_distances[j, position - 1] > d:
                        out_distances[j, position] = out_distances[j, position - 1]
                        out_indices[j, position] = out_indices[j, position - 1]
                        position -= 1
                    out_distances[j, position] = d
                    out_indices[j, position] = t

