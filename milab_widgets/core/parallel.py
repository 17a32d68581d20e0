"""One level of parallelism for the tiled kernels: whole tiles on a thread pool, each tile
on one thread (its BLAS product and its numba loop both single-threaded).

Why. A kernel that alternates a multi-threaded BLAS product with a numba-parallel loop, tile
after tile, loses to one thread on a 2-core machine: OpenBLAS's worker threads keep spinning
for a while after each product and take the core the numba loop (or another process) needs,
and the two pools wait for each other at every tile. Measured before this module (ML-kNN
fit + predict_proba on yeast, median of 15, benchmarks/bench_threads.py has the current
numbers): 51 ms with the default threads against 27 ms with one numba thread on an idle
machine, 80 ms against 34 ms beside one busy process. Here a call hands work to its helpers
once and waits for them once; a worker that shares its core with another process just takes
fewer tiles, because each worker takes the next free tile as it finishes one.

How many workers (:func:`worker_limit`, :func:`run_tiles`): at most numba's thread count
(``numba.set_num_threads``, or ``NUMBA_NUM_THREADS``), at most one per
:data:`MIN_TILES_PER_WORKER` tiles, and at most the cores that no other process is using
(:func:`free_cores`, counted again before each tile the calling thread takes; this
process's own threads do not count). The last rule is what keeps the default from losing
to one thread beside a busy process: on this 2-core machine two workers there share one
core with it, and the call waits for whichever worker the scheduler left behind (ML-kNN on
yeast beside one busy process: 36 ms on two workers against 32 ms on one). The calling
thread is one of the workers; with one worker it runs every tile. Either way every tile is
computed by the same single-threaded code and the tiles do not depend on the count, so
results are identical whatever it is (tests/core/test_parallel.py).
"""

from __future__ import annotations

import functools
import itertools
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import numba
import numpy as np
from threadpoolctl import ThreadpoolController

__all__ = [
    "blas_limited_to", "single_threaded_blas", "free_cores", "count_free_cores",
    "own_running_threads", "within_free_cores", "blas_for_rows", "input_rows", "worker_limit",
    "run_tiles",
]

#: Tiles each worker needs before a call uses the pool: with fewer, one slow worker (a core
#: shared with another process) holds up the whole call for a large share of the work.
MIN_TILES_PER_WORKER = 2
#: The kernel's count of runnable tasks, and this process's threads (Linux).
LOADAVG = "/proc/loadavg"
TASKS = "/proc/self/task"
#: Seconds an answer of :func:`free_cores` is reused (see there).
FREE_CORES_REUSE_SECONDS = 0.05
_last_count = (-float("inf"), 1)  # (time.monotonic() when counted, free cores)


@functools.cache
def _blas_controller() -> ThreadpoolController:
    """The loaded BLAS libraries, found once (a fresh ``threadpool_limits`` scans the
    process's libraries each time: 0.6 ms a call, against 0.02 ms for a kept controller).

    A controller sees only the libraries loaded when it is made, and numpy and scipy each
    ship an OpenBLAS of their own (scipy's, behind ``scipy.linalg``'s Cholesky and eigen-
    solvers, loads with ``scipy.linalg``); so scipy's is loaded first. Made before it, the
    controller left scipy's BLAS on every thread under every limit."""
    import scipy.linalg  # noqa: F401 -- loads scipy's OpenBLAS (see above)

    return ThreadpoolController()


_blas_requests: list[int] = []  # the thread counts asked for by the limits in force
_blas_original = []  # the limiter that restores BLAS as it was before the first of them
_blas_ceiling = [0]  # BLAS's thread count when the first of them was entered
_blas_lock = threading.Lock()


@contextmanager
def blas_limited_to(threads: int):
    """Context manager: BLAS on at most ``threads`` threads for the duration, and never on
    more than it was on before (a caller's own ``threadpool_limits(1)``, or
    ``OPENBLAS_NUM_THREADS``, stays in force inside: a limit that set BLAS to the free
    cores whatever was there put it back on two threads inside a caller's one-thread
    timing).

    The limit is the process's, so limits entered from several threads at once are shared:
    BLAS runs on the smallest count asked for, and the last to leave restores what was
    there before the first came. (Each restoring what it found would leave BLAS on one
    thread for good when two overlap: the second to enter finds the first one's 1.)
    """
    with _blas_lock:
        if not _blas_requests:
            _blas_ceiling[0] = _blas_threads_in_force()
        limiter = _blas_controller().limit(
            limits=min(_blas_requests + [threads] + _blas_ceiling), user_api="blas")
        if not _blas_requests:
            _blas_original.append(limiter)
        _blas_requests.append(threads)
    try:
        yield
    finally:
        with _blas_lock:
            _blas_requests.remove(threads)
            if _blas_requests:
                _blas_controller().limit(limits=min(_blas_requests + _blas_ceiling),
                                         user_api="blas")
            else:
                _blas_original.pop().restore_original_limits()


def _blas_threads_in_force() -> int:
    """The fewest threads any loaded BLAS library is set to now (about 5 microseconds)."""
    counts = [info["num_threads"]
              for info in _blas_controller().select(user_api="blas").info()]
    return min(counts, default=1)


