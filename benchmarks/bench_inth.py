"""Speed of the intH building blocks against their limits and peers, in one run (ratios).

1. All three Hausdorff matrices (min, max, average) of Musk2's 102 bags / 6598 instances
   against (a) one full product of all instances, X @ X.T computed as a general GEMM
   into a preallocated output (n^2 d multiply-adds, the limit of a method that forms every
   instance pair; no allocation), (b) numpy's
   own ``X @ X.T``, which spots the transpose and calls BLAS syrk (half the flops, then a
   mirror copy), and (c) the straightforward approach: scipy's cdist per bag pair, then the
   reductions (upper triangle only). Goal (issue 16): at most 0.8x (a).
2. Query x train: a third of Musk2's bags against all of them, against the product of those
   blocks, Q @ X.T (preallocated output). Goal: at most 1.2x.
3. float32 Gram products (``precision="float32"``) against float64 ours, and their largest
   deviation from float64.
4. The NCA objective f(alpha) on Elephant (200 bags): our numba kernel against a vectorised
   numpy/scipy version (logsumexp).
5. Citation-KNN's nested cross-validation (10 outer x 5 inner folds, K in {1, 3, 5, 7};
   min, max, average, adapted and, with its 10 sigmas, integrated) on Musk1 and Musk2 against
   the cost of its distance matrices; the integrated metric also against the NCA searches
   its protocol makes (alpha per sigma per training part).

Timing: see benchmarks/timing.py (interleaved medians; "cpu" = one thread's CPU seconds,
"wall" = wall clock with every thread). Musk2, Musk1 and Elephant ship with the package.

Run: python benchmarks/bench_inth.py [--repeats N] [--quick] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from pathlib import Path

import numpy as np
from scipy.spatial.distance import cdist
from scipy.special import logsumexp
from timing import (  # this folder is on sys.path
    clocks,
    interleaved,
    load_average,
    measured,
    spread_text,
)

from milab_widgets.data import load_dataset
from milab_widgets.evaluation.neighbors_cv import SIGMA_GRID, nested_cv
from milab_widgets.evaluation.splits import stratified_splits
from milab_widgets.mil import bag_distances, nca_alpha_curve, tune_alpha_nca

NESTED_METRICS = ("min", "max", "average", "adapted", "integrated")


def cdist_per_pair(bags) -> None:
    n = len(bags)
    blocks = [bags.bag(i) for i in range(n)]
    for i in range(n):
        for j in range(i, n):
            block = cdist(blocks[i], blocks[j])
            rows, cols = block.min(axis=1), block.min(axis=0)
            _ = block.min(), max(rows.max(), cols.max()), rows.sum() + cols.sum()


def numpy_nca(d_min, d_max, y, sigma, alphas) -> list[float]:
    values = []
    same = (y[:, None] == y[None, :]) & ~np.eye(len(y), dtype=bool)
    for alpha in alphas:
        logits = -(alpha * d_min + (1 - alpha) * d_max) / sigma
        np.fill_diagonal(logits, -np.inf)
        log_p = logits - logsumexp(logits, axis=1, keepdims=True)
        values.append(float(np.exp(log_p[same]).sum()))
    return values


def hausdorff_limits(repeats: int, clock: str) -> dict:
    """Sections 1-3 under one clock (timing.clocks: "wall_loaded" beside a busy process)."""
    musk2 = load_dataset("musk2")
    X = musk2.instances
    other = X.copy()  # a distinct buffer: numpy computes X @ other.T as a full GEMM
    query = musk2[np.arange(0, len(musk2), 3)]
    Q = query.instances
    # the products write into buffers allocated once: flops only, no page faults
    full, block = np.empty((len(X), len(X))), np.empty((len(Q), len(X)))
    timed = measured({
        "ours": lambda: bag_distances(musk2),
        "ours_float32": lambda: bag_distances(musk2, precision="float32"),
        "full_gemm": lambda: np.matmul(X, other.T, out=full),
        "numpy_x_xt": lambda: X @ X.T,
        "query": lambda: bag_distances(query, musk2),
        "query_gemm": lambda: np.matmul(Q, X.T, out=block),
    }, repeats, clock)
    seconds = timed["seconds"]
    exact, single = bag_distances(musk2), bag_distances(musk2, precision="float32")
    return {
        **timed,
        "ours_over_full_gemm": seconds["ours"] / seconds["full_gemm"],
        "ours_over_numpy_x_xt": seconds["ours"] / seconds["numpy_x_xt"],
        "query_over_its_gemm": seconds["query"] / seconds["query_gemm"],
        "float32_over_float64": seconds["ours_float32"] / seconds["ours"],
        "float32_max_relative_deviation": max(_relative_deviation(single[k], exact[k])
                                              for k in exact),
        "float32_max_absolute_deviation": max(float(np.abs(single[k] - exact[k]).max())
                                              for k in exact),
    }


def _relative_deviation(approximate, exact) -> float:
    """Largest relative deviation among distances above 1e-3 of the largest one."""
    kept = exact > 1e-3 * exact.max()
    return float(np.max(np.abs(approximate[kept] - exact[kept]) / exact[kept]))


def nested_cv_cost(clock: str, metrics, dataset: str, repeats: int) -> dict:
    """Section 5: each metric's nested CV against computing the dataset's distance matrices
    once (interleaved medians); for "integrated" also against its NCA searches alone."""
    bags = load_dataset(dataset)
    matrices = bag_distances(bags)
    timed = interleaved(
        {"distances": lambda: bag_distances(bags)}
        | {metric: partial(nested_cv, "citation-knn", metric, lambda _: matrices, bags.labels)
           for metric in metrics if metric != "integrated"}, repeats, clock)
    result = {"dataset": dataset, "distances_seconds": timed["distances"]}
    for metric in metrics:
        if metric == "integrated":
            timed |= interleaved({
                "integrated": lambda: nested_cv("citation-knn", "integrated", lambda _: matrices,
                                                bags.labels),
                "nca_searches": lambda: protocol_nca_searches(matrices, bags.labels)}, 1, clock)
            result["nca_searches_seconds"] = timed["nca_searches"]
        result[metric] = {"seconds": timed[metric],
                          "over_distances": timed[metric] / timed["distances"]}
    if "integrated" in metrics:
        result["integrated"]["over_distances_and_nca"] = timed["integrated"] / (
            timed["distances"] + timed["nca_searches"])
    return result


def protocol_nca_searches(matrices, y, outer_folds=10, inner_folds=5) -> None:
    """The NCA searches the integrated metric's nested CV cannot avoid: alpha for every sigma
    on every inner training part, and once more on every outer training part."""
    for train, _ in stratified_splits(y, outer_folds, 0):
        parts = [train[inner] for inner, _ in stratified_splits(y[train], inner_folds, 0)]
        for part in parts:
            for sigma in SIGMA_GRID:
                tune_alpha_nca(matrices["min"][np.ix_(part, part)],
                               matrices["max"][np.ix_(part, part)], y[part], sigma)
        tune_alpha_nca(matrices["min"][np.ix_(train, train)], matrices["max"][np.ix_(train, train)],
                       y[train], SIGMA_GRID[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--quick", action="store_true",
                        help="fewer repeats, no cdist peer, no integrated nested CV")
    parser.add_argument("--loaded", action="store_true",
                        help="also time the Musk2 limits beside one busy process")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    repeats = 3 if args.quick else args.repeats

    results = {"load_before": load_average()}
    for clock in clocks(args.loaded):
        results[clock] = hausdorff_limits(repeats, clock)
    musk2 = load_dataset("musk2")
    if not args.quick:
        results["cdist_per_pair_over_ours"] = (
            interleaved({"cdist": lambda: cdist_per_pair(musk2)}, 1, "cpu")["cdist"]
            / results["cpu"]["seconds"]["ours"])

    elephant = load_dataset("elephant")
    d = bag_distances(elephant)
    alphas = np.linspace(0, 1, 50)
    nca = interleaved({
        "numba": lambda: nca_alpha_curve(d["min"], d["max"], elephant.labels, 1.0, alphas),
        "numpy": lambda: numpy_nca(d["min"], d["max"], elephant.labels, 1.0, alphas),
    }, repeats, "cpu")
    results["nca_numpy_over_numba"] = nca["numpy"] / nca["numba"]
    metrics = NESTED_METRICS[:-1] if args.quick else NESTED_METRICS
    results["citation_knn_nested_cv"] = nested_cv_cost("cpu", metrics, "musk1", repeats)
    results["citation_knn_nested_cv_musk2"] = nested_cv_cost("cpu", NESTED_METRICS[:-1], "musk2",
                                                             repeats)
    results["load_after"] = load_average()

    print(f"Musk2 ({len(musk2)} bags, {musk2.n_instances} instances, {musk2.n_features} "
          f"features), medians of {repeats} interleaved rounds:")
    for clock in clocks(args.loaded):
        r = results[clock]
        print(f"  [{clock}, load {r['load']}] ours / full GEMM {r['ours_over_full_gemm']:.2f} "
              f"(goal <= 0.8), ours / numpy X @ X.T {r['ours_over_numpy_x_xt']:.2f}, "
              f"query / its GEMM {r['query_over_its_gemm']:.2f} (goal <= 1.2), "
              f"float32 / float64 {r['float32_over_float64']:.2f}")
        print("    " + "; ".join(f"{name} median {spread_text(t)}"
                                   for name, t in r["spread"].items()))
    print(f"  float32: largest deviation from float64 {results['cpu']['float32_max_absolute_deviation']:.1e} "
          f"absolute, {results['cpu']['float32_max_relative_deviation']:.1e} relative")
    if "cdist_per_pair_over_ours" in results:
        print(f"  cdist per bag pair / ours: {results['cdist_per_pair_over_ours']:.1f}x")
    print(f"NCA f(alpha), Elephant, 50 alphas: numpy/scipy / numba {results['nca_numpy_over_numba']:.1f}x")
    for key in ("citation_knn_nested_cv", "citation_knn_nested_cv_musk2"):
        nested = results[key]
        print(f"Citation-KNN nested CV on {nested['dataset']} / its distance matrices "
              f"({nested['distances_seconds'] * 1e3:.1f} ms): "
              + ", ".join(f"{m} {nested[m]['over_distances']:.2f}x" for m in NESTED_METRICS
                          if m in nested))
        if "nca_searches_seconds" in nested:
            print(f"  integrated / (distances + its {nested['nca_searches_seconds']:.2f} s of NCA "
                  f"searches): {nested['integrated']['over_distances_and_nca']:.2f}x")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
