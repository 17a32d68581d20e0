"""Speed of the two-view clustering building blocks against peers, in one run (ratios).

As the number of bags m grows (500 ... 5000; SYNTHETIC two-view bags, 6 clusters):

1. Kernel computation per view: our segment-reduction bag maps (``np.add.reduceat`` /
   ``np.minimum.reduceat``) against a per-bag Python loop doing the same (the straightforward
   peer); the mixture's EM fit itself is scikit-learn's and is reported separately.
2. Model fit, 50 iterations at alpha = beta = 0.01 with 5 % labelled: TwoViewMIClustering
   (implicit P and Q, the mixture kernel applied through its m x 100 factor) against
   (a) the same updates on the dense m x m mixture kernel and (b) a literal transcription of
   the seed's formulas with explicit m x m P, Q, P o (H H^T) o P^T (per iteration; the peer
   runs fewer iterations at large m). The minimax kernel (dense by nature) is timed too.
3. BAMIC (alternating k-medoids, numpy) against the `kmedoids` package (Rust) on the same
   average-Hausdorff distance matrix: its FasterPAM (a different, stronger algorithm) and its
   ``alternating`` (the same algorithm): time, total distance (loss) and ACC, 5 seeds each.

All numerics single-threaded BLAS (as the experiments run). Needs the `bench` extra
(``pip install -e '.[bench]'`` brings `kmedoids`).

Run: python benchmarks/bench_twoview.py [--sizes 500 1000 2000 5000] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import kmedoids
import numpy as np
from sklearn.metrics.pairwise import polynomial_kernel
from threadpoolctl import threadpool_limits

from milab_widgets.data.synthetic_bags import synthetic_two_view_bags
from milab_widgets.evaluation.clustering_scores import clustering_accuracy
from milab_widgets.experiments.twoview import partial_labels
from milab_widgets.mil import (
    BAMIC,
    MinimaxKernel,
    MixtureModelKernel,
    TwoViewMIClustering,
    bag_distances,
)

ITERATIONS = 50
N_CLUSTERS = 6


def timed(function):
    started = time.perf_counter()
    result = function()
    return result, time.perf_counter() - started


def loop_minimax_gram(bags, kernel):
    """Peer: per-bag min/max in a Python loop, then the same polynomial kernel."""
    scaled = np.clip(kernel.scaler_.transform(bags.instances), 0, 1)
    maps = np.array([np.concatenate([scaled[a:b].min(0), scaled[a:b].max(0)])
                     for a, b in zip(bags.offsets[:-1], bags.offsets[1:])])
    return polynomial_kernel(maps, degree=kernel.degree, gamma=kernel.gamma_, coef0=1.0)


def loop_mixture_maps(bags, kernel):
    """Peer: predict_proba bag by bag, summed."""
    return np.array([kernel.mixture_.predict_proba(kernel.scaler_.transform(bag)).sum(0)
                     for bag in bags])


def literal_iterations(kernels, y_partial, n_iter, alpha=0.01, beta=0.01, seed=0):
    """Peer: the seed's updates with explicit m x m P, Q (eqs. 6-7, 16-17)."""
    m = len(kernels[0])
    rng = np.random.default_rng(seed)
    H = rng.uniform(size=(m, N_CLUSTERS))
    Ws = [rng.uniform(size=(m, N_CLUSTERS)) / m for _ in kernels]
    labelled = y_partial != -1
    P = np.eye(m)
    P[np.ix_(labelled, labelled)] = 1
    Q = np.eye(m)
    Q[np.ix_(labelled, labelled)] = y_partial[labelled][:, None] == y_partial[labelled][None, :]
    for _ in range(n_iter):
        for v, K in enumerate(kernels):
            D1 = np.diag(1 / (2 * np.linalg.norm(Ws[v], axis=0)))
            Ws[v] = Ws[v] * (K @ H) / (K @ Ws[v] @ H.T @ H + alpha * Ws[v] @ D1)
        D2 = 1 / (2 * np.linalg.norm(H, axis=1, keepdims=True))
        Y = sum(K @ W for K, W in zip(kernels, Ws)) + 2 * beta * (P * Q.T * P.T) @ H
        G = (sum(H @ W.T @ K @ W for K, W in zip(kernels, Ws)) + alpha * D2 * H
             + 2 * beta * (P * (H @ H.T) * P.T) @ H)
        H = H * Y / G
    return H


