"""How cost grows with the work: time and memory exponents, with a peer at every size.

Workloads (all synthetic, seeded; every size times ours and its peer interleaved):

* bags, instances per bag: 50 bags of growing size, 20 features. Ours: the three Hausdorff
  matrices (``bag_distances``); limit: every product of one full X @ X.T (GEMM in row
  blocks, so the limit itself never holds an n x n array).
* bags, number of bags: bags of 20 instances, more of them; same pair.
* SVDD: n points of a 10-D Gaussian mixture, our SMO solver against scikit-learn's
  ``OneClassSVM`` (nu = 0.1, gamma = 1 / d, tol = 1e-3; see bench_cdvse.py).
* ML-kNN, samples: n training rows (50 features, 10 labels) and n / 2 test rows; fit +
  predict against scikit-learn's brute-force ``kneighbors`` for the same two searches.
* ML-kNN, labels: 2000 training rows, a growing number of labels; same pair.

For each workload and method: the exponent b of time ~ size^b (least squares on log-log
over all sizes), the local exponent of traced peak memory between the two largest sizes
(tracemalloc: numpy's arrays, which hold nearly all memory here; a separate, untimed run),
and the size at which that memory law would reach 24 GiB. Fixed caps (SVDD's kernel-row
cache, the 64 MiB Gram blocks) flatten the memory law once reached; docs/performance.md
gives each method's memory model.
Times are medians (with quartiles and minima in the JSON) of interleaved repeats under one
clock ("cpu": one thread's CPU seconds, the default; "wall" with --clock wall); see
benchmarks/timing.py.

Writes benchmarks/results/scaling[-full].json and a log-log chart scaling[-full].svg/.png.

Run: python benchmarks/bench_scaling.py [--full] [--repeats N] [--clock cpu|wall]
(quick: a few minutes; --full: up to 100k instances, 50k SVDD points, 32k ML-kNN rows).
"""

from __future__ import annotations

import argparse
import json
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import altair as alt
import numpy as np
import pandas as pd
from sklearn.neighbors import NearestNeighbors
from sklearn.svm import OneClassSVM
from timing import load_average, measured  # this folder is on sys.path

from milab_widgets.charts.theme import save_chart
from milab_widgets.data.bags import BagDataset
from milab_widgets.mil import bag_distances
from milab_widgets.multilabel import MLkNN
from milab_widgets.oneclass import SVDD

RESULTS = Path(__file__).parent / "results"
MEMORY_LIMIT = 24 * 2**30
NU = 0.1


@dataclass
class Workload:
    """A family of problems of growing size; ``make(size)`` -> {method: callable}."""

    name: str
    size_name: str
    quick_sizes: tuple
    full_sizes: tuple
    make: Callable[[int], dict]


def _bags(n_bags: int, bag_size: int, d: int = 20, seed: int = 0) -> BagDataset:
    rng = np.random.default_rng(seed)
    instances = rng.normal(size=(n_bags * bag_size, d)) + np.repeat(
        rng.normal(0, 3, (n_bags, d)), bag_size, axis=0)
    return BagDataset(instances, np.arange(0, n_bags * bag_size + 1, bag_size))