def single_threaded_blas():
    """Context manager: every BLAS call on one thread for the duration."""
    return blas_limited_to(1)


def free_cores() -> int:
    """:func:`count_free_cores`, reused for :data:`FREE_CORES_REUSE_SECONDS`.

    The count is one instantaneous sample of the scheduler's queue either way, and a kernel
    called in a loop (nearest_bags' blocks, MFSEF's partitions, cross-validation folds)
    would otherwise pay for it every call; beside a busy process the calling thread also
    counts again before each tile (:func:`run_tiles`). Right after a tile's work a count
    takes 70 to 200 microseconds (each /proc read 25 to 30 with the caches cold), against
    9 in a tight loop. Measured beside one busy process, MFSEF's pairwise mutual
    informations (10.7 ms, 30 tiles, 200 paired rounds against one thread): 1.013 to 1.015
    with the answer reused for 20 ms, 1.005 [0.999, 1.010] for 50 ms, 1.002 for 100 ms,
    1.00 with no count at all. Reused for longer, a core freed during a long call joins
    it later: 50 ms is the compromise.
    """
    global _last_count
    counted_at, free = _last_count
    now = time.monotonic()
    if now - counted_at > FREE_CORES_REUSE_SECONDS:
        free = count_free_cores()
        _last_count = (now, free)
    return free


def count_free_cores() -> int:
    """Cores this process may use that no other process is using now (at least 1).

    The CPUs of the process's affinity mask less the other processes' tasks that are
    running or waiting to run: the machine's count is the fourth field of ``/proc/loadavg``
    ("3/82": 3 runnable of 82), an instantaneous count (the load averages lag by a minute),
    and this process's own running threads (``/proc/self/task/*/stat``) are taken out of
    it. Measured: 0 others on an idle machine, 1 beside one busy process, 2 beside two.
    Own threads do not count because they are ours to schedule: right after a BLAS call,
    OpenBLAS's workers are still spinning (yielding), and counting them made the Hausdorff
    matrices on Musk2 run on one worker after a matrix product (wall 1.11x one full GEMM
    instead of 0.72x, bench_inth.py --quick). Where the files do not exist (not Linux),
    every CPU counts as free. Inside a container that shares the host's process table the
    count includes the host's tasks, so this errs towards fewer workers. Cost: about 30
    microseconds with three threads (one read of ``/proc/loadavg``, a directory listing,
    one read per other thread; the threads are not read when the caller is the only
    runnable task).
    """
    cpus = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count() or 1)
    try:
        runnable = int(_read(LOADAVG).split()[3].split(b"/")[0])
    except (OSError, IndexError, ValueError):
        return cpus
    others = runnable - own_running_threads() if runnable > 1 else 0
    return max(1, cpus - max(0, others))


def own_running_threads() -> int:
    """Threads of this process that are running or runnable (state R): the calling thread
    (running by definition, its file is not read) and every other thread in state R."""
    caller = str(threading.get_native_id())
    running = 1
    try:
        tasks = os.listdir(TASKS)
    except OSError:
        return running
    for task in tasks:
        if task == caller:
            continue
        try:
            fields = _read(os.path.join(TASKS, task, "stat"))
        except OSError:  # the thread ended meanwhile
            continue
        state = fields.rindex(b")") + 2  # the name, in parentheses, may hold any byte
        running += fields[state : state + 1] == b"R"
    return running


