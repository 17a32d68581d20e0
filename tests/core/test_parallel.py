"""core.parallel: the tile pool's rules, and every tiled kernel's result identical for one
thread and for two (the tiles, not the thread count, fix the arithmetic)."""

import threading

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
def workers_chosen(monkeypatch):
    """Two workers whatever else the machine runs (CI runs tests beside a busy process);
    the list of the worker counts that calls chose."""
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has a single thread here (NUMBA_NUM_THREADS=1)")
    monkeypatch.setattr(parallel, "free_cores", lambda: 2)
    chosen, choose = [], parallel.tile_workers

    def recorded(n_tiles):
        chosen.append(choose(n_tiles))
        return chosen[-1]

    monkeypatch.setattr(parallel, "tile_workers", recorded)
    return chosen


def _with_threads(count, function):
    previous = numba.get_num_threads()
    numba.set_num_threads(count)
    try:
        return function()
    finally:
        numba.set_num_threads(previous)


def _same_for_one_and_two_threads(function, chosen):
    one = _with_threads(1, function)
    del chosen[:]
    two = _with_threads(2, function)
    assert 2 in chosen  # the two-thread call did run tiles on the pool
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
    assert parallel.free_cores() == expected


def test_own_running_threads_are_not_counted_as_busy(tmp_path, monkeypatch):
    """Right after a BLAS call OpenBLAS's worker still spins: runnable, but ours."""
    path = tmp_path / "loadavg"
    path.write_text("0.10 0.20 0.30 2/80 123\n")
    monkeypatch.setattr(parallel, "LOADAVG", str(path))
    monkeypatch.setattr(parallel, "own_running_threads", lambda: 2)
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: {0, 1})
    assert parallel.free_cores() == 2


def test_own_running_threads_reads_each_threads_state(tmp_path, monkeypatch):
    states = {"101": "R", "102": "S", "103": "R", "104": "D"}
    for task, state in states.items():
        (tmp_path / task).mkdir()
        # a thread name may hold spaces and parentheses: the state follows the last ")"
        (tmp_path / task / "stat").write_text(f"{task} (numba (worker) 1) {state} 1 2 3\n")
    monkeypatch.setattr(parallel, "TASKS", str(tmp_path))
    assert parallel.own_running_threads() == 2


def test_free_cores_without_the_files(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "LOADAVG", str(tmp_path / "absent"))
    monkeypatch.setattr(parallel, "TASKS", str(tmp_path / "absent"))
    monkeypatch.setattr(parallel.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    assert parallel.free_cores() == 4
    assert parallel.own_running_threads() == 1


@pytest.mark.parametrize(("tiles", "free", "expected"), [
    (1, 8, 1), (3, 8, 1), (4, 8, 2), (40, 8, 2), (40, 1, 1)])
def test_tile_workers_take_the_smallest_limit(monkeypatch, tiles, free, expected):
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("numba has a single thread here (NUMBA_NUM_THREADS=1)")
    monkeypatch.setattr(parallel, "free_cores", lambda: free)
    assert _with_threads(2, lambda: parallel.tile_workers(tiles)) == expected


def test_run_tiles_runs_every_tile_once_with_a_buffer_per_worker(workers_chosen):
    seen, buffers, found_empty = [], set(), []
    lock = threading.Lock()

    def work(tile, scratch):
        with lock:
            seen.append(tile)
            buffers.add(id(scratch))
            found_empty.append(scratch[0].size == 0)
        scratch[0] = np.empty(tile + 1)  # a worker's buffer outlives its tiles

    _with_threads(2, lambda: parallel.run_tiles(range(20), work))
    assert workers_chosen == [2]
    assert sorted(seen) == list(range(20))
    assert len(buffers) in (1, 2)  # one per worker that took a tile
    assert sum(found_empty) == len(buffers)  # each buffer starts empty once, then is reused


def test_run_tiles_raises_a_tiles_error(workers_chosen):
    def work(tile, scratch):
        if tile == 7:
            raise ValueError("tile 7")

    with pytest.raises(ValueError, match="tile 7"):
        _with_threads(2, lambda: parallel.run_tiles(range(10), work))


def test_blas_is_single_threaded_inside_the_tiles(workers_chosen):
    from threadpoolctl import threadpool_info

    counts = []
    _with_threads(2, lambda: parallel.run_tiles(range(4), lambda tile, scratch: counts.append(
        {info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"})))
    assert counts and all(count == {1} for count in counts)


# -- every tiled kernel: identical for one and two threads -----------------------------------
def _random_bags(rng, n_bags, d):
    sizes = rng.integers(1, 9, size=n_bags)
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    return rng.normal(size=(offsets[-1], d)), offsets


def test_hausdorff_matrices(workers_chosen):
    rng = np.random.default_rng(0)
    x, x_offsets = _random_bags(rng, 500, 12)  # 2350 instances: 5 panels of 512 rows
    y, y_offsets = _random_bags(rng, 480, 12)  # > 2048 instances: x panels stay 512 rows
    _same_for_one_and_two_threads(lambda: hausdorff_matrices(x, x_offsets), workers_chosen)
    _same_for_one_and_two_threads(lambda: hausdorff_matrices(x, x_offsets, y, y_offsets),
                                  workers_chosen)


@pytest.mark.parametrize("sparse", [False, True])
def test_nearest_neighbors(workers_chosen, sparse):
    rng = np.random.default_rng(1)
    X = rng.integers(0, 3, size=(1100, 8)).astype(float)  # ties; 9 tiles of 128 rows
    X = scipy.sparse.csr_matrix(X) if sparse else X
    _same_for_one_and_two_threads(lambda: nearest_neighbors(X, X, 7, exclude_self=True),
                                  workers_chosen)


def test_smallest_per_column(workers_chosen):
    distances = np.random.default_rng(2).integers(0, 5, size=(3000, 200)).astype(float)
    out = (np.empty((200, 6)), np.empty((200, 6), np.int64))

    def scan():
        smallest_per_column(distances, 6, -1, *out)
        return out[0].copy(), out[1].copy()

    _same_for_one_and_two_threads(scan, workers_chosen)


def test_information_kernels(workers_chosen):
    rng = np.random.default_rng(3)
    codes = rng.integers(0, 3, size=(200, 300)).astype(np.int64)
    states = np.full(200, 3, dtype=np.int64)
    labels = scipy.sparse.csr_matrix(rng.random((300, 5)) < 0.3)
    indptr, indices = labels.indptr.astype(np.int64), labels.indices.astype(np.int64)
    totals = np.asarray(labels.sum(axis=0)).ravel().astype(np.int64)
    members = np.arange(0, 200, 3, dtype=np.int64)
    _same_for_one_and_two_threads(
        lambda: label_joint_entropies(codes, states, indptr, indices, totals),
        workers_chosen)
    _same_for_one_and_two_threads(
        lambda: (pairwise_mutual_information(codes, states, members),), workers_chosen)
