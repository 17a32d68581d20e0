"""CPU time of single-threaded work, measured alternately inside an experiment's run.

A claim that one method is faster than another is timed in the experiment itself, on the
data and at the parameters of the run (intH's alpha search against a cross-validated grid of
alphas: :func:`milab_widgets.experiments.inth.alpha_search_timings`). Speed comparisons
outside the papers' claims belong in benchmarks/ (``benchmarks/timing.py``).

**Clock.** The CPU time of the calling thread (``time.thread_time``), with BLAS held to one
thread (:func:`~milab_widgets.core.parallel.single_threaded_blas`). The work timed here must
run on the calling thread (numba kernels without parallel loops, one BLAS thread), so its
thread's CPU time is all of it. Unlike the process's CPU time (``time.process_time``) it
leaves out the process's other threads: experiment grid tasks running beside it as threads
(joblib's threading backend, a Dask worker's threads) and BLAS workers still spinning after
an earlier product would otherwise count. Unlike the wall clock it leaves out time spent
descheduled on a loaded machine.

**Order.** The candidates run forward in even rounds and backward in odd ones (A B C, C B A,
...): over two rounds each one's mean position in the sequence is the same, so a change of
the machine's speed that is linear in time (a neighbour's job starting) falls on all alike.
An experiment that times one round per record passes the record's number as
``first_round``, so that consecutive records alternate.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from milab_widgets.core.parallel import single_threaded_blas
from milab_widgets.exceptions import InputError

__all__ = ["alternating_cpu_seconds"]


def alternating_cpu_seconds(functions: dict[str, Callable[[], object]], rounds: int = 2,
                            first_round: int = 0) -> dict[str, list[float]]:
    """The calling thread's CPU seconds of each function in each of ``rounds`` rounds,
    forward in even rounds and backward in odd ones, BLAS on one thread (module notes).

    Parameters
    ----------
    functions : dict
        name -> a callable without arguments, run on the calling thread. Warm it up first
        (numba's first call loads or compiles its kernels): no round here is left untimed.
    rounds : int, default=2
        How many times each function runs (>= 1).
    first_round : int, default=0
        The number of the first round (its parity sets the first order).

    Returns
    -------
    dict
        name -> its CPU seconds, one per round in the order of the rounds.
    """
    if not functions or rounds < 1:
        raise InputError(f"alternating_cpu_seconds needs functions and rounds >= 1, got "
                         f"{len(functions)} functions and rounds={rounds!r}.")
    names = list(functions)
    seconds = {name: [] for name in names}
    with single_threaded_blas():
        for round_number in range(first_round, first_round + rounds):
            for name in names if round_number % 2 == 0 else reversed(names):
                started = time.thread_time()
                functions[name]()
                seconds[name].append(time.thread_time() - started)
    return seconds
