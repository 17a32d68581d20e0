"""core.parallel: the tile pool's rules, and every tiled kernel's result identical for one
thread and for two (the tiles, not the thread count, fix the arithmetic)."""

import gc
import os
import signal
import threading
import time
import weakref

import numba
import numpy as np
import pytest
import scipy.sparse

import milab_widgets.core.parallel as parallel
from milab_widgets.core.column_top_k import smallest_per_column
from milab_widgets.core.hausdorff import hausdorff_matrices
from milab_widgets.core.information import label_joint_entropies, pairwise_mutual_information
from milab_widgets.core.neighbors import nearest_neighbors


@pytest.fixture
def helpers_brought_in(monkeypatch):
    """Two free cores whatever else the machine runs (CI runs tests beside a busy process);
    the list of the helpers that calls brought in (one entry per helper)."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has a single thread here (NUMBA_NUM_THREADS=1)")
    monkeypatch.setattr(parallel, "free_cores", lambda: 2)
    brought_in, pool = [], parallel._helper_pool()

    class CountedPool:
        def submit(self, *args):
            brought_in.append(threading.get_native_id())
            return pool.submit(*args)

    monkeypatch.setattr(parallel, "_helper_pool", CountedPool)
    return brought_in


def _with_threads(count, function):
    previous = numba.get_num_threads()
    numba.set_num_threads(count)
    try:
        return function()
    finally:
        numba.set_num_threads(previous)


def _same_for_one_and_two_threads(function, brought_in):
    one = _with_threads(1, function)
    assert not brought_in  # one thread: no helper
    two = _with_threads(2, function)
    assert brought_in  # the two-thread call did run tiles on a helper
    del brought_in[:]
    for a, b in zip(one, two, strict=True):
        np.testing.assert_array_equal(a, b)


# -- the rules -------------------------------------------------------------------------------
@pytest.mark.parametrize(("loadavg", "cpus", "expected"), [
    ("0.10 0.20 0.30 1/80 123\n", {0, 1}, 2),      # only the reader runs: both cores free
    ("1.00 0.90 0.80 2/81 124\n", {0, 1}, 1),      # one busy process
    ("2.00 1.90 1.80 3/82 125\n", {0, 1}, 1),      # two: never fewer than one
    ("0.50 0.50 0.50 3/200 126\n", set(range(8)), 6),
    ("garbled\n", {0, 1, 2}, 3),                   # unreadable: every CPU counts as free
])
def test_free_cores_counts_the_other_runnable_tasks(tmp_path, monkeypatch, loadavg, cpus,
                                                    expected):
    path = tmp_path / "loadavg"
    path.write_text(loadavg)
    monkeypatch.setattr(parallel, "LOADAVG", str(path))
    monkeypatch.setattr(parallel, "own_running_threads", lambda: 1)
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: cpus)
    assert parallel.count_free_cores() == expected


def test_own_running_threads_are_not_counted_as_busy(tmp_path, monkeypatch):
    """Right after a BLAS call OpenBLAS's worker still spins: runnable, but ours."""
    path = tmp_path / "loadavg"
    path.write_text("0.10 0.20 0.30 2/80 123\n")
    monkeypatch.setattr(parallel, "LOADAVG", str(path))
    monkeypatch.setattr(parallel, "own_running_threads", lambda: 2)
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: {0, 1})
    assert parallel.count_free_cores() == 2


def test_own_running_threads_reads_each_threads_state(tmp_path, monkeypatch):
    """The caller counts as running without its file being read (here it says "S")."""
    caller = str(threading.get_native_id())
    states = {"101": "R", "102": "S", "103": "R", "104": "D", caller: "S"}
    for task, state in states.items():
        (tmp_path / task).mkdir()
        # a thread name may hold spaces and parentheses: the state follows the last ")"
        (tmp_path / task / "stat").write_text(f"{task} (numba (worker) 1) {state} 1 2 3\n")
    monkeypatch.setattr(parallel, "TASKS", str(tmp_path))
    assert parallel.own_running_threads() == 3


