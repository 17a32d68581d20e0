"""Minimal, maximal and average Hausdorff bag distances from bag-aligned Gram tiles.

For bags A = {a_r} and B = {b_s} with instance distance ||a - b||_2 (Zhang & Zhou's
definitions; the integrated-Hausdorff paper's eqs. 1-4 as corrected in papers/intH.md):

    d_minH(A, B) = min_r min_s ||a_r - b_s||
    h(A, B)      = max_r min_s ||a_r - b_s||,       d_maxH(A, B) = max(h(A, B), h(B, A))
    d_aveH(A, B) = (sum_r min_s ||a_r - b_s|| + sum_s min_r ||b_s - a_r||) / (|A| + |B|)
                   (Zhang & Zhou 2009, Applied Intelligence 31:47-68)

All three come from the row minima and column minima of the squared-distance block
||a_r||^2 + ||b_s||^2 - 2 a_r.b_s, whose cross term is a BLAS product. Square roots are
taken only of the reduced minima (sqrt is monotone, so min/max commute with it).

Work layout. The instances are cut into panels of whole consecutive bags (about
``_PANEL_ROWS`` instances each), so every bag pair lies inside one Gram tile and one numba
pass over a tile finishes its bag pairs (all three distances, fused). In the symmetric case
only the upper triangle of tiles is formed: a panel's tile with itself by BLAS syrk (half its
flops; numpy picks syrk for a @ a.T), its tile with every later panel by one GEMM; that is
n^2 d flops in all, half of one full X @ X.T, and each result is written to both (i, j) and
(j, i). With several threads, whole panels run in parallel, each on one thread
(:func:`milab_widgets.core.parallel.run_tiles`).
"""

from functools import partial

import numpy as np
from numba import njit

from milab_widgets.core.gram import product_into
from milab_widgets.core.intrinsics import fmin
from milab_widgets.core.parallel import run_tiles

__all__ = ["bag_panels", "hausdorff_matrices"]

#: Instances per panel (bag aligned; a larger bag is a panel of its own). Tiles of this many
#: rows keep the syrk share of the work small (panel / n of the flops) and stay in cache.
_PANEL_ROWS = 512

#: Upper bound on the floats held by one Gram tile (8 MiB of float64, or one bag pair if
#: larger): small enough to be read back from cache by the reduction, large enough for BLAS
#: to run near its peak (measured on Musk2: 8 MiB tiles 1.19-1.22x the query's product,
#: 64 MiB tiles 1.25-1.30x).
_BLOCK_FLOATS = 1024 * 1024

#: Let LLVM reorder the min/sum reductions so they vectorise; no flag that assumes away
#: infinities (the minima start at +inf); "nnan" holds because inputs are validated finite.
_FAST = {"reassoc", "nsz", "contract", "nnan"}

#: Supported instance precisions: float64 (exact to ~1e-15 relative) and float32 (the Gram
#: products in single precision; see :func:`hausdorff_matrices` for its accuracy).
DTYPES = (np.float64, np.float32)


@njit(cache=True, nogil=True, fastmath=_FAST)
def _reduce_tile(gram, x_sq, y_sq, x_offsets, y_offsets, row_bag0, col_bag0, lower_only,
                 mirror, d_min, d_max, d_avg):
    """:func:`_reduce_x_bag` for every x bag of the tile, on the calling thread (GIL free)."""
    for i in range(len(x_offsets) - 1):
        _reduce_x_bag(i, gram, x_sq, y_sq, x_offsets, y_offsets, row_bag0, col_bag0,
                      lower_only, mirror, d_min, d_max, d_avg)


