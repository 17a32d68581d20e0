"""Experiment grids on a Dask cluster named by ``$MILAB_SCHEDULER``, and the local cluster
``milab reproduce --scheduler local:N`` starts.

The runner (:mod:`milab_widgets.reproduce`) sets :data:`SCHEDULER_VARIABLE` in the
environment of every paper's kernel; `milab_widgets.evaluation.grid.run_grid` then sends each
grid that was given no ``n_jobs`` of its own to that scheduler (:func:`scheduler_client`,
:func:`on_dask`): one Dask task per grid task, even on a one-worker cluster. The notebooks and
experiments stay unchanged and run on the client, with their tables, charts and claims; the
tasks' records are the serial run's (each depends only on its own parameters and seed;
`milab_widgets.evaluation.grid`).
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import cache

from milab_widgets.exceptions import InputError

__all__ = ["SCHEDULER_VARIABLE", "THREAD_VARIABLES", "cluster_address", "local_workers",
           "on_dask", "scheduler_client", "shared_arguments"]

#: The environment variable naming the Dask scheduler the grids run on.
SCHEDULER_VARIABLE = "MILAB_SCHEDULER"
#: Thread-pool sizes of numba and the BLAS libraries, shared out among parallel processes
#: (the runner's kernels, a local cluster's workers).
THREAD_VARIABLES = ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS",
                    "MKL_NUM_THREADS")
#: Arguments shared by a grid's tasks that pickle to this many bytes or more are sent to the
#: workers once (:func:`shared_arguments`).
SHARED_BYTES = 100_000
#: Seconds to wait for a scheduler to answer before the run is refused.
CONNECT_TIMEOUT = 10
_LOCAL = re.compile(r"local:(\d+)")
_INSTALL = "pip install 'milab-widgets[dask]' (or dask[distributed])"


def local_workers(scheduler: str) -> int | None:
    """N of ``local:N`` (a local cluster of N worker processes), None for an address.

    Raises InputError for ``local:`` followed by anything but a whole number >= 1.
    """
    if not scheduler.startswith("local:"):
        return None
    match = _LOCAL.fullmatch(scheduler)
    if match is None or int(match.group(1)) < 1:
        raise InputError(f"scheduler {scheduler!r}: write local:N with N a whole number >= 1 "
                         "(worker processes), or give a scheduler's address (tcp://host:8786).")
    return int(match.group(1))


def _distributed():
    try:
        import distributed
    except ImportError as missing:
        raise InputError(f"a Dask scheduler needs dask.distributed: {_INSTALL}.") from missing
    return distributed


@contextmanager
def cluster_address(scheduler: str, cores: int) -> Iterator[str]:
    """The address of ``scheduler`` while the block runs.

    ``local:N`` starts a cluster of N single-threaded worker processes on this machine, each
    given ``cores // N`` numba and BLAS threads (unless the environment sets them), and closes
    it afterwards. An address (``tcp://host:8786``) must answer within
    :data:`CONNECT_TIMEOUT` seconds and have at least one worker, or InputError says so
    before anything runs.
    """
    workers = local_workers(scheduler)
    distributed = _distributed()
    if workers is None:
        _check_reachable(distributed, scheduler)
        yield scheduler
        return
    threads = str(max(1, cores // workers))
    import dask

    environ = {**dask.config.get("distributed.nanny.pre-spawn-environ"),
               **{name: os.environ.get(name, threads) for name in THREAD_VARIABLES}}
    with dask.config.set({"distributed.nanny.pre-spawn-environ": environ}), \
            _environment_kept(environ):
        cluster = distributed.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None,
            # the scheduler's HTTP routes on a free port: its default, 8787, may be taken
            scheduler_kwargs={"dashboard_address": ":0"})
    with cluster:
        yield cluster.scheduler_address


@contextmanager
def _environment_kept(names) -> Iterator[None]:
    """This process's values of ``names`` restored after the block (the workers' start): a
    nanny writes its pre-spawn settings into its parent's os.environ before it spawns the
    worker, and a NUMBA_NUM_THREADS left there makes numba refuse to compile in this
    process ("Cannot set NUMBA_NUM_THREADS to a different value once the threads have been
    launched")."""
    saved = {name: os.environ.get(name) for name in names}

    def restore():
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value

    try:
        yield
    finally:
        restore()


def _check_reachable(distributed, address: str) -> None:
    try:
        with distributed.Client(address, timeout=CONNECT_TIMEOUT,
                                set_as_default=False) as client:
            workers = client.scheduler_info()["workers"]
    except (OSError, TimeoutError, ValueError) as error:
        raise InputError(
            f"no Dask scheduler answers at {address!r} within {CONNECT_TIMEOUT} s ({error}). "
            "Start one (`dask scheduler` and `dask worker ADDRESS`), check the address, or "
            "use local:N for N worker processes on this machine.") from error
    if not workers:
        raise InputError(f"the Dask scheduler at {address!r} has no workers: start some "
                         f"(`dask worker {address}`) before running.")


def scheduler_client(n_jobs: int | None):
    """The client of ``$MILAB_SCHEDULER``'s cluster for a grid given no ``n_jobs``; None when
    ``n_jobs`` is given or the variable is unset (the grid keeps joblib's backend)."""
    address = os.environ.get(SCHEDULER_VARIABLE)
    if n_jobs is not None or not address:
        return None
    return _client(address)


def on_dask(client, calls: Sequence[tuple]) -> Iterator:
    """The results of ``calls`` (joblib's ``(function, args, kwargs)``), in their order, each
    computed on ``client``'s cluster.

    The arguments two or more calls share (:func:`shared_arguments`: a data set, its distance
    matrices) are sent to every worker once, before the tasks, under keys of their own (not
    their content's hash, so two grids over one data set never release each other's copy).
    Tasks not yet read when the caller stops reading (a Stop) are cancelled.
    """
    shared = shared_arguments(calls)
    sent = client.scatter(shared, broadcast=True, hash=False) if shared else []
    by_id = {id(value): future for value, future in zip(shared, sent, strict=True)}
    futures = [client.submit(_call, function, [by_id.get(id(value), value) for value in args],
                             {name: by_id.get(id(value), value) for name, value in kwargs.items()},
                             pure=False)
               for function, args, kwargs in calls]
    try:
        for future in futures:
            yield future.result()
    finally:
        client.cancel(futures)


def _call(function, args: list, kwargs: dict):
    return function(*args, **kwargs)


def shared_arguments(calls: Sequence[tuple], least_bytes: int = SHARED_BYTES) -> list:
    """The arguments (by identity) that two or more ``calls`` pass and that pickle to at
    least ``least_bytes``: a data set, its distance matrices, a kernel."""
    import cloudpickle  # a dependency of dask

    counts: Counter[int] = Counter()
    values: dict[int, object] = {}
    for _, args, kwargs in calls:
        for value in {id(value): value for value in (*args, *kwargs.values())}.values():
            counts[id(value)] += 1
            values[id(value)] = value
    return [values[key] for key, count in counts.items()
            if count > 1 and len(cloudpickle.dumps(values[key])) >= least_bytes]


@cache
def _client(address: str):
    """One client per process and scheduler (a kernel runs many grids)."""
    return _distributed().Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
