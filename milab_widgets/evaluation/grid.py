"""Experiment grids through joblib: cached records are read, missing ones computed in parallel.

Each experiment lists its grid (datasets x methods x parameters x folds or repetitions) as
`GridTask`s and hands them to `run_grid`. The tasks run through ``joblib.Parallel``, so the
same code runs serially (the default), on local processes (``n_jobs=2``) or on a Dask cluster,
with no change to the experiment::

    import joblib
    from dask.distributed import Client
    client = Client("tcp://scheduler:8786")   # or LocalCluster()
    with joblib.parallel_backend("dask"):
        results = milab_widgets.experiments.cdvse.run(quick=True)

Each record is written to the `ResultCache` as soon as it arrives, in task order, so a run
killed mid-grid resumes with only the unfinished tasks. A task's record depends only on its
own parameters and seed, never on the order or the worker that ran it, so every backend gives
the same table.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from joblib import Parallel, delayed
from tqdm.auto import tqdm

from milab_widgets.evaluation.cache import ResultCache
from milab_widgets.evaluation.cluster import on_dask, scheduler_client
from milab_widgets.papers import GRID_LOG_VARIABLE

__all__ = ["GridTask", "log_grid", "run_grid"]

#: A grid's ``progress``: True for a text bar, or ``progress(done, total, desc)``.
ProgressOption = bool | Callable[[int, int, str], None]


@dataclass(frozen=True)
class GridTask:
    """One cell of an experiment grid.

    parts : dict
        Everything that determines the record (its cache key).
    compute : callable
        ``compute() -> dict``, a JSON-serialisable record. It is pickled to the workers, so
        make it a ``functools.partial`` of a module-level function (not a lambda or closure).
    """

    parts: dict
    compute: Callable[[], dict]


def run_grid(tasks: Sequence[GridTask], cache: ResultCache, n_jobs: int | None = None,
             progress: ProgressOption = False,
             desc: str = "grid") -> list[dict]:
    """The record of every task, in the tasks' order.

    Cached records are read; the rest are computed by ``joblib.Parallel(n_jobs)``. With
    ``n_jobs=None`` that is serial unless the caller set a joblib backend (e.g. Dask) with
    ``joblib.parallel_backend``, which then decides where the tasks run, or
    ``$MILAB_SCHEDULER`` names a Dask scheduler (`milab_widgets.evaluation.cluster`: `milab
    reproduce --scheduler`), which then runs them. ``progress``:
    True shows a text progress bar over the computed tasks; a callable is called as
    ``progress(done, total, desc)`` before the first and after each computed task (the
    lab's bar, whose Stop raises from it: the grid then ends, every record so far cached).
    """
    started = time.perf_counter()
    records = [cache.get(task.parts) for task in tasks]
    missing = [index for index, record in enumerate(records) if record is None]
    report = progress if callable(progress) else None
    computed = _computed([_delayed_call(tasks[index].compute) for index in missing], n_jobs)
    arrivals = tqdm(computed, total=len(missing), desc=desc,
                    disable=report is not None or not progress)
    if report is not None and missing:
        report(0, len(missing), desc)
    for done, (index, record) in enumerate(zip(missing, arrivals, strict=False), start=1):
        cache.put(tasks[index].parts, record)
        records[index] = record
        if report is not None:
            report(done, len(missing), desc)
    log_grid(desc, len(tasks), len(missing), time.perf_counter() - started)
    return records


def log_grid(desc: str, tasks: int, computed: int, seconds: float) -> None:
    """One JSON line for a finished grid in ``$MILAB_GRID_LOG`` when it is set (`milab
    reproduce` sets it to each paper's :data:`~milab_widgets.papers.GRID_LOG`): its name,
    its tasks, those computed rather than read from the cache, and its wall seconds. The
    protocols' profile (benchmarks/profile_protocols.py) reads these."""
    path = os.environ.get(GRID_LOG_VARIABLE)
    if path:
        line = {"grid": desc, "tasks": tasks, "computed": computed, "seconds": round(seconds, 4)}
        with open(path, "a", encoding="utf-8") as log:
            log.write(json.dumps(line) + "\n")


def _computed(calls: list[tuple], n_jobs: int | None):
    """The calls' results, in order: on ``$MILAB_SCHEDULER``'s cluster if it is set and
    ``n_jobs`` is not, else through ``joblib.Parallel(n_jobs)``."""
    client = scheduler_client(n_jobs)
    if client is not None:
        return on_dask(client, calls)
    return Parallel(n_jobs=n_jobs, return_as="generator")(calls)


def _delayed_call(compute: Callable[[], dict]):
    """``compute()`` as a joblib call ``(function, args, kwargs)``, a partial's arguments
    passed as the call's own, so that an argument many tasks share is sent once (loky
    memory-maps a large array; on Dask, `milab_widgets.evaluation.cluster.on_dask` sends it
    to each worker once) instead of being pickled into every task."""
    if isinstance(compute, partial):
        return delayed(compute.func)(*compute.args, **compute.keywords)
    return delayed(compute)()
