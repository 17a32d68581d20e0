"""Experiment grids serial, on local processes and on a Dask cluster (ratios, one run).

The grid is CDVSE's UCI protocol (seed 002, §4.2) in full mode on a few datasets x
repetitions: one task per repetition (parameter search over C, zeta, sigma by 5-fold CV, then
SVDD, Bagging, AdaBoost and CDVSE fitted and scored). The same grid runs three ways through
`milab_widgets.evaluation.grid.run_grid`, with no cache: serially, with joblib's process
backend (``n_jobs``) and with joblib's Dask backend on a ``LocalCluster`` of as many
single-threaded workers. The tables must be equal; the wall-clock ratios against the serial
run are what the machine's cores give, after each backend's start-up cost (workers are
started before timing; their first task still loads numba's cache).

Run: MILAB_DATA_HOME=<data> python benchmarks/bench_grid.py [--workers N] [--repetitions R]
     [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import joblib
import pandas as pd

from milab_widgets.experiments import cdvse

DATASETS = ("thyroid", "liver", "sonar", "heart")


def timed_runs(**kwargs) -> tuple[float, pd.DataFrame]:
    started = time.perf_counter()
    runs = cdvse.run(list(DATASETS), synthetic=False, **kwargs).runs
    return time.perf_counter() - started, runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    result = {"tasks": len(DATASETS) * args.repetitions, "workers": args.workers}
    grid = dict(quick=False, repetitions=args.repetitions)
    print(f"CDVSE full protocol, {len(DATASETS)} datasets x {args.repetitions} repetitions "
          f"= {len(DATASETS) * args.repetitions} tasks, {args.workers} workers")
    serial_seconds, serial = timed_runs(**grid)
    print(f"  serial               {serial_seconds:7.1f} s")
    result["serial_seconds"] = serial_seconds

    with joblib.parallel_backend("loky", n_jobs=args.workers):
        joblib.Parallel()(joblib.delayed(abs)(-1) for _ in range(args.workers))  # start workers
        seconds, runs = timed_runs(**grid)
    pd.testing.assert_frame_equal(runs, serial)
    print(f"  joblib processes     {seconds:7.1f} s  ({serial_seconds / seconds:.2f}x serial, same table)")
    result["joblib_speedup"] = serial_seconds / seconds

    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=args.workers, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster), \
            joblib.parallel_backend("dask"):
        seconds, runs = timed_runs(**grid)
    pd.testing.assert_frame_equal(runs, serial)
    print(f"  Dask LocalCluster    {seconds:7.1f} s  ({serial_seconds / seconds:.2f}x serial, same table)")
    result["dask_speedup"] = serial_seconds / seconds
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
