"""Run every benchmark and print its ratios against the peers and limits side by side.

Each benchmark runs as its own process (its own memory and thread settings) and writes JSON
to ``--output`` (default benchmarks/results/, ``<name>.json`` quick, ``<name>-full.json``
with --full); the table printed at the end is read back from those files. Quick by default
(a few minutes per benchmark on 2 cores); --full uses the paper / issue sizes. Benchmarks
whose data is missing (set MILAB_DATA_HOME) or whose peer is not installed
(``pip install -e '.[bench]'``) are reported as failed with their last error line, and the
rest still run.

Run: python -m benchmarks [--full] [--only inth mfsef ...] [--output DIR]
     (or python benchmarks/run_all.py ...)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Benchmark:
    name: str
    quick: tuple
    full: tuple
    summary: Callable[[dict], list]  # JSON -> [(measure, value, goal or peer note)]


def _inth(r):
    rows = []
    for clock in ("cpu", "wall", "wall_loaded"):
        if clock not in r:
            continue
        c = r[clock]
        load = c["load"][0]
        rows += [(f"[{clock}, load {load}] 3 Hausdorff matrices / full X @ X.T (Musk2)",
                  c["ours_over_full_gemm"], "<= 0.8"),
                 (f"[{clock}, load {load}] 3 Hausdorff matrices / numpy X @ X.T (syrk)",
                  c["ours_over_numpy_x_xt"], ""),
                 (f"[{clock}, load {load}] query x train / its GEMM", c["query_over_its_gemm"],
                  "<= 1.2"),
                 (f"[{clock}, load {load}] float32 / float64", c["float32_over_float64"], "")]
    if "cdist_per_pair_over_ours" in r:
        rows.append(("cdist per bag pair / ours", r["cdist_per_pair_over_ours"], ">= 5"))
    rows.append(("NCA numpy / numba", r["nca_numpy_over_numba"], ""))
    for key in ("citation_knn_nested_cv", "citation_knn_nested_cv_musk2"):
        nested = r.get(key, {})
        rows += [(f"Citation-KNN nested CV ({metric}) / its distances, {nested['dataset']}",
                  value["over_distances"], "<= 1.2" if metric != "integrated" else "")
                 for metric, value in nested.items() if isinstance(value, dict)]
        if "nca_searches_seconds" in nested:
            rows.append(("Citation-KNN nested CV (integrated) / (distances + its NCA searches)",
                         nested["integrated"]["over_distances_and_nca"], ""))
    return rows


def _mfsef(r):
    rows = [("scikit-multilearn-ng MLkNN / ours", r["mlknn_speedup"], ">= 5")]
    rows += [(f"[{clock}, load {v['load'][0]}] ML-kNN fit + predict / sklearn kneighbors", v["ratio"],
              "<= 1.2") for clock, v in r["mlknn_over_sklearn_searches"].items()]
    rows.append((f"straightforward PMU / ours ({r['pmu_features']} features)", r["pmu_speedup"],
                 ">= 20"))
    return rows


def _cdvse(r):
    return [row for clock, result in r.items() for row in (
        [(f"[{clock}] SVDD / OneClassSVM, n = {row['n']} (medians)", row["ratio"],
          "<= 1.0 at 2000") for row in result["svdd"]]
        + [(f"[{clock}] CDVSE / Bagging, {row['dataset']} (medians)", row["cdvse_over_bagging"],
            "") for row in result["cdvse"]])]


def _twoview(r):
    rows = []
    for clock in ("cpu", "wall", "wall_loaded"):
        for fit in r.get(clock, {}).get("fit", []):
            label = f"[{clock}, load {fit['load'][0]}]"
            rows += [(f"{label} Ker1 dense / factored, {fit['bags']} bags (medians)",
                      fit["dense_over_factored"], ""),
                     (f"{label} seed formulas / factored, {fit['bags']} bags (medians)",
                      fit["literal_over_factored"], "")]
        for bamic in r.get(clock, {}).get("bamic", []):
            rows.append((f"[{clock}, load {bamic['load'][0]}] kmedoids.alternating / BAMIC, "
                         f"{bamic['bags']} bags (medians)", bamic["alternating_over_ours_time"],
                         ""))
    return rows


def _lskmddm(r):
    rows = []
    for clock in ("cpu", "wall", "wall_loaded"):
        if clock not in r:
            continue
        largest = r[clock][-1]
        rows += [(f"[{clock}, load {largest['load'][0]}] {solver} speed-up vs eig, "
                  f"n = {largest['n']} (medians)", speedup, "")
                 for solver, speedup in largest["speedup_vs_eig"].items()
                 if solver != "kMDDM (eig)"]
    return rows


def _grid(r):
    return [row for clock in ("wall", "wall_loaded") if clock in r for row in (
        (f"[{clock}, load {r[clock]['load'][0]}] joblib / serial speed-up (medians)",
         r[clock]["joblib_speedup"], ""),
        (f"[{clock}, load {r[clock]['load'][0]}] Dask / serial speed-up (medians)",
         r[clock]["dask_speedup"], ""))]


def _threads(r):
    rows = []
    for row in r["rows"]:
        state = "loaded" if row["loaded"] else "idle"
        paired = row["paired"]
        low, high = paired["interval"]
        rows.append((f"[{state}] {row['kernel']}: default / one thread (medians; paired "
                     f"{paired['geometric_mean']:.2f} [{low:.2f}, {high:.2f}], Holm p slower "
                     f"{paired['p_default_slower_holm']:.2f})",
                     row["default_over_one_thread"], "<= 1.0"))
        if "default_over_floor" in row:
            rows.append((f"[{state}] ML-kNN default / sklearn kneighbors floor (medians)",
                         row["default_over_floor"], "<= 1.2 loaded"))
    return rows


def _first_use(r):
    return [("first use: lab() / importing the widget stack (wall)", r["ratio"], "<= 1")]


def _scaling(r):
    return [(f"{fit['workload']}: {fit['method']} time exponent", fit["time_exponent"], "")
            for fit in r["exponents"]]


BENCHMARKS = (
    Benchmark("inth", ("--quick", "--loaded"), ("--loaded",), _inth),
    Benchmark("mfsef", ("--quick", "--repeats", "3", "--loaded"), ("--loaded",), _mfsef),
    Benchmark("cdvse", ("--repeats", "5", "--loaded"), ("--repeats", "9", "--loaded"), _cdvse),
    Benchmark("twoview", ("--sizes", "500", "1000", "--repeats", "5", "--loaded"),
              ("--repeats", "5", "--loaded"), _twoview),
    Benchmark("lskmddm", ("--sizes", "1000", "--repeats", "3", "--loaded"),
              ("--sizes", "1000", "2000", "4500", "--repeats", "3", "--loaded"), _lskmddm),
    Benchmark("grid", ("--repetitions", "1", "--repeats", "3", "--loaded"),
              ("--repetitions", "8", "--repeats", "5", "--loaded"), _grid),
    Benchmark("threads", ("--quick",), (), _threads),
    Benchmark("first_use", ("--runs", "2"), (), _first_use),
    Benchmark("scaling", (), ("--full",), _scaling),
)


def run(benchmark: Benchmark, full: bool, output: Path) -> tuple[Path | None, str]:
    """Run one benchmark script; (its JSON path, or None on failure; last output line)."""
    path = output / (f"{benchmark.name}-full.json" if full else f"{benchmark.name}.json")
    arguments = benchmark.full if full else benchmark.quick
    command = [sys.executable, str(HERE / f"bench_{benchmark.name}.py"), *arguments,
               "--json", str(path)]
    print(f"== {benchmark.name}: {' '.join(command[1:])}", flush=True)
    done = subprocess.run(command, capture_output=True, text=True, env=os.environ.copy())
    print(done.stdout, end="", flush=True)
    lines = (done.stderr or done.stdout).strip().splitlines()
    if done.returncode != 0:
        return None, lines[-1] if lines else f"exit code {done.returncode}"
    return path, ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--full", action="store_true", help="the paper / issue sizes")
    parser.add_argument("--only", nargs="+", choices=[b.name for b in BENCHMARKS])
    parser.add_argument("--output", type=Path, default=HERE / "results")
    args = parser.parse_args()
    args.output.mkdir(parents=True, exist_ok=True)
    chosen = [b for b in BENCHMARKS if not args.only or b.name in args.only]
    table, failures = [], []
    for benchmark in chosen:
        path, error = run(benchmark, args.full, args.output)
        if path is None:
            failures.append((benchmark.name, error))
            continue
        for measure, value, goal in benchmark.summary(json.loads(path.read_text())):
            table.append((benchmark.name, measure, value, goal))
    width = max((len(row[1]) for row in table), default=20)
    print(f"\n{'benchmark':<10} {'measure':<{width}} {'ratio':>8}  goal")
    for name, measure, value, goal in table:
        print(f"{name:<10} {measure:<{width}} {value:>8.2f}  {goal}")
    for name, error in failures:
        print(f"{name:<10} FAILED: {error}")
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
