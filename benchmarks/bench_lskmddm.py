"""Kernel MDDM solvers: time and accuracy as the training size grows, in one run (ratios).

Every solver of ``milab_widgets.experiments.lskmddm.TIMING_SOLVERS`` (dense eigen-solver,
LOBPCG, block LSQR, block CG, Cholesky, ridge variants, a Nystrom operator, the Stiefel
solver) plus two peers:

* "scipy lsqr per column": scipy.sparse.linalg.lsqr on K p = b, one column at a time, with
  scipy's default tolerances (the issue's naive measurement);
* "rLSkMDDM (Nystrom 2000, LSQR)": a larger Nystrom operator.

on training sets of growing size drawn from one dataset (default: Arts, all 5000 rows, 500
held out). For each solver and size: the largest principal angle of the held-out embedding
to the exact solution of the same problem, ML-kNN's micro-F1, macro-F1 and AUC on the
held-out rows (one fit: they do not depend on the clock), and its fit time, with the
speed-up over the dense eigen-solver measured at the same size in the same rounds. Goal
(issue 7): a least-squares variant >= 10x faster than the dense eigen-solver at the largest
n both run, within 0.05 rad of the exact subspace (or metrics within one point).

Timing: benchmarks/timing.py: every solver's fit interleaved, ``--repeats`` rounds per
clock, medians with their quartiles and minima, each speed-up a ratio of medians, under
the "cpu" clock (one thread's CPU seconds, BLAS on one thread as in the experiment's
Fig. 4) and the "wall" clock (default threads), and with ``--loaded`` also on the wall
clock beside one busy process. The fits of the accuracy pass come first and serve as the
warm-up (a fit takes up to a minute at n = 4500).

Run: MILAB_DATA_HOME=../shared/data python benchmarks/bench_lskmddm.py [--dataset arts]
     [--sizes 1000 2000 4500] [--repeats N] [--loaded] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.linalg import subspace_angles
from scipy.sparse.linalg import lsqr
from timing import clocks, measured, spread_text  # this script's folder is on sys.path as a script

from milab_widgets.data import load_dataset
from milab_widgets.experiments.lskmddm import EIG, TIMING_SOLVERS, split_labels, time_solvers
from milab_widgets.multilabel.kernel_mddm import KernelMDDM
from milab_widgets.multilabel.kernel_operators import gaussian_kernel, median_distance
from milab_widgets.multilabel.mddm_solvers import label_eigenvectors

SOLVERS = {**TIMING_SOLVERS,
           "rLSkMDDM (Nystrom 2000, LSQR)": ({"solver": "lsqr", "ridge": 1.0,
                                              "kernel_approx": "nystroem", "n_landmarks": 2000},
                                             "rLSkMDDM (direct)")}
#: The naive peer runs only up to this size (85 s at n = 4000 in the issue).
NAIVE_MAX_N = 2000
NAIVE = "scipy lsqr per column (naive)"


def naive_scipy_lsqr(X_train, Y_train) -> tuple[float, np.ndarray]:
    """LSkMDDM as a straightforward implementation would do it: dense K, Lemma 1, then
    scipy's lsqr per column with its default tolerances. Returns (kernel width, P)."""
    width = median_distance(X_train)
    K = gaussian_kernel(X_train, X_train, width)
    _, B = label_eigenvectors(Y_train - Y_train.mean(axis=0))
    return width, np.column_stack([lsqr(K, B[:, j])[0] for j in range(B.shape[1])])


def fit_solver(params: dict, X_train, Y_train) -> KernelMDDM:
    return KernelMDDM(random_state=0, **params).fit(X_train, Y_train)


def accuracy_rows(X_train, Y_train, X_test, Y_test, naive: bool) -> list[dict]:
    """Every solver fitted once (time_solvers, without its single-run times): angle to its
    reference, iterations, convergence and ML-kNN's metrics; with ``naive`` also the naive
    peer's angle to the dense eigen-solver's embedding."""
    embeddings = {}
    rows = [{key: value for key, value in row.items() if key not in ("seconds", "cpu_seconds")}
            for row in time_solvers(X_train, Y_train, X_test, SOLVERS, Y_test, embeddings)]
    if naive:
        width, P = naive_scipy_lsqr(X_train, Y_train)
        embedding = gaussian_kernel(X_test, X_train, width) @ P
        rows.append({"solver": NAIVE, "reference": EIG, "converged": False,
                     "angle": float(np.max(subspace_angles(embedding, embeddings[EIG])))})
    return rows


def timed_fits(X_train, Y_train, naive: bool, repeats: int, clock: str) -> dict:
    """Every solver's fit (and the naive peer's) interleaved under one clock, no warm-up
    (the accuracy pass has just fitted each); speed-ups over the eigen-solver's median."""
    fits = {name: partial(fit_solver, params, X_train, Y_train)
            for name, (params, _) in SOLVERS.items()}
    if naive:
        fits[NAIVE] = partial(naive_scipy_lsqr, X_train, Y_train)
    timed = measured(fits, repeats, clock, warm_up=False)
    eig = timed["seconds"][EIG]
    return {**timed, "speedup_vs_eig": {name: eig / seconds
                                        for name, seconds in timed["seconds"].items()}}


def measure(dataset, sizes, held_out_count: int, seed: int, repeats: int,
            clock_names: tuple[str, ...]) -> dict:
    order = np.random.default_rng(seed).permutation(len(dataset))
    held_out, pool = order[:held_out_count], order[held_out_count:]
    results = {"accuracy": [], **{clock: [] for clock in clock_names}}
    for n in sizes:
        X_train, Y_train, X_test, Y_test, _ = split_labels(dataset, pool[:n], held_out)
        naive = n <= NAIVE_MAX_N
        accuracy = accuracy_rows(X_train, Y_train, X_test, Y_test, naive)
        results["accuracy"] += [{"n": n, **row} for row in accuracy]
        for clock in clock_names:
            timed = timed_fits(X_train, Y_train, naive, repeats, clock)
            results[clock].append({"n": n, **timed})
            print(f"[{clock}] n = {n} (load {timed['load'][0]}), medians [quartiles] min of "
                  f"{repeats} rounds:")
            for row in accuracy:
                name = row["solver"]
                print(f"  {name:32s} {spread_text(timed['spread'][name]):>40s}  "
                      f"{timed['speedup_vs_eig'][name]:6.2f}x eig  angle {row['angle']:.1e}",
                      flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", default="arts")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 3000, 4500])
    parser.add_argument("--held-out", type=int, default=500)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3, help="interleaved rounds per clock")
    parser.add_argument("--loaded", action="store_true",
                        help="also time every fit beside one busy process (wall clock)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    dataset = load_dataset(args.dataset)
    results = measure(dataset, args.sizes, args.held_out, args.seed, args.repeats,
                      clocks(args.loaded))
    largest = max(args.sizes)
    accuracy = pd.DataFrame(results["accuracy"]).query("n == @largest").set_index("solver")
    for clock in clocks(args.loaded):
        accuracy[f"x eig, {clock}"] = pd.Series(results[clock][-1]["speedup_vs_eig"])
    print(f"\n{dataset.name}, n = {largest} (largest size), every solver (speed-ups are "
          "ratios of medians):")
    print(accuracy.drop(columns=["n", "reference"]).sort_values("x eig, cpu", ascending=False)
          .round(4).to_string())
    if args.json:
        args.json.write_text(json.dumps({"dataset": dataset.name, "held_out": args.held_out,
                                         "repeats": args.repeats, **results},
                                        indent=1, default=str))


if __name__ == "__main__":
    main()
