"""Experiment grids serial, on local processes and on a Dask cluster (ratios, one run).

The grid is CDVSE's UCI protocol (seed 002, §4.2) in full mode on a few datasets x
repetitions: one task per repetition (parameter search over C, zeta, sigma by 5-fold CV, then
SVDD, Bagging, AdaBoost and CDVSE fitted and scored). The same grid runs three ways through
`milab_widgets.evaluation.grid.run_grid`, with no cache: serially, with joblib's process
backend (``n_jobs``) and with joblib's Dask backend on a ``LocalCluster`` of as many
single-threaded workers. The tables must be equal (checked on every clock's last round);
the speed-ups over the serial run are what the machine's cores give, after each backend's
per-grid cost (the cluster starts before timing; the warm-up round starts joblib's worker
processes and loads numba's cache in every worker).

Timing: benchmarks/timing.py: the three runs interleaved after a warm-up round, medians
with their quartiles and minima, each speed-up a ratio of medians, on the wall clock only
(the work happens in worker processes, which this process's CPU time does not count), and
with ``--loaded`` also on the wall clock beside one busy process.

Run: MILAB_DATA_HOME=<data> python benchmarks/bench_grid.py [--workers N] [--repetitions R]
     [--repeats N] [--loaded] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
from contextlib import nullcontext
from functools import partial
from pathlib import Path

import joblib
import pandas as pd
from timing import clocks, measured, spread_text  # this script's folder is on sys.path as a script

from milab_widgets.experiments import cdvse

DATASETS = ("thyroid", "liver", "sonar", "heart")


def run_under(backend, repetitions: int, tables: dict, name: str) -> None:
    """The grid under ``backend`` (a joblib backend's context manager); its table goes to
    ``tables[name]``, so that the timed runs' own tables are compared."""
    with backend():
        tables[name] = cdvse.run(list(DATASETS), synthetic=False, quick=False,
                                 repetitions=repetitions).runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=5, help="interleaved rounds per clock")
    parser.add_argument("--loaded", action="store_true",
                        help="also time the grids beside one busy process")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    tasks = len(DATASETS) * args.repetitions
    result = {"tasks": tasks, "workers": args.workers, "repeats": args.repeats}
    print(f"CDVSE full protocol, {len(DATASETS)} datasets x {args.repetitions} repetitions "
          f"= {tasks} tasks, {args.workers} workers, medians [quartiles] min of "
          f"{args.repeats} rounds")
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=args.workers, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster):
        tables = {}
        backends = {"serial": nullcontext,
                    "joblib": partial(joblib.parallel_backend, "loky", n_jobs=args.workers),
                    "dask": partial(joblib.parallel_backend, "dask")}
        runs = {name: partial(run_under, backend, args.repetitions, tables, name)
                for name, backend in backends.items()}
        for clock in clocks(args.loaded, cpu=False):
            timed = measured(runs, args.repeats, clock)
            for name in ("joblib", "dask"):
                pd.testing.assert_frame_equal(tables[name], tables["serial"])
            seconds = timed["seconds"]
            result[clock] = {**timed, "joblib_speedup": seconds["serial"] / seconds["joblib"],
                             "dask_speedup": seconds["serial"] / seconds["dask"]}
            print(f"[{clock}] load {timed['load'][0]}: serial "
                  f"{spread_text(timed['spread']['serial'])}; joblib processes "
                  f"{spread_text(timed['spread']['joblib'])} "
                  f"({result[clock]['joblib_speedup']:.2f}x serial); Dask LocalCluster "
                  f"{spread_text(timed['spread']['dask'])} "
                  f"({result[clock]['dask_speedup']:.2f}x serial); same tables", flush=True)
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