def _bag_methods(bags: BagDataset) -> dict:
    X, other = bags.instances, bags.instances.copy()
    rows = max(1, 2**23 // len(X))
    block = np.empty((rows, len(X)))

    def full_product():  # every product of X @ X.T, row block by row block (no n^2 array)
        for start in range(0, len(X), rows):
            part = X[start : start + rows]
            np.matmul(part, other.T, out=block[: len(part)])

    return {"ours: 3 Hausdorff matrices": lambda: bag_distances(bags),
            "limit: full X @ X.T (GEMM)": full_product}


def _svdd_methods(n: int) -> dict:
    rng = np.random.default_rng(0)
    X = rng.normal(0, 2, (3, 10))[rng.integers(0, 3, n)] + rng.normal(size=(n, 10))
    gamma = 1.0 / X.shape[1]
    return {"ours: SVDD (SMO)": lambda: SVDD(C=1.0 / (NU * n), gamma=gamma, tol=1e-3).fit(X),
            "peer: OneClassSVM": lambda: OneClassSVM(nu=NU, gamma=gamma, tol=1e-3).fit(X)}


def _mlknn_methods(n: int, n_labels: int) -> dict:
    rng = np.random.default_rng(0)
    X = rng.normal(size=(n + n // 2, 50))
    Y = (X[:, :n_labels] + rng.normal(size=(len(X), n_labels)) > 0.5).astype(np.int64)
    train, test = slice(0, n), slice(n, None)

    def searches():
        searcher = NearestNeighbors(n_neighbors=10, algorithm="brute").fit(X[train])
        return searcher.kneighbors(), searcher.kneighbors(X[test])

    return {"ours: ML-kNN fit + predict": lambda: MLkNN(k=10).fit(X[train], Y[train]).predict(X[test]),
            "limit: sklearn brute kneighbors": searches}


WORKLOADS = (
    Workload("bags, instances per bag", "instances", (1000, 2000, 4000, 8000),
             (1000, 3000, 10_000, 30_000, 100_000), lambda n: _bag_methods(_bags(50, n // 50))),
    Workload("bags, number of bags", "instances", (1000, 2000, 4000, 8000),
             (1000, 3000, 10_000, 30_000, 100_000), lambda n: _bag_methods(_bags(n // 20, 20))),
    Workload("SVDD vs OneClassSVM", "points", (1000, 2000, 4000),
             (1000, 2000, 5000, 10_000, 20_000, 50_000), _svdd_methods),
    Workload("ML-kNN, samples", "training rows", (1000, 2000, 4000),
             (1000, 2000, 4000, 8000, 16_000, 32_000), lambda n: _mlknn_methods(n, 10)),
    Workload("ML-kNN, labels", "labels", (5, 20, 50), (5, 10, 20, 50), lambda L: _mlknn_methods(2000, L)),
)


def traced_peak(function) -> int:
    """Peak bytes allocated through Python's allocators (numpy included) during a call."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    function()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def measure(workload: Workload, sizes, repeats: int, clock: str) -> list[dict]:
    rows = []
    for size in sizes:
        methods = workload.make(size)
        timed = measured(methods, repeats, clock)
        seconds, load = timed["seconds"], timed["load"]
        for method, function in methods.items():
            rows.append({"workload": workload.name, "size_name": workload.size_name,
                         "size": size, "method": method, "seconds": seconds[method],
                         "spread": timed["spread"][method],
                         "peak_bytes": traced_peak(function), "load": load})
        print(f"  {workload.name} {size}: " + ", ".join(
            f"{m} {s:.3g} s" for m, s in seconds.items()) + f" (load {load[0]})", flush=True)
    return rows


def exponents(rows: pd.DataFrame) -> list[dict]:
    """Per workload and method: time and memory exponents, and where memory hits 24 GiB."""
    fits = []
    for (workload, method), group in rows.groupby(["workload", "method"], sort=False):
        log_size = np.log(group["size"].to_numpy(float))
        time_exponent = np.polyfit(log_size, np.log(group["seconds"]), 1)[0]
        # memory: the local law between the two largest sizes (fixed-size buffers and caches
        # dominate small sizes, so a fit over all sizes would mislead the extrapolation)
        memory_exponent, memory_intercept = np.polyfit(
            log_size[-2:], np.log(group["peak_bytes"].to_numpy(float)[-2:]), 1)
        largest = group.iloc[-1]
        fits.append({
            "workload": workload, "method": method,
            "time_exponent": round(float(time_exponent), 2),
            "memory_exponent": round(float(memory_exponent), 2),
            "largest_size": int(largest["size"]), "largest_seconds": float(largest["seconds"]),
            "largest_peak_bytes": int(largest["peak_bytes"]),
            "size_at_24_gib": _size_at(MEMORY_LIMIT, memory_exponent, memory_intercept),
        })
    return fits


def _size_at(limit: float, exponent: float, intercept: float) -> float | None:
    """Size where exp(intercept) * size^exponent reaches ``limit`` (None: does not grow)."""
    if exponent < 0.2:
        return None
    return float(np.exp((np.log(limit) - intercept) / exponent))


def chart(rows: pd.DataFrame) -> alt.Chart:
    """Log-log seconds against size, one panel per workload, ours solid, peers dashed."""
    data = rows.assign(kind=np.where(rows["method"].str.startswith("ours"), "ours", "peer / limit"),
                       panel=rows["workload"] + " (x: " + rows["size_name"] + ")")
    return alt.Chart(data).mark_line(point=True).encode(
        x=alt.X("size:Q", scale=alt.Scale(type="log"), title="size"),
        y=alt.Y("seconds:Q", scale=alt.Scale(type="log"), title="seconds (median)"),
        color=alt.Color("method:N", title=None),
        strokeDash=alt.StrokeDash("kind:N", title=None),
        tooltip=["workload", "method", "size", "seconds", "peak_bytes"],
    ).properties(width=220, height=180).facet(
        facet=alt.Facet("panel:N", title=None), columns=3
    ).resolve_scale(x="independent", y="independent")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the larger sizes")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    parser.add_argument("--json", type=Path, help="default benchmarks/results/scaling[-full].json")
    args = parser.parse_args()
    name = "scaling-full" if args.full else "scaling"
    path = args.json or RESULTS / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    started = load_average()
    rows = []
    for workload in WORKLOADS:
        sizes = workload.full_sizes if args.full else workload.quick_sizes
        rows += measure(workload, sizes, 1 if args.full else args.repeats, args.clock)
        table = pd.DataFrame(rows)  # written after every workload: a long run keeps its part
        fits = exponents(table)
        path.write_text(json.dumps({"clock": args.clock, "full": args.full,
                                    "load_before": started, "load_after": load_average(),
                                    "rows": rows, "exponents": fits}, indent=2))
        save_chart(chart(table), RESULTS / name)
    print("exponents (time ~ size^b, traced memory ~ size^m; size where memory reaches 24 GiB):")
    for fit in fits:
        at = fit["size_at_24_gib"]
        print(f"  {fit['workload']:24s} {fit['method']:34s} b = {fit['time_exponent']:5.2f}  "
              f"m = {fit['memory_exponent']:5.2f}  24 GiB at {'-' if at is None else f'{at:.3g}'}")


if __name__ == "__main__":
    main()
