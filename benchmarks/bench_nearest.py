"""Bag neighbours beyond memory: nearest_bags' time and peak memory per number of bags.

Workload: n bags of 2 to 4 instances (3 on average) in 10 dimensions, each bag around its
own Gaussian centre (seeded). Two methods, each size in a fresh process so that its peak
resident memory (``ru_maxrss``) is its own:

* ``ours: nearest_bags (k = 10)``: every bag's 10 nearest other bags under the minimal
  Hausdorff distance, in blocks of query bags (the default block, 128 bags);
* ``full: bag_distances (3 matrices)``: the three n x n matrices in one call, the floor of
  any full-matrix route (no sorting counted); run only while they fit in ``--full-cap``.
* ``ours, sampled``: at sizes of ``--sample-from`` bags and more (default 100,000), the
  first ``--sample`` query bags (default 1,280: ten blocks) against all n bags, the same
  blocks and the same peak memory as the whole run; its time is also given scaled by
  n / sample (every block costs the same). 0 turns sampling off.

Per size: wall seconds (median, min and interquartile range over ``--repeats`` runs, each
after an untimed warm-up in the same process), the process's CPU seconds (all threads), the
resident memory before the call and its peak, and the load average. Every thread count is
left at its default (what a user gets).

Writes benchmarks/results/nearest[-full].json (or --json) and a log-log chart beside it
(same name, .svg/.png).

Run: python benchmarks/bench_nearest.py [--full] [--sizes N ...] [--repeats R]
(quick: 1,000-4,000 bags, about a minute; --full: 1,000-100,000 bags with the 100,000
point sampled, 7 minutes at load 1 to 4 on 2 cores with 3 repeats; the whole 100,000-bag
run, ``--sizes 100000 --sample 0 --repeats 1``, took 9.7 minutes at load 1.75.)
--redraw redraws the chart from an earlier run's JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).parent / "results"
QUICK_SIZES = (1000, 2000, 4000)
FULL_SIZES = (1000, 3000, 10_000, 30_000, 100_000)
K = 10
OURS = "ours: nearest_bags (k = 10)"
FULL = "full: bag_distances (3 matrices)"
SAMPLED = "ours, sampled: nearest_bags of the first {} bags"


def make_bags(n_bags: int, d: int = 10, seed: int = 0):
    from milab_widgets.data.bags import BagDataset

    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 5, n_bags)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    centres = np.repeat(rng.normal(0, 3, (n_bags, d)), sizes, axis=0)
    return BagDataset(rng.normal(size=(offsets[-1], d)) + centres, offsets)


def _rss_bytes(key: str = "VmRSS") -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(key + ":"):
                return int(line.split()[1]) * 1024
    return 0


def measure_one(method: str, n_bags: int, sample: int = 0) -> dict:
    """One timed call of ``method`` at ``n_bags`` in this (fresh) process."""
    from milab_widgets.mil import bag_distances, nearest_bags

    bags = make_bags(n_bags)
    run = {OURS: lambda b: nearest_bags(b, n_neighbors=K, metric="min"),
           FULL: lambda b: bag_distances(b),
           SAMPLED: lambda b: nearest_bags(b, b[:sample], n_neighbors=K, metric="min"),
           }[method]
    run(bags[np.arange(min(n_bags, 300))])  # warm-up: kernels loaded, threads started
    base = _rss_bytes()
    load = [round(value, 2) for value in os.getloadavg()]
    wall, cpu = time.perf_counter(), time.process_time()
    run(bags)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"method": method.format(sample), "bags": n_bags, "sample": sample,
            "instances": int(bags.n_instances), "seconds": wall, "cpu_seconds": cpu,
            "rss_before_bytes": base,
            "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
            "load": load}


def in_fresh_process(method: str, n_bags: int, sample: int = 0) -> dict:
    output = subprocess.run(
        [sys.executable, __file__, "--one", method, str(n_bags), str(sample)], check=True,
        capture_output=True, text=True).stdout
    return json.loads(output.strip().splitlines()[-1])


def summarise(runs: list[dict]) -> dict:
    seconds = np.array([run["seconds"] for run in runs])
    q1, median, q3 = np.percentile(seconds, [25, 50, 75])
    cpu = float(np.median([run["cpu_seconds"] for run in runs]))
    scale = runs[-1]["bags"] / runs[-1]["sample"] if runs[-1]["sample"] else 1.0
    return {**runs[-1], "seconds": float(median), "min_seconds": float(seconds.min()),
            "iqr_seconds": float(q3 - q1), "repeats": len(runs), "cpu_seconds": cpu,
            "scaled_seconds": float(median * scale), "scaled_cpu_seconds": cpu * scale,
            "peak_rss_bytes": max(run["peak_rss_bytes"] for run in runs),
            "loads": [run["load"] for run in runs]}


def chart(rows: list[dict]):
    """Log-log time (wall solid, cpu dashed) and peak resident memory against bags."""
    import altair as alt
    import pandas as pd

    data = pd.DataFrame(rows)
    data["peak RSS (MiB)"] = data["peak_rss_bytes"] / 2**20
    data["method"] = data["method"].where(data["sample"] == 0, OURS)  # one line per method
    times = pd.concat([  # a sampled point: its time scaled by n / sample
        data.assign(clock="wall", seconds=data["scaled_seconds"]),
        data.assign(clock="cpu (all threads)", seconds=data["scaled_cpu_seconds"])])
    x = alt.X("bags:Q", scale=alt.Scale(type="log"), title="bags")
    color = alt.Color("method:N", title=None)
    time_panel = alt.Chart(times).mark_line(point=True).encode(
        x=x, color=color, strokeDash=alt.StrokeDash(
            "clock:N", legend=None,
            scale=alt.Scale(domain=["wall", "cpu (all threads)"], range=[[1, 0], [4, 3]])),
        y=alt.Y("seconds:Q", scale=alt.Scale(type="log"),
                title="seconds, median (solid: wall; dashed: cpu)"),
        tooltip=["method", "bags", "clock", "seconds"],
    ).properties(width=260, height=200)
    memory_panel = alt.Chart(data).mark_line(point=True).encode(
        x=x, color=color,
        y=alt.Y("peak RSS (MiB):Q", scale=alt.Scale(type="log"),
                title="peak resident memory (MiB)"),
        tooltip=["method", "bags", "peak RSS (MiB)"],
    ).properties(width=260, height=200)
    return alt.hconcat(time_panel, memory_panel)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="1,000 to 100,000 bags")
    parser.add_argument("--sizes", type=int, nargs="+", help="bag counts (overrides)")
    parser.add_argument("--repeats", type=int, help="runs per size (default 3 quick, 1 full)")
    parser.add_argument("--full-cap", type=float, default=4.0,
                        help="GiB the full method's matrices may take (default 4)")
    parser.add_argument("--json", type=Path, help="default benchmarks/results/nearest[-full].json")
    parser.add_argument("--sample", type=int, default=1280,
                        help="query bags timed at the largest sizes (0: all)")
    parser.add_argument("--sample-from", type=int, default=100_000,
                        help="bag count from which only --sample query bags are timed")
    parser.add_argument("--redraw", action="store_true",
                        help="only redraw the chart from the JSON of an earlier run")
    parser.add_argument("--one", nargs=3, metavar=("METHOD", "BAGS", "SAMPLE"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure_one(args.one[0], int(args.one[1]), int(args.one[2]))))
        return
    sizes = args.sizes or (FULL_SIZES if args.full else QUICK_SIZES)
    repeats = args.repeats or (1 if args.full else 3)
    name = "nearest-full" if args.full else "nearest"
    path = args.json or RESULTS / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    from milab_widgets.charts.theme import save_chart

    if args.redraw:
        save_chart(chart(json.loads(path.read_text())["rows"]), path.with_suffix(""))
        return
    rows = []
    for n_bags in sizes:
        sample = args.sample if args.sample and n_bags >= args.sample_from else 0
        methods = [SAMPLED if sample else OURS]
        methods += [FULL] if 24 * n_bags**2 <= args.full_cap * 2**30 else []
        for method in methods:
            row = summarise([in_fresh_process(method, n_bags, sample) for _ in range(repeats)])
            rows.append(row)
            scaled = (f" (x n/sample: {row['scaled_seconds']:.0f} s wall, "
                      f"{row['scaled_cpu_seconds']:.0f} s cpu)") if sample else ""
            print(f"{n_bags:>7} bags  {row['method']:34s} {row['seconds']:8.2f} s wall "
                  f"(min {row['min_seconds']:.2f}, IQR {row['iqr_seconds']:.2f}), "
                  f"{row['cpu_seconds']:8.2f} s cpu, peak RSS "
                  f"{row['peak_rss_bytes'] / 2**20:7.0f} MiB "
                  f"(before {row['rss_before_bytes'] / 2**20:.0f}),"
                  f" load {row['load'][0]}{scaled}", flush=True)
        path.write_text(json.dumps({"k": K, "repeats": repeats, "rows": rows}, indent=2))
    save_chart(chart(rows), path.with_suffix(""))


if __name__ == "__main__":
    main()
