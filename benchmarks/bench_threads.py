"""Parallel against serial, as users meet it: every kernel that can use several threads at its
default thread count and at one thread, on an idle machine and beside one busy process.

For each kernel and size the two settings are timed interleaved (default, one thread,
default, ...) on the wall clock after one untimed warm-up each: "default" is what a user
gets (numba's and BLAS's thread counts untouched), "one thread" is
``numba.set_num_threads(1)`` with BLAS held to one thread. The table gives the median, the
interquartile range and the minimum of each, and the ratio of the medians, default over one
thread (the goal: at most 1.0, so that parallel never loses), and a paired statement on
the rounds: the geometric mean of their ratios with its 95 % interval and the one-sided
Wilcoxon p-value for "the default is slower", with Holm's adjustment over every row of the
run (without it, chance alone puts at least one p below 0.05 in 60 % of quick runs, 18
rows, and 81 % of full runs, 32 rows); the closing line names the rows slower after it.
"loaded" repeats the measurement with one busy process (a Python loop, same priority)
started beside it; on this 2-core machine that leaves one free core. Each kernel's results
are also compared across the two settings: they must be identical (``identical`` in the
JSON).

Kernels: the three Hausdorff matrices (bag x bag, and query x train), the k nearest bags in
blocks (``nearest_bags``), ML-kNN fit + predict_proba (yeast's MULAN split when the data home
has it, else skipped with the reason; and a synthetic 8,000-row problem), PMU's label
entropies and MFSEF's pairwise mutual informations (synthetic codes of Arts' shape), the NCA
objective curve, the SVDD solver, BAMIC's k-medoids and kernel MDDM's dense solvers
(eigen-problem, Cholesky; BLAS outside any tile, on the free cores). ML-kNN's default is also timed
against its floor, scikit-learn's brute-force ``kneighbors`` for the same two searches at
default threads (goal: at most 1.2x in median beside one busy process).

Run: MILAB_DATA_HOME=<data> python benchmarks/bench_threads.py [--rounds N] [--quick]
     [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from pathlib import Path

import numba
import numpy as np
from scipy import stats
from sklearn.neighbors import NearestNeighbors
from timing import busy_process, load_average, spread, spread_text, threads_for  # on sys.path

from milab_widgets.claims.scopes import ALPHA, holm
from milab_widgets.core.information import label_joint_entropies, pairwise_mutual_information
from milab_widgets.data import BagDataset, load_dataset
from milab_widgets.exceptions import DatasetUnavailableError
from milab_widgets.mil import BAMIC, bag_distances, nca_alpha_curve, nearest_bags
from milab_widgets.multilabel import KernelMDDM, MLkNN
from milab_widgets.oneclass import SVDD

SETTINGS = ("default", "one thread")


def setting(name: str):
    """The thread setting ``name`` (see the module docstring) for the duration: the
    "cpu" clock's one thread, or the "wall" clock's untouched threads (timing.py)."""
    return threads_for("wall" if name == "default" else "cpu")


def paired_ratio(default: list[float], one_thread: list[float]) -> dict:
    """The rounds' default / one-thread ratios as one statement: their geometric mean, its
    95 % interval (t on the log ratios: the rounds are paired, each timing both settings
    back to back) and the one-sided Wilcoxon signed-rank p-value for "the default is
    slower" (log ratio > 0)."""
    logs = np.log(np.asarray(default) / np.asarray(one_thread))
    half = stats.t.ppf(0.975, len(logs) - 1) * logs.std(ddof=1) / np.sqrt(len(logs))
    p_slower = stats.wilcoxon(logs, alternative="greater").pvalue if np.any(logs) else 1.0
    return {"geometric_mean": float(np.exp(logs.mean())),
            "interval": [float(np.exp(logs.mean() - half)), float(np.exp(logs.mean() + half))],
            "p_default_slower": float(p_slower)}