def _read(path: str) -> bytes:
    """The first 4 KiB of a /proc file, read with one system call (a third of the cost of
    ``open().read()``, which builds a buffered text reader each time)."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        return os.read(descriptor, 4096)
    finally:
        os.close(descriptor)


#: Rows below which an estimator's dense linear algebra stays on one BLAS thread even with
#: cores free: OpenBLAS's threaded LAPACK loses below it. Measured on this 2-core machine,
#: idle, in a fresh process (kernel MDDM fit + transform, 462 features, medians of 9
#: alternating rounds, two threads over one): eig 1.45 at 300 rows, 1.82 at 500, 1.37 at
#: 800, 0.97 at 1,200, 0.70 at 2,000; the direct solver 1.01, 1.37, 0.84, 1.13, 1.04.
MIN_ROWS_FOR_BLAS_THREADS = 1500


def within_free_cores(method):
    """Decorator for the estimators' methods whose work is dense linear algebra outside the
    tiles (eigen-solvers, Cholesky, kernel matrices): the call runs with BLAS on
    :func:`free_cores` threads when its input has at least
    :data:`MIN_ROWS_FOR_BLAS_THREADS` rows (:func:`input_rows` of the first argument), and
    on one thread below that. OpenBLAS's threads spin while they wait for one another, so
    on a loaded machine a two-thread call waits for whichever thread the scheduler left
    out (scipy's 200 x 200 Cholesky at load 8 on two cores: 11 ms on two threads against
    0.4 ms on one; kernel MDDM's eight solvers on 200 rows, 2.7 s against 0.4 s), and on
    an idle one small problems lose too (see the constant)."""
    @functools.wraps(method)
    def limited(self, *args, **kwargs):
        with blas_for_rows(input_rows(args[0]) if args else 0):
            return method(self, *args, **kwargs)

    return limited


def blas_for_rows(rows: int):
    """Context manager: BLAS on :func:`free_cores` threads for a problem of at least
    :data:`MIN_ROWS_FOR_BLAS_THREADS` rows, on one thread for a smaller one (the rule of
    :func:`within_free_cores`, for library code that uses BLAS outside an estimator's
    method, e.g. the SVDD decision function's kernel product)."""
    return blas_limited_to(free_cores() if rows >= MIN_ROWS_FOR_BLAS_THREADS else 1)


def input_rows(value) -> int:
    """The rows of an estimator's input: an array's (dense or sparse) or a bag collection's
    first dimension (bags), the largest of a list of them (the two-view model's views), 0
    when it has none."""
    shape = getattr(value, "shape", None)
    if shape:
        return int(shape[0])
    if isinstance(value, (list, tuple)):
        return max((input_rows(item) for item in value), default=0)
    try:
        return len(value)
    except TypeError:
        return 0


def worker_limit(n_tiles: int) -> int:
    """Most workers a call of ``n_tiles`` tiles may use: numba's thread count, at most one
    per :data:`MIN_TILES_PER_WORKER` tiles (at least 1). :func:`run_tiles` also keeps them
    to the :func:`free_cores`."""
    return max(1, min(numba.get_num_threads(), n_tiles // MIN_TILES_PER_WORKER))


def run_tiles(tiles: Sequence, work: Callable[[object, list], None], dtype=np.float64) -> None:
    """``work(tile, scratch)`` for every tile, BLAS on one thread, on up to
    :func:`worker_limit` threads, and no more than the :func:`free_cores`: the calling
    thread and helpers from a pool kept for the process.

    Each worker takes the next tile not yet taken until none is left (a worker that shares
    its core with another process just takes fewer). The calling thread reads
    :func:`free_cores` again before each tile it takes and brings in a helper whenever more
    workers may run than run now: a core that was busy at the start of a long call (a
    kernel thread's moment on the CPU is enough) joins as soon as it is counted free again
    (:data:`FREE_CORES_REUSE_SECONDS`). ``scratch`` is a one-element list holding a reusable
    buffer of ``dtype`` for the tile's Gram block
    (:func:`milab_widgets.core.gram.product_into`), one per worker; kernels without a Gram
    block ignore it. The tiles must write disjoint outputs: no lock is taken. ``work``
    should release the GIL for most of its time (BLAS products and ``nogil`` numba kernels
    do), or the workers take turns. A tile's error (or an interrupt) stops every worker
    after the tile it holds, and is raised once they all have. Calls from several threads
    at once share the helpers; a call whose helpers are all busy
    runs its tiles on its own thread, and never waits for a helper to start (so a tile may
    itself call this function).
    """
    limit = worker_limit(len(tiles))
    next_index = itertools.count()  # next() is atomic under the GIL: no tile taken twice
    stopped = []  # not empty once a worker failed (or was interrupted): the others stop too
    helpers = []

    def bring_in_helpers(index: int) -> None:
        while (index + 1 < len(tiles) and len(helpers) + 1 < limit
               and len(helpers) + 1 < free_cores()):
            helpers.append(_helper_pool().submit(_take_tiles, tiles, work, dtype, next_index,
                                                 stopped))

    with single_threaded_blas():
        try:
            _take_tiles(tiles, work, dtype, next_index, stopped, bring_in_helpers)
        finally:
            for helper in helpers:
                if not helper.cancel():  # a helper not yet started (all busy) is not needed
                    helper.result()


def _take_tiles(tiles, work, dtype, next_index, stopped: list, before_each=None) -> None:
    """One worker of :func:`run_tiles`: the next tile not yet taken, until none is left or
    another worker has stopped on an error (a KeyboardInterrupt in the calling thread
    included: the helpers then finish only the tiles they hold).

    A module-level function, not a closure of run_tiles: a closure that submits itself is
    a reference cycle, which kept every call's tiles and outputs (the Hausdorff matrices)
    alive until the garbage collector ran (nearest_bags on 8,000 bags: 1 GiB resident
    instead of 0.3)."""
    scratch = [np.empty(0, dtype)]
    for index in next_index:
        if index >= len(tiles) or stopped:
            return
        if before_each is not None:
            before_each(index)
        try:
            work(tiles[index], scratch)
        except BaseException:
            stopped.append(index)
            raise


@functools.cache
def _helper_pool() -> ThreadPoolExecutor:
    """The helper threads of :func:`run_tiles`, started on first use and kept: starting two
    threads and joining them costs about 0.3 ms here, a pool made per call about 1 ms (a
    fifth of PMU's 4 ms label entropies), handing a kept helper its work about 30 us."""
    return ThreadPoolExecutor(max(1, (os.cpu_count() or 2) - 1),
                              thread_name_prefix="milab-tiles")


# A forked child has none of the parent's threads: its pool would wait for them forever.
os.register_at_fork(after_in_child=_helper_pool.cache_clear)
