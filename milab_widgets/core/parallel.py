"""One level of parallelism for the tiled kernels: whole tiles on a thread pool, each tile
on one thread (its BLAS product and its numba loop both single-threaded).

Why. A kernel that alternates a multi-threaded BLAS product with a numba-parallel loop, tile
after tile, loses to one thread on a 2-core machine: OpenBLAS's worker threads keep spinning
for a while after each product and take the core the numba loop (or another process) needs,
and the two pools wait for each other at every tile. Measured before this module (ML-kNN
fit + predict_proba on yeast, median of 15, benchmarks/bench_threads.py has the current
numbers): 51 ms with the default threads against 27 ms with one numba thread on an idle
machine, 80 ms against 34 ms beside one busy process. Here a call forks once and joins once;
a worker that shares its core with another process just takes fewer tiles, because the pool
hands tiles out as workers become free.

How many workers (:func:`tile_workers`): at most numba's thread count
(``numba.set_num_threads``, or ``NUMBA_NUM_THREADS``), at most one per
:data:`MIN_TILES_PER_WORKER` tiles, and at most the cores that no other process is using at
the moment of the call (:func:`free_cores`; this process's own threads do not count). The
last rule is what keeps the default from losing to one thread beside a busy process: on
this 2-core machine two workers there share one core with it, and the call waits for
whichever worker the scheduler left behind (ML-kNN on yeast beside one busy process: 36 ms
on two workers against 32 ms on one). With one worker the tiles run on the calling thread. Either way every tile is computed by the same
single-threaded code and the tiles do not depend on the count, so results are identical
whatever it is (tests/core/test_parallel.py).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import numba
import numpy as np
from threadpoolctl import ThreadpoolController

#: Tiles each worker needs before a call uses the pool: with fewer, one slow worker (a core
#: shared with another process) holds up the whole call for a large share of the work.
MIN_TILES_PER_WORKER = 2
#: The kernel's count of runnable tasks, and this process's threads (Linux).
LOADAVG = "/proc/loadavg"
TASKS = "/proc/self/task"


@cache
def _blas_controller() -> ThreadpoolController:
    """The loaded BLAS libraries, found once (a fresh ``threadpool_limits`` scans the
    process's libraries each time: 0.6 ms a call, against 0.02 ms for a kept controller)."""
    return ThreadpoolController()


def single_threaded_blas():
    """Context manager: every BLAS call on one thread for the duration."""
    return _blas_controller().limit(limits=1, user_api="blas")


def free_cores() -> int:
    """Cores this process may use that no other process is using now (at least 1).

    The CPUs of the process's affinity mask less the other processes' tasks that are
    running or waiting to run: the machine's count is the fourth field of ``/proc/loadavg``
    ("3/82": 3 runnable of 82), an instantaneous count (the load averages lag by a minute),
    and this process's own running threads (``/proc/self/task/*/stat``) are taken out of
    it. Measured: 0 others on an idle machine, 1 beside one busy process, 2 beside two.
    Own threads do not count because they are ours to schedule: right after a BLAS call,
    OpenBLAS's workers are still spinning (yielding), and counting them made the Hausdorff
    matrices on Musk2 run on one worker after a matrix product (wall 1.11x one full GEMM
    instead of 0.72x, bench_inth.py --quick). Reading both takes about 0.1 ms. Where the
    files do not exist (not Linux), every CPU counts as free. Inside a container that
    shares the host's process table the count includes the host's tasks, so this errs
    towards fewer workers.
    """
    cpus = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count() or 1)
    try:
        with open(LOADAVG) as loadavg:
            runnable = int(loadavg.read().split()[3].split("/")[0])
    except (OSError, IndexError, ValueError):
        return cpus
    return max(1, cpus - max(0, runnable - own_running_threads()))


def own_running_threads() -> int:
    """Threads of this process that are running or runnable (state R), the caller included."""
    running = 0
    try:
        tasks = os.listdir(TASKS)
    except OSError:
        return 1
    for task in tasks:
        try:
            with open(os.path.join(TASKS, task, "stat"), "rb") as stat:
                fields = stat.read()
        except OSError:  # the thread ended meanwhile
            continue
        state = fields.rindex(b")") + 2  # the name, in parentheses, may hold any byte
        running += fields[state : state + 1] == b"R"
    return max(1, running)


def blas_within_free_cores():
    """Context manager: BLAS on at most :func:`free_cores` threads for the duration (for
    library calls that use BLAS outside the tiles: beside a busy process on a 2-core machine
    a two-thread product waits for the thread that shares its core)."""
    return _blas_controller().limit(limits=free_cores(), user_api="blas")


def tile_workers(n_tiles: int) -> int:
    """Workers a call of ``n_tiles`` tiles runs on: numba's thread count, limited to one
    per :data:`MIN_TILES_PER_WORKER` tiles and to the :func:`free_cores` (at least 1)."""
    limit = min(numba.get_num_threads(), n_tiles // MIN_TILES_PER_WORKER)
    return max(1, min(limit, free_cores()) if limit > 1 else 1)


def run_tiles(tiles: Sequence, work: Callable[[object, list], None], dtype=np.float64) -> None:
    """``work(tile, scratch)`` for every tile, BLAS on one thread, on :func:`tile_workers`
    threads.

    ``scratch`` is a one-element list holding a reusable buffer of ``dtype`` for the tile's
    Gram block (:func:`milab_widgets.core.gram.product_into`), one per worker; kernels
    without a Gram block ignore it. The tiles
    must write disjoint outputs: no lock is taken. ``work`` should release the GIL for most
    of its time (BLAS products and ``nogil`` numba kernels do), or the workers take turns.
    """
    workers = tile_workers(len(tiles))
    with single_threaded_blas():
        if workers == 1:
            scratch = [np.empty(0, dtype)]
            for tile in tiles:
                work(tile, scratch)
            return
        own = threading.local()

        def run(tile):
            if not hasattr(own, "scratch"):
                own.scratch = [np.empty(0, dtype)]
            work(tile, own.scratch)

        with ThreadPoolExecutor(workers) as pool:
            for _ in pool.map(run, tiles):
                pass
