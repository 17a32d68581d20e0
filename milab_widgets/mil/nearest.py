"""Each bag's k nearest bags without the bag x bag matrix: blocks of query bags.

What. :func:`nearest_bags` returns the k nearest bags of every query bag (or of every bag,
itself excluded) under a Hausdorff bag distance, as two (n_queries, k) arrays, distances
and indices, nearest first. :func:`map_distance_blocks` is the machinery under it, which
Citation-KNN and k-NN also vote through when their query x train matrix would not fit
(:mod:`milab_widgets.mil.neighbors`).

Why. The three bag x bag matrices of :func:`~milab_widgets.mil.distances.bag_distances`
take 24 n^2 bytes: 24 GiB at about 32,800 bags. Neighbour methods need only each bag's
nearest few, so the distances are computed one block of query bags at a time and reduced
to their k nearest before the next block: memory grows as n x k + block x n, not n x n
(measured in benchmarks/bench_nearest.py; the table is in docs/performance.md).

How. Each block is ``bag_distances(references, query_block)``, the same fused Gram-tile
kernel as the full matrices (no copy of its numerics), a (n_references, block) matrix whose
columns a numba pass reduces to their k smallest
(:func:`milab_widgets.core.column_top_k.smallest_per_column`). The references come first so
that every block is centred on the references' mean, as the full symmetric matrices are:
a bag pair's distance agrees with the full matrix's to the last bit or two. Measured on
1,200 random bags (blocks of 2 to 500 bags): bit for bit in 2 dimensions; in 20 and 166,
about 3 in 10,000 distances differ in their last bits (BLAS picks other kernels for other
tile shapes), and not one neighbour index differed. The blocks are independent, so they
also run as ``dask.delayed`` tasks on any Dask scheduler (``scheduler="threads"``, a
``dask.distributed.Client``) with results equal to the in-memory path's for the same
``block_size``.

Use::

    distances, indices = nearest_bags(bags, n_neighbors=5, metric="average")
    distances, indices = nearest_bags(train, queries, n_neighbors=3, block_size=256,
                                      scheduler=client)  # a dask.distributed.Client

The default block is 128 query bags, fewer if their matrices would exceed
``working_memory`` MiB (scikit-learn's setting, ``sklearn.set_config(working_memory=...)``,
1024 MiB unless changed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from numbers import Integral

import numpy as np
import sklearn

from milab_widgets._sklearn_private import Interval, StrOptions, validate_params
from milab_widgets.core.column_top_k import smallest_per_column
from milab_widgets.data.bags import BagDataset
from milab_widgets.exceptions import InputError
from milab_widgets.mil.distances import BASE_KINDS, bag_distances
from milab_widgets.mil.validation import check_positive_int, check_same_features

__all__ = [
    "nearest_bags", "nearest_in_blocks", "map_distance_blocks", "as_bag_dataset",
    "check_n_neighbors", "check_block_size", "default_block_size", "working_memory_bytes",
    "matrices_fit",
]

#: Bytes one bag pair of a block costs at most: the three float64 matrices the Hausdorff
#: kernel returns, the metric's own matrix and one contiguous copy (5 x 8 bytes).
PAIR_BYTES = 40
#: Largest default block: larger blocks are no faster (one thread, 20,000 bags of 2-4
#: instances: 78, 83 and 91 ns a bag pair with blocks of 128, 256 and 512 bags; 5,000
#: bags in one block: 1.4x a block of 256), only larger.
MAX_BLOCK = 128


@validate_params({"bags": "no_validation", "queries": "no_validation",
                  "n_neighbors": [Interval(Integral, 1, None, closed="left")],
                  "metric": [StrOptions(set(BASE_KINDS))],
                  "block_size": [Interval(Integral, 1, None, closed="left"), None],
                  "scheduler": "no_validation"},
                 prefer_skip_nested_validation=True)
def nearest_bags(bags, queries=None, n_neighbors: int = 5, metric: str = "min",
                 block_size: int | None = None, scheduler=None):
    """The ``n_neighbors`` nearest bags of every query bag, computed in blocks of queries.

    Parameters
    ----------
    bags : BagDataset or sequence of 2-D arrays (instances x features)
        The reference bags whose neighbours are returned (indices into ``bags``).
    queries : BagDataset, sequence of 2-D arrays or None
        The bags whose neighbours are sought. None: the bags themselves, each bag's
        neighbours excluding itself (an identical bag at another index is a neighbour).
    n_neighbors : int
        k: at least 1, at most ``len(bags)`` (``len(bags) - 1`` with ``queries=None``).
    metric : {"min", "max", "average"}
        The Hausdorff bag distance (see :func:`~milab_widgets.mil.distances.bag_distances`).
        The integrated and adapted distances of :class:`CitationKNN` and :class:`BagKNN`
        combine these; the classifiers reach them through :func:`nearest_in_blocks`.
    block_size : int or None
        Query bags per block. None: as many as keep one block's matrices within
        scikit-learn's ``working_memory`` (``PAIR_BYTES * len(bags)`` bytes per query bag),
        at most ``MAX_BLOCK`` (128).
    scheduler : None, str or dask.distributed.Client
        None runs the blocks one after another here (each uses every numba and BLAS
        thread). Otherwise each block is a ``dask.delayed`` task computed by this Dask
        scheduler: "threads", "synchronous", or a ``Client`` (the bags are scattered to its
        workers once). Every concurrent task holds one block, so the peak grows with the
        number of workers. Needs ``dask`` (``pip install 'dask[distributed]'``).

    Returns
    -------
    distances : float64 array (n_queries, n_neighbors)
        Each row ascending.
    indices : int64 array (n_queries, n_neighbors)
        The bags at those distances; among equal distances the lower index comes first
        (the order of a stable argsort of the row).

    Notes
    -----
    Peak memory: the bags, the (n_queries, n_neighbors) results and one block's
    ``PAIR_BYTES * len(bags) * block_size`` bytes at most, never n x n: 100,000 bags took
    394 MiB above the interpreter's 288 (docs/performance.md). Time: every (query, bag)
    pair once, so with ``queries=None`` twice the pairs of the symmetric full matrices,
    which compute each pair once and mirror it; measured 1.0-1.6x their cpu time at
    3,000-10,000 bags, where the full matrices also pay for writing 24 n^2 bytes.

    Examples
    --------
    >>> bags = [[[0.0]], [[1.0]], [[5.0], [6.0]], [[0.5]]]
    >>> distances, indices = nearest_bags(bags, n_neighbors=2)
    >>> indices.tolist()
    [[3, 1], [3, 0], [1, 3], [0, 1]]
    >>> distances[0].tolist()
    [0.5, 1.0]

    See Also
    --------
    bag_distances : the full distance matrices, when they fit in memory.
    CitationKNN, BagKNN : predict through this function when the full matrix would not fit.
    """
    references = as_bag_dataset(bags, "bags")
    if queries is not None:
        queries = as_bag_dataset(queries, "queries")
        check_same_features(references, queries)
    k = check_n_neighbors(n_neighbors, len(references), exclude_self=queries is None)
    return nearest_in_blocks(references, queries, k, (metric,), partial(_pick, metric),
                             block_size, scheduler)


def nearest_in_blocks(references: BagDataset, queries: BagDataset | None, k: int, kinds,
                      combine: Callable, block_size=None, scheduler=None):
    """:func:`nearest_bags` for any metric built from the base ``kinds`` by
    ``combine(matrices, start, stop)`` (see :func:`map_distance_blocks`); inputs validated."""
    reduce = partial(_block_nearest, k, queries is None)
    blocks = map_distance_blocks(references, queries, kinds, combine, reduce, block_size,
                                 scheduler)
    n_queries = len(references if queries is None else queries)
    if not blocks:
        return np.empty((n_queries, k)), np.empty((n_queries, k), np.int64)
    return (np.concatenate([block[0] for block in blocks]),
            np.concatenate([block[1] for block in blocks]))


def map_distance_blocks(references: BagDataset, queries: BagDataset | None, kinds,
                        combine: Callable, reduce: Callable, block_size=None,
                        scheduler=None) -> list:
    """``reduce(distances, start, stop)`` of every block of query bags, in order.

    For the query bags ``start:stop`` (the references themselves when ``queries`` is None),
    ``matrices = bag_distances(references, query_block, kinds)`` and
    ``distances = combine(matrices, start, stop)``: a C-contiguous float64
    (n_references, stop - start) matrix, ``distances[t, j]`` between reference t and query
    bag ``start + j``. Only one block's matrices exist at a time (one per Dask worker).
    ``combine`` and ``reduce`` must be picklable (module-level functions or partials of
    them) for a distributed scheduler.
    """
    n_queries = len(references if queries is None else queries)
    block_size = check_block_size(block_size, len(references))
    spans = [(start, min(start + block_size, n_queries))
             for start in range(0, n_queries, block_size)]
    work = partial(_run_block, kinds=tuple(kinds), combine=combine, reduce=reduce)
    if scheduler is None:
        source = references if queries is None else queries
        return [work(references, source, start, stop) for start, stop in spans]
    return _run_on_dask(work, references, queries, spans, scheduler)


# -- inputs ----------------------------------------------------------------------------------
def as_bag_dataset(bags, name: str) -> BagDataset:
    """A BagDataset from a BagDataset or a non-empty sequence of 2-D arrays."""
    if isinstance(bags, BagDataset):
        return bags
    if isinstance(bags, (Sequence, np.ndarray)) and not isinstance(bags, (str, bytes)):
        if len(bags) == 0:
            raise InputError(f"{name} is empty; pass at least one bag (a 2-D array).")
        try:
            return BagDataset.from_bags(bags)
        except InputError as error:
            raise InputError(f"{name}: {error}") from None
    raise InputError(
        f"{name} must be a BagDataset or a list of 2-D arrays (instances x features), got "
        f"{type(bags).__name__}."
    )


def check_n_neighbors(n_neighbors, n_references: int, exclude_self: bool) -> int:
    """k as an int in [1, n_references] (n_references - 1 when a bag excludes itself)."""
    k = check_positive_int(n_neighbors, "n_neighbors")
    available = n_references - 1 if exclude_self else n_references
    if k > available:
        others = "other bags" if exclude_self else "bags"
        raise InputError(
            f"n_neighbors={k} but each query has only {available} {others} to choose from "
            f"({n_references} bags); lower n_neighbors or add bags."
        )
    return k


def check_block_size(block_size, n_references: int) -> int:
    """Query bags per block: the given positive int, or :func:`default_block_size`."""
    if block_size is None:
        return default_block_size(n_references)
    return check_positive_int(block_size, "block_size")


def default_block_size(n_references: int) -> int:
    """Query bags whose block against ``n_references`` bags fits ``working_memory``, at
    most ``MAX_BLOCK``."""
    fitting = working_memory_bytes() // (PAIR_BYTES * max(n_references, 1))
    return int(min(max(1, fitting), MAX_BLOCK))


def working_memory_bytes() -> int:
    """scikit-learn's ``working_memory`` (MiB) in bytes: the budget for temporary arrays."""
    return int(sklearn.get_config()["working_memory"] * 2**20)