@njit(cache=True, nogil=True, fastmath=_FAST)
def _reduce_x_bag(i, gram, x_sq, y_sq, x_offsets, y_offsets, row_bag0, col_bag0, lower_only,
                  mirror, d_min, d_max, d_avg):
    """Reduce x bag i's rows of one Gram tile to its distances to the tile's y bags.

    gram[r, s] = a_r . b_s for the rows of the x bags in ``x_offsets`` and the columns of the
    y bags in ``y_offsets`` (both local, starting at 0); x_sq / y_sq are the local squared
    norms. Bag pair (i, j) of the tile is written to d_*[row_bag0 + i, col_bag0 + j] and, with
    ``mirror``, also to [col_bag0 + j, row_bag0 + i]. With ``lower_only`` only pairs i > j
    are reduced (a syrk tile: its entries [r, s] with r >= s).

    The x bag streams its Gram rows once, front to back: per y bag the row minimum, and
    per column the running column minimum over the x bag's rows.
    """
    n_bags = i if lower_only else len(y_offsets) - 1
    width = y_offsets[n_bags]
    col_min = np.full(width, np.inf)
    row_root_sum = np.zeros(n_bags)
    row_max = np.zeros(n_bags)
    pair_min = np.full(n_bags, np.inf)
    for r in range(x_offsets[i], x_offsets[i + 1]):
        row_sq = x_sq[r]
        for j in range(n_bags):
            s0, s1 = y_offsets[j], y_offsets[j + 1]
            products, col_sq, minima = gram[r, s0:s1], y_sq[s0:s1], col_min[s0:s1]
            row_min = np.inf
            for k in range(len(products)):
                sq = row_sq + col_sq[k] - 2.0 * products[k]
                row_min = fmin(row_min, sq)
                minima[k] = fmin(minima[k], sq)
            row_min = max(row_min, 0.0)
            row_root_sum[j] += np.sqrt(row_min)
            row_max[j] = max(row_max[j], row_min)
            pair_min[j] = min(pair_min[j], row_min)
    n_rows = x_offsets[i + 1] - x_offsets[i]
    for j in range(n_bags):
        s0, s1 = y_offsets[j], y_offsets[j + 1]
        col_root_sum = 0.0
        col_max = 0.0
        for s in range(s0, s1):
            sq = max(col_min[s], 0.0)
            col_root_sum += np.sqrt(sq)
            col_max = max(col_max, sq)
        at_row, at_col = row_bag0 + i, col_bag0 + j
        d_min[at_row, at_col] = np.sqrt(pair_min[j])
        d_max[at_row, at_col] = np.sqrt(max(row_max[j], col_max))
        d_avg[at_row, at_col] = (row_root_sum[j] + col_root_sum) / (n_rows + s1 - s0)
        if mirror:
            d_min[at_col, at_row] = d_min[at_row, at_col]
            d_max[at_col, at_row] = d_max[at_row, at_col]
            d_avg[at_col, at_row] = d_avg[at_row, at_col]


def bag_panels(offsets: np.ndarray, max_rows: int) -> list[tuple[int, int]]:
    """Consecutive bag ranges [first, last) of at most ``max_rows`` instances each (a bag
    with more instances forms a range of its own)."""
    panels, first, n_bags = [], 0, len(offsets) - 1
    while first < n_bags:
        last = first + 1
        while last < n_bags and offsets[last + 1] - offsets[first] <= max_rows:
            last += 1
        panels.append((first, last))
        first = last
    return panels


