"""Timing helpers shared by the benchmarks: ratios against a peer, measured in one run.

On a shared machine wall-clock seconds swing with everybody else's load, so every benchmark
times the candidates *interleaved* (A, B, A, B, ...) and reports medians and their ratios,
with the load average beside them. Two clocks:

* ``"cpu"``: CPU seconds of this process with BLAS and numba held to one thread (the work
  done; steady when the cores are oversubscribed, because time spent descheduled is not
  counted);
* ``"wall"``: wall-clock seconds with every thread (what a user waits on an idle machine).

Medians are the headline; :func:`spread` gives the quartiles and the minimum beside them,
and :func:`busy_process` runs a measurement beside one busy process (the "loaded" variant:
what a user meets on a shared machine).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import contextmanager

import numba
import numpy as np
from threadpoolctl import threadpool_limits

from milab_widgets.core.parallel import single_threaded_blas

#: prctl(2) option: the signal a process gets when its parent ends (linux/prctl.h).
PR_SET_PDEATHSIG = 1
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages (what `uptime` prints)."""
    return [round(value, 2) for value in os.getloadavg()]


@contextmanager
def threads_for(clock: str):
    """One BLAS and one numba thread for the "cpu" clock; untouched for "wall".

    The one-thread BLAS limit is also entered as the library's own
    (``core.parallel.single_threaded_blas``): the estimators hold BLAS to the free cores
    inside fit and transform (``within_free_cores``), which would otherwise lift a limit
    made by threadpoolctl alone back to two threads on an idle 2-core machine, and the
    process's CPU time would count both threads."""
    if clock == "wall":
        yield
        return
    previous = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        with threadpool_limits(1), single_threaded_blas():
            yield
    finally:
        numba.set_num_threads(previous)


def interleaved_runs(functions: dict[str, Callable[[], object]], repeats: int,
                     clock: str = "cpu", warm_up: bool = True) -> dict[str, list[float]]:
    """Seconds of each function in each of ``repeats`` interleaved rounds, under ``clock``
    (see the module docstring). With ``warm_up``, one untimed round runs first
    (compilation, first-touch page faults); a benchmark whose calls take seconds and that
    has just run every function once (e.g. to check its result) passes False."""
    read = CLOCKS[clock]
    seconds = {name: [] for name in functions}
    with threads_for(clock):
        for function in functions.values() if warm_up else ():
            function()
        for _ in range(repeats):
            for name, function in functions.items():
                started = read()
                function()
                seconds[name].append(read() - started)
    return seconds


def interleaved(functions: dict[str, Callable[[], object]], repeats: int,
                clock: str = "cpu") -> dict[str, float]:
    """Median seconds of each function over :func:`interleaved_runs`."""
    return medians(interleaved_runs(functions, repeats, clock))


def medians(runs: dict[str, list[float]]) -> dict[str, float]:
    """The median of each list of seconds."""
    return {name: float(np.median(values)) for name, values in runs.items()}


def clocks(loaded: bool, cpu: bool = True) -> tuple[str, ...]:
    """The clocks a benchmark reports: "cpu" and "wall", and with ``loaded`` also
    "wall_loaded" (the wall clock beside one busy process). ``cpu=False`` leaves out "cpu",
    for work done in other processes (worker pools), which this process's CPU time misses."""
    return ("cpu",) * cpu + ("wall",) + ("wall_loaded",) * loaded


def measured(functions: dict[str, Callable[[], object]], repeats: int, clock: str,
             warm_up: bool = True) -> dict:
    """:func:`interleaved_runs` under ``clock`` (one of :func:`clocks`): each function's
    median seconds, their :func:`spread`, and the load average at the end."""
    with busy_process(clock == "wall_loaded"):
        runs = interleaved_runs(functions, repeats, clock.removesuffix("_loaded"), warm_up)
        load = load_average()
    return {"seconds": medians(runs), "spread": {name: spread(values)
                                                 for name, values in runs.items()},
            "load": load}


def spread_text(timing: dict[str, float]) -> str:
    """One :func:`spread` as printed: "median ms [q1, q3] min m"."""
    return (f"{timing['median_ms']:.1f} ms [{timing['q1_ms']:.1f}, {timing['q3_ms']:.1f}] "
            f"min {timing['min_ms']:.1f}")


def spread(seconds: list[float]) -> dict[str, float]:
    """Median, quartiles and minimum of ``seconds``, in milliseconds."""
    q1, median, q3 = np.percentile(np.asarray(seconds) * 1e3, [25, 50, 75])
    return {"median_ms": float(median), "q1_ms": float(q1), "q3_ms": float(q3),
            "min_ms": float(min(seconds)) * 1e3}


@contextmanager
def busy_process(loaded: bool = True):
    """One spinning Python process (same priority) beside the measurement, when ``loaded``."""
    if not loaded:
        yield
        return
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"],
                               preexec_fn=_die_with_parent)
    time.sleep(0.5)
    try:
        yield
    finally:
        spinner.kill()
        spinner.wait()


def _die_with_parent() -> None:
    """In the spinner, before it starts (Linux): the kernel kills it when the benchmark
    ends, however it ends. A benchmark stopped by SIGTERM runs no ``finally``, and its
    spinner went on loading the machine for every later measurement."""
    # Not Linux: busy_process's finally is all there is.
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


def best_time(function, repeats: int) -> float:
    """The fastest of ``repeats`` wall-clock runs (the older benchmarks' measure)."""
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function()
        times.append(time.perf_counter() - started)
    return min(times)