def matrices_fit(n_rows: int, n_cols: int) -> bool:
    """Whether full (n_rows, n_cols) distance matrices (``PAIR_BYTES`` a pair) fit in
    ``working_memory``: the test Citation-KNN and k-NN use to choose the blocked route."""
    return PAIR_BYTES * n_rows * n_cols <= working_memory_bytes()


# -- blocks ----------------------------------------------------------------------------------
def _run_block(references, queries, start, stop, *, kinds, combine, reduce):
    block = queries[start:stop]
    matrices = bag_distances(references, block, kinds=kinds)
    distances = np.ascontiguousarray(combine(matrices, start, stop), dtype=np.float64)
    return reduce(distances, start, stop)


def _pick(kind, matrices, start, stop):
    return matrices[kind]


def _block_nearest(k, exclude_self, distances, start, stop):
    """The k nearest references of each query column: ((b, k) distances, (b, k) indices)."""
    nearest = np.empty((distances.shape[1], k))
    at = np.empty((distances.shape[1], k), np.int64)
    smallest_per_column(distances, k, start if exclude_self else -1, nearest, at)
    return nearest, at


def _run_on_dask(work, references, queries, spans, scheduler) -> list:
    try:
        import dask
    except ImportError:  # pragma: no cover - dask is in the test extra
        raise InputError(
            "scheduler needs dask; install it (pip install 'dask[distributed]') or pass "
            "scheduler=None."
        ) from None
    if hasattr(scheduler, "scatter"):  # a dask.distributed Client: ship the bags once
        shared_references = scheduler.scatter(references, broadcast=True)
        shared_queries = (shared_references if queries is None
                          else scheduler.scatter(queries, broadcast=True))
    else:
        shared_references = dask.delayed(references)
        shared_queries = shared_references if queries is None else dask.delayed(queries)
    tasks = [dask.delayed(work, pure=True)(shared_references, shared_queries, start, stop)
             for start, stop in spans]
    return list(dask.compute(*tasks, scheduler=scheduler))