def hausdorff_matrices(x, x_offsets, y=None, y_offsets=None, dtype=np.float64):
    """Minimal, maximal and average Hausdorff distances between every bag pair.

    Parameters
    ----------
    x, y : float arrays (n_x_instances, d), (n_y_instances, d)
        Instances of the bags, bag after bag. ``y=None`` means y = x (the symmetric case:
        only the upper triangle of Gram tiles is computed and the diagonal is exactly 0).
    x_offsets, y_offsets : int64 arrays (n_bags + 1,)
        Bag boundaries in the rows of x and y.
    dtype : np.float64 or np.float32
        Precision of the Gram products (the reductions and results are float64).

    Returns
    -------
    d_min, d_max, d_avg : float64 arrays (n_x_bags, n_y_bags)

    Notes
    -----
    Accuracy in float64: relative error ~1e-15 for distances well above zero; a distance that
    is exactly zero (a shared instance) comes out as at most ~sqrt(eps) * ||x - mean||, the
    usual cost of the Gram-matrix route (scikit-learn's euclidean_distances has it too).

    Accuracy in float32: the squared distances carry an absolute error of a few
    eps32 * (||a - mean||^2 + ||b - mean||^2) (eps32 = 1.2e-7), so a distance D is off by
    about that over 2D: relative 1e-6 where D is comparable to the data's spread, and an
    absolute error near sqrt(eps32) * ||x - mean|| ~ 3e-4 ||x - mean|| for near-zero
    distances. Half the memory traffic and about twice the BLAS speed.
    """
    if dtype not in DTYPES:
        raise ValueError(f"dtype must be one of {DTYPES}, got {dtype!r}")
    symmetric = y is None
    # Distances are translation invariant; centring shrinks the squared norms and with them
    # the cancellation error of ||a||^2 + ||b||^2 - 2 a.b.
    centre = x.mean(axis=0)
    x = np.ascontiguousarray(x - centre, dtype=dtype)
    x_sq = np.einsum("ij,ij->i", x, x, dtype=np.float64)
    if symmetric:
        n_bags = len(x_offsets) - 1
        out = tuple(np.zeros((n_bags, n_bags)) for _ in range(3))
        run_tiles(bag_panels(x_offsets, _PANEL_ROWS), partial(
            _symmetric_panel, x, x_sq, x_offsets, out), dtype)
        return out
    y = np.ascontiguousarray(y - centre, dtype=dtype)
    y_sq = np.einsum("ij,ij->i", y, y, dtype=np.float64)
    out = tuple(np.empty((len(x_offsets) - 1, len(y_offsets) - 1)) for _ in range(3))
    rows = max(_PANEL_ROWS, _BLOCK_FLOATS // max(len(y), 1))
    run_tiles(bag_panels(x_offsets, rows), partial(
        _cross_panel, x, x_sq, x_offsets, y, y_sq, y_offsets, out), dtype)
    return out


def _symmetric_panel(x, x_sq, offsets, out, panel, scratch) -> None:
    """One panel's share of the upper triangle: its tile with itself (numpy computes
    panel @ panel.T by syrk, half the flops) and with all later bags."""
    first, last = panel
    r0, r1 = offsets[first], offsets[last]
    rows, rows_sq = x[r0:r1], x_sq[r0:r1]
    local = offsets[first : last + 1] - r0
    own = product_into(rows, rows, scratch)
    _reduce_tile(own, rows_sq, rows_sq, local, local, first, first, True, True, *out)
    if last < len(offsets) - 1:
        _gemm_tiles(rows, rows_sq, local, first, x, x_sq, offsets, last, True, out, scratch)


def _cross_panel(x, x_sq, x_offsets, y, y_sq, y_offsets, out, panel, scratch) -> None:
    """One x panel against all of y."""
    first, last = panel
    r0, r1 = x_offsets[first], x_offsets[last]
    _gemm_tiles(x[r0:r1], x_sq[r0:r1], x_offsets[first : last + 1] - r0, first, y, y_sq,
                y_offsets, 0, False, out, scratch)


def _gemm_tiles(panel, panel_sq, local, row_bag0, y, y_sq, y_offsets, col_bag0, mirror, out,
                scratch):
    """The panel against the y bags from ``col_bag0`` on: one GEMM + one reduction per
    column range of at most _BLOCK_FLOATS tile entries (or one bag pair, if larger)."""
    columns = y_offsets[col_bag0:] - y_offsets[col_bag0]
    width = max(1, _BLOCK_FLOATS // max(len(panel), 1))
    for first, last in bag_panels(columns, width):
        c0, c1 = y_offsets[col_bag0 + first], y_offsets[col_bag0 + last]
        gram = product_into(panel, y[c0:c1], scratch)
        _reduce_tile(gram, panel_sq, y_sq[c0:c1], local,
                     columns[first : last + 1] - columns[first], row_bag0, col_bag0 + first,
                     False, mirror, *out)
