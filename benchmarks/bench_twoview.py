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
   ``alternating`` (the same algorithm): time of 5 seeds' fits, total distance (loss) and
   ACC (means over the seeds; loss and ACC do not depend on the clock).

Timing: benchmarks/timing.py: the candidates of each section interleaved after a warm-up
round, medians with their quartiles and minima, every comparison a ratio of medians, under
the "cpu" clock (one thread's CPU seconds) and the "wall" clock, and with ``--loaded`` also
on the wall clock beside one busy process. BLAS is single-threaded under every clock (as
the experiments run); "wall" leaves numba (BAMIC) its default threads. The seed-formula
peer runs all 50 iterations up to LITERAL_ALL_ITERATIONS_MAX_BAGS bags and 5 above (its
time scaled by 10: every iteration costs the same). Needs the `bench` extra
(``pip install -e '.[bench]'`` brings `kmedoids`).

Run: python benchmarks/bench_twoview.py [--sizes 500 1000 2000 5000] [--repeats N] [--loaded]
     [--json out.json]
"""

from __future__ import annotations

import argparse
import json
from functools import partial
from pathlib import Path

import kmedoids
import numpy as np
from sklearn.metrics.pairwise import polynomial_kernel
from timing import clocks, measured, spread_text  # this script's folder is on sys.path as a script

from milab_widgets.core.parallel import single_threaded_blas
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
#: Above this many bags the seed-formula peer times 5 iterations (its m x m products).
LITERAL_ALL_ITERATIONS_MAX_BAGS = 500
BAMIC_SEEDS = range(5)


def loop_minimax_gram(bags, kernel):
    """Peer: per-bag min/max in a Python loop, then the same polynomial kernel, normalised
    as ``kernel.gram`` normalises it (K(s, t) / sqrt(K(s, s) K(t, t)), the default), so
    both compute the same matrix."""
    scaled = np.clip(kernel.scaler_.transform(bags.instances), 0, 1)
    maps = np.array([np.concatenate([scaled[a:b].min(0), scaled[a:b].max(0)])
                     for a, b in zip(bags.offsets[:-1], bags.offsets[1:], strict=True)])
    gram = polynomial_kernel(maps, degree=kernel.degree, gamma=kernel.gamma_, coef0=1.0)
    if not kernel.normalize:
        return gram
    scale = np.sqrt(np.diag(gram))
    return gram / np.outer(scale, scale)


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
        Y = sum(K @ W for K, W in zip(kernels, Ws, strict=True)) + 2 * beta * (P * Q.T * P.T) @ H
        G = (sum(H @ W.T @ K @ W for K, W in zip(kernels, Ws, strict=True)) + alpha * D2 * H
             + 2 * beta * (P * (H @ H.T) * P.T) @ H)
        H = H * Y / G
    return H


def kernel_rows(data, m, repeats: int, clock: str) -> list[dict]:
    """Section 1 under one clock: each view's mixture maps and minimax Gram against their
    per-bag loops (and the mixture's EM fit, for scale)."""
    rows = []
    for name, view in [("view 1", data.first), ("view 2", data.second["synthetic"])]:
        mixture = MixtureModelKernel(random_state=0).fit(view)
        minimax = MinimaxKernel().fit(view)
        np.testing.assert_allclose(loop_minimax_gram(view, minimax), minimax.gram(view),
                                   rtol=1e-10)
        timed = measured({
            "mixture_em_fit": partial(MixtureModelKernel(random_state=0).fit, view),
            "mixture_maps": partial(mixture.transform, view),
            "mixture_loop": partial(loop_mixture_maps, view, mixture),
            "minimax_gram": partial(minimax.gram, view),
            "minimax_loop": partial(loop_minimax_gram, view, minimax),
        }, repeats, clock)
        seconds = timed["seconds"]
        rows.append({"bags": m, "view": name, "instances": view.n_instances, **timed,
                     "mixture_loop_over_ours": seconds["mixture_loop"] / seconds["mixture_maps"],
                     "minimax_loop_over_ours": seconds["minimax_loop"] / seconds["minimax_gram"]})
    return rows


def fit_clustering(kernel: str, kernels, y_partial) -> TwoViewMIClustering:
    return TwoViewMIClustering(N_CLUSTERS, kernel, max_iter=ITERATIONS, tol=0.0,
                               random_state=0).fit(kernels, y_partial)


def fit_row(data, m, repeats: int, clock: str) -> dict:
    """Section 2 under one clock: Ker1 fitted through its factor, on its dense kernel, Ker2
    (dense) and the seed's formulas (``literal_iterations_timed`` of them, the median
    scaled to ITERATIONS in the ratios)."""
    views = data.views("synthetic")
    y_partial = partial_labels(data.labels, 0.05, 0)
    factors = [MixtureModelKernel(random_state=0).fit(v).factor(v) for v in views]
    dense = [F @ F.T for F in factors]
    minimax = [MinimaxKernel().fit(v).gram(v) for v in views]
    literal_iterations_timed = ITERATIONS if m <= LITERAL_ALL_ITERATIONS_MAX_BAGS else 5
    timed = measured({
        "ker1_factored": partial(fit_clustering, "factored", factors, y_partial),
        "ker1_dense": partial(fit_clustering, "precomputed", dense, y_partial),
        "ker2_dense": partial(fit_clustering, "precomputed", minimax, y_partial),
        "literal_seed_formulas": partial(literal_iterations, dense, y_partial,
                                         literal_iterations_timed),
    }, repeats, clock)
    seconds = timed["seconds"]
    literal = seconds["literal_seed_formulas"] * ITERATIONS / literal_iterations_timed
    return {"bags": m, "iterations": ITERATIONS,
            "literal_iterations_timed": literal_iterations_timed, **timed,
            "dense_over_factored": seconds["ker1_dense"] / seconds["ker1_factored"],
            "ker2_over_factored": seconds["ker2_dense"] / seconds["ker1_factored"],
            "literal_over_factored": literal / seconds["ker1_factored"],
            "literal_over_dense": literal / seconds["ker1_dense"]}


def bamic_fits(data, m) -> dict:
    """Section 3's three k-medoids runs, one function per method fitting all BAMIC_SEEDS.
    BAMIC and kmedoids.alternating start from the same medoids (their results must agree);
    FasterPAM starts from its own random medoids."""
    D = bag_distances(data.first, kinds="average")["average"]
    starts = [np.random.default_rng(seed).choice(m, N_CLUSTERS, replace=False)
              for seed in BAMIC_SEEDS]
    return {
        "ours": lambda: [BAMIC(N_CLUSTERS, init=start).fit(D) for start in starts],
        "fasterpam": lambda: [kmedoids.fasterpam(D, N_CLUSTERS, random_state=seed, n_cpu=1)
                              for seed in BAMIC_SEEDS],
        "alternating": lambda: [kmedoids.alternating(D, start) for start in starts],
    }


def bamic_quality(data, fits: dict) -> dict:
    """Mean loss and ACC of each method over the seeds, and whether BAMIC reached
    kmedoids.alternating's medoids from every common start."""
    results = {name: fit() for name, fit in fits.items()}
    summary = {"bags": len(data.labels), "seeds": len(BAMIC_SEEDS)}
    for name, fitted in results.items():
        losses = [r.inertia_ if name == "ours" else float(r.loss) for r in fitted]
        labels = [r.labels_ if name == "ours" else r.labels for r in fitted]
        summary[f"{name}_loss"] = float(np.mean(losses))
        summary[f"{name}_acc"] = float(np.mean([clustering_accuracy(data.labels, found)
                                                for found in labels]))
    summary["ours_same_medoids_as_alternating"] = all(
        set(ours.medoids_) == set(np.asarray(peer.medoids))
        for ours, peer in zip(results["ours"], results["alternating"], strict=True))
    return summary


def bamic_row(fits: dict, m, repeats: int, clock: str) -> dict:
    """Section 3 under one clock: each method's time for all seeds' fits."""
    timed = measured(fits, repeats, clock)
    seconds = timed["seconds"]
    return {"bags": m, **timed,
            "fasterpam_over_ours_time": seconds["fasterpam"] / seconds["ours"],
            "alternating_over_ours_time": seconds["alternating"] / seconds["ours"]}


def report(clock: str, kernels: list[dict], fit: dict, bamic: dict) -> None:
    spread = fit["spread"]
    print(f"[{clock}] {fit['bags']} bags (load {fit['load'][0]}), medians [quartiles] min:")
    for row in kernels:
        print(f"  {row['view']}: mixture maps {spread_text(row['spread']['mixture_maps'])}"
              f" (loop {row['mixture_loop_over_ours']:.1f}x), minimax Gram "
              f"{spread_text(row['spread']['minimax_gram'])} (loop "
              f"{row['minimax_loop_over_ours']:.2f}x)")
    print(f"  Ker1 fit {spread_text(spread['ker1_factored'])}; dense "
          f"{spread_text(spread['ker1_dense'])} ({fit['dense_over_factored']:.1f}x); Ker2 "
          f"{spread_text(spread['ker2_dense'])}; seed formulas "
          f"({fit['literal_iterations_timed']} iterations) "
          f"{spread_text(spread['literal_seed_formulas'])} -> "
          f"{fit['literal_over_factored']:.0f}x per fit")
    print(f"  {len(BAMIC_SEEDS)} seeds: BAMIC {spread_text(bamic['spread']['ours'])}, "
          f"alternating {bamic['alternating_over_ours_time']:.2f}x, FasterPAM "
          f"{bamic['fasterpam_over_ours_time']:.2f}x", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[500, 1000, 2000, 5000])
    parser.add_argument("--repeats", type=int, default=5, help="interleaved rounds per clock")
    parser.add_argument("--loaded", action="store_true",
                        help="also time everything beside one busy process (wall clock)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    results = {"repeats": args.repeats, "quality": [],
               **{clock: {"kernels": [], "fit": [], "bamic": []}
                  for clock in clocks(args.loaded)}}
    with single_threaded_blas():  # the library's own limit: within_free_cores cannot lift it
        for m in args.sizes:
            data = synthetic_two_view_bags(N_CLUSTERS, m // N_CLUSTERS, seed=0)
            bags = len(data.labels)
            fits = bamic_fits(data, bags)
            results["quality"].append(bamic_quality(data, fits))
            print(json.dumps(results["quality"][-1]), flush=True)
            for clock in clocks(args.loaded):
                result = results[clock]
                result["kernels"] += kernel_rows(data, bags, args.repeats, clock)
                result["fit"].append(fit_row(data, bags, args.repeats, clock))
                result["bamic"].append(bamic_row(fits, bags, args.repeats, clock))
                report(clock, result["kernels"][-2:], result["fit"][-1], result["bamic"][-1])
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