def time_settings(function: Callable[[], object], rounds: int,
                  extra: dict[str, Callable[[], object]] | None = None) -> tuple[dict, dict]:
    """Interleaved wall times of ``function`` under each setting (plus ``extra`` callables
    at default threads): their summaries, and the checks (the paired ratio, whether the
    results were identical across the settings). A setting is entered before its clock
    starts (switching costs a few milliseconds). The two settings swap places every round
    and the extras run after them, so each setting follows each of the others equally
    often: a peer leaves its OpenMP threads spinning for a moment, which the next run pays
    for, and rotating all three (setting, setting, peer) put the default after the peer in
    two rounds of three."""
    compared = [(name, name, function) for name in SETTINGS]
    extras = [(name, "default", other) for name, other in (extra or {}).items()]
    results, seconds = {}, {name: [] for name, _, _ in compared + extras}
    for round_ in range(rounds + 1):  # round 0: the untimed warm-up
        swap = round_ % 2
        for name, threads, run in compared[swap:] + compared[:swap] + extras:
            with setting(threads):
                started = time.perf_counter()
                results[name] = run()
                elapsed = time.perf_counter() - started
            if round_:
                seconds[name].append(elapsed)
    checks = {"paired": paired_ratio(seconds["default"], seconds["one thread"]),
              "identical": _equal(results["default"], results["one thread"])}
    return {name: spread(values) for name, values in seconds.items()}, checks


def _equal(a, b) -> bool:
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_equal(a[key], b[key]) for key in a)
    return bool(np.array_equal(np.asarray(a), np.asarray(b)))


# -- the kernels ---------------------------------------------------------------------------------
def random_bags(n_bags: int, d: int, seed: int) -> BagDataset:
    """Bags of 2 to 8 instances of a d-dimensional Gaussian (the sizes of Musk-like data)."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 9, size=n_bags)
    return BagDataset.from_bags([rng.normal(size=(s, d)) for s in sizes],
                                labels=rng.integers(0, 2, size=n_bags))


def bag_kernels(n_bags: int, d: int) -> dict[str, Callable[[], object]]:
    bags = random_bags(n_bags, d, seed=n_bags)
    queries = random_bags(max(n_bags // 4, 2), d, seed=n_bags + 1)
    matrices = bag_distances(bags)
    return {
        f"bag distances, {n_bags} bags x themselves, {d}-D": lambda: bag_distances(bags),
        f"bag distances, {len(queries)} queries x {n_bags} bags, {d}-D":
            lambda: bag_distances(bags, queries),
        f"nearest_bags k = 10, {n_bags} bags, {d}-D":
            lambda: nearest_bags(bags, n_neighbors=10, metric="min"),
        f"NCA objective curve (11 alphas), {n_bags} bags":
            lambda: nca_alpha_curve(matrices["min"], matrices["max"], bags.labels, 1.0,
                                    np.linspace(0, 1, 11)),
        f"BAMIC k-medoids (k = 8), {n_bags} bags":
            lambda: BAMIC(8, random_state=0).fit(matrices["average"]).labels_,
    }


def mlknn_kernels(train, test, label: str) -> dict[str, Callable[[], object]]:
    def fit_predict():
        return MLkNN(k=10).fit(train[0], train[1]).predict_proba(test)
    return {f"ML-kNN fit + predict_proba, {label}": fit_predict}


def mlknn_floor(train, test) -> Callable[[], object]:
    """scikit-learn's brute-force searches that ML-kNN's fit + predict need, default threads."""
    def searches():
        searcher = NearestNeighbors(n_neighbors=10, algorithm="brute").fit(train[0])
        return searcher.kneighbors(), searcher.kneighbors(test)
    return searches


def information_kernels(n: int, d: int, n_labels: int) -> dict[str, Callable[[], object]]:
    rng = np.random.default_rng(d)
    codes = rng.integers(0, 2, size=(d, n)).astype(np.int64)
    states = np.full(d, 2, dtype=np.int64)
    labels = (rng.random((n, n_labels)) < 0.1).astype(np.int64)
    indptr = np.concatenate([[0], np.cumsum(labels.sum(axis=1))]).astype(np.int64)
    indices = np.nonzero(labels)[1].astype(np.int64)
    members = np.arange(min(d, 120), dtype=np.int64)
    return {
        f"PMU label entropies, {n} x {d}, {n_labels} labels":
            lambda: label_joint_entropies(codes, states, indptr, indices, labels.sum(axis=0)),
        f"MFSEF pairwise mutual information, {len(members)} features":
            lambda: pairwise_mutual_information(codes, states, members),
    }


def svdd_kernels(n: int) -> dict[str, Callable[[], object]]:
    X = np.random.default_rng(n).normal(size=(n, 10))
    return {f"SVDD fit, {n} points": lambda: SVDD(nu=0.1).fit(X).decision_function(X)}


def dense_kernels(n: int) -> dict[str, Callable[[], object]]:
    """Kernel MDDM's exact solvers on n rows of Arts' shape (462 features, 26 labels): dense
    eigen-problem and Cholesky, BLAS outside any tile (core.parallel.within_free_cores)."""
    rng = np.random.default_rng(n)
    X = rng.random((n, 462))
    Y = (rng.random((n, 26)) < 0.08).astype(int)
    return {f"kernel MDDM fit + transform, {solver}, {n} rows":
            lambda solver=solver: KernelMDDM(solver=solver).fit(X, Y).transform(X[:100])
            for solver in ("eig", "direct")}


def yeast_mlknn() -> tuple[dict, dict]:
    """ML-kNN on yeast's split, and its floor; empty with a printed reason when absent."""
    try:
        train, test = load_dataset("yeast").train_test()
    except DatasetUnavailableError as error:
        print(f"skipped ML-kNN on yeast: {error}")
        return {}, {}
    data = (train.X, train.Y), test.X
    return mlknn_kernels(*data, "yeast 1500 / 917"), {"kneighbors floor": mlknn_floor(*data)}


