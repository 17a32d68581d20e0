"""Experiment grids on Dask, resumed after a SIGKILL, and repeatable from their seed.

The grid is CDVSE's UCI protocol on Thyroid (dataset x repetition, one cached record per
repetition): its records take about a second each in full mode, long enough to kill a run
between two of them.
"""

import json
import os
import signal
import subprocess
import sys
import time
from functools import partial

import joblib
import numpy as np
import pandas as pd
import pytest

from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.evaluation.cluster import (
    SCHEDULER_VARIABLE,
    cluster_address,
    shared_arguments,
)
from milab_widgets.evaluation.grid import GridTask, run_grid
from milab_widgets.experiments import cdvse

pytestmark = pytest.mark.slow

GRID = dict(quick=True, repetitions=3, synthetic=False)


def _square(value: int) -> dict:
    return {"value": value * value}


def test_run_grid_keeps_task_order_and_reads_cached_records(tmp_path):
    tasks = [GridTask({"value": v}, lambda v=v: _square(v)) for v in range(5)]
    cache = ResultCache(tmp_path)
    run_grid(tasks[:2], cache)
    with joblib.parallel_backend("threading", n_jobs=2):
        assert run_grid(tasks, cache) == [{"value": v * v} for v in range(5)]
    assert (cache.hits, cache.misses) == (2, 5)


def test_grid_on_a_dask_local_cluster_gives_the_serial_table(require_dataset):
    require_dataset("thyroid")
    distributed = pytest.importorskip("dask.distributed")
    serial = cdvse.run(["thyroid"], **GRID).runs
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client, joblib.parallel_backend("dask"), \
            distributed.get_task_stream(client) as stream:
        on_dask = cdvse.run(["thyroid"], **GRID).runs
        workers = set(client.scheduler_info()["workers"])
    ran_on = {task["worker"] for task in stream.data}
    assert ran_on and ran_on <= workers, "the grid's tasks must run on the cluster's workers"
    pd.testing.assert_frame_equal(on_dask, serial)


@pytest.mark.parametrize("workers", [1, 2])  # one worker: still on it, not in this process
def test_milab_scheduler_sends_a_grid_without_n_jobs_to_that_cluster(
        tmp_path, monkeypatch, workers):
    distributed = pytest.importorskip("dask.distributed")
    tasks = [GridTask({"value": v}, partial(dict, value=v * v)) for v in range(6)]
    with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        monkeypatch.setenv(SCHEDULER_VARIABLE, cluster.scheduler_address)
        with distributed.get_task_stream(client) as stream:
            records = run_grid(tasks, ResultCache(tmp_path / "a"))
        with distributed.get_task_stream(client) as local_stream:
            local = run_grid(tasks, ResultCache(tmp_path / "b"), n_jobs=1)
        workers = set(client.scheduler_info()["workers"])
    assert records == local == [{"value": v * v} for v in range(6)]
    ran_on = {task["worker"] for task in stream.data}
    assert ran_on and ran_on <= workers, "the grid's tasks must run on the cluster's workers"
    assert not local_stream.data, "a grid given n_jobs keeps its own backend"


def _thread_settings() -> dict:
    return {name: os.environ.get(name) for name in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS")}


def test_local_workers_share_the_cores_and_the_cluster_closes_with_the_block(monkeypatch):
    distributed = pytest.importorskip("dask.distributed")
    for name in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    before = dict(os.environ)
    with cluster_address("local:2", cores=6) as address, \
            distributed.Client(address, set_as_default=False) as client:
        settings = client.run(_thread_settings)
        # the workers' settings never stay in this process (numba would refuse to compile)
        assert dict(os.environ) == before
    assert len(settings) == 2
    assert all(s == {"NUMBA_NUM_THREADS": "3", "OMP_NUM_THREADS": "3"} for s in settings.values())
    with pytest.raises(OSError):
        distributed.Client(address, timeout=1)


def test_only_large_arguments_that_tasks_share_are_sent_to_the_workers_once():
    pytest.importorskip("cloudpickle")
    shared, own = np.ones(50_000), [np.ones(50_000) for _ in range(3)]
    calls = [(np.add, [shared, array, 3], {"out": None}) for array in own]
    assert [id(value) for value in shared_arguments(calls)] == [id(shared)]
    assert shared_arguments(calls[:1]) == []


def test_the_same_seed_gives_the_same_table_and_another_seed_another(require_dataset):
    require_dataset("thyroid")
    first = cdvse.run(["thyroid"], seed=3, **GRID).runs
    pd.testing.assert_frame_equal(cdvse.run(["thyroid"], seed=3, **GRID).runs, first)
    assert not cdvse.run(["thyroid"], seed=4, **GRID).runs.equals(first)


RUN_SCRIPT = """
import sys
from milab_widgets.experiments import cdvse
cache, out = sys.argv[1], sys.argv[2]
runs = cdvse.run(["thyroid"], quick=False, repetitions=6, synthetic=False, cache_dir=cache).runs
runs.to_csv(out, index=False)
"""


def _start_run(cache_dir, out):
    return subprocess.Popen([sys.executable, "-c", RUN_SCRIPT, str(cache_dir), str(out)],
                            env=os.environ.copy())


def _records(cache_dir) -> list:
    """The repetitions' records (not the separate records computed after the grid: the
    speed claim's 'cdvse-timing', the mechanism claims' 'cdvse-members' and
    'cdvse-sensitivity')."""
    paths = sorted(cache_dir.glob("*.json")) if cache_dir.exists() else []
    return [path for path in paths
            if json.loads(path.read_text()).get("parts", {}).get("experiment") == "cdvse"]


def test_a_run_killed_mid_grid_resumes_from_its_cache_to_the_same_table(require_dataset,
                                                                          tmp_path):
    require_dataset("thyroid")
    cache_dir, out = tmp_path / "cache", tmp_path / "runs.csv"
    killed = _start_run(cache_dir, out)
    deadline = time.monotonic() + 300
    while len(_records(cache_dir)) < 2 and killed.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    killed.send_signal(signal.SIGKILL)
    assert killed.wait(timeout=60) == -signal.SIGKILL
    done_before_kill = len(_records(cache_dir))
    assert 2 <= done_before_kill < 6 and not out.exists(), "the kill must land mid-grid"
    before = {path: path.stat().st_mtime_ns for path in _records(cache_dir)}
    assert all(json.loads(path.read_text())["record"] for path in before)  # no torn record

    resumed = _start_run(cache_dir, out)
    assert resumed.wait(timeout=600) == 0
    uninterrupted = cdvse.run(["thyroid"], quick=False, repetitions=6, synthetic=False).runs
    pd.testing.assert_frame_equal(pd.read_csv(out), uninterrupted.reset_index(drop=True),
                                  check_dtype=False)
    assert len(_records(cache_dir)) == 6
    assert all(path.stat().st_mtime_ns == mtime for path, mtime in before.items()), \
        "the resumed run recomputed records it had"