def test_threads_are_not_read_when_only_the_caller_runs(tmp_path, monkeypatch):
    path = tmp_path / "loadavg"
    path.write_text("0.10 0.20 0.30 1/80 123\n")
    monkeypatch.setattr(parallel, "LOADAVG", str(path))
    monkeypatch.setattr(parallel, "own_running_threads", lambda: pytest.fail("read threads"))
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: {0, 1})
    assert parallel.count_free_cores() == 2


def test_free_cores_without_the_files(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "LOADAVG", str(tmp_path / "absent"))
    monkeypatch.setattr(parallel, "TASKS", str(tmp_path / "absent"))
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    assert parallel.count_free_cores() == 4
    assert parallel.own_running_threads() == 1


def test_free_cores_reuses_a_fresh_count(monkeypatch):
    clock, counts = [100.0], iter([2, 1])
    monkeypatch.setattr(parallel.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(parallel, "count_free_cores", lambda: next(counts))
    monkeypatch.setattr(parallel, "_last_count", (-float("inf"), 1))
    assert parallel.free_cores() == 2
    clock[0] += parallel.FREE_CORES_REUSE_SECONDS / 2
    assert parallel.free_cores() == 2           # reused: not counted again
    clock[0] += parallel.FREE_CORES_REUSE_SECONDS
    assert parallel.free_cores() == 1           # stale: counted again


@pytest.mark.parametrize(("tiles", "free", "expected"), [
    (1, 8, 1), (3, 8, 1), (4, 8, 2), (40, 8, 2), (40, 1, 1)])
def test_workers_take_the_smallest_limit(helpers_brought_in, monkeypatch, tiles, free,
                                         expected):
    """Numba's 2 threads, one worker per two tiles, the free cores: the smallest wins."""
    monkeypatch.setattr(parallel, "free_cores", lambda: free)
    _with_threads(2, lambda: parallel.run_tiles(range(tiles), lambda tile, scratch: None))
    assert len(helpers_brought_in) == expected - 1


def test_run_tiles_runs_every_tile_once_with_a_buffer_per_worker(helpers_brought_in):
    seen, buffers, found_empty = [], set(), []
    lock = threading.Lock()

    def work(tile, scratch):
        with lock:
            seen.append(tile)
            buffers.add(id(scratch))
            found_empty.append(scratch[0].size == 0)
        scratch[0] = np.empty(tile + 1)  # a worker's buffer outlives its tiles

    _with_threads(2, lambda: parallel.run_tiles(range(20), work))
    assert len(helpers_brought_in) == 1  # two workers: the caller and one helper
    assert sorted(seen) == list(range(20))
    assert len(buffers) in (1, 2)  # one per worker that took a tile
    assert sum(found_empty) == len(buffers)  # each buffer starts empty once, then is reused


def test_run_tiles_keeps_nothing_alive(helpers_brought_in):
    """A call's work (and the outputs it writes) is freed when the call returns, without
    waiting for the garbage collector (a reference cycle kept them)."""
    class Output:
        pass

    def call_once():
        output = Output()

        def work(tile, scratch, output=output):
            time.sleep(0.001)

        _with_threads(2, lambda: parallel.run_tiles(range(8), work))
        return weakref.ref(output)

    gc.disable()
    try:
        assert call_once()() is None
    finally:
        gc.enable()
    assert helpers_brought_in  # a helper took part


def test_run_tiles_raises_a_tiles_error(helpers_brought_in):
    def work(tile, scratch):
        if tile == 7:
            raise ValueError("tile 7")

    with pytest.raises(ValueError, match="tile 7"):
        _with_threads(2, lambda: parallel.run_tiles(range(10), work))


def test_an_error_stops_the_other_workers(helpers_brought_in):
    """The helper stops after the tile it holds (an interrupt in a notebook must not wait
    for the rest of the call)."""
    done = []

    def work(tile, scratch):
        if tile == 0:
            time.sleep(0.02)  # the helper is under way meanwhile
            raise KeyboardInterrupt
        time.sleep(0.01)
        done.append(tile)

    with pytest.raises(KeyboardInterrupt):
        _with_threads(2, lambda: parallel.run_tiles(range(100), work))
    # the helper finishes the tiles that fit in the caller's 20 ms (two of 10 ms) and the one
    # it holds then; without the stop it takes all 99 (10 leaves room for a slow scheduler)
    assert helpers_brought_in and len(done) < 10


@pytest.mark.timeout(60)
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_forked_child_runs_tiles_on_helpers_of_its_own(helpers_brought_in):
    """A child has none of its parent's threads; a pool carried over would wait forever."""
    _with_threads(2, lambda: parallel.run_tiles(range(8), lambda tile, scratch: None))
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through its exit status
        signal.alarm(20)  # a hang ends the child by SIGALRM
        taken = []
        _with_threads(2, lambda: parallel.run_tiles(range(8), lambda tile, scratch:
                                                    taken.append(tile)))
        os._exit(0 if sorted(taken) == list(range(8)) else 1)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert len(helpers_brought_in) == 1  # the parent's call used a helper


@pytest.mark.timeout(60)
def test_a_tile_may_run_tiles_itself(helpers_brought_in):
    """The inner call finds every helper busy (one of them runs the outer tile) and must not
    wait for one to start."""
    inner = []

    def outer(tile, scratch):
        parallel.run_tiles(range(4), lambda inner_tile, _: inner.append((tile, inner_tile)))

    _with_threads(2, lambda: parallel.run_tiles(range(2 * (os.cpu_count() or 2)), outer))
    assert sorted(inner) == [(t, i) for t in range(2 * (os.cpu_count() or 2)) for i in range(4)]


def test_a_core_freed_during_a_call_joins_it(monkeypatch):
    """A core busy at the start (a kernel thread's moment) helps once it is counted free."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has a single thread here (NUMBA_NUM_THREADS=1)")
    counts = iter([1, 1, 1] + [2] * 100)
    monkeypatch.setattr(parallel, "free_cores", lambda: next(counts))
    workers = []
    lock = threading.Lock()

    def work(tile, scratch):
        with lock:
            workers.append((tile, threading.get_native_id()))
        time.sleep(0.01)

    _with_threads(2, lambda: parallel.run_tiles(range(12), work))
    caller = threading.get_native_id()
    assert [thread for tile, thread in sorted(workers)[:3]] == [caller] * 3
    assert {thread for _, thread in workers} - {caller}  # a helper took later tiles


def _blas_threads():
    from threadpoolctl import threadpool_info

    return {info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"}


def test_overlapping_limits_restore_the_blas_threads():
    """Limits entered from several threads (a Dask worker's) overlap in any order: BLAS
    runs on the smallest count asked for, and is as it was once the last has left."""
    from threadpoolctl import threadpool_limits

    with threadpool_limits(2, user_api="blas"):
        before = _blas_threads()
        one, two = parallel.single_threaded_blas(), parallel.blas_limited_to(2)
        two.__enter__()
        assert _blas_threads() == {2}
        one.__enter__()
        assert _blas_threads() == {1}
        two.__exit__(None, None, None)
        assert _blas_threads() == {1}  # the single-threaded tiles are still running
        one.__exit__(None, None, None)
        assert _blas_threads() == before
        one, other = parallel.single_threaded_blas(), parallel.single_threaded_blas()
        one.__enter__()
        other.__enter__()
        one.__exit__(None, None, None)
        assert _blas_threads() == {1}
        other.__exit__(None, None, None)
        assert _blas_threads() == before


def test_a_limit_reaches_scipys_blas_even_when_scipy_is_imported_after_this_module():
    """numpy and scipy each load an OpenBLAS of their own; a limit must hold both, whatever
    was imported when the first limit was made."""
    import subprocess
    import sys

    check = ("import milab_widgets.core.parallel as parallel\n"
             "with parallel.single_threaded_blas():\n"
             "    import scipy.linalg\n"
             "    from threadpoolctl import threadpool_info\n"
             "    blas = [i for i in threadpool_info() if i['user_api'] == 'blas']\n"
             "    print(len(blas), sorted({i['num_threads'] for i in blas}))\n")
    environment = {**os.environ, "OPENBLAS_NUM_THREADS": "2"}
    finished = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                              timeout=120, env=environment)
    assert finished.returncode == 0, finished.stderr
    libraries, threads = finished.stdout.split(maxsplit=1)
    assert threads.strip() == "[1]", finished.stdout


def test_blas_is_single_threaded_inside_the_tiles(helpers_brought_in):
    counts = []
    _with_threads(2, lambda: parallel.run_tiles(range(4), lambda tile, scratch: counts.append(
        _blas_threads())))
    assert counts and all(count == {1} for count in counts)


# -- every tiled kernel: identical for one and two threads -----------------------------------
def _random_bags(rng, n_bags, d):
    sizes = rng.integers(1, 9, size=n_bags)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    return rng.normal(size=(offsets[-1], d)), offsets


def test_hausdorff_matrices(helpers_brought_in):
    rng = np.random.default_rng(0)
    x, x_offsets = _random_bags(rng, 500, 12)  # 2350 instances: 5 panels of 512 rows
    y, y_offsets = _random_bags(rng, 480, 12)  # > 2048 instances: x panels stay 512 rows
    _same_for_one_and_two_threads(lambda: hausdorff_matrices(x, x_offsets), helpers_brought_in)
    _same_for_one_and_two_threads(lambda: hausdorff_matrices(x, x_offsets, y, y_offsets),
                                  helpers_brought_in)


@pytest.mark.parametrize("sparse", [False, True])
def test_nearest_neighbors(helpers_brought_in, sparse):
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, size=(1100, 8)).astype(float)  # ties; 9 tiles of 128 rows
    X = scipy.sparse.csr_matrix(X) if sparse else X
    _same_for_one_and_two_threads(lambda: nearest_neighbors(X, X, 7, exclude_self=True),
                                  helpers_brought_in)


def test_smallest_per_column(helpers_brought_in):
    distances = np.random.default_rng(2).integers(0, 5, size=(3000, 200)).astype(float)
    out = (np.empty((200, 6)), np.empty((200, 6), np.int64))

    def scan():
        smallest_per_column(distances, 6, -1, *out)
        return out[0].copy(), out[1].copy()

    _same_for_one_and_two_threads(scan, helpers_brought_in)


def test_information_kernels(helpers_brought_in):
    rng = np.random.default_rng(3)
    codes = rng.integers(0, 3, size=(200, 300)).astype(np.int64)
    states = np.full(200, 3, dtype=np.int64)
    labels = scipy.sparse.csr_matrix(rng.random((300, 5)) < 0.3)
    indptr, indices = labels.indptr.astype(np.int64), labels.indices.astype(np.int64)
    totals = np.asarray(labels.sum(axis=0)).ravel().astype(np.int64)
    members = np.arange(0, 200, 3, dtype=np.int64)
    _same_for_one_and_two_threads(
        lambda: label_joint_entropies(codes, states, indptr, indices, totals),
        helpers_brought_in)
    _same_for_one_and_two_threads(
        lambda: (pairwise_mutual_information(codes, states, members),), helpers_brought_in)


LARGE = np.empty((parallel.MIN_ROWS_FOR_BLAS_THREADS, 1))
SMALL = np.empty((parallel.MIN_ROWS_FOR_BLAS_THREADS - 1, 1))


@pytest.mark.parametrize("free, rows, expected", [(1, LARGE, 1), (2, LARGE, 2), (2, SMALL, 1)])
def test_within_free_cores_takes_the_free_cores_for_large_inputs_only(monkeypatch, free, rows,
                                                                       expected):
    from threadpoolctl import threadpool_limits

    seen = []
    limited = parallel.within_free_cores(lambda self, X: seen.append(_blas_threads()) or X)
    monkeypatch.setattr(parallel, "free_cores", lambda: free)
    with threadpool_limits(2, user_api="blas"):
        assert limited(None, rows) is rows
        assert seen == [{expected}] and _blas_threads() == {2}


@pytest.mark.parametrize("free, rows, expected", [(1, LARGE, 1), (2, LARGE, 2), (2, SMALL, 1)])
def test_the_svdd_kernel_product_follows_the_same_rule(monkeypatch, free, rows, expected):
    """The decision function's kernel product, outside fit, takes BLAS threads by the rows
    of its input like within_free_cores (an idle 2-core machine ran SVDD's 500-point
    decision function on two BLAS threads, 1.04x one thread)."""
    from threadpoolctl import threadpool_limits

    from milab_widgets.oneclass import svdd

    seen = []
    monkeypatch.setattr(svdd, "rbf_kernel",
                        lambda X, Y, gamma: seen.append(_blas_threads()) or np.ones((len(X), 1)))
    monkeypatch.setattr(parallel, "free_cores", lambda: free)
    with threadpool_limits(2, user_api="blas"):
        distances = svdd.squared_distances_to_centres(rows, rows[:1], 1.0, np.ones(1), 1.0)
    assert seen == [{expected}] and np.all(distances == 0.0)


@pytest.mark.parametrize("value, rows", [
    (np.empty((5, 3)), 5), (scipy.sparse.csr_matrix((7, 2)), 7), ([np.empty((4, 1)),
     np.empty((9, 1))], 9), (range(6), 6), (3.0, 0)])
def test_input_rows(value, rows):
    assert parallel.input_rows(value) == rows


def test_the_dense_linear_algebra_of_every_estimator_runs_on_the_free_cores(monkeypatch):
    """fit / transform of the estimators whose work is BLAS outside the tiles (eigen-
    solvers, Cholesky, kernel matrices) see BLAS on the free cores only: one here."""
    from threadpoolctl import threadpool_limits

    from milab_widgets.data.bags import BagDataset
    from milab_widgets.mil import BAMIC, MinimaxKernel, TwoViewMIClustering
    from milab_widgets.multilabel import KernelMDDM
    from milab_widgets.multilabel.kcca import LeastSquaresKCCA
    from milab_widgets.oneclass import CDVSESVDD, SVDD

    seen = {}
    original_limited_to = parallel.blas_limited_to

    def recording_limit(threads):
        seen.setdefault("limits", []).append(threads)
        return original_limited_to(threads)

    monkeypatch.setattr(parallel, "free_cores", lambda: 1)
    monkeypatch.setattr(parallel, "blas_limited_to", recording_limit)
    rng = np.random.default_rng(0)
    X, Y = rng.normal(size=(40, 5)), (rng.random((40, 3)) < 0.4).astype(int)
    bags = BagDataset.from_bags([rng.normal(size=(3, 4)) for _ in range(12)])
    calls = [lambda: KernelMDDM(solver="direct").fit(X, Y).transform(X),
             lambda: LeastSquaresKCCA().fit(X, Y).transform(X),
             lambda: SVDD().fit(X), lambda: CDVSESVDD(n_estimators=3).fit(X),
             lambda: MinimaxKernel().fit(bags).gram(bags),
             lambda: BAMIC(n_clusters=2).fit(bags),
             lambda: TwoViewMIClustering(n_clusters=2, max_iter=5, n_components=2).fit(
                 [bags, bags])]
    with threadpool_limits(2, user_api="blas"):
        for call in calls:
            seen["limits"] = []
            call()
            assert seen["limits"] and set(seen["limits"]) == {1}, call
        assert _blas_threads() == {2}


def test_a_limit_never_raises_the_blas_threads_a_caller_set(monkeypatch):
    """A caller's own one-thread limit (threadpoolctl, or OPENBLAS_NUM_THREADS) stays in
    force inside the library's limits, even with every core free."""
    from threadpoolctl import threadpool_limits

    seen = []
    monkeypatch.setattr(parallel, "free_cores", lambda: 2)
    limited = parallel.within_free_cores(lambda self, X: seen.append(_blas_threads()))
    with threadpool_limits(1, user_api="blas"):
        limited(None, LARGE)
        with parallel.blas_limited_to(2):
            seen.append(_blas_threads())
        assert _blas_threads() == {1}
    assert seen == [{1}, {1}]
