"""The shared timing helpers of benchmarks/ (benchmarks/timing.py): which clocks a benchmark
reports and how many times each candidate runs. Calls are counted, never timed."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import psutil
import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from benchmarks.timing import clocks, interleaved_runs, measured, threads_for
from milab_widgets.core import parallel


def test_clocks_add_the_loaded_wall_clock_and_can_leave_out_cpu():
    assert clocks(False) == ("cpu", "wall")
    assert clocks(True) == ("cpu", "wall", "wall_loaded")
    assert clocks(False, cpu=False) == ("wall",)
    assert clocks(True, cpu=False) == ("wall", "wall_loaded")


def _logging(calls: list[str], names: tuple[str, ...]) -> dict:
    return {name: (lambda name=name: calls.append(name)) for name in names}


@pytest.mark.parametrize("warm_up", [True, False])
def test_interleaved_runs_time_every_round_after_an_optional_warm_up(warm_up):
    calls = []
    seconds = interleaved_runs(_logging(calls, ("a", "b")), 3, "wall", warm_up=warm_up)
    assert calls == ["a", "b"] * (3 + warm_up)  # interleaved, the warm-up round untimed
    assert {name: len(values) for name, values in seconds.items()} == {"a": 3, "b": 3}


def test_measured_passes_warm_up_on_and_summarises_the_timed_rounds():
    calls = []
    timed = measured(_logging(calls, ("a", "b")), 4, "cpu", warm_up=False)
    assert calls == ["a", "b"] * 4
    for name in ("a", "b"):
        spread = timed["spread"][name]
        assert spread["min_ms"] <= spread["q1_ms"] <= spread["median_ms"] <= spread["q3_ms"]
        assert timed["seconds"][name] == pytest.approx(spread["median_ms"] / 1e3)
    assert len(timed["load"]) == 3


def _blas_threads() -> set[int]:
    return {info["num_threads"] for info in threadpool_info() if info["user_api"] == "blas"}


def test_the_cpu_clock_keeps_blas_on_one_thread_inside_the_estimators_own_limit(monkeypatch):
    """The estimators hold BLAS to the free cores inside fit (within_free_cores); under the
    cpu clock that must not lift the clock's one thread, even with two cores free."""
    monkeypatch.setattr(parallel, "free_cores", lambda: 2)
    seen = []
    fit = parallel.within_free_cores(lambda self, X: seen.append(_blas_threads()))
    large = np.empty((parallel.MIN_ROWS_FOR_BLAS_THREADS, 1))
    with threadpool_limits(2, user_api="blas"):
        with threads_for("cpu"):
            fit(None, large)
            assert _blas_threads() == {1}
        with threads_for("wall"):
            fit(None, large)
    assert seen == [{1}, {2}]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl is Linux's")
def test_the_busy_process_dies_with_a_benchmark_stopped_by_sigterm(tmp_path):
    """SIGTERM runs no finally: the spinner must still end with its benchmark (one left
    spinning loaded every later measurement on the machine)."""
    pid_file = tmp_path / "spinner.pid"
    root = str(Path(__file__).parents[2])
    script = (f"import sys, time; sys.path.insert(0, {root!r}); from benchmarks import timing\n"
              "with timing.busy_process():\n"
              "    import psutil; child, = psutil.Process().children()\n"
              f"    open({str(pid_file)!r}, 'w').write(str(child.pid)); time.sleep(60)\n")
    benchmark = subprocess.Popen([sys.executable, "-c", script])
    deadline = time.monotonic() + 30
    while not (pid_file.exists() and pid_file.read_text()) and time.monotonic() < deadline:
        time.sleep(0.1)
    spinner = psutil.Process(int(pid_file.read_text()))
    benchmark.terminate()
    benchmark.wait(timeout=30)
    with contextlib.suppress(psutil.TimeoutExpired):
        spinner.wait(timeout=10)
    running = spinner.is_running()
    if running:
        spinner.kill()
    assert not running