def synthetic_mlknn(n: int) -> dict[str, Callable[[], object]]:
    rng = np.random.default_rng(n)
    X = rng.normal(size=(n + n // 2, 100))
    Y = (rng.random((len(X), 10)) < 0.2).astype(int)
    return mlknn_kernels((X[:n], Y[:n]), X[n:], f"synthetic {n} / {n // 2}, 100-D")


def kernels(quick: bool) -> list[tuple[str, Callable[[], object], dict]]:
    """(name, function, extra callables timed beside it) for every kernel and size."""
    yeast, floor = yeast_mlknn()
    chosen = {**bag_kernels(300, 166), **yeast, **information_kernels(2000, 462, 26),
              **svdd_kernels(500), **dense_kernels(300)}
    if not quick:
        chosen |= {**bag_kernels(3000, 20), **synthetic_mlknn(8000), **svdd_kernels(3000),
                   **dense_kernels(2000)}
    return [(name, function, floor if name in yeast else {})
            for name, function in chosen.items()]


def measure(rounds: int, quick: bool) -> list[dict]:
    rows = []
    for name, function, extra in kernels(quick):
        for loaded in (False, True):
            with busy_process(loaded):
                timed, checks = time_settings(function, rounds, extra)
                load = load_average()[0]
            ratio = timed["default"]["median_ms"] / timed["one thread"]["median_ms"]
            row = {"kernel": name, "loaded": loaded, "load": load, "timings": timed,
                   "default_over_one_thread": ratio, **checks}
            if "kneighbors floor" in timed:
                row["default_over_floor"] = (timed["default"]["median_ms"]
                                             / timed["kneighbors floor"]["median_ms"])
            rows.append(row)
            print(describe(row), flush=True)
    return rows


def describe(row: dict) -> str:
    """One printed line: the medians [IQR] and minima, the ratio, identity."""
    cells = "; ".join(f"{name} {spread_text(t)}" for name, t in row["timings"].items())
    floor = (f", default / floor {row['default_over_floor']:.2f}"
             if "default_over_floor" in row else "")
    state = f"loaded, load {row['load']}" if row["loaded"] else f"idle, load {row['load']}"
    paired = row["paired"]
    low, high = paired["interval"]
    return (f"{row['kernel']} ({state}): {cells} -> default / one thread "
            f"{row['default_over_one_thread']:.2f} (paired {paired['geometric_mean']:.2f} "
            f"[{low:.2f}, {high:.2f}], p slower {paired['p_default_slower']:.3f}){floor}; "
            f"identical: {row['identical']}")


def slower_after_holm(rows: list[dict]) -> str:
    """Adds each row's Holm-adjusted p (family: every row of the run) and names the rows
    where the default is slower at the 5 % level after it."""
    adjusted = holm([row["paired"]["p_default_slower"] for row in rows])
    for row, p in zip(rows, adjusted, strict=True):
        row["paired"]["p_default_slower_holm"] = float(p)
    slower = [f"{row['kernel']} ({'loaded' if row['loaded'] else 'idle'}, Holm p {p:.3f})"
              for row, p in zip(rows, adjusted, strict=True) if p < ALPHA]
    return ("default slower than one thread after Holm's adjustment over "
            f"{len(rows)} rows: " + ("; ".join(slower) or "none"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="the small sizes only")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    print(f"numba threads {numba.get_num_threads()} ({numba.config.THREADING_LAYER} layer); "
          f"{args.rounds} interleaved rounds per measurement")
    rows = measure(args.rounds, args.quick)
    print(slower_after_holm(rows))
    if args.json:
        args.json.write_text(json.dumps({"threads": numba.get_num_threads(), "rounds": args.rounds,
                                         "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