def kernel_rows(data, m):
    rows = []
    for name, view in [("view 1", data.first), ("view 2", data.second["synthetic"])]:
        mixture, fit_seconds = timed(lambda: MixtureModelKernel(random_state=0).fit(view))
        ours = min(timed(lambda: mixture.transform(view))[1] for _ in range(3))
        loop = timed(lambda: loop_mixture_maps(view, mixture))[1]
        minimax = MinimaxKernel().fit(view)
        minimax.gram(view)
        mm_ours = min(timed(lambda: minimax.gram(view))[1] for _ in range(3))
        mm_loop = timed(lambda: loop_minimax_gram(view, minimax))[1]
        rows.append({"bags": m, "view": name, "instances": view.n_instances,
                     "mixture_em_fit_s": fit_seconds, "mixture_maps_s": ours,
                     "mixture_loop_over_ours": loop / ours, "minimax_gram_s": mm_ours,
                     "minimax_loop_over_ours": mm_loop / mm_ours})
    return rows


def fit_row(data, m):
    views = data.views("synthetic")
    y_partial = partial_labels(data.labels, 0.05, 0)
    factors = [MixtureModelKernel(random_state=0).fit(v).factor(v) for v in views]
    dense = [F @ F.T for F in factors]
    minimax = [MinimaxKernel().fit(v).gram(v) for v in views]
    params = {"max_iter": ITERATIONS, "tol": 0.0, "random_state": 0}
    factored_s = timed(lambda: TwoViewMIClustering(N_CLUSTERS, "factored", **params).fit(factors, y_partial))[1]
    dense_s = timed(lambda: TwoViewMIClustering(N_CLUSTERS, "precomputed", **params).fit(dense, y_partial))[1]
    minimax_s = timed(lambda: TwoViewMIClustering(N_CLUSTERS, "precomputed", **params).fit(minimax, y_partial))[1]
    peer_iter = ITERATIONS if m <= 1000 else 5
    literal_s = timed(lambda: literal_iterations(dense, y_partial, peer_iter))[1] * ITERATIONS / peer_iter
    return {"bags": m, "iterations": ITERATIONS, "ker1_factored_s": factored_s,
            "ker1_dense_s": dense_s, "ker2_dense_s": minimax_s,
            "literal_seed_formulas_s": literal_s, "dense_over_factored": dense_s / factored_s,
            "literal_over_factored": literal_s / factored_s, "literal_over_dense": literal_s / dense_s}


def bamic_row(data, m, seeds=range(5)):
    """BAMIC and kmedoids.alternating start from the same medoids (their results must agree);
    FasterPAM starts from its own random medoids."""
    D = bag_distances(data.first, kinds="average")["average"]
    rows = {"ours": [], "fasterpam": [], "alternating": []}
    for seed in seeds:
        start = np.random.default_rng(seed).choice(m, N_CLUSTERS, replace=False)
        runs = {
            "ours": lambda: BAMIC(N_CLUSTERS, init=start).fit(D),
            "fasterpam": lambda: kmedoids.fasterpam(D, N_CLUSTERS, random_state=seed, n_cpu=1),
            "alternating": lambda: kmedoids.alternating(D, start),
        }
        for name, run in runs.items():
            result, seconds = timed(run)
            loss = result.inertia_ if name == "ours" else float(result.loss)
            labels = result.labels_ if name == "ours" else result.labels
            rows[name].append((seconds, loss, clustering_accuracy(data.labels, labels)))
    summary = {"bags": m}
    for name, values in rows.items():
        seconds, loss, acc = np.mean(values, axis=0)
        summary.update({f"{name}_s": seconds, f"{name}_loss": loss, f"{name}_acc": acc})
    summary["fasterpam_over_ours_time"] = summary["fasterpam_s"] / summary["ours_s"]
    summary["alternating_over_ours_time"] = summary["alternating_s"] / summary["ours_s"]
    return summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000, 5000])
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    results = {"kernels": [], "fit": [], "bamic": []}
    with threadpool_limits(limits=1, user_api="blas"):
        TwoViewMIClustering(2, "factored", max_iter=2).fit([np.ones((4, 2))])  # warm up:
        BAMIC(2, random_state=0).fit(np.ones((4, 4)) - np.eye(4))  # load the numba kernel
        for m in args.sizes:
            data = synthetic_two_view_bags(N_CLUSTERS, m // N_CLUSTERS, seed=0)
            results["kernels"] += kernel_rows(data, len(data.labels))
            results["fit"].append(fit_row(data, len(data.labels)))
            results["bamic"].append(bamic_row(data, len(data.labels)))
            print(json.dumps({key: rows[-1] for key, rows in results.items()}, indent=1), flush=True)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
